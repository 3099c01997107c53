// The cuda provider's kernel: kernel.cc's float32 formula per element, one rounding on store.
#include "cuda/cuda_elementwise.cuh"
#include "hardswish_backward_v2/hardswish_backward_v2.h"

namespace aclnn_check::hardswish_backward_v2 {
namespace {

struct Gradient {
  // The open interval: a select up to -3 (0 even where gradOutput is inf or NaN), gradOutput from
  // 3 up and for NaN self.
  __device__ float operator()(float grad, float x) const {
    return x <= -3.0f ? 0.0f : x < 3.0f ? grad * (x / 3.0f + 0.5f) : grad;
  }
};

}  // namespace

uint64_t CudaWorkspaceBytes(const OpArgs&) { return 0; }

void CudaCompute(const OpArgs& args, void*, void* stream) {
  cuda::LaunchBinary(*args.tensor(kGradOutput), *args.tensor(kSelf), *args.tensor(kOut),
                     Gradient{}, static_cast<cudaStream_t>(stream));
}

}  // namespace aclnn_check::hardswish_backward_v2
