// A JSON Schema (draft 7) compiled once with valijson, whose failures become one InputError naming
// the file, the JSON pointer of the most specific failure and what was expected.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "json_input/input_error.h"

namespace valijson {
class Schema;
}

namespace aclnn_check {

class JsonSchema {
 public:
  // schema_name is how errors refer to the schema, e.g. "cases/schema.json".
  JsonSchema(const nlohmann::json& schema, std::string schema_name);
  ~JsonSchema();
  JsonSchema(const JsonSchema&) = delete;
  JsonSchema& operator=(const JsonSchema&) = delete;

  // Throws InputError(path, pointer, message) when document does not match.
  void Validate(const nlohmann::json& document, const std::string& path) const;

 private:
  std::unique_ptr<valijson::Schema> schema_;
  std::string name_;
};

// Parses JSON text; throws InputError(path, "/", "not valid JSON: ...").
nlohmann::json ParseJsonText(const std::string& text, const std::string& path);
// Reads a whole file; throws InputError(path, "/", "cannot open ...").
std::string ReadTextFile(const std::string& path, const std::string& what);

}  // namespace aclnn_check
