// The elementwise shape shared by the cuda kernels of HardswishBackward and LogitGrad:
// out[i] = f(a[i], b[i]) in float32, rounded once on store. A fast path for three contiguous,
// 16-byte aligned tensors of one dtype (16-byte vectors, grid-stride loop), a general one for
// any views and dtypes.
#pragma once

#include "cuda/cuda_view.cuh"

namespace aclnn_check::cuda {

template <typename T, typename F>
__global__ void FlatBinaryKernel(const T* __restrict__ a, const T* __restrict__ b,
                                 T* __restrict__ out, int64_t n, F f) {
  constexpr int kLanes = Vector16<T>::kLanes;
  const int64_t vectors = n / kLanes;
  const int64_t step = int64_t{gridDim.x} * blockDim.x;
  const int64_t first = blockIdx.x * int64_t{blockDim.x} + threadIdx.x;
  for (int64_t v = first; v < vectors; v += step) {
    const Vector16<T> va = LoadVector(a, v);
    const Vector16<T> vb = LoadVector(b, v);
    Vector16<T> result;
#pragma unroll
    for (int lane = 0; lane < kLanes; ++lane) {
      result.lane[lane] = FromFloat<T>(f(ToFloat(va.lane[lane]), ToFloat(vb.lane[lane])));
    }
    StoreVector(out, v, result);
  }
  for (int64_t i = vectors * kLanes + first; i < n; i += step) {
    out[i] = FromFloat<T>(f(ToFloat(a[i]), ToFloat(b[i])));
  }
}

template <typename F>
__global__ void ViewBinaryKernel(DeviceView a, DeviceView b, DeviceView out, int64_t n, F f) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * blockDim.x) {
    const float value = f(LoadFloat(a, StorageIndex(a, i)), LoadFloat(b, StorageIndex(b, i)));
    StoreFloat(out, StorageIndex(out, i), value);
  }
}

template <typename F>
void LaunchBinary(const TensorView& a, const TensorView& b, const TensorView& out, F f,
                  cudaStream_t stream) {
  constexpr int kThreads = 256;
  const int64_t n = out.numel();
  if (n == 0) return;
  if (FlatAndAligned({&a, &b, &out}, out.dtype)) {
    WithElementType(out.dtype, [&](auto element) {
      using T = decltype(element);
      const int64_t vectors = n / Vector16<T>::kLanes;
      FlatBinaryKernel<T><<<GridFor(vectors > 0 ? vectors : n, kThreads), kThreads, 0, stream>>>(
          FlatData<T>(a), FlatData<T>(b), FlatData<T>(out), n, f);
    });
  } else {
    ViewBinaryKernel<<<GridFor(n, kThreads), kThreads, 0, stream>>>(
        DeviceViewOf(a), DeviceViewOf(b), DeviceViewOf(out), n, f);
  }
}

}  // namespace aclnn_check::cuda
