#include "cuda/cuda_column_sum.h"

namespace aclnn_check::cuda {
namespace {

constexpr int kGroup = 32;
constexpr int kThreads = 256;

__host__ __device__ int64_t Groups(int64_t rows) { return (rows + kGroup - 1) / kGroup; }

// Sum of rows [group * 32, min(rows, group * 32 + 32)) of one column, pairwise: level by level,
// neighbours added (an odd one out carried up unchanged). Indices are compile-time constants after
// unrolling, so the 32 values stay in registers.
__device__ float GroupSum(const float* partials, int64_t rows, int64_t columns, int64_t group,
                          int64_t column) {
  const int64_t first = group * kGroup;
  int count = static_cast<int>(rows - first < kGroup ? rows - first : kGroup);
  float value[kGroup];
#pragma unroll
  for (int i = 0; i < kGroup; ++i) value[i] = i < count ? partials[(first + i) * columns + column] : 0.0f;
#pragma unroll
  for (int width = kGroup / 2; width >= 1; width /= 2) {
#pragma unroll
    for (int i = 0; i < width; ++i) {
      if (2 * i + 1 < count) {
        value[i] = value[2 * i] + value[2 * i + 1];
      } else if (2 * i < count) {
        value[i] = value[2 * i];
      }
    }
    count = (count + 1) / 2;
  }
  return count > 0 ? value[0] : 0.0f;
}

__global__ void GroupSumsKernel(const float* partials, int64_t rows, int64_t columns, float* sums) {
  const int64_t total = Groups(rows) * columns;
  for (int64_t item = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; item < total;
       item += int64_t{gridDim.x} * blockDim.x) {
    const int64_t group = item / columns;
    const int64_t column = item % columns;
    sums[item] = GroupSum(partials, rows, columns, group, column);
  }
}

__global__ void FinalSumKernel(const float* partials, int64_t rows, int64_t columns,
                               DeviceView out) {
  for (int64_t column = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; column < columns;
       column += int64_t{gridDim.x} * blockDim.x) {
    const float sum = rows > 0 ? GroupSum(partials, rows, columns, 0, column) : 0.0f;
    StoreFloat(out, StorageIndex(out, column), sum);
  }
}

}  // namespace

int64_t ColumnSumScratchFloats(int64_t rows, int64_t columns) {
  if (rows <= kGroup) return 0;
  return (Groups(rows) + Groups(Groups(rows))) * columns;
}

void ColumnSum(const float* partials, int64_t rows, int64_t columns, float* scratch,
               const DeviceView& out, cudaStream_t stream) {
  if (columns == 0) return;
  // Ping-pong between the two scratch regions until one group is left.
  float* regions[2] = {scratch, scratch + (rows > kGroup ? Groups(rows) * columns : 0)};
  int next = 0;
  while (rows > kGroup) {
    float* sums = regions[next];
    GroupSumsKernel<<<GridFor(Groups(rows) * columns, kThreads), kThreads, 0, stream>>>(
        partials, rows, columns, sums);
    partials = sums;
    rows = Groups(rows);
    next ^= 1;
  }
  FinalSumKernel<<<GridFor(columns, kThreads), kThreads, 0, stream>>>(partials, rows, columns, out);
}

}  // namespace aclnn_check::cuda
