// A quick local timer for the cpu provider's kernels (not a unit test, not the benchmark suite):
// GB/s of each operator and dtype on 1 and 2 threads, next to a float32 triad
// (a[i] = b[i] + s * c[i]) measured in the same process on the same thread pool, so the
// percentage says how close a kernel gets to this machine's memory speed.
//
//   build/bin/aclnn-cpu-timer [repetitions]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "common/operator.h"
#include "common/parallel_chunks.h"
#include "common/thread_pool.h"

namespace aclnn_check {
namespace {

constexpr int64_t kElements = 16777216;

struct Buffer {
  std::unique_ptr<std::byte, decltype(&std::free)> bytes{nullptr, &std::free};
  TensorView view;
};

// A contiguous tensor holding normal(0, 1) * scale + shift values (rounded to dtype).
Buffer MakeTensor(DType dtype, Dims shape, double scale = 1, double shift = 0, uint64_t seed = 1) {
  Buffer buffer;
  const int64_t n = NumElements(shape);
  const size_t bytes = (static_cast<size_t>(n) * DTypeSize(dtype) + 63) / 64 * 64 + 64;
  buffer.bytes.reset(static_cast<std::byte*>(std::aligned_alloc(64, bytes)));
  buffer.view = TensorView{dtype, shape, ContiguousStrides(shape), 0, buffer.bytes.get()};
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal(0, 1);
  // A 4096-value pattern repeated: filling 16 Mi elements through double is slow otherwise.
  std::vector<std::byte> pattern(4096 * DTypeSize(dtype));
  for (size_t i = 0; i < 4096; ++i) {
    EncodeElement(pattern.data() + i * DTypeSize(dtype), dtype, normal(random) * scale + shift);
  }
  auto* out = reinterpret_cast<std::byte*>(buffer.view.data);
  const size_t total = static_cast<size_t>(n) * DTypeSize(dtype);
  for (size_t done = 0; done < total; done += pattern.size()) {
    std::memcpy(out + done, pattern.data(), std::min(pattern.size(), total - done));
  }
  return buffer;
}

// Best wall time of `repetitions` runs after one warm-up, in seconds.
double BestSeconds(int repetitions, const std::function<void()>& run) {
  run();
  double best = 1e30;
  for (int i = 0; i < repetitions; ++i) {
    const auto start = std::chrono::steady_clock::now();
    run();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

// Restrict pointers and -O3 -march=native (CMakeLists.txt) make this loop vectorise fully, so the
// baseline is memory speed, not a scalar loop.
void TriadRange(float* __restrict a, const float* __restrict b, const float* __restrict c,
                int64_t n) {
  for (int64_t i = 0; i < n; ++i) a[i] = b[i] + 3.0f * c[i];
}

double TriadGBs(int repetitions) {
  std::vector<float> a(kElements), b(kElements, 1.0f), c(kElements, 2.0f);
  const double seconds = BestSeconds(repetitions, [&] {
    ParallelRanges(kElements, kElementsPerItem, [&](int64_t begin, int64_t end) {
      TriadRange(a.data() + begin, b.data() + begin, c.data() + begin, end - begin);
    });
  });
  return 3.0 * kElements * sizeof(float) / seconds / 1e9;
}

struct Problem {
  std::string name;
  std::vector<Buffer> tensors;  // slot order; empty data pointer = null tensor
  std::vector<ParamValue> params;
  double bytes = 0;  // what the operator must move: every input read once, every output written once
};

OpArgs ArgsOf(const Problem& p) {
  OpArgs args;
  for (const Buffer& b : p.tensors) {
    args.tensors.push_back(b.view.data ? std::optional<TensorView>(b.view) : std::nullopt);
  }
  args.params = p.params;
  return args;
}

double BytesOf(const std::vector<Buffer>& tensors) {
  double bytes = 0;
  for (const Buffer& b : tensors) {
    if (b.view.data) bytes += static_cast<double>(b.view.numel()) * DTypeSize(b.view.dtype);
  }
  return bytes;
}

std::vector<Problem> Problems(DType dtype) {
  std::vector<Problem> problems;
  const Dims flat{kElements};
  {
    Problem p{"HardswishBackward [16M]"};
    p.tensors.push_back(MakeTensor(dtype, flat, 2, 0, 1));
    p.tensors.push_back(MakeTensor(dtype, flat, 3, 0, 2));
    p.tensors.push_back(MakeTensor(dtype, flat));
    problems.push_back(std::move(p));
  }
  {
    Problem p{"LogitGrad [16M] eps=1e-6"};
    p.tensors.push_back(MakeTensor(dtype, flat, 0.3, 0.5, 3));
    p.tensors.push_back(MakeTensor(dtype, flat, 1, 0, 4));
    p.tensors.push_back(MakeTensor(dtype, flat));
    p.params = {1e-6};
    problems.push_back(std::move(p));
  }
  {
    Problem p{"SwiGluGrad [8192,4096] dim=-1"};
    p.tensors.push_back(MakeTensor(dtype, {8192, 2048}, 1, 0, 5));
    p.tensors.push_back(MakeTensor(dtype, {8192, 4096}, 2, 0, 6));
    p.tensors.push_back(MakeTensor(dtype, {8192, 4096}));
    p.params = {int64_t{-1}};
    problems.push_back(std::move(p));
  }
  for (const Dims& shape : {Dims{8192, 4096}, Dims{65536, 512}}) {
    Problem p{"LayerNormBackward " + FormatDims(shape)};
    const Dims rows{shape[0], 1};
    const Dims normalized{shape[1]};
    p.tensors.push_back(MakeTensor(dtype, shape, 1, 0, 7));           // gradOut
    p.tensors.push_back(MakeTensor(dtype, shape, 1, 0, 8));           // input
    p.tensors.push_back(MakeTensor(DType::kFloat32, rows, 0.1, 0, 9));     // mean
    p.tensors.push_back(MakeTensor(DType::kFloat32, rows, 0.1, 1, 10));    // rstd
    p.tensors.push_back(MakeTensor(DType::kFloat32, normalized, 0.1, 1, 11));  // weight
    p.tensors.push_back(Buffer{});                                    // bias
    p.tensors.push_back(MakeTensor(dtype, shape));                    // gradInput
    p.tensors.push_back(MakeTensor(DType::kFloat32, normalized));     // gradWeight
    p.tensors.push_back(MakeTensor(DType::kFloat32, normalized));     // gradBias
    p.params = {std::vector<int64_t>{shape[1]}, std::vector<bool>{true, true, true}};
    problems.push_back(std::move(p));
  }
  if (dtype != DType::kFloat32) {
    // T = 8192 rows of 16 heads x 128: 16 Mi input elements; windows of 32 rows every 16.
    const int64_t tokens = 8192, heads = 16, dim = 128, block = 32, stride = 16;
    const int64_t windows = (tokens - block) / stride + 1;
    Problem p{"NsaCompressGrad T=8192 N=16 D=128 l=32 d=16"};
    p.tensors.push_back(MakeTensor(dtype, {windows, heads, dim}, 1, 0, 12));
    p.tensors.push_back(MakeTensor(dtype, {tokens, heads, dim}, 1, 0, 13));
    p.tensors.push_back(MakeTensor(dtype, {block, heads}, 0.2, 0, 14));
    p.tensors.push_back(MakeTensor(dtype, {tokens, heads, dim}));
    p.tensors.push_back(MakeTensor(dtype, {block, heads}));
    p.params = {std::monostate{}, block, stride, int64_t{0}, std::string("TND")};
    problems.push_back(std::move(p));
  }
  for (Problem& p : problems) p.bytes = BytesOf(p.tensors);
  return problems;
}

const Operator& OperatorOf(const std::string& problem) {
  return *FindOperator(problem.substr(0, problem.find(' ')));
}

}  // namespace
}  // namespace aclnn_check

int main(int argc, char** argv) {
  using namespace aclnn_check;
  const int repetitions = argc > 1 ? std::atoi(argv[1]) : 5;
  std::printf("%-46s %-9s %7s %8s %8s %7s\n", "problem", "dtype", "threads", "GB/s", "triad",
              "%triad");
  for (size_t threads : {size_t{1}, size_t{2}}) {
    SetCpuThreadCount(threads);
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      for (const auto& problem : Problems(dtype)) {
        // The triad right before each problem: on a shared machine the bandwidth drifts.
        const double triad = TriadGBs(repetitions);
        const Operator& op = OperatorOf(problem.name);
        const OpArgs args = ArgsOf(problem);
        std::vector<std::byte> workspace(op.def().workspace_bytes(args) + 64);
        const double seconds =
            BestSeconds(repetitions, [&] { op.def().compute(args, workspace.data()); });
        const double gbs = problem.bytes / seconds / 1e9;
        std::printf("%-46s %-9s %7zu %8.2f %8.2f %6.0f%%\n", problem.name.c_str(),
                    std::string(DTypeName(dtype)).c_str(), threads, gbs, triad,
                    100 * gbs / triad);
        std::fflush(stdout);
      }
    }
  }
  return 0;
}
