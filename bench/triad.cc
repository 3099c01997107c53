#include "triad.h"

#include <omp.h>

#include <cstdlib>
#include <memory>
#include <new>

#include "bench/timed_loop.h"
#include "workload.h"

namespace aclnn_check::bench {
namespace {

constexpr int64_t kElements = int64_t{1} << 24;

struct AlignedFree {
  void operator()(float* p) const { std::free(p); }
};
using Array = std::unique_ptr<float[], AlignedFree>;

Array AllocateArray() {
  void* memory = std::aligned_alloc(64, kElements * sizeof(float));
  if (!memory) throw std::bad_alloc();
  return Array(static_cast<float*>(memory));
}

void Triad(benchmark::State& state, int threads) {
  const Array a = AllocateArray(), b = AllocateArray(), c = AllocateArray();
  // Each thread first touches the part it later streams (static schedule both times), so the
  // pages sit on that thread's memory node.
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t i = 0; i < kElements; ++i) {
    a[i] = 0;
    b[i] = 1;
    c[i] = 2;
  }
  const float scalar = 3;
  MinimumTraffic traffic{3 * kElements * sizeof(float), kElements};
  TimedLoop(state, traffic, [&] {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < kElements; ++i) a[i] = b[i] + scalar * c[i];
    benchmark::DoNotOptimize(a.get());
    benchmark::ClobberMemory();
  });
}

}  // namespace

void RegisterTriad(int threads) {
  benchmark::RegisterBenchmark(BenchmarkName("Triad", DType::kFloat32, "triad", threads).c_str(),
                               Triad, threads)
      ->Unit(benchmark::kMillisecond);
}

}  // namespace aclnn_check::bench
