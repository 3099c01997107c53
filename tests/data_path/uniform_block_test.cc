// The vectorized uniform draw against CounterRandom::Uniform, its definition: every value bit for
// bit, for strides 1 and 2, counts that end mid-vector and counters that wrap around 2^64, on
// every SIMD target this build and CPU run (the 64-bit multiply differs between them).
#include "cases/uniform_block.h"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <bit>
#include <cstdint>
#include <vector>

#include "cases/input_generator.h"

namespace aclnn_check {
namespace {

TEST(UniformBlock, EveryValueIsCounterRandomsUniformBitForBit) {
  struct Run {
    uint64_t first, stride;
    size_t count;
  };
  const std::vector<Run> runs = {{0, 1, 1 << 16},
                                 {123456789, 1, 1001},
                                 {2 * 987654321ull, 2, 777},
                                 {2 * 987654321ull + 1, 2, 3},
                                 {~uint64_t{0} - 40, 1, 100},  // wraps around 2^64
                                 {5, 3, 0}};
  for (const int64_t target : hwy::SupportedAndGeneratedTargets()) {
    SCOPED_TRACE(hwy::TargetName(target));
    // Highway numbers better targets with lower bits: disabling those dispatches to this one.
    hwy::DisableTargets(target - 1);
    hwy::GetChosenTarget().Update(hwy::SupportedTargets());
    for (const char* tensor : {"x", "dy"}) {
      const CounterRandom random(7, "uniform_block/test", tensor);
      for (const Run& run : runs) {
        std::vector<double> u(run.count + 1, -1.0);
        UniformBlock(random, run.first, run.stride, run.count, u.data());
        int64_t wrong = 0;
        for (size_t i = 0; i < run.count; ++i) {
          const double expected = random.Uniform(run.first + i * run.stride);
          if (std::bit_cast<uint64_t>(u[i]) != std::bit_cast<uint64_t>(expected)) ++wrong;
        }
        EXPECT_EQ(wrong, 0) << tensor << " first " << run.first << " stride " << run.stride;
        EXPECT_EQ(u[run.count], -1.0) << "wrote past the count";
      }
    }
  }
  hwy::DisableTargets(0);
  hwy::GetChosenTarget().Update(hwy::SupportedTargets());
}

}  // namespace
}  // namespace aclnn_check
