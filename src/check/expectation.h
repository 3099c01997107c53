// What an element rule expects of the device: the `expect` text of operator.json or of a profile,
// alternatives separated by '|':
//   ref   the reference value within the element bound      alt   the rule's alternative value
//   nan   a NaN      inf / -inf   that infinity      0   a zero of either sign
//   <number>  exactly that value
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "check/element_check.h"

namespace aclnn_check {

class Expectation {
 public:
  // nullopt (with a reason in *error) for text outside the grammar.
  static std::optional<Expectation> Parse(std::string_view text, std::string* error = nullptr);
  static Expectation Reference() { return *Parse("ref"); }

  // Whether the device value satisfies one of the alternatives.
  bool Accepts(double device, double ref, double alt, double mag, DType out,
               const Tolerance& tolerance) const;
  const std::string& text() const { return text_; }
  // "ref" alone: the element bound around the reference, which the checker's fast path applies.
  bool IsReference() const {
    return choices_.size() == 1 && choices_[0].kind == Choice::Kind::kRef;
  }

 private:
  struct Choice {
    enum class Kind : uint8_t { kRef, kAlt, kValue } kind;
    double value = 0;
  };
  std::string text_;
  std::vector<Choice> choices_;
};

}  // namespace aclnn_check
