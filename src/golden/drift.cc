#include "golden/drift.h"

#include <cmath>
#include <cstring>
#include <set>

#include "results/json_number.h"

namespace aclnn_check {
namespace {

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

nlohmann::json CountsJson(const DriftCounts& counts) {
  return {{"elements", counts.elements},       {"identical", counts.identical},
          {"within_ulp", counts.within_ulp},   {"changed_special", counts.changed_special},
          {"beyond", counts.beyond},           {"max_ulp", counts.max_ulp}};
}

}  // namespace

void DriftCounts::Add(const DriftCounts& other) {
  elements += other.elements;
  identical += other.identical;
  within_ulp += other.within_ulp;
  changed_special += other.changed_special;
  beyond += other.beyond;
  max_ulp = std::max(max_ulp, other.max_ulp);
}

bool Drift::Exceeds() const {
  return totals.beyond > 0 || totals.changed_special > 0 || !only_before.empty() ||
         !only_after.empty() || !shape_changed.empty();
}

ElementDrift ClassifyElement(double before, double after, DType dtype, uint64_t max_ulp,
                             uint64_t* ulp_distance) {
  *ulp_distance = 0;
  if (SameBits(before, after) || (std::isnan(before) && std::isnan(after))) return ElementDrift::kIdentical;
  if (!std::isfinite(before) || !std::isfinite(after)) return ElementDrift::kChangedSpecial;
  if (before == 0 && after == 0) return ElementDrift::kChangedSpecial;  // +0 and -0
  *ulp_distance = UlpDistance(before, after, dtype);
  return *ulp_distance <= max_ulp ? ElementDrift::kWithinUlp : ElementDrift::kBeyond;
}

Drift CompareRecordedRuns(const GoldenFile& before, const GoldenFile& after, uint64_t max_ulp) {
  Drift drift;
  drift.before_path = before.path;
  drift.after_path = after.path;
  drift.before_attributes = before.attributes;
  drift.after_attributes = after.attributes;
  drift.max_ulp = max_ulp;
  std::map<std::string, const GoldenPoint*> after_by_id;
  for (const GoldenPoint& point : after.points) after_by_id[point.id] = &point;
  std::set<std::string> seen;
  for (const GoldenPoint& old_point : before.points) {
    const auto found = after_by_id.find(old_point.id);
    if (found == after_by_id.end()) {
      drift.only_before.push_back(old_point.id);
      continue;
    }
    seen.insert(old_point.id);
    const GoldenPoint& new_point = *found->second;
    for (const auto& [name, old_values] : old_point.device) {
      const auto new_values = new_point.device.find(name);
      const size_t slot = *old_point.op->TensorIndex(name);
      const auto& old_plan = old_point.plan.tensors[slot];
      const auto& new_plan = new_point.op == old_point.op ? new_point.plan.tensors[slot] : std::nullopt;
      if (new_values == new_point.device.end() || !new_plan || new_plan->dtype != old_plan->dtype ||
          new_plan->shape != old_plan->shape) {
        drift.shape_changed.push_back(old_point.id + " " + name);
        continue;
      }
      OutputDrift output{old_point.id, old_point.op->name(), name, std::string(DTypeName(old_plan->dtype)), {}};
      for (size_t i = 0; i < old_values.size(); ++i) {
        uint64_t distance = 0;
        const ElementDrift kind = ClassifyElement(old_values[i], new_values->second[i], old_plan->dtype, max_ulp, &distance);
        ++output.counts.elements;
        output.counts.max_ulp = std::max(output.counts.max_ulp, distance);
        switch (kind) {
          case ElementDrift::kIdentical: ++output.counts.identical; break;
          case ElementDrift::kWithinUlp: ++output.counts.within_ulp; break;
          case ElementDrift::kChangedSpecial: ++output.counts.changed_special; break;
          case ElementDrift::kBeyond: ++output.counts.beyond; break;
        }
        if ((kind == ElementDrift::kChangedSpecial || kind == ElementDrift::kBeyond) && output.first_beyond < 0) {
          output.first_beyond = static_cast<int64_t>(i);
          output.before = old_values[i];
          output.after = new_values->second[i];
        }
      }
      drift.totals.Add(output.counts);
      drift.outputs.push_back(std::move(output));
    }
  }
  for (const GoldenPoint& point : after.points) {
    if (!seen.count(point.id)) drift.only_after.push_back(point.id);
  }
  return drift;
}

nlohmann::json DriftJson(const Drift& drift) {
  nlohmann::json outputs = nlohmann::json::array();
  for (const OutputDrift& output : drift.outputs) {
    nlohmann::json entry = {{"id", output.id}, {"op", output.op}, {"output", output.output},
                            {"dtype", output.dtype}, {"counts", CountsJson(output.counts)}};
    if (output.first_beyond >= 0) {
      entry["first_beyond"] = {{"index", output.first_beyond},
                               {"before", JsonNumber(output.before)},
                               {"after", JsonNumber(output.after)}};
    }
    outputs.push_back(std::move(entry));
  }
  const auto provenance = [](const std::map<std::string, std::string>& attributes) {
    nlohmann::json json = nlohmann::json::object();
    for (const auto& [name, value] : attributes) json[name] = value;
    return json;
  };
  return {{"before", {{"file", drift.before_path}, {"provenance", provenance(drift.before_attributes)}}},
          {"after", {{"file", drift.after_path}, {"provenance", provenance(drift.after_attributes)}}},
          {"max_ulp", drift.max_ulp},
          {"exceeds", drift.Exceeds()},
          {"totals", CountsJson(drift.totals)},
          {"only_before", drift.only_before},
          {"only_after", drift.only_after},
          {"shape_changed", drift.shape_changed},
          {"outputs", outputs}};
}

}  // namespace aclnn_check
