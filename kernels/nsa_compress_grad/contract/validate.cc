// The checks of kernels/nsa_compress_grad/README.md in their documented order (plus the rank check
// that the order needs before D and N can be read, see README.md).
#include <string>

#include "catalogue/checks.h"
#include "nsa_compress_grad/nsa_compress_grad.h"

namespace aclnn_check::nsa_compress_grad {
namespace {

CheckOutcome Invalid(std::string_view rule, std::string message) {
  return Reject(ACLNN_ERR_PARAM_INVALID, rule, std::move(message));
}

bool PositiveMultipleOf16(int64_t value) { return value > 0 && value % kAlignment == 0; }

std::optional<CheckOutcome> CheckActSeqLen(const std::vector<int64_t>& ends, int64_t tokens) {
  constexpr std::string_view kRule = "nsa.check.act_seq_len";
  if (ends.empty())
    return Invalid(kRule, "actSeqLen is empty; pass a null pointer for one sequence");
  int64_t previous = 0;
  for (size_t b = 0; b < ends.size(); ++b) {
    const std::string at = "actSeqLen[" + std::to_string(b) + "] = " + std::to_string(ends[b]);
    if (ends[b] < 0) return Invalid(kRule, at + " is negative");
    if (ends[b] < previous) {
      return Invalid(kRule, at + " is below the previous end " + std::to_string(previous) +
                                "; the cumulative ends must not decrease");
    }
    previous = ends[b];
  }
  if (ends.back() != tokens) {
    return Invalid(kRule, "the last actSeqLen value is " + std::to_string(ends.back()) +
                              " but input has T = " + std::to_string(tokens) + " rows");
  }
  return std::nullopt;
}

}  // namespace

CheckOutcome Validate(const Operator& op, const OpArgs& args, Product product) {
  const std::initializer_list<size_t> kAll = {kOutputGrad, kInput, kWeight, kInputGrad,
                                              kWeightGrad};
  if (auto failed = RequireNotNull(op, args, kAll, "nsa.check.null")) return *failed;
  for (size_t slot : kAll) {
    if (auto failed = RequireSupportedDType(op, product, args, slot)) return *failed;
  }
  if (auto failed = RequireSameDType(
          op, args, {kInput, kOutputGrad, kWeight, kInputGrad, kWeightGrad}, "nsa.check.dtype")) {
    return *failed;
  }
  for (size_t slot : {kOutputGrad, kInput}) {
    if (auto failed = RequireRank(op, args, slot, 3, 3, "nsa.check.rank")) return *failed;
  }

  const TensorView& input = *args.tensor(kInput);
  const int64_t tokens = input.shape[0];
  const int64_t heads = input.shape[1];
  const int64_t head_dim = input.shape[2];
  const int64_t block_size = IntParam(args, kBlockSize);
  const int64_t stride = IntParam(args, kStride);

  for (const auto& [name, value] :
       {std::pair{"compressBlockSize", block_size}, std::pair{"compressStride", stride},
        std::pair{"D (input.shape[2])", head_dim}}) {
    if (!PositiveMultipleOf16(value)) {
      return Invalid("nsa.check.align16", std::string(name) + " is " + std::to_string(value) +
                                              ", expected a positive multiple of 16");
    }
  }
  if (block_size <= stride) {
    return Invalid("nsa.check.block_vs_stride", "compressBlockSize " + std::to_string(block_size) +
                                                    " must be greater than compressStride " +
                                                    std::to_string(stride));
  }
  if (block_size > kMaxBlockSize) {
    return Invalid("nsa.check.block_size_max",
                   "compressBlockSize " + std::to_string(block_size) + " exceeds the maximum 128");
  }
  if (head_dim > kMaxHeadDim) {
    return Invalid("nsa.check.head_dim_max",
                   "D (input.shape[2]) is " + std::to_string(head_dim) + ", at most 256");
  }
  if (heads < 1 || heads > kMaxHeads) {
    return Invalid("nsa.check.heads",
                   "N (input.shape[1]) is " + std::to_string(heads) + ", expected 1..128");
  }
  const TensorView& weight = *args.tensor(kWeight);
  if (weight.shape != Dims{block_size, heads}) {
    return Invalid("nsa.check.weight_shape",
                   "weight has shape " + FormatDims(weight.shape) + ", expected " +
                       FormatDims(Dims{block_size, heads}) + " ([compressBlockSize, N])");
  }
  if (const int64_t type = IntParam(args, kActSeqLenType); type != 0) {
    return Invalid("nsa.check.act_seq_len_type", "actSeqLenType is " + std::to_string(type) +
                                                     ", only 0 (cumulative) is supported");
  }
  if (const std::string* layout = args.param<std::string>(kLayout); layout && *layout != "TND") {
    return Invalid("nsa.check.layout", "layout is \"" + *layout + "\", only \"TND\" is supported");
  }
  const std::vector<int64_t>* ends = args.param<std::vector<int64_t>>(kActSeqLen);
  if (ends) {
    if (auto failed = CheckActSeqLen(*ends, tokens)) return *failed;
  }
  int64_t windows = 0;
  for (const Sequence& sequence : Sequences(ends, tokens, block_size, stride)) {
    windows += sequence.windows;
  }
  const TensorView& output_grad = *args.tensor(kOutputGrad);
  if (output_grad.shape != Dims{windows, heads, head_dim}) {
    return Invalid("nsa.check.output_grad_shape",
                   "outputGrad has shape " + FormatDims(output_grad.shape) + ", expected " +
                       FormatDims(Dims{windows, heads, head_dim}) +
                       " ([sum of the sequences' windows, N, D])");
  }
  if (auto failed = RequireSameShape(op, args, kInputGrad, kInput, "nsa.check.output_shape")) {
    return *failed;
  }
  if (auto failed = RequireSameShape(op, args, kWeightGrad, kWeight, "nsa.check.output_shape")) {
    return *failed;
  }
  if (auto failed = RequireNotEmpty(op, args, kAll, "nsa.check.empty")) return *failed;
  return {};
}

}  // namespace aclnn_check::nsa_compress_grad
