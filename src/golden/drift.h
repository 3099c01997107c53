// `aclnn-check golden diff A B`: two recorded runs (`golden record`) compared element by element,
// to show how a provider's outputs drift between driver releases. Each element is identical
// (same bits; NaN with NaN), within N ULP of the output dtype, a changed special value (NaN, an
// infinity or the sign of a zero appears or goes), or beyond N ULP.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "golden/golden_file.h"

namespace aclnn_check {

struct DriftCounts {
  int64_t elements = 0;
  int64_t identical = 0;
  int64_t within_ulp = 0;       // not identical, at most max_ulp apart
  int64_t changed_special = 0;
  int64_t beyond = 0;
  uint64_t max_ulp = 0;         // largest ULP distance between finite elements
  void Add(const DriftCounts& other);
};

struct OutputDrift {
  std::string id;
  std::string op;
  std::string output;
  std::string dtype;
  DriftCounts counts;
  int64_t first_beyond = -1;  // logical index of the first element beyond the limit or changed
  double before = 0, after = 0;  // its values in A and B
};

struct Drift {
  std::string before_path, after_path;
  std::map<std::string, std::string> before_attributes, after_attributes;
  uint64_t max_ulp = 0;
  DriftCounts totals;
  std::vector<OutputDrift> outputs;           // every output present in both runs
  std::vector<std::string> only_before, only_after;  // test point ids
  std::vector<std::string> shape_changed;     // outputs whose shape or dtype differ
  // Drift beyond the limit: an element beyond N ULP, a changed special value, or a point or
  // output in one run only.
  bool Exceeds() const;
};

enum class ElementDrift { kIdentical, kWithinUlp, kChangedSpecial, kBeyond };
ElementDrift ClassifyElement(double before, double after, DType dtype, uint64_t max_ulp,
                             uint64_t* ulp_distance);

Drift CompareRecordedRuns(const GoldenFile& before, const GoldenFile& after, uint64_t max_ulp);

// The "drift" section of report.json (src/report/report.schema.json).
nlohmann::json DriftJson(const Drift& drift);

}  // namespace aclnn_check
