#include "import/source_case.h"

#include <map>

#include "core/dtype.h"

namespace aclnn_check {

std::optional<std::string> CanonicalDType(const std::string& source_name) {
  static const std::map<std::string, std::string> kAliases = {
      {"fp32", "float32"}, {"float", "float32"},  {"fp16", "float16"}, {"half", "float16"},
      {"bf16", "bfloat16"}, {"fp64", "float64"}, {"double", "float64"}, {"int", "int32"}};
  const auto alias = kAliases.find(source_name);
  const std::string name = alias == kAliases.end() ? source_name : alias->second;
  if (!ParseDType(name)) return std::nullopt;
  return name;
}

}  // namespace aclnn_check
