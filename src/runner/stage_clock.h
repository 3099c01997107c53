// Splits a point's wall time into its stages (results/result.h, PointStages): each Lap adds the
// time since the previous one to the stage just finished, so no moment counts twice.
#pragma once

#include <chrono>

namespace aclnn_check {

class StageClock {
 public:
  StageClock() : last_(Clock::now()) {}
  void Lap(double* stage) {
    const Clock::time_point now = Clock::now();
    *stage += std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point last_;
};

}  // namespace aclnn_check
