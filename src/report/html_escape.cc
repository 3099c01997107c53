#include "report/html_escape.h"

namespace aclnn_check {

std::string HtmlEscape(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      case '\'': escaped += "&#39;"; break;
      // The HTML parser turns NUL into U+FFFD anyway; saying so keeps the output well-formed.
      case '\0': escaped += "&#xFFFD;"; break;
      default: escaped += c;
    }
  }
  return escaped;
}

std::string HtmlEscapeValue(const nlohmann::json& value) {
  if (value.is_string()) return HtmlEscape(value.get_ref<const std::string&>());
  if (value.is_null()) return "–";
  return HtmlEscape(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::string JsonForScriptElement(const nlohmann::json& data) {
  const std::string text = data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string escaped;
  escaped.reserve(text.size() + text.size() / 16);
  // Outside strings JSON has no '<', '>' or '&', so replacing them everywhere is safe.
  for (char c : text) {
    switch (c) {
      case '<': escaped += "\\u003c"; break;
      case '>': escaped += "\\u003e"; break;
      case '&': escaped += "\\u0026"; break;
      default: escaped += c;
    }
  }
  return escaped;
}

}  // namespace aclnn_check
