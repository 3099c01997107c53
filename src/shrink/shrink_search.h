// `aclnn-check shrink` (docs/shrink.md): from one failing test point, a greedy search for the
// smallest point that still fails the same rule. Each step tries the variants of the current
// point (point_variants.h) in their fixed order and moves to the first that still fails; the
// search ends when none does or the time limit is reached. The order alone decides the result,
// so a search repeats exactly; --jobs only tries several variants at once.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/product.h"
#include "shrink/point_variants.h"

namespace aclnn_check {

struct ShrinkOptions {
  std::vector<std::string> cases;  // case files or folders, as in the repro line
  std::string filter;              // must select exactly one test point
  std::string provider = "cpu";
  Product product = Product::kA2;
  std::vector<std::string> profiles;
  std::string rule;                // the rule that must keep failing ('' for the point's first failure)
  double time_limit_seconds = 120;
  double timeout_seconds = 60;     // per call, as run's --timeout (a case's own timeout wins)
  int jobs = 1;
  bool isolate = true;
  std::string repro_prefix;        // run's repro prefix for the provider, SoC and profiles
  std::string output;              // where the case file goes ('' for reports/shrunk/<case>.json)
};

struct ShrinkResult {
  std::string rule;
  std::string original_id;
  PointSize original_size;
  std::string path;         // where the case file belongs (its repro line names it)
  nlohmann::json document;  // the smallest failing point's case file
  std::string id;
  PointSize size;
  nlohmann::json result;    // that point's result as report.json has it (its repro line included)
  int tried = 0;            // variants run
  int steps = 0;            // variants taken
  bool time_limit_reached = false;
  double seconds = 0;
};

// Bad usage or a point that cannot be shrunk (none or several selected, it passes, it lacks the
// rule, the run was interrupted). Case-file errors arrive as InputError.
class ShrinkError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

ShrinkResult Shrink(const ShrinkOptions& options);

// Whether a test point's result (report.json's form) is failed or error with `rule` among its
// failures: what makes a variant count.
bool FailsRule(const nlohmann::json& result, const std::string& rule);

}  // namespace aclnn_check
