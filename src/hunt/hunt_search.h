// `aclnn-check hunt` (docs/hunt.md): a search over one operator's inputs for those on which a
// provider is worst. Each provider call runs one test point whose inputs the moves made
// (input_moves.h), pinned into a case file (pinned_inputs.h) and run exactly as `run` runs it,
// isolated in a worker: the element check and the rules judge every element, and the call's
// result scores it (hunt_measure.h). The best call so far is where the next one starts.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/product.h"
#include "hunt/hunt_measure.h"
#include "hunt/input_moves.h"

namespace aclnn_check {

struct HuntProgress {
  std::string point_id;
  int64_t calls = 0;       // over the whole hunt
  int64_t candidates = 0;  // output elements judged over the whole hunt
  double seconds = 0;
  HuntScore best;
};

struct HuntOptions {
  // What to hunt: an operator (with --dtype, --shape, --axis NAME=JSON) or the points of case
  // files.
  std::string op;
  std::optional<std::string> dtype;
  std::optional<std::string> shape;  // JSON array: the operator's shape axis
  std::vector<std::string> axes;     // NAME=JSON, one value of an axis
  std::vector<std::string> cases;
  std::string filter = "*";
  std::string provider = "cpu";
  Product product = Product::kA2;
  std::vector<std::string> profiles;
  HuntMeasure measure = HuntMeasure::kUlp;
  MoveSet moves;
  uint64_t seed = 0;
  double budget_seconds = 10;   // over all points, split evenly
  int64_t max_calls = 0;        // per point (0: no limit)
  double timeout_seconds = 60;  // per call, as run's --timeout
  bool isolate = true;
  bool stop_at_failure = false;
  std::string repro_prefix;
  std::string output;  // '' for reports/hunt/<case>.json
  std::function<void(const HuntProgress&)> on_progress;
};

struct HuntResult {
  HuntScore worst;
  std::string point_id;
  int64_t calls = 0;
  int64_t candidates = 0;
  int64_t first_failure_call = -1;  // 1-based over the whole hunt, -1 when nothing failed
  double seconds = 0;
  int points = 0;           // test points hunted
  std::string path;         // the case file written
  nlohmann::json document;  // its contents
  nlohmann::json result;    // the case file run once more as `run` runs it (repro included)
  bool reproduced = false;  // that run failed exactly when the hunt said the input fails
};

class HuntError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Hunts every selected point in turn, writes the worst input found as a case file and runs that
// file once more as `run` would.
HuntResult Hunt(const HuntOptions& options);

// The one-point case documents of what the options select (bad usage: HuntError; case-file
// errors: InputError).
std::vector<nlohmann::json> HuntTargets(const HuntOptions& options);

}  // namespace aclnn_check
