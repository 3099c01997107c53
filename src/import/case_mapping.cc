#include "import/case_mapping.h"

#include <cctype>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "import/case_mapping_builder.h"
#include "json_input/json_integers.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

// Case names allow letters, digits, '_', '.', '-'.
std::string SafeName(const std::string& text) {
  std::string name;
  for (char c : text) name += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' ? c : '_';
  return name.empty() ? "case" : name;
}

// Every folder's source names in one map; a name two folders claim is a build mistake.
const std::map<std::string, json (*)(Mapping&)>& CannImportMappings() {
  static const std::map<std::string, json (*)(Mapping&)> mappings = [] {
    std::map<std::string, json (*)(Mapping&)> all;
    for (const std::span<const CannOperatorName> names : CannImportNameLists()) {
      for (const CannOperatorName& name : names) {
        if (!all.emplace(name.source_name, name.map).second) {
          throw std::logic_error(std::string("two cann_import.cc files map CANN operator ") + name.source_name);
        }
      }
    }
    return all;
  }();
  return mappings;
}

}  // namespace

json Mapping::Build(const std::string& op) const {
    json cann = {{"standard", source_.tolerance.standard}, {"source", source_.tolerance.source}};
    if (!close_.empty()) {
      json outputs = json::object();
      for (const auto& [name, t] : close_) outputs[name] = {{"rtol", t.rtol}, {"atol", t.atol}, {"ptol", t.ptol}};
      cann["outputs"] = outputs;
    }
    std::string description = "Imported from " + std::filesystem::path(source_.file).filename().string() + " " +
                              source_.location + " (" + source_.format + ", " + source_.op + ")";
    for (const std::string& note : notes_) description += "; " + note;
    json document = {{"name", SafeName(source_.name)}, {"op", op}, {"description", description},
                     {"axes", axes_},                   {"cann_tolerance", cann}};
    if (!inputs_.empty()) document["inputs"] = inputs_;
    return document;
  }

int64_t IntegerAttribute(const Mapping& m, const std::string& name, int64_t fallback) {
  const SourceAttribute* attribute = m.Attribute(name);
  if (!attribute) return fallback;
  const std::optional<int64_t> value = ExactInt64(attribute->value);
  if (!value) {
    throw NotExpressible(attribute->column, name + " must be one integer, got " +
                                                (attribute->range ? "a range" : attribute->value.dump()));
  }
  return *value;
}

json MapToCaseFile(const SourceCase& source) {
  const auto& mappings = CannImportMappings();
  const auto it = mappings.find(source.op);
  if (it == mappings.end()) {
    std::string known;
    for (const auto& [name, mapper] : mappings) known += (known.empty() ? "" : ", ") + name;
    throw NotExpressible(source.format == "ST CSV" ? "op_name" : "aclnn_name",
                         "operator " + source.op + " has no mapping onto aclnn-check's operators (mapped: " + known + ")");
  }
  Mapping mapping(source);
  return it->second(mapping);
}

}  // namespace aclnn_check
