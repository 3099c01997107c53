// The cuda provider's kernel: kernel.cc's float32 formulas, one rounding to each output's dtype on
// store, and no float atomics, so results are deterministic:
//   gradInput   one row per block: each thread sums its few elements in order, the block adds the
//               threads' sums in a fixed tree;
//   gradWeight, gradBias  each block accumulates the column sums of its run of rows (at most
//               kMaxRowsPerBlock, in order) into fp32 partials, which a second pass (ColumnSum)
//               adds pairwise. The c of operator.json allows sequential runs of this length.
// The fast path (gradOut, input and gradInput contiguous, 16-byte aligned, of one dtype, and rows
// of at most 1024 * 8 elements) reads each row once into registers; the general path takes any
// views and re-reads rows.
#include <algorithm>

#include "cuda/cuda_column_sum.h"
#include "cuda/cuda_view.cuh"
#include "layer_norm_backward/layer_norm_backward.h"

namespace aclnn_check::layer_norm_backward {
namespace {

using namespace cuda;  // the device vocabulary: views, vectors, conversions

constexpr int kMaxThreads = 1024;
constexpr int kMaxElementsPerThread = 8;  // registers: g, xh, dw, db per element
constexpr int64_t kMaxRowsPerBlock = 64;
constexpr int kGeneralThreads = 256;

struct Launch {
  bool fast = false;
  int threads = 0;
  int chunks = 0;  // 16-byte vectors per thread per row (fast path)
  int64_t blocks = 0;
  int64_t rows_per_block = 0;
};

struct Workspace {
  float* weight;   // [M], ones without a weight
  float* mean;     // [R]
  float* rstd;     // [R]
  float* partial_dw;  // [blocks, M]
  float* partial_db;  // [blocks, M]
  float* scratch;     // ColumnSum's
};

// ---- device side ----

// Sums a and b over the block in a fixed tree; every thread gets the totals. shared holds 2 * 32.
__device__ void BlockSum2(float& a, float& b, float* shared) {
#pragma unroll
  for (int offset = 16; offset >= 1; offset /= 2) {
    a += __shfl_xor_sync(0xffffffffu, a, offset);
    b += __shfl_xor_sync(0xffffffffu, b, offset);
  }
  const int warps = (blockDim.x + 31) / 32;
  if (warps == 1) return;
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  __syncthreads();  // the previous row's readers are done with shared
  if (lane == 0) {
    shared[warp] = a;
    shared[32 + warp] = b;
  }
  __syncthreads();
  a = lane < warps ? shared[lane] : 0.0f;
  b = lane < warps ? shared[32 + lane] : 0.0f;
#pragma unroll
  for (int offset = 16; offset >= 1; offset /= 2) {
    a += __shfl_xor_sync(0xffffffffu, a, offset);
    b += __shfl_xor_sync(0xffffffffu, b, offset);
  }
}

template <typename T, int kChunks>
__global__ void __launch_bounds__(kMaxThreads)
    FastRowsKernel(const T* __restrict__ g, const T* __restrict__ x, T* __restrict__ dx,
                   Workspace ws, int64_t rows, int64_t m, int64_t rows_per_block, bool want_dx,
                   bool want_columns) {
  constexpr int kLanes = Vector16<T>::kLanes;
  constexpr int kElements = kChunks * kLanes;
  __shared__ float shared[64];
  const int64_t row_vectors = m / kLanes;
  const float count = static_cast<float>(m);
  float w[kElements], dw[kElements], db[kElements], gw[kElements], xh[kElements];
  bool active[kChunks];
#pragma unroll
  for (int c = 0; c < kChunks; ++c) {
    const int64_t v = threadIdx.x + int64_t{c} * blockDim.x;
    active[c] = v < row_vectors;
#pragma unroll
    for (int l = 0; l < kLanes; ++l) {
      w[c * kLanes + l] = active[c] ? ws.weight[v * kLanes + l] : 0.0f;
      dw[c * kLanes + l] = db[c * kLanes + l] = 0.0f;
    }
  }
  const int64_t first_row = blockIdx.x * rows_per_block;
  const int64_t end_row = min(rows, first_row + rows_per_block);
  for (int64_t r = first_row; r < end_row; ++r) {
    const float mu = ws.mean[r];
    const float rs = ws.rstd[r];
    float sum_gw = 0.0f, sum_gw_xh = 0.0f;
#pragma unroll
    for (int c = 0; c < kChunks; ++c) {
      if (!active[c]) continue;
      const int64_t v = r * row_vectors + threadIdx.x + int64_t{c} * blockDim.x;
      const Vector16<T> vg = LoadVector(g, v);
      const Vector16<T> vx = LoadVector(x, v);
#pragma unroll
      for (int l = 0; l < kLanes; ++l) {
        const int e = c * kLanes + l;
        const float gradient = ToFloat(vg.lane[l]);
        xh[e] = (ToFloat(vx.lane[l]) - mu) * rs;
        gw[e] = gradient * w[e];
        sum_gw += gw[e];
        sum_gw_xh += gw[e] * xh[e];
        if (want_columns) {
          dw[e] += gradient * xh[e];
          db[e] += gradient;
        }
      }
    }
    if (!want_dx) continue;
    BlockSum2(sum_gw, sum_gw_xh, shared);
    const float mean_gw = sum_gw / count;
    const float mean_gw_xh = sum_gw_xh / count;
#pragma unroll
    for (int c = 0; c < kChunks; ++c) {
      if (!active[c]) continue;
      Vector16<T> out;
#pragma unroll
      for (int l = 0; l < kLanes; ++l) {
        const int e = c * kLanes + l;
        out.lane[l] = FromFloat<T>(rs * ((gw[e] - mean_gw) - xh[e] * mean_gw_xh));
      }
      StoreVector(dx, r * row_vectors + threadIdx.x + int64_t{c} * blockDim.x, out);
    }
  }
  if (!want_columns) return;
#pragma unroll
  for (int c = 0; c < kChunks; ++c) {
    if (!active[c]) continue;
    const int64_t column = (threadIdx.x + int64_t{c} * blockDim.x) * kLanes;
#pragma unroll
    for (int l = 0; l < kLanes; ++l) {
      ws.partial_dw[blockIdx.x * m + column + l] = dw[c * kLanes + l];
      ws.partial_db[blockIdx.x * m + column + l] = db[c * kLanes + l];
    }
  }
}

// General path, gradInput: one block per row, two passes over the row.
__global__ void GeneralRowsKernel(DeviceView g, DeviceView x, DeviceView dx, Workspace ws,
                                  int64_t rows, int64_t m) {
  __shared__ float shared[64];
  const float count = static_cast<float>(m);
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const float mu = ws.mean[r];
    const float rs = ws.rstd[r];
    float sum_gw = 0.0f, sum_gw_xh = 0.0f;
    for (int64_t j = threadIdx.x; j < m; j += blockDim.x) {
      const int64_t i = r * m + j;
      const float xh = (LoadFloat(x, StorageIndex(x, i)) - mu) * rs;
      const float gw = LoadFloat(g, StorageIndex(g, i)) * ws.weight[j];
      sum_gw += gw;
      sum_gw_xh += gw * xh;
    }
    BlockSum2(sum_gw, sum_gw_xh, shared);
    const float mean_gw = sum_gw / count;
    const float mean_gw_xh = sum_gw_xh / count;
    for (int64_t j = threadIdx.x; j < m; j += blockDim.x) {
      const int64_t i = r * m + j;
      const float xh = (LoadFloat(x, StorageIndex(x, i)) - mu) * rs;
      const float gw = LoadFloat(g, StorageIndex(g, i)) * ws.weight[j];
      StoreFloat(dx, StorageIndex(dx, i), rs * ((gw - mean_gw) - xh * mean_gw_xh));
    }
  }
}

// General path, column partials: one thread per (row block, column), its rows in order.
__global__ void GeneralColumnsKernel(DeviceView g, DeviceView x, Workspace ws, int64_t rows,
                                     int64_t m, int64_t blocks, int64_t rows_per_block) {
  for (int64_t item = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; item < blocks * m;
       item += int64_t{gridDim.x} * blockDim.x) {
    const int64_t block = item / m;
    const int64_t j = item % m;
    float dw = 0.0f, db = 0.0f;
    const int64_t end_row = min(rows, (block + 1) * rows_per_block);
    for (int64_t r = block * rows_per_block; r < end_row; ++r) {
      const int64_t i = r * m + j;
      const float gradient = LoadFloat(g, StorageIndex(g, i));
      const float xh = (LoadFloat(x, StorageIndex(x, i)) - ws.mean[r]) * ws.rstd[r];
      dw += gradient * xh;
      db += gradient;
    }
    ws.partial_dw[item] = dw;
    ws.partial_db[item] = db;
  }
}

// ---- host side ----

template <typename T, int kChunks>
int ResidentBlocks(int threads) {
  int blocks = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, FastRowsKernel<T, kChunks>, threads,
                                                    0) != cudaSuccess) {
    return 1;
  }
  return blocks > 0 ? blocks : 1;
}

int Multiprocessors() {
  int device = 0, count = 1;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
    return 1;
  }
  return count;
}

bool WantColumns(const OpArgs& args) { return MaskOn(args, 1) || MaskOn(args, 2); }

Launch LaunchOf(const OpArgs& args, const RowShape& shape) {
  Launch launch;
  const int64_t rows = shape.rows, m = shape.row_size;
  const TensorView* g = args.tensor(kGradOut);
  const TensorView* x = args.tensor(kInput);
  const TensorView* dx = MaskOn(args, 0) ? args.tensor(kGradInput) : x;
  if (cuda::FlatAndAligned({g, x, dx}, g->dtype)) {
    cuda::WithElementType(g->dtype, [&](auto element) {
      using T = decltype(element);
      constexpr int kLanes = cuda::Vector16<T>::kLanes;
      if (m % kLanes != 0) return;
      const int64_t row_vectors = m / kLanes;
      const int64_t most_chunks = kMaxElementsPerThread / kLanes;
      const int64_t chunks = (row_vectors + kMaxThreads - 1) / kMaxThreads;
      if (chunks > most_chunks) return;
      launch.fast = true;
      launch.chunks = static_cast<int>(chunks);
      launch.threads = static_cast<int>((row_vectors + chunks - 1) / chunks + 31) / 32 * 32;
      const int resident = chunks == 1 ? ResidentBlocks<T, 1>(launch.threads)
                                       : ResidentBlocks<T, 2>(launch.threads);
      // One wave of blocks, each with a run of rows; longer runs only for very many rows.
      const int64_t slots = int64_t{Multiprocessors()} * resident;
      launch.rows_per_block = std::clamp<int64_t>((rows + slots - 1) / slots, 1, kMaxRowsPerBlock);
    });
  }
  if (!launch.fast) launch.rows_per_block = 32;
  launch.blocks = rows > 0 ? (rows + launch.rows_per_block - 1) / launch.rows_per_block : 0;
  return launch;
}

// Floats of each workspace region, in order.
struct Sizes {
  int64_t weight, mean, rstd, partials, scratch;
  int64_t total() const { return weight + mean + rstd + 2 * partials + scratch; }
};

Sizes SizesOf(const OpArgs& args, const RowShape& shape, const Launch& launch) {
  const bool columns = WantColumns(args);
  const int64_t partials = columns ? launch.blocks * shape.row_size : 0;
  const int64_t scratch =
      columns ? cuda::ColumnSumScratchFloats(launch.blocks, shape.row_size) : 0;
  return {shape.row_size, shape.rows, shape.rows, partials, scratch};
}

template <typename T>
void LaunchFast(const OpArgs& args, const RowShape& shape, const Launch& launch,
                const Workspace& ws, cudaStream_t stream) {
  const T* g = cuda::FlatData<T>(*args.tensor(kGradOut));
  const T* x = cuda::FlatData<T>(*args.tensor(kInput));
  T* dx = MaskOn(args, 0) ? cuda::FlatData<T>(*args.tensor(kGradInput)) : nullptr;
  const auto grid = static_cast<unsigned>(launch.blocks);
  if (launch.chunks == 1) {
    FastRowsKernel<T, 1><<<grid, launch.threads, 0, stream>>>(
        g, x, dx, ws, shape.rows, shape.row_size, launch.rows_per_block, MaskOn(args, 0),
        WantColumns(args));
  } else {
    FastRowsKernel<T, 2><<<grid, launch.threads, 0, stream>>>(
        g, x, dx, ws, shape.rows, shape.row_size, launch.rows_per_block, MaskOn(args, 0),
        WantColumns(args));
  }
}

}  // namespace

uint64_t CudaWorkspaceBytes(const OpArgs& args) {
  const std::optional<RowShape> shape = RowsOf(args);
  if (!shape || shape->row_size == 0) return 0;
  return static_cast<uint64_t>(SizesOf(args, *shape, LaunchOf(args, *shape)).total()) *
         sizeof(float);
}

void CudaCompute(const OpArgs& args, void* workspace, void* stream_handle) {
  const auto stream = static_cast<cudaStream_t>(stream_handle);
  const std::optional<RowShape> shape = RowsOf(args);
  if (!shape || shape->row_size == 0) return;  // every output is empty
  const bool want_dx = MaskOn(args, 0);
  const bool columns = WantColumns(args);
  if (!want_dx && !columns) return;
  const int64_t rows = shape->rows, m = shape->row_size;
  const Launch launch = LaunchOf(args, *shape);
  const Sizes sizes = SizesOf(args, *shape, launch);
  float* base = static_cast<float*>(workspace);
  Workspace ws;
  ws.weight = base;
  ws.mean = ws.weight + sizes.weight;
  ws.rstd = ws.mean + sizes.mean;
  ws.partial_dw = ws.rstd + sizes.rstd;
  ws.partial_db = ws.partial_dw + sizes.partials;
  ws.scratch = ws.partial_db + sizes.partials;

  constexpr int kThreads = 256;
  if (const TensorView* weight = args.tensor(kWeight)) {
    cuda::CopyToFloat(cuda::DeviceViewOf(*weight), ws.weight, m, stream);
  } else {
    cuda::FillFloat(ws.weight, m, 1.0f, stream);
  }
  if (rows > 0) {
    cuda::CopyToFloat(cuda::DeviceViewOf(*args.tensor(kMean)), ws.mean, rows, stream);
    cuda::CopyToFloat(cuda::DeviceViewOf(*args.tensor(kRstd)), ws.rstd, rows, stream);
    if (launch.fast) {
      cuda::WithElementType(args.tensor(kGradOut)->dtype, [&](auto element) {
        LaunchFast<decltype(element)>(args, *shape, launch, ws, stream);
      });
    } else {
      const cuda::DeviceView g = cuda::DeviceViewOf(*args.tensor(kGradOut));
      const cuda::DeviceView x = cuda::DeviceViewOf(*args.tensor(kInput));
      if (want_dx) {
        const auto grid = static_cast<unsigned>(std::min<int64_t>(rows, 65535));
        GeneralRowsKernel<<<grid, kGeneralThreads, 0, stream>>>(
            g, x, cuda::DeviceViewOf(*args.tensor(kGradInput)), ws, rows, m);
      }
      if (columns) {
        GeneralColumnsKernel<<<cuda::GridFor(launch.blocks * m, kThreads), kThreads, 0,
                               stream>>>(g, x, ws, rows, m, launch.blocks, launch.rows_per_block);
      }
    }
  }
  if (MaskOn(args, 1)) {
    cuda::ColumnSum(ws.partial_dw, launch.blocks, m, ws.scratch,
                    cuda::DeviceViewOf(*args.tensor(kGradWeight)), stream);
  }
  if (MaskOn(args, 2)) {
    cuda::ColumnSum(ws.partial_db, launch.blocks, m, ws.scratch,
                    cuda::DeviceViewOf(*args.tensor(kGradBias)), stream);
  }
}

}  // namespace aclnn_check::layer_norm_backward
