// The vocabulary of the CANN case mappings (docs/contract/case-files.md) that each operator folder
// writes in its kernels/<folder>/import/cann_import.cc: one source case seen as the operator's
// axes, override axes, distributions and tolerances, built into an aclnn-check case file. The folders'
// mappings are found through a table CMake generates (cmake/OperatorParts.cmake); case_mapping.cc
// looks a source operator up in it.
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "import/source_case.h"

namespace aclnn_check {

// One source case being mapped: the helpers set axes and distributions and note every choice
// that is not a plain copy; Build() writes the case file.
class Mapping {
 public:
  explicit Mapping(const SourceCase& source) : source_(source) {}

  // ST CSV rows list inputs by position in the kernel's prototype; ATK cases name them.
  void NameInputsByPosition(const std::vector<std::string>& names) {
    if (source_.format != "ST CSV") return;
    if (source_.inputs.size() != names.size()) {
      std::string list;
      for (const auto& name : names) list += (list.empty() ? "" : ", ") + name;
      throw NotExpressible("input_shapes", "kernel " + source_.op + " takes " + std::to_string(names.size()) +
                                               " inputs (" + list + "), the row gives " +
                                               std::to_string(source_.inputs.size()));
    }
    for (size_t i = 0; i < names.size(); ++i) source_.inputs[i].name = names[i];
  }

  const SourceTensor& Input(const std::vector<std::string>& names) const {
    if (const SourceTensor* tensor = OptionalInput(names)) return *tensor;
    throw NotExpressible(source_.format == "ST CSV" ? "input_shapes" : "inputs",
                         "no input named " + names.front());
  }

  const SourceTensor* OptionalInput(const std::vector<std::string>& names) const {
    for (const SourceTensor& tensor : source_.inputs) {
      if (std::find(names.begin(), names.end(), tensor.name) != names.end()) return &tensor;
    }
    return nullptr;
  }

  // The source's output i (ST CSV only), or nullptr.
  const SourceTensor* Output(size_t i) const {
    return i < source_.outputs.size() ? &source_.outputs[i] : nullptr;
  }

  const SourceAttribute* Attribute(const std::string& name) const {
    for (const SourceAttribute& attribute : source_.attributes) {
      if (attribute.name == name) return &attribute;
    }
    return nullptr;
  }

  void Axis(const std::string& name, const nlohmann::json& value) { axes_[name] = nlohmann::json::array({value}); }
  void Note(const std::string& text) { notes_.push_back(text); }

  // A tensor whose dtype or shape differs from what the operator's axes plan gets an override axis;
  // the documented checks then decide whether the call is valid (the importer skips it if not).
  void Expect(const std::string& tensor, const SourceTensor* source, const std::string& dtype, const std::vector<int64_t>& shape) {
    if (!source) return;
    if (source->dtype != dtype) {
      Axis("dtype." + tensor, source->dtype);
      Note(tensor + " dtype " + source->dtype + " kept as an override axis");
    }
    if (source->shape != shape) {
      Axis("shape." + tensor, source->shape);
      Note(tensor + " shape kept as an override axis");
    }
  }

  void Distribution(const std::string& tensor, const SourceTensor& source) {
    if (!source.range) {
      Note(tensor + ": no range in the source; the operator's default distribution");
      return;
    }
    const ValueRange& r = *source.range;
    if (!std::isfinite(r.low) || !std::isfinite(r.high)) {
      throw NotExpressible(source.column + " range", "an unbounded range cannot be drawn uniformly");
    }
    nlohmann::json input = {{"dist", "uniform"}, {"low", r.low}, {"high", r.high}};
    nlohmann::json open = nlohmann::json::array();
    if (r.low < r.high) {
      if (r.low_open) open.push_back("low");
      if (r.high_open) open.push_back("high");
    }
    if (!open.empty()) input["open"] = open;
    inputs_[tensor] = input;
  }

  // The tensor is 1/sqrt(v + offset) for v drawn from the source's range (a variance the kernel
  // turns into rstd itself).
  void RsqrtDistribution(const std::string& tensor, const SourceTensor& source, double offset) {
    if (!source.range) {
      Note(tensor + ": no range in the source; the operator's default distribution");
      return;
    }
    const ValueRange& r = *source.range;
    if (!std::isfinite(r.low) || !std::isfinite(r.high) || r.low < 0 || !(r.low + offset > 0)) {
      throw NotExpressible(source.column + " range", "a variance range must be finite and at least 0");
    }
    inputs_[tensor] = {{"dist", "rsqrt_uniform"}, {"low", r.low}, {"high", r.high}, {"offset", offset}};
  }

  // Output i of the operator is judged with the source's tolerance i; sources with fewer entries
  // than outputs (one pair for three outputs) apply their last entry to the rest.
  void CloseTolerance(const std::vector<std::string>& outputs) {
    if (source_.tolerance.standard != "ttk_close") return;
    if (source_.close_by_position.empty()) {
      throw NotExpressible(source_.tolerance_column, "no tolerance and no output dtype to take ttk's default from");
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      close_[outputs[i]] = source_.close_by_position[std::min(i, source_.close_by_position.size() - 1)];
    }
  }

  nlohmann::json Build(const std::string& op) const;
  const SourceCase& source() const { return source_; }

 private:
  SourceCase source_;
  nlohmann::json axes_ = nlohmann::json::object();
  nlohmann::json inputs_ = nlohmann::json::object();
  std::map<std::string, CannCloseTolerance> close_;
  std::vector<std::string> notes_;
};

// The attribute as one integer, `fallback` when absent; NotExpressible for a range or a non-integer.
int64_t IntegerAttribute(const Mapping& m, const std::string& name, int64_t fallback);

// One name a CANN source gives an operator (ST CSV op_name such as "swi_glu_grad", ATK
// aclnn_name such as "aclnnSwiGluGrad") and the mapping of its cases.
struct CannOperatorName {
  const char* source_name;
  nlohmann::json (*map)(Mapping&);
};

// Every operator folder's names, one list per folder with a cann_import.cc (generated by
// cmake/OperatorParts.cmake; each folder defines
// std::span<const CannOperatorName> CannImportNames_<folder>()).
const std::vector<std::span<const CannOperatorName>>& CannImportNameLists();

}  // namespace aclnn_check
