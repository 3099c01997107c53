// Tensor views on the GPU for the cuda provider's kernels (kernels/<op>/cuda_kernel.cu): a view
// passed by value to a kernel, the one place where a kernel turns a logical index into a storage
// index and where it converts between a tensor's dtype and float32 (one round to nearest even on
// store, as WriteFromFloat does on the host).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "catalogue/checks.h"
#include "core/tensor_view.h"

namespace aclnn_check::cuda {

// Validation caps every tensor's rank at kMaxRank; a larger one never reaches a kernel.
constexpr int kViewRank = static_cast<int>(kMaxRank);

struct DeviceView {
  char* data = nullptr;
  DType dtype = DType::kFloat32;
  int rank = 0;
  int64_t offset = 0;
  int64_t shape[kViewRank] = {};
  int64_t strides[kViewRank] = {};
};

// nullopt-free by construction: callers pass validated views (rank <= kMaxRank).
inline DeviceView DeviceViewOf(const TensorView& view) {
  DeviceView device;
  device.data = static_cast<char*>(view.data);
  device.dtype = view.dtype;
  device.rank = static_cast<int>(view.rank());
  device.offset = view.offset;
  for (int d = 0; d < device.rank && d < kViewRank; ++d) {
    device.shape[d] = view.shape[static_cast<size_t>(d)];
    device.strides[d] = view.strides[static_cast<size_t>(d)];
  }
  return device;
}

// True when every listed view is contiguous, has dtype `dtype` and starts 16-byte aligned, so a
// kernel may read it as a flat array in 16-byte vectors.
inline bool FlatAndAligned(std::initializer_list<const TensorView*> views, DType dtype) {
  for (const TensorView* view : views) {
    if (!view || view->dtype != dtype || !view->is_contiguous()) return false;
    const auto address = reinterpret_cast<uintptr_t>(view->element_address(view->offset));
    if (address % 16 != 0) return false;
  }
  return true;
}

template <typename T>
inline T* FlatData(const TensorView& view) {
  return reinterpret_cast<T*>(view.element_address(view.offset));
}

__device__ inline int64_t StorageIndex(const DeviceView& view, int64_t logical) {
  int64_t storage = view.offset;
  for (int d = view.rank - 1; d >= 0; --d) {
    const int64_t extent = view.shape[d];
    const int64_t index = logical % extent;
    logical /= extent;
    storage += index * view.strides[d];
  }
  return storage;
}

// Element types: float32 arithmetic on load, one rounding on store.
__device__ inline float ToFloat(float value) { return value; }
__device__ inline float ToFloat(__half value) { return __half2float(value); }
__device__ inline float ToFloat(__nv_bfloat16 value) { return __bfloat162float(value); }

template <typename T>
__device__ inline T FromFloat(float value);
template <>
__device__ inline float FromFloat<float>(float value) {
  return value;
}
template <>
__device__ inline __half FromFloat<__half>(float value) {
  return __float2half_rn(value);
}
template <>
__device__ inline __nv_bfloat16 FromFloat<__nv_bfloat16>(float value) {
  return __float2bfloat16_rn(value);
}

// The general path's element access: the dtype is read at run time (uniform across a warp).
__device__ inline float LoadFloat(const DeviceView& view, int64_t storage) {
  switch (view.dtype) {
    case DType::kFloat16:
      return ToFloat(reinterpret_cast<const __half*>(view.data)[storage]);
    case DType::kBFloat16:
      return ToFloat(reinterpret_cast<const __nv_bfloat16*>(view.data)[storage]);
    default:
      return reinterpret_cast<const float*>(view.data)[storage];
  }
}

__device__ inline void StoreFloat(const DeviceView& view, int64_t storage, float value) {
  switch (view.dtype) {
    case DType::kFloat16:
      reinterpret_cast<__half*>(view.data)[storage] = FromFloat<__half>(value);
      break;
    case DType::kBFloat16:
      reinterpret_cast<__nv_bfloat16*>(view.data)[storage] = FromFloat<__nv_bfloat16>(value);
      break;
    default:
      reinterpret_cast<float*>(view.data)[storage] = value;
      break;
  }
}

// 16 bytes of T, loaded and stored as one vector.
template <typename T>
struct alignas(16) Vector16 {
  static constexpr int kLanes = 16 / sizeof(T);
  T lane[kLanes];
};

template <typename T>
__device__ inline Vector16<T> LoadVector(const T* base, int64_t vector_index) {
  Vector16<T> vector;
  *reinterpret_cast<int4*>(&vector) = __ldg(reinterpret_cast<const int4*>(base) + vector_index);
  return vector;
}

template <typename T>
__device__ inline void StoreVector(T* base, int64_t vector_index, const Vector16<T>& vector) {
  reinterpret_cast<int4*>(base)[vector_index] = *reinterpret_cast<const int4*>(&vector);
}

// Calls f(args...) on the element type of dtype (float, __half or __nv_bfloat16).
template <typename F>
inline void WithElementType(DType dtype, F&& f) {
  switch (dtype) {
    case DType::kFloat16:
      f(__half{});
      break;
    case DType::kBFloat16:
      f(__nv_bfloat16{});
      break;
    default:
      f(float{});
      break;
  }
}

// A grid for a grid-stride loop over `work` items: enough blocks to fill every multiprocessor
// a few times over, never more than the work needs.
int GridFor(int64_t work, int threads);

// target[i] = the view's logical element i as float32, for i < n (small inputs a kernel reads
// many times: weights, row statistics).
void CopyToFloat(const DeviceView& source, float* target, int64_t n, cudaStream_t stream);
void FillFloat(float* target, int64_t n, float value, cudaStream_t stream);

}  // namespace aclnn_check::cuda
