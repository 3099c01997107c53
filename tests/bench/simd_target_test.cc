// CapSimdTarget (src/bench/simd_target.h): after the cap, HWY_DYNAMIC_DISPATCH calls the capped
// target's code, also after BestSimdTarget has asked Highway what it supports (a query that
// otherwise points the dispatch back at the CPU's best target); unknown names are refused.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "bench/simd_target_test.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::testing::HWY_NAMESPACE {

int64_t CompiledTarget() { return HWY_TARGET; }

}  // namespace aclnn_check::testing::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <gtest/gtest.h>

#include <cctype>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/simd_target.h"
#include "hwy/targets.h"

namespace aclnn_check::testing {
HWY_EXPORT(CompiledTarget);
namespace {

// Lifts the cap when the test ends, so that later tests dispatch as the CPU allows.
class SimdTargetCapTest : public ::testing::Test {
 protected:
  void TearDown() override { hwy::DisableTargets(0); }
};

TEST_F(SimdTargetCapTest, DispatchRunsTheCappedTargetEvenAfterAQuery) {
  const std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
#if HWY_ARCH_X86
  ASSERT_GE(targets.size(), 2u) << "expected a SIMD target and the scalar fallback";
#else
  // aarch64 compiles no scalar fallback: a CPU without SVE has NEON alone.
  ASSERT_GE(targets.size(), 1u);
#endif
  for (const int64_t target : targets) {
    SCOPED_TRACE(hwy::TargetName(target));
    bench::CapSimdTarget(hwy::TargetName(target));
    EXPECT_EQ(HWY_DYNAMIC_DISPATCH(CompiledTarget)(), target);
    EXPECT_EQ(bench::BestSimdTarget(), hwy::TargetName(target));
    EXPECT_EQ(HWY_DYNAMIC_DISPATCH(CompiledTarget)(), target);
  }
  bench::CapSimdTarget(hwy::TargetName(targets.front()));  // a cap can be raised again
  EXPECT_EQ(HWY_DYNAMIC_DISPATCH(CompiledTarget)(), targets.front());
}

TEST_F(SimdTargetCapTest, AnUnknownNameIsRefusedWithTheAvailableOnes) {
  try {
    bench::CapSimdTarget("avx9000");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("--simd=avx9000"), std::string::npos) << message;
    const std::string best = hwy::TargetName(hwy::SupportedAndGeneratedTargets().front());
    std::string lowercase_best;
    for (const char c : best) lowercase_best += static_cast<char>(std::tolower(c));
    EXPECT_NE(message.find(lowercase_best), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace aclnn_check::testing
#endif  // HWY_ONCE
