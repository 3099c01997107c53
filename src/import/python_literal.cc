#include "import/python_literal.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace aclnn_check {
namespace {

using nlohmann::json;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

class LiteralParser {
 public:
  explicit LiteralParser(std::string_view text) : text_(text) {}

  json ParseDocument() {
    json value = Value();
    SkipSpace();
    if (pos_ != text_.size()) Fail("the end of the literal");
    return value;
  }

 private:
  [[noreturn]] void Fail(const std::string& expected) const { throw LiteralSyntaxError(pos_, expected); }

  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool Peek(char c) {
    SkipSpace();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  bool Accept(char c) {
    if (!Peek(c)) return false;
    ++pos_;
    return true;
  }
  void Expect(char c, const char* what) {
    if (!Accept(c)) Fail(what);
  }

  json Value() {
    SkipSpace();
    if (pos_ >= text_.size()) Fail("a value");
    const char c = text_[pos_];
    if (c == '(' || c == '[' || c == '{') return Container(c);
    if (c == '\'' || c == '"') return String();
    if (c == '+' || c == '-' || c == '.' || std::isdigit(static_cast<unsigned char>(c))) return Number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return Name(1.0);
    Fail("a value (number, string, tuple, list, dict, True, False, None, inf or nan)");
  }

  // Tuples, lists and dicts, nested at most kMaxLiteralDepth deep: the parser recurses once per
  // level, so hostile input must not choose the stack depth.
  json Container(char open) {
    if (depth_ == kMaxLiteralDepth) {
      Fail("at most " + std::to_string(kMaxLiteralDepth) + " nested tuples, lists or dicts");
    }
    ++depth_;
    json value = open == '(' ? Tuple() : open == '[' ? Sequence('[', ']', "',' or ']'") : Dict();
    --depth_;
    return value;
  }

  // "(x)" is x in parentheses; "(x,)" and "(x, y)" are tuples; "()" is the empty tuple.
  json Tuple() {
    ++pos_;
    json items = json::array();
    if (Accept(')')) return items;
    items.push_back(Value());
    if (Accept(')')) return items[0];
    Expect(',', "',' or ')'");
    while (!Accept(')')) {
      items.push_back(Value());
      if (!Accept(',')) {
        Expect(')', "',' or ')'");
        break;
      }
    }
    return items;
  }

  json Sequence(char open, char close, const char* separator) {
    Expect(open, "an opening bracket");
    json items = json::array();
    while (!Accept(close)) {
      items.push_back(Value());
      if (!Accept(',')) {
        if (!Accept(close)) Fail(separator);
        break;
      }
    }
    return items;
  }

  json Dict() {
    ++pos_;
    json object = json::object();
    while (!Accept('}')) {
      const json key = Value();
      if (!key.is_string() && !key.is_number()) Fail("a string or number as dict key");
      Expect(':', "':' after a dict key");
      object[key.is_string() ? key.get<std::string>() : key.dump()] = Value();
      if (!Accept(',')) {
        Expect('}', "',' or '}'");
        break;
      }
    }
    return object;
  }

  json String() {
    const char quote = text_[pos_++];
    std::string value;
    while (true) {
      if (pos_ >= text_.size()) Fail(std::string("a closing ") + quote);
      const char c = text_[pos_++];
      if (c == quote) return value;
      if (c != '\\') {
        value += c;
        continue;
      }
      if (pos_ >= text_.size()) Fail("an escaped character");
      const char escaped = text_[pos_++];
      switch (escaped) {
        case 'n': value += '\n'; break;
        case 't': value += '\t'; break;
        case 'r': value += '\r'; break;
        case '0': value += '\0'; break;
        case '\\': case '\'': case '"': value += escaped; break;
        default:
          --pos_;
          Fail("one of the escapes \\n \\t \\r \\0 \\\\ \\' \\\"");
      }
    }
  }

  json Number() {
    const size_t start = pos_;
    double sign = 1;
    if (text_[pos_] == '+' || text_[pos_] == '-') {
      sign = text_[pos_] == '-' ? -1 : 1;
      ++pos_;
      SkipSpace();
      if (pos_ < text_.size() && (std::isalpha(static_cast<unsigned char>(text_[pos_])))) {
        return Name(sign);
      }
    }
    const size_t digits_start = pos_;
    bool is_float = false;
    auto digits = [&] {
      const size_t before = pos_;
      while (pos_ < text_.size() &&
             (std::isdigit(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
        ++pos_;
      }
      return pos_ > before;
    };
    bool any = digits();
    if (pos_ < text_.size() && text_[pos_] == '.') {
      is_float = true;
      ++pos_;
      any = digits() || any;
    }
    if (!any) {
      pos_ = start;
      Fail("a number");
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      is_float = true;
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (!digits()) Fail("the digits of an exponent");
    }
    std::string number;
    for (size_t i = digits_start; i < pos_; ++i) {
      if (text_[i] != '_') number += text_[i];
    }
    if (!is_float) {
      int64_t value = 0;
      const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
      if (error == std::errc() && end == number.data() + number.size()) {
        return sign < 0 ? -value : value;
      }
    }
    // strtod rounds correctly and gives inf for literals beyond the double range, as Python does.
    return sign * std::strtod(number.c_str(), nullptr);
  }

  std::string Identifier() {
    const size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) ||
                                   text_[pos_] == '_' || text_[pos_] == '.')) {
      ++pos_;
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  json Name(double sign) {
    const size_t start = pos_;
    const std::string name = Identifier();
    if (sign > 0 && name == "True") return true;
    if (sign > 0 && name == "False") return false;
    if (sign > 0 && name == "None") return nullptr;
    for (const char* prefix : {"", "math.", "np.", "numpy.", "torch."}) {
      if (name == std::string(prefix) + "inf") return sign * kInf;
      if (name == std::string(prefix) + "nan") return kNan;
    }
    if (name == "float") {
      Expect('(', "'(' after float");
      SkipSpace();
      if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) Fail("a quoted float");
      const std::string inner = String().get<std::string>();
      Expect(')', "')' after float('...'");
      std::string lower;
      for (char c : inner) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (lower == "inf" || lower == "+inf" || lower == "infinity") return sign * kInf;
      if (lower == "-inf" || lower == "-infinity") return -sign * kInf;
      if (lower == "nan") return kNan;
      char* end = nullptr;
      const double value = std::strtod(inner.c_str(), &end);
      if (inner.empty() || *end != '\0') {
        pos_ = start;
        Fail("float('inf'), float('-inf'), float('nan') or float('<number>')");
      }
      return sign * value;
    }
    pos_ = start;
    Fail("True, False, None, inf, nan or float('...')");
  }

  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

nlohmann::json ParsePythonLiteral(std::string_view text) { return LiteralParser(text).ParseDocument(); }

}  // namespace aclnn_check
