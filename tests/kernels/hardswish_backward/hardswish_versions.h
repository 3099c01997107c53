// HardswishBackward and HardswishBackwardV2 share their tensors, their checks and their kernels'
// shape; they differ in the interval's ends (kernels/hardswish_backward_v2/README.md). The tests
// that hold for both run once per version: TEST_P over kHardswishVersions. What only one version
// does stays in its own folder's tests.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <ostream>
#include <string>

#include "hardswish_backward/hardswish_backward.h"
#include "hardswish_backward_v2/hardswish_backward_v2.h"
#include "support/operator_named.h"

namespace aclnn_check::hardswish_versions {

// The shared tests name the tensors by HardswishBackward's slots.
static_assert(size_t{hardswish_backward::kGradOutput} ==
                  size_t{hardswish_backward_v2::kGradOutput} &&
              size_t{hardswish_backward::kSelf} == size_t{hardswish_backward_v2::kSelf} &&
              size_t{hardswish_backward::kOut} == size_t{hardswish_backward_v2::kOut});

struct HardswishVersion {
  const char* name;         // in the catalogue
  const char* rule_prefix;  // of the operator's own rule ids
  // Whether -3 and 3 take the middle piece self / 3 + 0.5 (HardswishBackward's closed [-3, 3]) or
  // the outer pieces 0 and 1 (V2's open (-3, 3)).
  bool closed_interval;
  void (*compute)(const OpArgs& args, void* workspace);
  void (*simd_compute)(const OpArgs& args, void* workspace);

  // "check.null" -> "hardswish_v2.check.null"
  std::string Rule(const std::string& suffix) const {
    return std::string(rule_prefix) + "." + suffix;
  }
  // "bfloat16" -> "matrix.hardswish_v2.bfloat16"
  std::string MatrixRule(const std::string& dtype) const {
    return "matrix." + std::string(rule_prefix) + "." + dtype;
  }
};

inline constexpr std::array<HardswishVersion, 2> kHardswishVersions = {{
    {"HardswishBackward", "hardswish", true, hardswish_backward::Compute,
     hardswish_backward::SimdCompute},
    {"HardswishBackwardV2", "hardswish_v2", false, hardswish_backward_v2::Compute,
     hardswish_backward_v2::SimdCompute},
}};

// A failing instance names its version rather than printing the struct's bytes.
inline void PrintTo(const HardswishVersion& version, std::ostream* os) { *os << version.name; }

// Each shared suite derives its fixture from this one.
class HardswishVersionTest : public ::testing::TestWithParam<HardswishVersion> {
 protected:
  const Operator& op() const { return testing::OperatorNamed(GetParam().name); }
};

// The instance's name in the test's name: .../HardswishBackwardV2.
inline std::string VersionName(const ::testing::TestParamInfo<HardswishVersion>& info) {
  return info.param.name;
}

}  // namespace aclnn_check::hardswish_versions
