#include "cases/special_value.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string_view>

namespace aclnn_check {
namespace {

constexpr std::string_view kGrammar =
    "expected a number, nan, inf, -inf, max, -max, tiny, -tiny, denorm, -denorm, eps, -eps, "
    "1-eps, next_up(S) or next_down(S)";

std::optional<double> ParseNumber(std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// Resolves text; ctx may be null for a syntax-only pass (then every name resolves to 0).
double Resolve(std::string_view text, const SpecialContext* ctx) {
  const DType dtype = ctx ? ctx->dtype : DType::kFloat32;
  for (const auto& [prefix, up] : {std::pair{std::string_view("next_up("), true},
                                   std::pair{std::string_view("next_down("), false}}) {
    if (text.starts_with(prefix) && text.ends_with(")")) {
      const double inner = Resolve(text.substr(prefix.size(), text.size() - prefix.size() - 1), ctx);
      if (!ctx) return 0;
      return up ? NextUp(inner, dtype) : NextDown(inner, dtype);
    }
  }
  const bool negative = text.starts_with("-") && !ParseNumber(text);
  const std::string_view name = negative ? text.substr(1) : text;
  double value;
  if (name == "nan") {
    value = std::numeric_limits<double>::quiet_NaN();
  } else if (name == "inf" || name == "+inf") {
    value = std::numeric_limits<double>::infinity();
  } else if (name == "max") {
    value = ctx ? LargestFinite(dtype) : 0;
  } else if (name == "tiny") {
    value = ctx ? SmallestNormal(dtype) : 0;
  } else if (name == "denorm") {
    value = ctx ? Ulp(0.0, dtype) : 0;
  } else if (name == "eps" || name == "1-eps") {
    if (ctx && !ctx->eps) {
      throw std::invalid_argument("special '" + std::string(text) +
                                  "' needs an eps axis, which this operator does not have");
    }
    const double eps = ctx ? *ctx->eps : 0;
    value = name == "eps" ? eps : 1 - eps;
  } else if (const auto number = ParseNumber(name)) {
    value = *number;
  } else {
    throw std::invalid_argument("'" + std::string(text) + "' is not a special value: " +
                                std::string(kGrammar));
  }
  return RoundTo(negative ? -value : value, dtype);
}

}  // namespace

std::optional<std::string> SpecialSyntaxError(const nlohmann::json& special) {
  if (special.is_number()) return std::nullopt;
  if (!special.is_string()) return "a special value must be a number or a string: " + std::string(kGrammar);
  try {
    Resolve(special.get<std::string>(), nullptr);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return std::nullopt;
}

double ResolveSpecial(const nlohmann::json& special, const SpecialContext& ctx) {
  if (special.is_number()) return RoundTo(special.get<double>(), ctx.dtype);
  return Resolve(special.get<std::string>(), &ctx);
}

}  // namespace aclnn_check
