#include "golden/recorded_comparator.h"

#include <cmath>

#include "json_input/input_error.h"

namespace aclnn_check {
namespace {

bool SameValue(double a, double b) { return a == b ? std::signbit(a) == std::signbit(b) : std::isnan(a) && std::isnan(b); }

std::string Attribute(const GoldenFile& file, const char* name) {
  const auto it = file.attributes.find(name);
  return it == file.attributes.end() ? "" : it->second;
}

}  // namespace

RecordedComparator::RecordedComparator(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    GoldenFile file = ReadGoldenFile(path);
    if (Attribute(file, "kind") != "recorded") {
      throw InputError(path, "/", "attribute kind \"recorded\" expected (a run written by `golden record "
                                  "--with-inputs` or tools/torch_comparator_run.py), found \"" +
                                      Attribute(file, "kind") + "\"");
    }
    std::string made_by = Attribute(file, "oracle");
    if (made_by.empty()) made_by = Attribute(file, "provider");
    description_ += (description_.empty() ? "" : ", ") + path + (made_by.empty() ? "" : " (" + made_by + ")");
    for (GoldenPoint& point : file.points) {
      const std::string id = point.id;
      if (!file_of_.emplace(id, path).second) {
        throw InputError(path, "/points/" + GoldenGroupName(id), "test point " + id + " is in " + file_of_[id] + " too");
      }
      points_.emplace(id, std::move(point));
    }
  }
}

ComparatorLookup RecordedComparator::Find(const std::string& point_id,
                                        const std::map<std::string, std::vector<double>>& inputs) const {
  const auto it = points_.find(point_id);
  if (it == points_.end()) return {{}, "the comparator run " + description_ + " has no test point " + point_id};
  const GoldenPoint& stored = it->second;
  const std::string& file = file_of_.at(point_id);
  if (stored.inputs.empty() && !inputs.empty()) {
    return {{}, file + " stores no inputs for " + point_id + ": it cannot show it ran on the harness's inputs"};
  }
  for (const auto& [name, values] : inputs) {
    const auto found = stored.inputs.find(name);
    if (found == stored.inputs.end()) return {{}, file + " has no input " + name + " for " + point_id};
    if (found->second.size() != values.size()) {
      return {{}, file + ": input " + name + " of " + point_id + " has " + std::to_string(found->second.size()) +
                      " elements, the harness's " + std::to_string(values.size())};
    }
    for (size_t i = 0; i < values.size(); ++i) {
      if (!SameValue(found->second[i], values[i])) {
        return {{}, file + ": input " + name + " of " + point_id + " differs from the harness's at [" +
                        std::to_string(i) + "] (another harness version or seed?)"};
      }
    }
  }
  if (stored.device.empty()) return {{}, file + " has no outputs for " + point_id};
  return {stored.device, ""};
}

}  // namespace aclnn_check
