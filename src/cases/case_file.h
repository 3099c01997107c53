// A case file (docs/contract/case-files.md): parsed, checked against the schema and then field by
// field, with every error naming the file, the JSON pointer and what was expected.
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "check/cann_tolerance.h"
#include "check/verdict_selection.h"
#include "catalogue/operator.h"
#include "core/layout.h"
#include "core/product.h"
#include "json_input/input_error.h"

namespace aclnn_check {

struct InputSpec {
  // uniform, normal, grid, exhaustive16, rsqrt_uniform; a case file's CANN names (cann_uniform,
  // cann_small_uniform, cann_normal) arrive as uniform or normal (standard_distributions.h)
  std::string dist = "uniform";
  double low = 0, high = 1;      // uniform, grid, rsqrt_uniform (the range of u)
  double offset = 0;             // rsqrt_uniform: values are 1/sqrt(u + offset)
  bool low_open = false, high_open = false;  // uniform: the bound itself is never drawn
  double mean = 0, std = 1;      // normal
  // normal: mean and std drawn per test point and tensor from [low, high] instead (CANN's rule)
  std::optional<std::array<double, 2>> mean_range, std_range;
  bool outliers = false;  // CANN's outliers: max(1, n/1000) positions multiplied by 1000
  int64_t count = 0;             // grid
  std::vector<nlohmann::json> specials;
};

struct CaseExpect {
  bool pass = true;
  aclnnStatus status = ACLNN_SUCCESS;
  std::vector<std::string> null_tensors;  // tensors passed as null pointers
};

struct CaseFile {
  std::string path;
  std::string name;
  std::string description;
  const Operator* op = nullptr;
  // Axis name -> array of values, in the operator's order: "dtype", the operator's axes (defaults
  // filled in), then the case's override axes (shape.<tensor>, dtype.<tensor>, param.<name>).
  std::vector<std::pair<std::string, nlohmann::json>> axes;
  std::map<std::string, InputSpec> inputs;  // every input tensor: the case's or the default
  std::set<std::string> explicit_inputs;    // inputs the case file specifies
  std::vector<Layout> layouts;
  std::optional<double> ulp;
  std::optional<double> c;                  // every output
  std::map<std::string, double> c_by_output;
  std::optional<CannTolerance> cann_tolerance;  // imported CANN cases: the source's own criterion
  std::optional<VerdictSelection> verdict;      // "verdict": the standards that decide (default: element)
  CaseExpect expect;
  std::vector<Product> products;            // empty: every product
  std::optional<double> timeout_seconds;
  // "contract": calling patterns every point of the file runs (docs/calling-patterns.md), by name
  // (the schema admits only the single-device ones); the runner adds --contract's.
  std::vector<std::string> contracts;
  uint64_t seed = 0;

  bool RunsOn(Product product) const;
};

CaseFile ParseCaseFile(const std::string& text, const std::string& path);
CaseFile LoadCaseFile(const std::filesystem::path& path);
// Case files under the given files and folders (folders recursively, *.json and CANN's *.csv
// tables, skipping folders
// named "profiles" and files named schema.json), sorted; throws InputError for a missing path.
std::vector<std::filesystem::path> FindCaseFiles(const std::vector<std::string>& paths);

}  // namespace aclnn_check
