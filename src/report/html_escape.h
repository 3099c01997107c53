// Escaping for report.html. Every string in a report may come from a case file or a provider
// (ids, case names, provider messages, rule ids, repro lines), so none of it may become markup.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace aclnn_check {

// Text for HTML element content and for double- or single-quoted attribute values.
std::string HtmlEscape(std::string_view text);

// A report value as page text: strings escaped, numbers as JSON writes them, null as "–".
std::string HtmlEscapeValue(const nlohmann::json& value);

// JSON text that can sit inside <script type="application/json">: every '<', '>' and '&' becomes a
// \u escape, so no string can write "</script>" or "<!--" and end or change the element; JSON.parse
// gives back the same strings. Invalid UTF-8 becomes U+FFFD instead of throwing.
std::string JsonForScriptElement(const nlohmann::json& data);

}  // namespace aclnn_check
