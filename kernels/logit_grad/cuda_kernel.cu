// The cuda provider's kernel: kernel.cc's eps table (reduced to float32 bounds by simd_table.h,
// equivalent to comparing x with eps and 1 - eps in double) and formula, one rounding on store.
#include <cmath>

#include "cuda/cuda_elementwise.cuh"
#include "logit_grad/logit_grad.h"
#include "logit_grad/simd_table.h"

namespace aclnn_check::logit_grad {
namespace {

struct Gradient {
  FloatTable table;
  __device__ float operator()(float x, float dy) const {
    switch (table.mode) {
      case TableMode::kFill:
        return table.fill;  // logit.eps_nan, logit.eps_gt1, logit.eps_inf
      case TableMode::kSignOfDy:
        return dy * __int_as_float(0x7f800000);  // logit.eps_eq1: dy * inf
      default:
        if (!isfinite(x)) return __int_as_float(0x7fc00000);  // logit.x_nan_inf
        // The formula (logit.x_edge divides by zero; logit.dy_special propagates), else the fill
        // outside [lo, hi] (logit.eps_outside, logit.neg_eps_outside).
        return x >= table.lo && x <= table.hi ? dy / (x * (1.0f - x)) : table.fill;
    }
  }
};

}  // namespace

uint64_t CudaWorkspaceBytes(const OpArgs&) { return 0; }

void CudaCompute(const OpArgs& args, void*, void* stream) {
  cuda::LaunchBinary(*args.tensor(kX), *args.tensor(kDy), *args.tensor(kOut),
                     Gradient{FloatTableOf(EpsOf(args))}, static_cast<cudaStream_t>(stream));
}

}  // namespace aclnn_check::logit_grad
