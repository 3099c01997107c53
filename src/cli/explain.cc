#include "cli/explain.h"

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace aclnn_check {

void Explain(const Operator& op, std::ostream& out) {
  out << op.name() << " (aclnn" << op.name() << "GetWorkspaceSize + aclnn" << op.name()
      << "), rule prefix \"" << op.id() << "\"\n  " << op.summary() << "\n\n";
  out << "Tensors:";
  for (const TensorSlot& slot : op.tensors()) {
    out << " " << slot.name << (slot.role == SlotRole::kInput ? " (in)" : " (out)");
  }
  out << "\nParameters:";
  if (op.params().empty()) out << " none";
  for (const ParamSlot& slot : op.params()) out << " " << slot.name;
  out << "\n\nDtypes by product:\n";
  for (Product product : AllProducts()) {
    out << "  " << ProductName(product) << ": ";
    const auto dtypes = op.SupportedDTypes(product);
    if (dtypes.empty()) out << "not available (161002 for every call that passes the null checks)";
    for (size_t i = 0; i < dtypes.size(); ++i) out << (i ? ", " : "") << DTypeName(dtypes[i]);
    out << "\n";
  }
  out << "\nCase-file axes (besides dtype, shape.<tensor>, dtype.<tensor>, param.<name>):\n";
  for (const AxisDef& axis : op.axes()) {
    out << "  " << axis.name << ": " << axis.description << " (default " << axis.default_values->dump()
        << ")\n";
  }
  out << "\nTolerances (|dev - ref| <= ulp * ulp(ref) + c * 2^-24 * mag):\n";
  for (const OutputTolerance& t : op.tolerances()) {
    out << "  " << t.output << ": ulp " << t.ulp << ", c " << t.c << "\n    mag: " << t.mag
        << "\n    why: " << t.why << "\n";
  }
  out << "\nRules:\n";
  for (const RuleDef& rule : op.rules()) {
    out << "  " << rule.id << " [" << rule.kind;
    if (rule.status) out << ", " << DescribeStatus(*rule.status);
    if (rule.kind == "element") out << ", expect " << rule.expect;
    out << "]\n    " << rule.description << "\n";
    if (!rule.condition.empty()) out << "    when: " << rule.condition << "\n";
    if (!rule.alt.empty()) out << "    alt: " << rule.alt << "\n";
    if (!rule.source.empty()) out << "    source: " << rule.source << "\n";
  }
}

}  // namespace aclnn_check
