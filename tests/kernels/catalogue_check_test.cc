// The catalogue's start-up check: a folder's OperatorDef missing a required function, or an
// operator.json whose name does not match its folder, is refused with the folder and field named.
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "catalogue/operator.h"

namespace aclnn_check {
namespace {

const OperatorDef& LogitGradDef() { return FindOperator("logit_grad")->def(); }

std::string ErrorOf(const OperatorDef& def, const std::string& folder) {
  try {
    Operator op(def, folder);
  } catch (const std::logic_error& error) {
    return error.what();
  }
  return "";
}

TEST(CatalogueCheck, EveryFolderPasses) {
  for (const Operator& op : Catalogue()) EXPECT_EQ(ErrorOf(op.def(), op.folder()), "") << op.folder();
}

TEST(CatalogueCheck, MissingPlanIsNamed) {
  OperatorDef def = LogitGradDef();
  def.plan = nullptr;
  EXPECT_EQ(ErrorOf(def, "logit_grad"),
            "kernels/logit_grad/contract/operator.cc: kOperator_logit_grad has no .plan (a required field)");
}

TEST(CatalogueCheck, EachRequiredFieldIsChecked) {
  const struct {
    const char* field;
    void (*clear)(OperatorDef&);
  } fields[] = {
      {"description_json", [](OperatorDef& d) { d.description_json = {}; }},
      {"tensors", [](OperatorDef& d) { d.tensors = {}; }},
      {"validate", [](OperatorDef& d) { d.validate = nullptr; }},
      {"reference", [](OperatorDef& d) { d.reference = nullptr; }},
      {"call_rules", [](OperatorDef& d) { d.call_rules = nullptr; }},
      {"invoke_get_workspace_size", [](OperatorDef& d) { d.invoke_get_workspace_size = nullptr; }},
      {"plan", [](OperatorDef& d) { d.plan = nullptr; }},
  };
  for (const auto& field : fields) {
    OperatorDef def = LogitGradDef();
    field.clear(def);
    EXPECT_NE(ErrorOf(def, "logit_grad").find(std::string("has no .") + field.field),
              std::string::npos)
        << field.field;
  }
}

TEST(CatalogueCheck, DeriveInputsMustMatchTheDescription) {
  OperatorDef without = FindOperator("layer_norm_backward")->def();
  without.derive_inputs = nullptr;
  EXPECT_NE(ErrorOf(without, "layer_norm_backward").find("has no .derive_inputs"),
            std::string::npos);
  OperatorDef with = LogitGradDef();
  with.derive_inputs = [](const OpArgs&) {};
  EXPECT_NE(ErrorOf(with, "logit_grad").find("sets .derive_inputs"), std::string::npos);
}

TEST(CatalogueCheck, NameMustMatchTheFolder) {
  EXPECT_EQ(ErrorOf(LogitGradDef(), "logit"),
            "kernels/logit/operator.json: name \"LogitGrad\" belongs in a folder named logit_grad "
            "(its header is aclnnop/aclnn_logit_grad.h)");
}

}  // namespace
}  // namespace aclnn_check
