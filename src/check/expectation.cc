#include "check/expectation.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace aclnn_check {

std::optional<Expectation> Expectation::Parse(std::string_view text, std::string* error) {
  Expectation expectation;
  expectation.text_ = std::string(text);
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = std::min(text.find('|', start), text.size());
    const std::string_view token = text.substr(start, end - start);
    Choice choice{Choice::Kind::kValue, 0};
    if (token == "ref") {
      choice.kind = Choice::Kind::kRef;
    } else if (token == "alt") {
      choice.kind = Choice::Kind::kAlt;
    } else if (token == "nan") {
      choice.value = std::numeric_limits<double>::quiet_NaN();
    } else if (token == "inf" || token == "+inf") {
      choice.value = std::numeric_limits<double>::infinity();
    } else if (token == "-inf") {
      choice.value = -std::numeric_limits<double>::infinity();
    } else {
      const auto [stop, status] =
          std::from_chars(token.data(), token.data() + token.size(), choice.value);
      if (token.empty() || status != std::errc() || stop != token.data() + token.size()) {
        if (error) {
          *error = "'" + std::string(token) +
                   "' is not ref, alt, nan, inf, -inf or a number (alternatives separated by |)";
        }
        return std::nullopt;
      }
    }
    expectation.choices_.push_back(choice);
    start = end + 1;
  }
  return expectation;
}

bool Expectation::Accepts(double device, double ref, double alt, double mag, DType out,
                          const Tolerance& tolerance) const {
  for (const Choice& choice : choices_) {
    if (choice.kind == Choice::Kind::kValue) {
      // A constant is matched exactly (0 matches either zero, NaN any NaN).
      if (device == choice.value || (std::isnan(device) && std::isnan(choice.value))) return true;
      continue;
    }
    const double expected = choice.kind == Choice::Kind::kRef ? ref : alt;
    if (CheckElement(device, expected, mag, out, tolerance).pass) return true;
  }
  return false;
}

}  // namespace aclnn_check
