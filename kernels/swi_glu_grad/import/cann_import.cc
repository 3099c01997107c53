// SwiGluGrad's CANN case import (docs/contract/case-files.md): ST CSV rows of kernel swi_glu_grad
// and ATK cases of aclnnSwiGluGrad onto cases/swi_glu_grad axes. Compiled into the import layer
// (src/import).
#include <span>

#include "import/case_mapping_builder.h"

namespace aclnn_check {
namespace {

using nlohmann::json;
using Dims = std::vector<int64_t>;

json SwiGluGrad(Mapping& m) {
  m.NameInputsByPosition({"y_grad", "x"});
  const SourceTensor& y_grad = m.Input({"y_grad", "yGrad"});
  const SourceTensor& x = m.Input({"x"});
  // swi_glu_grad's prototype: dim is optional, default -1.
  const int64_t dim = IntegerAttribute(m, "dim", -1);
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  Dims half = x.shape;
  if (rank > 0 && dim >= -rank && dim < rank) half[static_cast<size_t>(dim < 0 ? dim + rank : dim)] /= 2;
  m.Axis("dtype", x.dtype);
  m.Axis("x_shape", x.shape);
  m.Axis("dim", dim);
  m.Expect("yGrad", &y_grad, x.dtype, half);
  m.Expect("out", m.Output(0), x.dtype, x.shape);
  m.Distribution("yGrad", y_grad);
  m.Distribution("x", x);
  m.CloseTolerance({"out"});
  return m.Build("SwiGluGrad");
}

const CannOperatorName kNames[] = {
    {"swi_glu_grad", SwiGluGrad},
    {"aclnnSwiGluGrad", SwiGluGrad},
};

}  // namespace

std::span<const CannOperatorName> CannImportNames_swi_glu_grad() { return kNames; }

}  // namespace aclnn_check
