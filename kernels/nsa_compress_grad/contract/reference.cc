// Float64 reference of kernels/nsa_compress_grad/README.md: the mathematical definition, each sum's
// terms in the order sequence, window, row of the window, e (not the real kernel's per-core walk,
// see README.md).
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/parallel_blocks.h"
#include "nsa_compress_grad/nsa_compress_grad.h"

namespace aclnn_check::nsa_compress_grad {
namespace {

// Where a float32 kernel may overflow although the exact result is finite: the sum of the
// finite terms' magnitudes reaches 2^127, within a factor 2 of float32's largest finite value.
// Only bfloat16 inputs can get there (float16 products stay below 2^32).
constexpr double kFloat32OverflowScale = 0x1p127;

// |term| for a finite term, +0 for inf or NaN: what a magnitude sum adds (+0 leaves it as it is).
inline double FiniteMagnitude(double term) {
  const double magnitude = std::fabs(term);
  return magnitude < std::numeric_limits<double>::infinity() ? magnitude : 0.0;
}

// The windows [first, last] of a sequence that cover its row `offset`: window i covers rows
// [i * stride, i * stride + block_size) of its sequence. Windows past outputGrad's rows (a call
// that validation rejects) are left out. Empty where first > last.
struct Windows {
  int64_t first = 0;
  int64_t last = -1;
};

Windows CoveringWindows(const Sequence& sequence, int64_t offset, int64_t block_size,
                        int64_t stride, int64_t rows_of_grad) {
  if (sequence.windows <= 0) return {};
  return {
      std::max<int64_t>(0, (offset - block_size + stride) / stride),
      std::min({sequence.windows - 1, offset / stride, rows_of_grad - 1 - sequence.first_window})};
}

// Elements [first, first + length) of rows of a tensor of `row_elements` per row, as doubles,
// the last `kept` rows decoded kept (the one with the lowest index goes first): consecutive rows
// of input share most of their windows.
class DecodedRows {
 public:
  DecodedRows(const TensorView& view, int64_t row_elements, int64_t first, int64_t length,
              int64_t kept)
      : view_(view), row_elements_(row_elements), first_(first), slots_(static_cast<size_t>(kept)) {
    for (Slot& slot : slots_) slot.values.resize(static_cast<size_t>(length));
  }

  const double* Row(int64_t row) {
    Slot* oldest = &slots_[0];
    for (Slot& slot : slots_) {
      if (slot.row == row) return slot.values.data();
      if (slot.row < oldest->row) oldest = &slot;
    }
    ReadAsDouble(view_, row * row_elements_ + first_, oldest->values);
    oldest->row = row;
    return oldest->values.data();
  }

 private:
  struct Slot {
    int64_t row = -1;
    std::vector<double> values;
  };
  const TensorView& view_;
  int64_t row_elements_;
  int64_t first_;
  std::vector<Slot> slots_;
};

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

  // Every output element's value is the sum of its terms in one order (sequence, window, row of
  // the window, e), whichever pass or thread computes it, and mag the sum of the finite terms'
  // magnitudes (adding +0 for the others leaves it as it is). A term of inf or NaN makes the
  // element special, and only such a term makes its value inf or NaN: a finite term is at most
  // float32's largest value squared (about 1e77), so no sum of them reaches double's overflow.
  const size_t row_size = static_cast<size_t>(heads * head_dim);

  // inputGrad, rows in parallel: a row's terms come from the windows that cover it, which are
  // consecutive windows of the row's sequence. Rows are disjoint and walk the output in storage
  // order; a block of rows shares most of its windows, decoded once.
  std::vector<const Sequence*> sequence_of(static_cast<size_t>(tokens), nullptr);
  for (const Sequence& sequence : sequences) {
    for (int64_t row = sequence.start; row < sequence.start + sequence.length; ++row)
      sequence_of[static_cast<size_t>(row)] = &sequence;
  }
  // Up to this many windows cover a row; DecodedRows keeps one more, so that a row's windows
  // stay decoded together.
  const int64_t most_covering = stride > 0 ? (block_size + stride - 1) / stride : 0;
  constexpr int64_t kRowsPerItem = 64;
  ForEachHarnessItem((tokens + kRowsPerItem - 1) / kRowsPerItem, [&](int64_t item) {
    DecodedRows grad_rows(grad_view, static_cast<int64_t>(row_size), 0,
                          static_cast<int64_t>(row_size), most_covering + 1);
    std::vector<const double*> grads;
    for (int64_t row = item * kRowsPerItem; row < std::min(tokens, (item + 1) * kRowsPerItem);
         ++row) {
      const size_t row_first = static_cast<size_t>(row) * row_size;
      const Sequence* sequence = sequence_of[static_cast<size_t>(row)];
      const Windows cover = sequence ? CoveringWindows(*sequence, row - sequence->start, block_size,
                                                       stride, rows_of_grad)
                                     : Windows{};
      grads.clear();
      for (int64_t i = cover.first; i <= cover.last; ++i)
        grads.push_back(grad_rows.Row(sequence->first_window + i));
      // A head's values and magnitudes (head_dim of each, +0 from Resize) stay in L1 across its
      // windows.
      for (int64_t n = 0; n < heads; ++n) {
        const size_t first = row_first + static_cast<size_t>(n * head_dim);
        double* __restrict value = input_grad.value.data() + first;
        double* __restrict mag = input_grad.mag.data() + first;
        for (size_t c = 0; c < grads.size(); ++c) {
          const int64_t j =
              row - sequence->start - (cover.first + static_cast<int64_t>(c)) * stride;
          const double w = weight[static_cast<size_t>(j * heads + n)];
          const double* __restrict grad = grads[c] + n * head_dim;
          for (int64_t e = 0; e < head_dim; ++e) {
            const double term = w * grad[e];
            value[e] += term;
            mag[e] += FiniteMagnitude(term);
          }
        }
        RuleTag* rule = input_grad.rule.data() + first;
        for (int64_t e = 0; e < head_dim; ++e) {
          if (grads.empty()) {
            rule[e] = kUncovered;
          } else if (mag[e] >= kFloat32OverflowScale) {
            rule[e] = kOverflow;
          } else if (!std::isfinite(value[e])) {
            rule[e] = kSpecial;
          } else if (grads.size() > 1) {
            rule[e] = kOverlap;
          }
        }
      }
    }
  });

  // weightGrad, a head at a time: each of its elements sums over every window, so one head's
  // block_size sums run on one thread, in locals. Walking the rows in order meets the windows
  // of each sum in order, and decodes each row of input once.
  ForEachHarnessItem(heads, [&](int64_t n) {
    DecodedRows grad_rows(grad_view, static_cast<int64_t>(row_size), n * head_dim, head_dim,
                          most_covering + 1);
    std::vector<double> input(static_cast<size_t>(head_dim));
    std::vector<double> sum(static_cast<size_t>(block_size), 0.0), sum_mag(sum.size(), 0.0);
    for (const Sequence& sequence : sequences) {
      for (int64_t offset = 0; offset < sequence.length; ++offset) {
        const Windows cover = CoveringWindows(sequence, offset, block_size, stride, rows_of_grad);
        if (cover.first > cover.last) continue;
        ReadAsDouble(input_view, ((sequence.start + offset) * heads + n) * head_dim, input);
        for (int64_t i = cover.first; i <= cover.last; ++i) {
          const size_t j = static_cast<size_t>(offset - i * stride);
          const double* grad = grad_rows.Row(sequence.first_window + i);
          double s = sum[j], m = sum_mag[j];
          for (size_t k = 0; k < input.size(); ++k) {
            const double term = grad[k] * input[k];
            s += term;
            m += FiniteMagnitude(term);
          }
          sum[j] = s;
          sum_mag[j] = m;
        }
      }
    }
    for (int64_t j = 0; j < block_size; ++j) {
      const size_t at = static_cast<size_t>(j * heads + n);
      weight_grad.value[at] = sum[static_cast<size_t>(j)];
      weight_grad.mag[at] = sum_mag[static_cast<size_t>(j)];
      if (sum_mag[static_cast<size_t>(j)] >= kFloat32OverflowScale) {
        weight_grad.rule[at] = kOverflow;
      } else if (!std::isfinite(sum[static_cast<size_t>(j)])) {
        weight_grad.rule[at] = kSpecial;
      }
    }
  });
  return result;
}

}  // namespace aclnn_check::nsa_compress_grad
