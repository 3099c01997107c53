#include <algorithm>
#include <atomic>

#include "cuda/cuda_view.cuh"

namespace aclnn_check::cuda {
namespace {

// Multiprocessors of the current device, read once per device (a process uses few).
int MultiprocessorCount() {
  constexpr int kDevices = 64;
  static std::atomic<int> counts[kDevices] = {};
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= kDevices) return 1;
  int count = counts[device].load(std::memory_order_relaxed);
  if (count == 0) {
    if (cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
        count <= 0) {
      count = 1;
    }
    counts[device].store(count, std::memory_order_relaxed);
  }
  return count;
}

__global__ void CopyToFloatKernel(DeviceView source, float* target, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * blockDim.x) {
    target[i] = LoadFloat(source, StorageIndex(source, i));
  }
}

__global__ void FillFloatKernel(float* target, int64_t n, float value) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * blockDim.x) {
    target[i] = value;
  }
}

constexpr int kThreads = 256;

}  // namespace

void CopyToFloat(const DeviceView& source, float* target, int64_t n, cudaStream_t stream) {
  if (n > 0) CopyToFloatKernel<<<GridFor(n, kThreads), kThreads, 0, stream>>>(source, target, n);
}

void FillFloat(float* target, int64_t n, float value, cudaStream_t stream) {
  if (n > 0) FillFloatKernel<<<GridFor(n, kThreads), kThreads, 0, stream>>>(target, n, value);
}

int GridFor(int64_t work, int threads) {
  // Four full waves of resident threads (2048 per multiprocessor) keep enough loads in flight;
  // a grid-stride loop covers the rest.
  const int64_t most = int64_t{MultiprocessorCount()} * (2048 / threads) * 4;
  const int64_t needed = (work + threads - 1) / threads;
  return static_cast<int>(std::max<int64_t>(1, std::min(needed, most)));
}

}  // namespace aclnn_check::cuda
