// Float64 reference of SPEC 4.5: the mathematical definition, sequence by sequence, window by
// window (not the real kernel's per-core walk, see README.md).
#include <cmath>

#include "core/parallel_blocks.h"
#include "nsa_compress_grad/nsa_compress_grad.h"

namespace aclnn_check::nsa_compress_grad {
namespace {

// Where a float32 kernel may overflow although the exact result is finite: the sum of the
// finite terms' magnitudes reaches 2^127, within a factor 2 of float32's largest finite value.
// Only bfloat16 inputs can get there (float16 products stay below 2^32).
constexpr double kFloat32OverflowScale = 0x1p127;

}  // namespace

std::vector<RuleTag> CallRules(const Operator& op, const OpArgs& args) {
  static const RuleTag kNullActSeqLen = op.Tag("nsa.null_act_seq_len");
  static const RuleTag kLeadingZero = op.Tag("nsa.leading_zero");
  static const RuleTag kShortSequence = op.Tag("nsa.short_sequence");
  const std::vector<int64_t>* ends = args.param<std::vector<int64_t>>(kActSeqLen);
  std::vector<RuleTag> rules;
  if (!ends) rules.push_back(kNullActSeqLen);
  if (ends && !ends->empty() && ends->front() == 0) rules.push_back(kLeadingZero);
  const int64_t tokens = args.tensor(kInput)->shape[0];
  const std::vector<Sequence> sequences =
      Sequences(ends, tokens, IntParam(args, kBlockSize), IntParam(args, kStride));
  for (size_t b = 0; b < sequences.size(); ++b) {
    if (sequences[b].windows == 0 && !(b == 0 && sequences[b].length == 0)) {
      rules.push_back(kShortSequence);
      break;
    }
  }
  return rules;
}

ReferenceResult Reference(const Operator& op, const OpArgs& args) {
  static const RuleTag kUncovered = op.Tag("nsa.uncovered");
  static const RuleTag kOverlap = op.Tag("nsa.overlap");
  static const RuleTag kSpecial = op.Tag("nsa.special");
  static const RuleTag kOverflow = op.Tag("nsa.fp32_overflow");

  const TensorView& input_view = *args.tensor(kInput);
  const TensorView& grad_view = *args.tensor(kOutputGrad);
  // outputGrad and input are read one (row, head) run of head_dim at a time: as whole tensors of
  // doubles they were 8 bytes per element of input and of outputGrad.
  const std::vector<double> weight = ReadAsDouble(*args.tensor(kWeight));
  const int64_t tokens = input_view.shape[0];
  const int64_t heads = input_view.shape[1];
  const int64_t head_dim = input_view.shape[2];
  const int64_t rows_of_grad = grad_view.shape[0];
  const int64_t block_size = IntParam(args, kBlockSize);
  const int64_t stride = IntParam(args, kStride);
  const std::vector<int64_t>* ends = args.param<std::vector<int64_t>>(kActSeqLen);
  const std::vector<Sequence> sequences = Sequences(ends, tokens, block_size, stride);

  ReferenceResult result;
  result.outputs.resize(args.tensors.size());
  ReferenceOutput& input_grad = result.outputs[kInputGrad];
  ReferenceOutput& weight_grad = result.outputs[kWeightGrad];
  input_grad.Resize(static_cast<size_t>(tokens * heads * head_dim));
  weight_grad.Resize(static_cast<size_t>(block_size * heads));

  // Terms of every output element: value = sum of the terms (IEEE double), mag = sum of the
  // finite terms' magnitudes, special = some term is inf or NaN.
  std::vector<uint8_t> input_special(input_grad.value.size(), 0);
  std::vector<uint8_t> weight_special(weight_grad.value.size(), 0);
  std::vector<int64_t> coverage(static_cast<size_t>(tokens), 0);
  auto add = [](ReferenceOutput& out, std::vector<uint8_t>& special, size_t at, double term) {
    out.value[at] += term;
    if (std::isfinite(term)) {
      out.mag[at] += std::fabs(term);
    } else {
      special[at] = 1;
    }
  };
  // Which rows the windows cover, and how often.
  for (const Sequence& sequence : sequences) {
    for (int64_t i = 0; i < sequence.windows && sequence.first_window + i < rows_of_grad; ++i) {
      for (int64_t j = 0; j < block_size; ++j)
        ++coverage[static_cast<size_t>(sequence.start + i * stride + j)];
    }
  }
  // Heads touch disjoint elements of both outputs, and each element's terms are added in the same
  // order (sequence, window, row of the window, e) whichever thread runs its head.
  ForEachHarnessItem(heads, [&](int64_t n) {
    std::vector<double> grad(static_cast<size_t>(head_dim)), input(grad.size());
    for (const Sequence& sequence : sequences) {
      for (int64_t i = 0; i < sequence.windows; ++i) {
        const int64_t window = sequence.first_window + i;
        if (window >= rows_of_grad) break;  // outputGrad too short: rejected by validation
        ReadAsDouble(grad_view, (window * heads + n) * head_dim, grad);
        for (int64_t j = 0; j < block_size; ++j) {
          const int64_t row = sequence.start + i * stride + j;
          const size_t w_at = static_cast<size_t>(j * heads + n);
          const int64_t x_first = (row * heads + n) * head_dim;
          ReadAsDouble(input_view, x_first, input);
          for (int64_t e = 0; e < head_dim; ++e) {
            const size_t x_at = static_cast<size_t>(x_first + e);
            const size_t k = static_cast<size_t>(e);
            add(input_grad, input_special, x_at, weight[w_at] * grad[k]);
            add(weight_grad, weight_special, w_at, grad[k] * input[k]);
          }
        }
      }
    }
  });

  const size_t row_size = static_cast<size_t>(heads * head_dim);
  // Each element's rule depends on its own values only: blocks in parallel.
  const auto mark_block = [&](int64_t, int64_t begin, int64_t end) {
    for (size_t at = static_cast<size_t>(begin); at < static_cast<size_t>(end); ++at) {
      const int64_t covered = coverage[at / row_size];
      if (covered == 0) {
        input_grad.rule[at] = kUncovered;
      } else if (input_grad.mag[at] >= kFloat32OverflowScale) {
        input_grad.rule[at] = kOverflow;
      } else if (input_special[at]) {
        input_grad.rule[at] = kSpecial;
      } else if (covered > 1) {
        input_grad.rule[at] = kOverlap;
      }
    }
  };
  ForEachBlock(static_cast<int64_t>(input_grad.value.size()), mark_block);
  for (size_t at = 0; at < weight_grad.value.size(); ++at) {
    if (weight_grad.mag[at] >= kFloat32OverflowScale) {
      weight_grad.rule[at] = kOverflow;
    } else if (weight_special[at]) {
      weight_grad.rule[at] = kSpecial;
    }
  }
  return result;
}

}  // namespace aclnn_check::nsa_compress_grad
