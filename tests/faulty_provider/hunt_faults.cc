// Test-only providers for `aclnn-check hunt` (docs/hunt.md): each computes like the ref provider
// (the float64 reference rounded once, so that no other error can be what a hunt finds) except for
// one fault, chosen at build time (ACLNN_HUNT_FAULT), that is wrong only in a narrow band
// of inputs which the default suite's distributions do not reach (tests/hunt prove both: the
// default suite passes, the hunt finds the fault and random sampling of the same budget does not).
// Each fault recomputes only the elements of its band after the exact result is written.
#include <cmath>
#include <vector>

#include "core/tensor_view.h"
#include "layer_norm_backward/layer_norm_backward.h"
#include "nsa_compress_grad/nsa_compress_grad.h"
#include "providers/runtime/backend.h"
#include "swi_glu_grad/swi_glu_grad.h"

#ifndef ACLNN_HUNT_FAULT
#error "ACLNN_HUNT_FAULT must name the planted fault"
#endif

namespace aclnn_check::provider {
namespace {

enum class Fault {
  // NsaCompressGrad's weightGrad accumulated in float16 once a window sum's partial value passes
  // 2048 in magnitude, where the sum then cancels back below 1 (the half-precision steps are then
  // the whole result). Without the cancellation the default suite's CANN cases (cann_normal with
  // outliers) reach partial sums of 10^6 and catch it (docs/hunt.md).
  kNsaHalfAccumulation,
  // SwiGluGrad float32 with its sigmoid kSigmoidUlps ulps low in the last 2^-10 before float32's
  // sigmoid saturates (|A - 24 ln 2| < 2^-10: a piecewise sigmoid with one bad segment). Over all
  // of 15 < A < 17 the default suite's cann_normal cases catch it.
  kSwiGluSigmoidBand,
  // LogitGrad flushing a dy that is subnormal in float32 to zero (denormals-are-zero in the
  // float32 compute path: float32 and bfloat16 inputs; float16's subnormals are normal in
  // float32, and the default suite's float16 sweeps would catch them). Wrong where x(1 - x) makes
  // the result normal.
  kLogitSubnormalFlush,
  // LayerNormBackward's gradWeight given as 0 for columns whose sum cancels below 1e-3 of the sum
  // of its terms' magnitudes (a kernel that treats near-cancellation as exact), where the terms
  // are large (mean |term| >= 256). Without that second condition the band is not narrow: in the
  // default [16, 256] point a column of normal terms cancels below 1e-3 with probability about
  // 0.2%, half a column per call (docs/hunt.md).
  kLayerNormCancelledColumn,
};
constexpr Fault kFault = Fault::ACLNN_HUNT_FAULT;

// 8 ulps of sigmoid near 1 stay inside SwiGluGrad's documented bound (c = 16 with mag's
// 1 + |A|(1 + s)): measured in docs/hunt.md. The planted error is the smallest power of two above
// the bound in dB.
constexpr int kSigmoidUlps = 32;
const double kSaturation = 24 * std::log(2.0);
constexpr double kBandHalfWidth = 0x1p-10;

void SwiGluSigmoidBand(const OpArgs& args) {
  namespace op = swi_glu_grad;
  if (args.tensor(op::kOut)->dtype != DType::kFloat32) return;
  const op::Split split = op::SplitOf(args);
  const std::vector<float> grad = ReadAsFloat(*args.tensor(op::kYGrad));
  const std::vector<float> x = ReadAsFloat(*args.tensor(op::kX));
  std::vector<float> out = ReadAsFloat(*args.tensor(op::kOut));
  const int64_t half_block = split.half * split.inner;
  for (int64_t k = 0; k < split.outer * half_block; ++k) {
    const size_t ia = static_cast<size_t>((k / half_block) * 2 * half_block + k % half_block);
    const size_t ib = ia + static_cast<size_t>(half_block);
    const float a = x[ia], b = x[ib], g = grad[static_cast<size_t>(k)];
    if (!(std::fabs(a - kSaturation) < kBandHalfWidth)) continue;
    float s = 1.0f / (1.0f + std::exp(-a));
    for (int i = 0; i < kSigmoidUlps; ++i) s = std::nextafter(s, 0.0f);
    out[ia] = g * b * s * (1.0f + a * (1.0f - s));
    out[ib] = g * a * s;
  }
  WriteFromFloat(*args.tensor(op::kOut), out);
}

void LogitSubnormalFlush(const OpArgs& args) {
  const TensorView& dy_view = *args.tensor(1);
  const std::vector<double> dy = ReadAsDouble(dy_view);
  std::vector<double> out = ReadAsDouble(*args.tensor(2));
  const double tiny = SmallestNormal(DType::kFloat32);
  if (dy_view.dtype == DType::kFloat16) return;
  for (size_t i = 0; i < out.size(); ++i) {
    if (dy[i] != 0 && std::fabs(dy[i]) < tiny && std::isfinite(out[i]))
      out[i] = std::copysign(0.0, out[i]);
  }
  WriteFromDouble(*args.tensor(2), out);
}

void NsaHalfAccumulation(const OpArgs& args) {
  namespace op = nsa_compress_grad;
  const TensorView& input_view = *args.tensor(op::kInput);
  const std::vector<float> input = ReadAsFloat(input_view);
  const std::vector<float> grad = ReadAsFloat(*args.tensor(op::kOutputGrad));
  std::vector<float> weight_grad = ReadAsFloat(*args.tensor(op::kWeightGrad));
  const int64_t heads = input_view.shape[1], head_dim = input_view.shape[2];
  const int64_t block = op::IntParam(args, op::kBlockSize),
                stride = op::IntParam(args, op::kStride);
  const auto sequences = op::Sequences(args.param<std::vector<int64_t>>(op::kActSeqLen),
                                       input_view.shape[0], block, stride);
  for (int64_t n = 0; n < heads; ++n) {
    for (int64_t j = 0; j < block; ++j) {
      float sum = 0;
      double exact = 0;
      bool spilled = false;
      for (const op::Sequence& sequence : sequences) {
        for (int64_t w = 0; w < sequence.windows; ++w) {
          const int64_t row = sequence.start + w * stride + j;
          const int64_t window = sequence.first_window + w;
          for (int64_t e = 0; e < head_dim; ++e) {
            const float term = grad[static_cast<size_t>((window * heads + n) * head_dim + e)] *
                               input[static_cast<size_t>((row * heads + n) * head_dim + e)];
            sum += term;
            exact += term;
            spilled = spilled || std::fabs(sum) > 2048.0f;
            if (spilled) sum = static_cast<float>(RoundTo(sum, DType::kFloat16));
          }
        }
      }
      if (spilled && std::fabs(exact) < 1.0) weight_grad[static_cast<size_t>(j * heads + n)] = sum;
    }
  }
  WriteFromFloat(*args.tensor(op::kWeightGrad), weight_grad);
}

constexpr double kLargeTerm = 256;

void LayerNormCancelledColumn(const OpArgs& args) {
  namespace op = layer_norm_backward;
  if (!args.tensor(op::kGradWeight)) return;
  const auto rows = op::RowsOf(args);
  if (!rows) return;
  const std::vector<double> grad = ReadAsDouble(*args.tensor(op::kGradOut));
  const std::vector<double> input = ReadAsDouble(*args.tensor(op::kInput));
  const std::vector<double> mean = ReadAsDouble(*args.tensor(op::kMean));
  const std::vector<double> rstd = ReadAsDouble(*args.tensor(op::kRstd));
  std::vector<double> weight_grad = ReadAsDouble(*args.tensor(op::kGradWeight));
  for (int64_t j = 0; j < rows->row_size; ++j) {
    double sum = 0, magnitude = 0;
    for (int64_t r = 0; r < rows->rows; ++r) {
      const size_t at = static_cast<size_t>(r * rows->row_size + j);
      const double term =
          grad[at] * (input[at] - mean[static_cast<size_t>(r)]) * rstd[static_cast<size_t>(r)];
      sum += term;
      magnitude += std::fabs(term);
    }
    const bool large = magnitude >= kLargeTerm * static_cast<double>(rows->rows);
    if (std::isfinite(magnitude) && large && std::fabs(sum) < 1e-3 * magnitude)
      weight_grad[static_cast<size_t>(j)] = 0;
  }
  WriteFromDouble(*args.tensor(op::kGradWeight), weight_grad);
}

void Run(const Operator& op, const OpArgs& args, void*) {
  const ReferenceResult exact = op.Reference(args);
  for (size_t slot = 0; slot < exact.outputs.size(); ++slot) {
    if (exact.outputs[slot].computed && args.tensor(slot))
      WriteFromDouble(*args.tensor(slot), exact.outputs[slot].value);
  }
  if (kFault == Fault::kSwiGluSigmoidBand && op.name() == "SwiGluGrad") SwiGluSigmoidBand(args);
  if (kFault == Fault::kLogitSubnormalFlush && op.name() == "LogitGrad") LogitSubnormalFlush(args);
  if (kFault == Fault::kNsaHalfAccumulation && op.name() == "NsaCompressGrad")
    NsaHalfAccumulation(args);
  if (kFault == Fault::kLayerNormCancelledColumn && op.name() == "LayerNormBackward")
    LayerNormCancelledColumn(args);
}

uint64_t WorkspaceBytes(const Operator&, const OpArgs&) { return 0; }

}  // namespace

const ComputeBackend& ActiveBackend() {
  static const ComputeBackend backend{"hunt-fault", WorkspaceBytes, Run};
  return backend;
}

}  // namespace aclnn_check::provider
