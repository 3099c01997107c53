// Test-only providers that reproduce one documented bug each of a real kernel or of a sibling
// stack's (docs/ascend950.md, "Known bugs as cases"), chosen at build time (ACLNN_PRODUCT_FAULT).
// Every other operator and every other element computes like the cpu provider, so the regression
// case that names the bug is the one that must fail (tests/runner/regression_cases_test.cc).
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/tensor_view.h"
#include "cpu/cpu_kernel.h"
#include "providers/runtime/backend.h"

#ifndef ACLNN_PRODUCT_FAULT
#error "ACLNN_PRODUCT_FAULT must name the reproduced bug"
#endif

namespace aclnn_check::provider {
namespace {

enum class Fault {
  kNone,
  // hicann/ops-nn before bb0eb28f4: the arch35 HardSwishGrad compared with GT -3 and LT 3, so
  // -3 got the factor 0 and 3 the factor 1 where the document says -0.5 and 1.5.
  kHardswishOpenInterval,
  // tenstorrent/tt-metal#55291: hardswish_bw used lt(-3) and le(3) against the open interval of
  // PyTorch >= 2.7 (and HardswishBackwardV2), and 0.3333f for 1/3.
  kHardswishV2ClosedInterval,
  kHardswishV2TruncatedThird,
  // What hicann/ops-nn 0e2eac83d's fused 16-bit LogitGrad path (one register loop: cast, x*(1-x),
  // divide, two compares, select) could get wrong: strict compares, the lanes of the last
  // partial 64-lane vector of an 8192-element tile, and an in-register fp16 cast that flushes
  // subnormals.
  kLogitFused16OpenInterval,
  kLogitFused16Tail,
  kLogitFp16FlushSubnormal,
  // flagos-ai/FlagGems#5392: layer_norm_backward took M = input.shape[0], N = numel / M.
  kLayerNormFirstAxisRows,
  // huggingface/candle#1722 (and snntorch#427): the sigmoid's derivative as e/(1+e)^2 with
  // e = exp(-a), which is inf/inf = NaN once exp(-a) overflows (a below about -88.7 in float32).
  kSwiGluSigmoidExpForm,
};
constexpr Fault kFault = Fault::ACLNN_PRODUCT_FAULT;

bool Is16Bit(DType dtype) { return dtype == DType::kFloat16 || dtype == DType::kBFloat16; }

float HardswishV1Factor(float x) {
  if (kFault == Fault::kHardswishOpenInterval) {
    const float linear = x > -3.0f ? x / 3.0f + 0.5f : 0.0f;
    return x < 3.0f ? linear : 1.0f;
  }
  if (x < -3.0f) return 0.0f;
  return x > 3.0f ? 1.0f : x / 3.0f + 0.5f;
}

float HardswishV2Factor(float x) {
  const float slope = kFault == Fault::kHardswishV2TruncatedThird ? 0.3333f : 1.0f / 3.0f;
  if (kFault == Fault::kHardswishV2ClosedInterval) {
    if (x < -3.0f) return 0.0f;
    return x <= 3.0f ? x * slope + 0.5f : 1.0f;
  }
  if (x <= -3.0f) return 0.0f;
  return x < 3.0f ? x * slope + 0.5f : 1.0f;
}

void Hardswish(const OpArgs& args, float (*factor)(float)) {
  const std::vector<float> grad = ReadAsFloat(*args.tensor(0));
  const std::vector<float> self = ReadAsFloat(*args.tensor(1));
  std::vector<double> out(self.size());
  for (size_t i = 0; i < self.size(); ++i) {
    const float f = factor(self[i]);
    out[i] = f == 0.0f ? 0.0f : grad[i] * f;
  }
  WriteFromDouble(*args.tensor(2), out);
}

// An fp16 subnormal (below 2^-14, the smallest normal fp16) becomes a zero of its sign.
float FlushSubnormal(float value) {
  return std::fabs(value) < 0x1p-14f ? std::copysign(0.0f, value) : value;
}

// LogitGrad as logit_grad.h computes it (docs/contract: kernels/logit_grad/README.md), with the
// planted fused-path fault on 16-bit dtypes only (the float32 path did not change).
void LogitGrad(const OpArgs& args) {
  const DType dtype = args.tensor(0)->dtype;
  const bool fused = Is16Bit(dtype);
  const double* eps = args.param<double>(0);
  const float e = static_cast<float>(eps ? *eps : -1.0);
  const bool clamp = e >= 0.0f;
  const float lo = clamp ? e : 0.0f;
  const float hi = clamp ? 1.0f - e : 1.0f;
  const float fill = clamp ? 0.0f : std::numeric_limits<float>::quiet_NaN();
  std::vector<float> x = ReadAsFloat(*args.tensor(0));
  std::vector<float> dy = ReadAsFloat(*args.tensor(1));
  const bool flush = kFault == Fault::kLogitFp16FlushSubnormal && dtype == DType::kFloat16;
  std::vector<float> out(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const float xi = flush ? FlushSubnormal(x[i]) : x[i];
    const float dyi = flush ? FlushSubnormal(dy[i]) : dy[i];
    const float q = dyi / (xi * ((-xi) + 1.0f));
    const bool strict = fused && kFault == Fault::kLogitFused16OpenInterval;
    const bool inside = strict ? (xi > lo && xi < hi) : (xi >= lo && xi <= hi);
    out[i] = inside ? q : fill;
  }
  if (fused && kFault == Fault::kLogitFused16Tail) {
    constexpr size_t kTile = 8192, kLanes = 64;  // PP_ELEMENT_NUM; 256-byte register of float
    const size_t tail = (out.size() % kTile) % kLanes;
    for (size_t i = out.size() - tail; i < out.size(); ++i) out[i] = 0.0f;
  }
  WriteFromFloat(*args.tensor(2), out);
}

int64_t DimProduct(const Dims& dims, size_t begin, size_t end) {
  int64_t n = 1;
  for (size_t i = begin; i < end; ++i) n *= dims[i];
  return n;
}

// The statistics and row sums of a [shape[0], numel / shape[0]] matrix, in bounds: the weight is
// indexed by the column modulo N (the true weight of the element), and gradWeight/gradBias take
// only their first N columns.
void LayerNormFirstAxisRows(const OpArgs& args) {
  const TensorView& input = *args.tensor(1);
  const int64_t rows = input.shape[0];
  const int64_t cols = rows == 0 ? 0 : input.numel() / rows;
  const int64_t n = static_cast<int64_t>(args.param<std::vector<int64_t>>(0)->size());
  const int64_t norm = DimProduct(input.shape, input.shape.size() - n, input.shape.size());
  const std::vector<double> dy = ReadAsDouble(*args.tensor(0)), x = ReadAsDouble(input);
  const std::vector<double> mean = ReadAsDouble(*args.tensor(2)),
                            rstd = ReadAsDouble(*args.tensor(3));
  const std::vector<double> w =
      args.tensor(4) ? ReadAsDouble(*args.tensor(4)) : std::vector<double>(norm, 1.0);
  std::vector<double> dx(x.size()), dw(norm, 0.0), db(norm, 0.0);
  for (int64_t r = 0; r < rows; ++r) {
    double sum_g = 0, sum_gx = 0;
    for (int64_t k = 0; k < cols; ++k) {
      const int64_t i = r * cols + k;
      const double xhat = (x[i] - mean[r]) * rstd[r], g = dy[i] * w[k % norm];
      sum_g += g;
      sum_gx += g * xhat;
      if (k < norm) {
        dw[k] += dy[i] * xhat;
        db[k] += dy[i];
      }
    }
    for (int64_t k = 0; k < cols; ++k) {
      const int64_t i = r * cols + k;
      const double xhat = (x[i] - mean[r]) * rstd[r], g = dy[i] * w[k % norm];
      dx[i] = rstd[r] * (g - sum_g / cols - xhat * sum_gx / cols);
    }
  }
  const std::vector<bool>& mask = *args.param<std::vector<bool>>(1);
  if (mask[0]) WriteFromDouble(*args.tensor(6), dx);
  if (mask[1]) WriteFromDouble(*args.tensor(7), dw);
  if (mask[2]) WriteFromDouble(*args.tensor(8), db);
}

// The cpu provider's result with dA replaced by NaN wherever exp(-a) overflows float32.
void SwiGluSigmoidExpForm(const Operator& op, const OpArgs& args, void* workspace) {
  FindCpuKernel(op.folder())->compute(args, workspace);
  const TensorView& x = *args.tensor(1);
  const int64_t rank = x.rank();
  const int64_t* dim_param = args.param<int64_t>(0);
  const int64_t dim = dim_param ? (*dim_param < 0 ? *dim_param + rank : *dim_param) : rank - 1;
  const int64_t inner = DimProduct(x.shape, dim + 1, x.shape.size());
  const int64_t half = x.shape[dim] / 2;
  const std::vector<float> a = ReadAsFloat(x);
  std::vector<double> out = ReadAsDouble(*args.tensor(2));
  for (size_t i = 0; i < out.size(); ++i) {
    const int64_t along = static_cast<int64_t>(i) / inner % x.shape[dim];
    if (along < half && std::isinf(std::exp(-a[i])))
      out[i] = std::numeric_limits<double>::quiet_NaN();
  }
  WriteFromDouble(*args.tensor(2), out);
}

void Run(const Operator& op, const OpArgs& args, void* workspace) {
  const std::string& name = op.name();
  if (name == "HardswishBackward" && kFault == Fault::kHardswishOpenInterval) {
    Hardswish(args, HardswishV1Factor);
  } else if (name == "HardswishBackwardV2" && (kFault == Fault::kHardswishV2ClosedInterval ||
                                               kFault == Fault::kHardswishV2TruncatedThird)) {
    Hardswish(args, HardswishV2Factor);
  } else if (name == "LogitGrad" &&
             (kFault == Fault::kLogitFused16OpenInterval || kFault == Fault::kLogitFused16Tail ||
              kFault == Fault::kLogitFp16FlushSubnormal)) {
    LogitGrad(args);
  } else if (name == "LayerNormBackward" && kFault == Fault::kLayerNormFirstAxisRows &&
             args.tensor(1)->rank() >= 3 && args.tensor(2)->numel() >= args.tensor(1)->shape[0]) {
    LayerNormFirstAxisRows(args);
  } else if (name == "SwiGluGrad" && kFault == Fault::kSwiGluSigmoidExpForm) {
    SwiGluSigmoidExpForm(op, args, workspace);
  } else {
    FindCpuKernel(op.folder())->compute(args, workspace);
  }
}

uint64_t WorkspaceBytes(const Operator& op, const OpArgs& args) {
  return FindCpuKernel(op.folder())->workspace_bytes(args);
}

}  // namespace

const ComputeBackend& ActiveBackend() {
  static const ComputeBackend backend{"product-fault", WorkspaceBytes, Run};
  return backend;
}

}  // namespace aclnn_check::provider
