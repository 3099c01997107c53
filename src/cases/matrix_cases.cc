#include "cases/matrix_cases.h"

#include <string>

namespace aclnn_check {

std::vector<std::unique_ptr<CaseFile>> MatrixCases(const std::set<const Operator*>& operators,
                                                   Product product) {
  std::vector<std::unique_ptr<CaseFile>> cases;
  for (const Operator& op : Catalogue()) {
    if (!operators.count(&op)) continue;
    nlohmann::json dtypes = nlohmann::json::array();
    for (DType dtype : ComputeDTypes()) {
      if (!op.Supports(product, dtype)) dtypes.push_back(std::string(DTypeName(dtype)));
    }
    if (dtypes.empty()) continue;
    auto c = std::make_unique<CaseFile>();
    c->path = "<matrix>";
    c->name = "matrix." + op.id();
    c->op = &op;
    c->axes.emplace_back("dtype", dtypes);
    for (const AxisDef& axis : op.axes()) {
      c->axes.emplace_back(axis.name, nlohmann::json::array({(*axis.default_values)[0]}));
    }
    for (const TensorSlot& slot : op.tensors()) {
      if (slot.role == SlotRole::kInput) c->inputs[std::string(slot.name)] = InputSpec{};
    }
    c->layouts = {Layout{}};
    c->expect.pass = false;
    c->expect.status = ACLNN_ERR_PARAM_INVALID;
    cases.push_back(std::move(c));
  }
  return cases;
}

bool IsMatrixCase(const CaseFile& case_file) { return case_file.path == "<matrix>"; }

}  // namespace aclnn_check
