#include "json_input/json_schema.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

namespace aclnn_check {
namespace {

// valijson's context ("<root>", "[axes]", "[0]") as a JSON pointer ("/axes/0").
std::string Pointer(const std::vector<std::string>& context) {
  std::string pointer;
  for (const std::string& part : context) {
    if (part == "<root>") continue;
    std::string key = part;
    if (key.size() >= 2 && key.front() == '[' && key.back() == ']') key = key.substr(1, key.size() - 2);
    if (key.size() >= 2 && key.front() == '"' && key.back() == '"') key = key.substr(1, key.size() - 2);
    pointer += "/" + key;
  }
  return pointer.empty() ? "/" : pointer;
}

}  // namespace

JsonSchema::JsonSchema(const nlohmann::json& schema, std::string schema_name)
    : schema_(std::make_unique<valijson::Schema>()), name_(std::move(schema_name)) {
  valijson::SchemaParser parser;
  valijson::adapters::NlohmannJsonAdapter adapter(schema);
  parser.populateSchema(adapter, *schema_);
}

JsonSchema::~JsonSchema() = default;

void JsonSchema::Validate(const nlohmann::json& document, const std::string& path) const {
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter target(document);
  if (validator.validate(*schema_, target, &results)) return;
  // valijson also reports every enclosing allOf/if/then level: keep the deepest failures.
  std::vector<valijson::ValidationResults::Error> errors;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) errors.push_back(error);
  size_t deepest = 0;
  for (const auto& e : errors) deepest = std::max(deepest, e.context.size());
  std::string message, pointer;
  for (const auto& e : errors) {
    if (e.context.size() != deepest) continue;
    if (pointer.empty()) pointer = Pointer(e.context);
    if (Pointer(e.context) != pointer) continue;
    if (message.find(e.description) != std::string::npos) continue;
    message += (message.empty() ? "" : "; ") + e.description;
  }
  throw InputError(path, pointer, message + " (schema: " + name_ + ")");
}

nlohmann::json ParseJsonText(const std::string& text, const std::string& path) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& error) {
    // parse_error, and out_of_range for a number beyond double's range (such as 1e479).
    throw InputError(path, "/", std::string("not valid JSON: ") + error.what());
  }
}

std::string ReadTextFile(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (path.empty()) throw InputError("''", "/", "no " + what + " named (an empty path)");
  if (!in) throw InputError(path, "/", "cannot open the " + what);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace aclnn_check
