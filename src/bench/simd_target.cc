#include "bench/simd_target.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "hwy/targets.h"

namespace aclnn_check::bench {
namespace {

std::string Lowercase(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower;
}

// Highway's SupportedTargets() points the dispatch at every target the CPU has, before it applies
// DisableTargets' mask; its own callers re-choose right after, so after a query this does too.
std::vector<int64_t> AvailableTargets() {
  std::vector<int64_t> available = hwy::SupportedAndGeneratedTargets();
  hwy::GetChosenTarget().Update(hwy::SupportedTargets());
  return available;
}

}  // namespace

void CapSimdTarget(std::string_view name) {
  hwy::DisableTargets(0);  // a new cap replaces the last one, also upwards
  const std::vector<int64_t> available = AvailableTargets();
  std::string names;
  for (const int64_t target : available) {
    if (Lowercase(hwy::TargetName(target)) == Lowercase(name)) {
      // Highway numbers better targets with lower bits: everything below this one goes.
      hwy::DisableTargets(target - 1);
      hwy::GetChosenTarget().Update(hwy::SupportedTargets());
      return;
    }
    names += (names.empty() ? "" : ", ") + Lowercase(hwy::TargetName(target));
  }
  throw std::invalid_argument("--simd=" + std::string(name) +
                              ": expected one of the SIMD targets this build and CPU run: " +
                              names);
}

std::string BestSimdTarget() {
  const std::vector<int64_t> available = AvailableTargets();
  return available.empty() ? "none" : hwy::TargetName(available.front());
}

}  // namespace aclnn_check::bench
