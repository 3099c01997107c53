// The cuda provider's kernel: kernel.cc's float32 arithmetic as a gather, so overlapping windows
// never race and results are deterministic without atomics. One group of lanes owns one (row r,
// head n) of input:
//   inputGrad[r, n, :]  = the windows covering r in increasing order, each adding
//                         weight[j, n] * outputGrad[window, n, :] (kernel.cc's order exactly);
//   P[window, j, n]     = dot(outputGrad[window, n, :], input[r, n, :]) for each such window
//                         (a short run per lane, then a fixed shuffle tree);
//   weightGrad[j, n]    = the pairwise sum of P over the windows (ColumnSum).
// So input is read once, inputGrad written once, and outputGrad (T / stride rows) re-read from L2.
// The fast path: 16-byte lanes over contiguous, aligned float16/bfloat16 with headDim / 8 a power
// of two up to 32; the general path: a warp per (r, n) over any views.
#include <algorithm>

#include "cuda/cuda_column_sum.h"
#include "cuda/cuda_view.cuh"
#include "nsa_compress_grad/nsa_compress_grad.h"

namespace aclnn_check::nsa_compress_grad {
namespace {

using namespace cuda;  // the device vocabulary: views, vectors, conversions

constexpr int kThreads = 256;

struct DeviceSequence {
  int64_t start, length, windows, first_window;
};

struct Problem {
  int64_t tokens, heads, head_dim, block_size, stride;
  int64_t valid_windows;  // windows below outputGrad's row count (kernel.cc stops there)
  int64_t sequence_count;
  const DeviceSequence* sequences;
  const float* weight;  // [blockSize, N] as float32
  float* dots;          // P: [valid_windows, blockSize, N]
};

// The windows covering row r: [first, last] of sequence *found (none: first > last).
struct Cover {
  const DeviceSequence* sequence = nullptr;
  int64_t first = 1, last = 0;
};

__device__ Cover CoverOf(const Problem& p, int64_t r) {
  Cover cover;
  int64_t lo = 0, hi = p.sequence_count;  // the last sequence with start <= r
  while (hi - lo > 1) {
    const int64_t mid = (lo + hi) / 2;
    if (p.sequences[mid].start <= r) lo = mid; else hi = mid;
  }
  if (p.sequence_count == 0) return cover;
  const DeviceSequence& s = p.sequences[lo];
  const int64_t local = r - s.start;
  if (local < 0 || local >= s.length) return cover;
  cover.sequence = &s;
  const int64_t reach = local - p.block_size + 1;
  cover.first = reach > 0 ? (reach + p.stride - 1) / p.stride : 0;
  cover.last = min(local / p.stride, s.windows - 1);
  cover.last = min(cover.last, p.valid_windows - 1 - s.first_window);
  return cover;
}

template <typename T, int kGroup>
__global__ void FastKernel(const T* __restrict__ grad, const T* __restrict__ input,
                           T* __restrict__ input_grad, Problem p) {
  constexpr int kLanes = Vector16<T>::kLanes;
  const int lane = threadIdx.x % kGroup;
  const int group_in_warp = (threadIdx.x % 32) / kGroup;
  const unsigned group_mask =
      kGroup == 32 ? 0xffffffffu : ((1u << kGroup) - 1) << (group_in_warp * kGroup);
  const int64_t items = p.tokens * p.heads;
  const int64_t groups_per_grid = int64_t{gridDim.x} * (blockDim.x / kGroup);
  for (int64_t item = blockIdx.x * int64_t{blockDim.x / kGroup} + threadIdx.x / kGroup;
       item < items; item += groups_per_grid) {
    const int64_t r = item / p.heads;
    const int64_t n = item % p.heads;
    const Vector16<T> vx = LoadVector(input, item * kGroup + lane);
    float x[kLanes], acc[kLanes];
#pragma unroll
    for (int l = 0; l < kLanes; ++l) {
      x[l] = ToFloat(vx.lane[l]);
      acc[l] = 0.0f;
    }
    const Cover cover = CoverOf(p, r);
    for (int64_t i = cover.first; i <= cover.last; ++i) {
      const int64_t window = cover.sequence->first_window + i;
      const int64_t j = r - cover.sequence->start - i * p.stride;
      const float w = p.weight[j * p.heads + n];
      const Vector16<T> vg = LoadVector(grad, (window * p.heads + n) * kGroup + lane);
      float dot = 0.0f;
#pragma unroll
      for (int l = 0; l < kLanes; ++l) {
        const float g = ToFloat(vg.lane[l]);
        acc[l] += w * g;
        dot += g * x[l];
      }
#pragma unroll
      for (int offset = kGroup / 2; offset >= 1; offset /= 2) {
        dot += __shfl_xor_sync(group_mask, dot, offset, kGroup);
      }
      if (lane == 0) p.dots[(window * p.block_size + j) * p.heads + n] = dot;
    }
    Vector16<T> out;
#pragma unroll
    for (int l = 0; l < kLanes; ++l) out.lane[l] = FromFloat<T>(acc[l]);
    StoreVector(input_grad, item * kGroup + lane, out);
  }
}

__global__ void GeneralKernel(DeviceView grad, DeviceView input, DeviceView input_grad,
                              Problem p) {
  const int lane = threadIdx.x % 32;
  const int64_t items = p.tokens * p.heads;
  const int64_t warps_per_grid = int64_t{gridDim.x} * (blockDim.x / 32);
  for (int64_t item = blockIdx.x * int64_t{blockDim.x / 32} + threadIdx.x / 32; item < items;
       item += warps_per_grid) {
    const int64_t r = item / p.heads;
    const int64_t n = item % p.heads;
    const Cover cover = CoverOf(p, r);
    for (int64_t e = lane; e < p.head_dim; e += 32) {
      float acc = 0.0f;
      for (int64_t i = cover.first; i <= cover.last; ++i) {
        const int64_t window = cover.sequence->first_window + i;
        const int64_t j = r - cover.sequence->start - i * p.stride;
        const int64_t g_index = (window * p.heads + n) * p.head_dim + e;
        acc += p.weight[j * p.heads + n] * LoadFloat(grad, StorageIndex(grad, g_index));
      }
      const int64_t index = item * p.head_dim + e;
      StoreFloat(input_grad, StorageIndex(input_grad, index), acc);
    }
    for (int64_t i = cover.first; i <= cover.last; ++i) {
      const int64_t window = cover.sequence->first_window + i;
      const int64_t j = r - cover.sequence->start - i * p.stride;
      float dot = 0.0f;
      for (int64_t e = lane; e < p.head_dim; e += 32) {
        const int64_t g_index = (window * p.heads + n) * p.head_dim + e;
        dot += LoadFloat(grad, StorageIndex(grad, g_index)) *
               LoadFloat(input, StorageIndex(input, item * p.head_dim + e));
      }
#pragma unroll
      for (int offset = 16; offset >= 1; offset /= 2) dot += __shfl_xor_sync(0xffffffffu, dot, offset);
      if (lane == 0) p.dots[(window * p.block_size + j) * p.heads + n] = dot;
    }
  }
}

// ---- host side ----

struct Layout {
  int64_t tokens, heads, head_dim, block_size, stride, valid_windows;
  std::vector<DeviceSequence> sequences;
  // Workspace regions in bytes from its start: sequences, weight, P, ColumnSum's scratch.
  int64_t weight_at, dots_at, scratch_at, bytes;
};

int64_t AlignUp(int64_t bytes) { return (bytes + 255) / 256 * 256; }

Layout LayoutOf(const OpArgs& args) {
  Layout l;
  const TensorView& input = *args.tensor(kInput);
  l.tokens = input.shape[0];
  l.heads = input.shape[1];
  l.head_dim = input.shape[2];
  l.block_size = IntParam(args, kBlockSize);
  l.stride = IntParam(args, kStride);
  const int64_t grad_rows = args.tensor(kOutputGrad)->shape[0];
  int64_t windows = 0;
  for (const Sequence& s :
       Sequences(args.param<std::vector<int64_t>>(kActSeqLen), l.tokens, l.block_size, l.stride)) {
    l.sequences.push_back({s.start, s.length, s.windows, s.first_window});
    windows += s.windows;
  }
  l.valid_windows = std::min(windows, grad_rows);
  const int64_t columns = l.block_size * l.heads;
  l.weight_at = AlignUp(static_cast<int64_t>(l.sequences.size() * sizeof(DeviceSequence)));
  l.dots_at = l.weight_at + AlignUp(columns * static_cast<int64_t>(sizeof(float)));
  l.scratch_at = l.dots_at + AlignUp(l.valid_windows * columns * static_cast<int64_t>(sizeof(float)));
  l.bytes = l.scratch_at +
            cuda::ColumnSumScratchFloats(l.valid_windows, columns) * static_cast<int64_t>(sizeof(float));
  return l;
}

template <typename T, int kGroup>
void LaunchFast(const OpArgs& args, const Problem& p, cudaStream_t stream) {
  const int64_t groups = p.tokens * p.heads;
  FastKernel<T, kGroup><<<cuda::GridFor(groups * kGroup, kThreads), kThreads, 0, stream>>>(
      cuda::FlatData<T>(*args.tensor(kOutputGrad)), cuda::FlatData<T>(*args.tensor(kInput)),
      cuda::FlatData<T>(*args.tensor(kInputGrad)), p);
}

template <typename T>
bool TryFast(const OpArgs& args, const Problem& p, cudaStream_t stream) {
  constexpr int64_t kLanes = cuda::Vector16<T>::kLanes;
  if (p.head_dim % kLanes != 0) return false;
  switch (p.head_dim / kLanes) {
    case 1: LaunchFast<T, 1>(args, p, stream); return true;
    case 2: LaunchFast<T, 2>(args, p, stream); return true;
    case 4: LaunchFast<T, 4>(args, p, stream); return true;
    case 8: LaunchFast<T, 8>(args, p, stream); return true;
    case 16: LaunchFast<T, 16>(args, p, stream); return true;
    case 32: LaunchFast<T, 32>(args, p, stream); return true;
    default: return false;
  }
}

}  // namespace

uint64_t CudaWorkspaceBytes(const OpArgs& args) { return static_cast<uint64_t>(LayoutOf(args).bytes); }

void CudaCompute(const OpArgs& args, void* workspace, void* stream_handle) {
  const auto stream = static_cast<cudaStream_t>(stream_handle);
  const Layout l = LayoutOf(args);
  char* base = static_cast<char*>(workspace);
  Problem p{l.tokens, l.heads, l.head_dim, l.block_size, l.stride, l.valid_windows,
            static_cast<int64_t>(l.sequences.size()),
            reinterpret_cast<const DeviceSequence*>(base),
            reinterpret_cast<const float*>(base + l.weight_at),
            reinterpret_cast<float*>(base + l.dots_at)};
  // A pageable source: the copy has left l.sequences by the time cudaMemcpyAsync returns.
  if (!l.sequences.empty()) {
    cudaMemcpyAsync(base, l.sequences.data(), l.sequences.size() * sizeof(DeviceSequence),
                    cudaMemcpyHostToDevice, stream);
  }
  const int64_t columns = l.block_size * l.heads;
  cuda::CopyToFloat(cuda::DeviceViewOf(*args.tensor(kWeight)),
                    reinterpret_cast<float*>(base + l.weight_at), columns, stream);
  const TensorView& grad = *args.tensor(kOutputGrad);
  const TensorView& input = *args.tensor(kInput);
  const TensorView& input_grad = *args.tensor(kInputGrad);
  if (p.tokens * p.heads * p.head_dim > 0) {
    bool fast = false;
    if (cuda::FlatAndAligned({&grad, &input, &input_grad}, input.dtype)) {
      if (input.dtype == DType::kFloat16) fast = TryFast<__half>(args, p, stream);
      if (input.dtype == DType::kBFloat16) fast = TryFast<__nv_bfloat16>(args, p, stream);
    }
    if (!fast) {
      const int64_t warps = p.tokens * p.heads;
      GeneralKernel<<<cuda::GridFor(warps * 32, kThreads), kThreads, 0, stream>>>(
          cuda::DeviceViewOf(grad), cuda::DeviceViewOf(input), cuda::DeviceViewOf(input_grad), p);
    }
  }
  cuda::ColumnSum(p.dots, l.valid_windows, columns, reinterpret_cast<float*>(base + l.scratch_at),
                  cuda::DeviceViewOf(*args.tensor(kWeightGrad)), stream);
}

}  // namespace aclnn_check::nsa_compress_grad
