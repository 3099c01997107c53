// Test points: the cartesian product of a case file's axes and layouts
// (docs/contract/case-files.md), each with its call planned, its expected outcome taken from the
// operator's own validation, and a stable id.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cases/case_file.h"

namespace aclnn_check {

struct TestPoint {
  const CaseFile* case_file = nullptr;
  std::string id;               // "<case>/<axis>=<value>/.../layout=<layout>"
  nlohmann::json axis_values;   // axis -> value, dtype and overrides included
  DType dtype = DType::kFloat32;
  Layout layout;
  CallPlan plan;
  bool null_workspace_size = false;
  bool null_executor = false;
  // What the documented checks say for this call on the product (status 0 = must succeed).
  CheckOutcome expected;

  const Operator& op() const { return *case_file->op; }
};

constexpr int64_t kMaxTestPointsPerCase = 100000;

// Every test point of the case on the product, in axis order. Throws InputError when a point
// cannot be planned, or when the case's `expect` disagrees with the documented checks (a point
// rejected by the product/dtype matrix is exempt: it becomes a matrix check).
std::vector<TestPoint> ExpandCase(const CaseFile& case_file, Product product);

// Arguments over the point's plan with no data (shapes, dtypes, layouts and parameters only).
OpArgs DescriptorArgs(const TestPoint& point);

// The value of the point's double parameter `eps`, when the operator has one.
std::optional<double> EpsParameter(const TestPoint& point);

}  // namespace aclnn_check
