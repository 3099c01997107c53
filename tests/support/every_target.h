// Runs a test body once on each SIMD target this build compiled and this CPU runs, with Highway's
// dispatch forced to it, then restores the best target.
#pragma once

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cstdint>

namespace aclnn_check {

template <class Body>
void OnEveryTarget(const Body& body) {
  for (const int64_t target : hwy::SupportedAndGeneratedTargets()) {
    SCOPED_TRACE(hwy::TargetName(target));
    hwy::DisableTargets(target - 1);  // better targets have lower bits: this one is chosen
    hwy::GetChosenTarget().Update(hwy::SupportedTargets());
    body();
  }
  hwy::DisableTargets(0);
  hwy::GetChosenTarget().Update(hwy::SupportedTargets());
}

}  // namespace aclnn_check
