// Special values of case files (docs/contract/case-files.md), injected into inputs at deterministic
// positions. Grammar: a JSON number, or a string: a decimal number ("-3", "1e-6"), "nan", "inf",
// "-inf", "max"/"-max" (largest finite), "tiny"/"-tiny" (smallest normal), "denorm"/"-denorm"
// (smallest subnormal), "eps", "-eps", "1-eps" (the test point's eps axis), "next_up(S)",
// "next_down(S)". Each resolves in the tensor's dtype: the result is a value of that dtype.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/dtype.h"

namespace aclnn_check {

struct SpecialContext {
  DType dtype = DType::kFloat32;
  std::optional<double> eps;  // the test point's eps axis, when it has one
};

// nullopt when the special is well formed, else what is wrong with it.
std::optional<std::string> SpecialSyntaxError(const nlohmann::json& special);
// The value in ctx.dtype. Throws std::invalid_argument for a malformed special or for "eps"
// without an eps axis.
double ResolveSpecial(const nlohmann::json& special, const SpecialContext& ctx);

}  // namespace aclnn_check
