#include "hunt/boundary_values.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

namespace aclnn_check {
namespace {

void AddBothSigns(std::vector<double>& values, double value) {
  if (!std::isfinite(value)) return;
  values.push_back(value);
  values.push_back(-value);
}

void SortUnique(std::vector<double>& values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
}

// Where exp, sigmoid and tanh change regime in a compute dtype: exp(x) overflows above
// ln(max), turns subnormal below ln(tiny) and zero below ln(denorm); sigmoid(x) rounds to 1 above
// ln(1/u) and tanh(x) above ln(2/u)/2.
void AddFormulaBranchPoints(std::vector<double>& values, DType compute) {
  const double u = UnitRoundoff(compute);
  const double tiny = SmallestNormal(compute);
  AddBothSigns(values, std::log(LargestFinite(compute)));
  AddBothSigns(values, std::log(tiny));
  AddBothSigns(values, std::log(tiny * u * 2));
  AddBothSigns(values, std::log(1 / u));
  AddBothSigns(values, std::log(2 / u) / 2);
}

void AddDefaultInputRanges(std::vector<double>& values, const nlohmann::json& default_inputs) {
  for (const auto& [name, spec] : default_inputs.items()) {
    for (const char* key : {"low", "high", "mean"}) {
      if (spec.contains(key) && spec.at(key).is_number())
        AddBothSigns(values, spec.at(key).get<double>());
    }
  }
}

}  // namespace

std::vector<double> NumbersInText(std::string_view text) {
  static const std::regex number(R"((2\^(-?[0-9]+))|(-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?))");
  std::vector<double> numbers;
  const std::string owned(text);
  for (auto it = std::sregex_iterator(owned.begin(), owned.end(), number);
       it != std::sregex_iterator(); ++it) {
    const std::smatch& match = *it;
    if (match[1].matched) {
      numbers.push_back(std::ldexp(1.0, std::stoi(match[2].str())));
    } else {
      numbers.push_back(std::stod(match[3].str()));
    }
  }
  return numbers;
}

Boundaries BoundariesOf(const Operator& op, DType dtype, std::optional<double> eps) {
  Boundaries b;
  const double denorm = SmallestNormal(dtype) * UnitRoundoff(dtype) * 2;
  for (double v :
       {LargestFinite(dtype), SmallestNormal(dtype), denorm, NextDown(SmallestNormal(dtype), dtype),
        1.0, NextUp(1.0, dtype), NextDown(1.0, dtype), 0.0, UnitRoundoff(dtype)}) {
    AddBothSigns(b.of_dtype, v);
  }
  for (const RuleDef& rule : op.rules()) {
    if (rule.kind != "element") continue;
    for (double v : NumbersInText(rule.condition)) AddBothSigns(b.of_operator, v);
  }
  AddDefaultInputRanges(b.of_operator, op.default_inputs());
  if (eps && std::isfinite(*eps)) {
    AddBothSigns(b.of_operator, *eps);
    AddBothSigns(b.of_operator, 1 - *eps);
  }
  AddFormulaBranchPoints(b.of_operator, DType::kFloat32);
  if (dtype != DType::kFloat32) AddFormulaBranchPoints(b.of_operator, dtype);
  SortUnique(b.of_dtype);
  SortUnique(b.of_operator);
  return b;
}

}  // namespace aclnn_check
