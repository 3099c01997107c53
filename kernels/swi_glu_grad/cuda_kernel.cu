// The cuda provider's kernel: kernel.cc's algebraic form (the contract's, the inner sum fused) in
// float32, one rounding per operation (built without contraction, like the cpu kernels) and one
// more to the output dtype on store. x is [outer, 2 * half, inner]: A the first half along dim,
// B the second; out[A] = dA, out[B] = dB.
#include "cuda/cuda_view.cuh"
#include "swi_glu_grad/swi_glu_grad.h"

namespace aclnn_check::swi_glu_grad {
namespace {

using namespace cuda;  // the device vocabulary: views, vectors, conversions

constexpr int kThreads = 256;

struct Gradients {
  float da, db;
};

__device__ inline Gradients GradientsOf(float a, float b, float g) {
  // kernel.cc's operations (its comment says why u and a / d).
  const float e = expf(-a);
  const float d = 1.0f + e;
  const float s = 1.0f / d;
  const float u = a > 0.0f && a <= kLargestAWithExpComplement ? e * s : 1.0f - s;
  const float n = (a / d) * g;
  const float m = s * fmaf(a, u, 1.0f) * b * g;
  return {m, n};
}

// Contiguous and aligned, with half * inner a multiple of the vector width: vector v of yGrad
// covers row o = v / row_vectors, and the same columns of A and B in x's row o.
template <typename T>
__global__ void FlatKernel(const T* __restrict__ grad, const T* __restrict__ x, T* __restrict__ out,
                           int64_t vectors, int64_t row_vectors) {
  for (int64_t v = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; v < vectors;
       v += int64_t{gridDim.x} * blockDim.x) {
    const int64_t row = v / row_vectors;
    const int64_t a_index = v + row * row_vectors;  // row * 2 * row_vectors + column
    const int64_t b_index = a_index + row_vectors;
    const Vector16<T> vg = LoadVector(grad, v);
    const Vector16<T> va = LoadVector(x, a_index);
    const Vector16<T> vb = LoadVector(x, b_index);
    Vector16<T> da, db;
#pragma unroll
    for (int lane = 0; lane < Vector16<T>::kLanes; ++lane) {
      const Gradients d =
          GradientsOf(ToFloat(va.lane[lane]), ToFloat(vb.lane[lane]), ToFloat(vg.lane[lane]));
      da.lane[lane] = FromFloat<T>(d.da);
      db.lane[lane] = FromFloat<T>(d.db);
    }
    StoreVector(out, a_index, da);
    StoreVector(out, b_index, db);
  }
}

__global__ void ViewKernel(DeviceView grad, DeviceView x, DeviceView out, int64_t pairs,
                           int64_t half_block) {
  for (int64_t p = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; p < pairs;
       p += int64_t{gridDim.x} * blockDim.x) {
    const int64_t row = p / half_block;
    const int64_t a_logical = p + row * half_block;
    const int64_t b_logical = a_logical + half_block;
    const Gradients d = GradientsOf(LoadFloat(x, StorageIndex(x, a_logical)),
                                    LoadFloat(x, StorageIndex(x, b_logical)),
                                    LoadFloat(grad, StorageIndex(grad, p)));
    StoreFloat(out, StorageIndex(out, a_logical), d.da);
    StoreFloat(out, StorageIndex(out, b_logical), d.db);
  }
}

}  // namespace

uint64_t CudaWorkspaceBytes(const OpArgs&) { return 0; }

void CudaCompute(const OpArgs& args, void*, void* stream_handle) {
  const auto stream = static_cast<cudaStream_t>(stream_handle);
  const TensorView& grad = *args.tensor(kYGrad);
  const TensorView& x = *args.tensor(kX);
  const TensorView& out = *args.tensor(kOut);
  const Split split = SplitOf(args);
  const int64_t half_block = split.half * split.inner;
  const int64_t pairs = split.outer * half_block;
  if (pairs == 0) return;
  bool flat = false;
  if (cuda::FlatAndAligned({&grad, &x, &out}, x.dtype)) {
    cuda::WithElementType(x.dtype, [&](auto element) {
      using T = decltype(element);
      constexpr int kLanes = cuda::Vector16<T>::kLanes;
      if (half_block % kLanes != 0) return;
      const int64_t vectors = pairs / kLanes;
      FlatKernel<T><<<cuda::GridFor(vectors, kThreads), kThreads, 0, stream>>>(
          cuda::FlatData<T>(grad), cuda::FlatData<T>(x), cuda::FlatData<T>(out), vectors,
          half_block / kLanes);
      flat = true;
    });
  }
  if (!flat) {
    ViewKernel<<<cuda::GridFor(pairs, kThreads), kThreads, 0, stream>>>(
        cuda::DeviceViewOf(grad), cuda::DeviceViewOf(x), cuda::DeviceViewOf(out), pairs,
        half_block);
  }
}

}  // namespace aclnn_check::swi_glu_grad
