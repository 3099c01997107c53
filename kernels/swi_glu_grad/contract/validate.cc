// The checks of kernels/swi_glu_grad/README.md in their documented order, and the split of x that
// they guarantee.
#include "catalogue/checks.h"
#include "swi_glu_grad/swi_glu_grad.h"

namespace aclnn_check::swi_glu_grad {
namespace {

// dim in [-rank, rank - 1] mapped to [0, rank - 1]; nullopt outside.
std::optional<int64_t> NormalizedDim(int64_t dim, int64_t rank) {
  if (dim < -rank || dim >= rank) return std::nullopt;
  return dim < 0 ? dim + rank : dim;
}

}  // namespace

int64_t DimParam(const OpArgs& args) {
  const int64_t* dim = args.params.size() > kDim ? args.param<int64_t>(kDim) : nullptr;
  return dim ? *dim : kDefaultDim;
}

Split SplitOf(const OpArgs& args) {
  const Dims& shape = args.tensor(kX)->shape;
  const int64_t rank = static_cast<int64_t>(shape.size());
  const int64_t dim = NormalizedDim(DimParam(args), rank).value_or(rank - 1);
  Split split;
  split.outer = NumElements(std::span(shape).first(static_cast<size_t>(dim)));
  split.half = shape[static_cast<size_t>(dim)] / 2;
  split.inner = NumElements(std::span(shape).subspan(static_cast<size_t>(dim) + 1));
  return split;
}

CheckOutcome Validate(const Operator& op, const OpArgs& args, Product product) {
  if (auto failed = RequireNotNull(op, args, {kYGrad, kX, kOut}, "swiglu.check.null")) {
    return *failed;
  }
  for (size_t slot : {kX, kYGrad, kOut}) {
    if (auto failed = RequireSupportedDType(op, product, args, slot)) return *failed;
  }
  if (auto failed = RequireSameDType(op, args, {kX, kYGrad, kOut}, "swiglu.check.dtype")) {
    return *failed;
  }
  if (auto failed = RequireRank(op, args, kX, 1, kMaxRank, "swiglu.check.rank")) {
    return *failed;
  }
  const TensorView& x = *args.tensor(kX);
  const int64_t dim_param = DimParam(args);
  const std::optional<int64_t> dim = NormalizedDim(dim_param, x.rank());
  if (!dim) {
    return Reject(ACLNN_ERR_PARAM_INVALID, "swiglu.check.dim",
                  "dim is " + std::to_string(dim_param) + ", expected a value in [" +
                      std::to_string(-x.rank()) + ", " + std::to_string(x.rank() - 1) +
                      "] for x of rank " + std::to_string(x.rank()));
  }
  const int64_t split_size = x.shape[static_cast<size_t>(*dim)];
  if (split_size % 2 != 0) {
    return Reject(ACLNN_ERR_PARAM_INVALID, "swiglu.check.odd_split",
                  "x has shape " + FormatDims(x.shape) + ": its size " +
                      std::to_string(split_size) + " along dim " + std::to_string(dim_param) +
                      " is odd, so x cannot be split into two halves");
  }
  Dims ygrad_shape = x.shape;
  ygrad_shape[static_cast<size_t>(*dim)] = split_size / 2;
  if (args.tensor(kYGrad)->shape != ygrad_shape) {
    return Reject(ACLNN_ERR_PARAM_INVALID, "swiglu.check.ygrad_shape",
                  "yGrad has shape " + FormatDims(args.tensor(kYGrad)->shape) + ", expected " +
                      FormatDims(ygrad_shape) + " (x's shape " + FormatDims(x.shape) +
                      " halved along dim " + std::to_string(dim_param) + ")");
  }
  if (auto failed = RequireSameShape(op, args, kOut, kX, "swiglu.check.out_shape")) {
    return *failed;
  }
  if (auto failed = RequireNotEmpty(op, args, {kX, kYGrad, kOut}, "swiglu.check.empty")) {
    return *failed;
  }
  if (product == Product::kInf) {
    // Atlas inference tiling: each half row of x (prod(shape[dim:]) / 2 elements) is 64-byte
    // aligned.
    const int64_t half_row = NumElements(std::span(x.shape).subspan(static_cast<size_t>(*dim))) / 2;
    const int64_t bytes = half_row * static_cast<int64_t>(DTypeSize(x.dtype));
    if (bytes % 64 != 0) {
      return Reject(ACLNN_ERR_PARAM_INVALID, "swiglu.align64",
                    "x has shape " + FormatDims(x.shape) + " and dtype " +
                        std::string(DTypeName(x.dtype)) + ": a half row along dim " +
                        std::to_string(dim_param) + " is " + std::to_string(half_row) +
                        " elements = " + std::to_string(bytes) +
                        " bytes, which the Atlas inference series requires to be a multiple of 64");
    }
  }
  return {};
}

}  // namespace aclnn_check::swi_glu_grad
