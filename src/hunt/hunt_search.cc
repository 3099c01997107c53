#include "hunt/hunt_search.h"

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>

#include "cases/input_generator.h"
#include "core/hashing.h"
#include "cases/test_point.h"
#include "device_access/loader.h"
#include "hunt/pinned_inputs.h"
#include "results/atomic_file.h"
#include "runner/in_process.h"
#include "runner/isolation.h"
#include "runner/precision_gate.h"

namespace aclnn_check {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// Runs a point the way `run` does: in a worker process (a crash or hang ends the call), or here.
class PointRunner {
 public:
  explicit PointRunner(const HuntOptions& options)
      : options_(options),
        profiles_(Profiles::Load(options.profiles)),
        gate_(PrecisionGateOptions{}) {
    if (!options.isolate) provider_ = Provider::Load(options.provider);
    context_.provider = provider_.get();
    context_.product = options.product;
    context_.profiles = &profiles_;
    context_.repro_prefix = options.repro_prefix;
    if (options.measure == HuntMeasure::kMare) context_.precision = &gate_;  // measures MARE
  }

  json Run(const TestPoint& point) const {
    json result;
    const auto store = [&](size_t, json r, std::string_view) { result = std::move(r); };
    bool completed;
    if (options_.isolate) {
      IsolationOptions isolation;
      isolation.timeout_of = [&](const TestPoint& p) {
        return p.case_file->timeout_seconds.value_or(options_.timeout_seconds);
      };
      completed = RunIsolated(options_.provider, context_, {&point}, isolation, store);
    } else {
      completed = RunInProcess(*provider_, context_, {&point}, 1, store);
    }
    if (!completed || result.is_null()) throw HuntError("interrupted");
    return result;
  }

 private:
  const HuntOptions& options_;
  Profiles profiles_;
  PrecisionGate gate_;
  std::unique_ptr<Provider> provider_;
  RunContext context_;
};

// A one-point case document with its case file and point (the point refers to the case file).
struct PointCase {
  std::unique_ptr<CaseFile> case_file;
  TestPoint point;
};
PointCase Expand(const json& document, const std::string& path, Product product) {
  PointCase c;
  c.case_file = std::make_unique<CaseFile>(ParseCaseFile(document.dump(), path));
  std::vector<TestPoint> points = ExpandCase(*c.case_file, product);
  if (points.size() != 1)
    throw HuntError("a hunted case document expands to " + std::to_string(points.size()) +
                    " points");
  c.point = std::move(points[0]);
  return c;
}

// The inputs a hunt varies: every input tensor of the call but null ones and derived ones (the
// runner recomputes those from the others).
std::vector<HuntTensor> HuntedTensors(const TestPoint& point) {
  const Operator& op = point.op();
  const auto& derived = op.derived_inputs();
  std::vector<HuntTensor> tensors;
  for (size_t slot = 0; slot < op.tensors().size(); ++slot) {
    const TensorSlot& s = op.tensors()[slot];
    const auto& plan = point.plan.tensors[slot];
    if (s.role != SlotRole::kInput || !plan) continue;
    if (std::find(derived.begin(), derived.end(), std::string(s.name)) != derived.end()) continue;
    HuntTensor tensor{std::string(s.name), plan->dtype, plan->shape, {}, {}};
    tensor.boundaries = BoundariesOf(op, plan->dtype, EpsParameter(point));
    tensors.push_back(std::move(tensor));
  }
  return tensors;
}

int64_t Numel(const Dims& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// The case's own distributions, drawn afresh for each draw number.
void DrawFresh(std::vector<HuntTensor>& tensors, const TestPoint& point, uint64_t draw) {
  const CaseFile& c = *point.case_file;
  for (HuntTensor& tensor : tensors) {
    const uint64_t seed = draw == 0 ? c.seed : SplitMix64Finalize(c.seed + draw);
    tensor.values = GenerateValues(c.inputs.at(tensor.name), Numel(tensor.shape),
                                   CounterRandom(seed, point.id, tensor.name),
                                   SpecialContext{tensor.dtype, EpsParameter(point)});
  }
}

// The document whose inputs are exactly `tensors`: each pinned, element by element.
json PinnedDocument(json document, const std::vector<HuntTensor>& tensors,
                    const std::map<std::string, std::vector<int64_t>>& orders) {
  for (const HuntTensor& tensor : tensors) {
    document["inputs"][tensor.name] = {
        {"dist", "uniform"},
        {"low", 0},
        {"high", 1},
        {"specials", PinnedSpecials(tensor.values, orders.at(tensor.name))}};
  }
  return document;
}

struct PointHunt {
  HuntScore best;
  json document;  // the best call's inputs pinned
  int64_t calls = 0;
  int64_t first_failure_call = -1;  // within this point
};

class Search {
 public:
  Search(const HuntOptions& options, const PointRunner& runner, HuntResult& totals,
         Clock::time_point start)
      : options_(options), runner_(runner), totals_(totals), start_(start) {}

  PointHunt HuntPoint(const json& target, Clock::time_point deadline) {
    const PointCase original = Expand(target, "<hunt>", options_.product);
    std::vector<HuntTensor> elite = HuntedTensors(original.point);
    json unpinned = target;
    for (const HuntTensor& tensor : elite)
      unpinned["inputs"][tensor.name] = {{"dist", "uniform"}, {"low", 0}, {"high", 1}};
    PointCase hunted = Expand(unpinned, "<hunt>", options_.product);
    std::map<std::string, std::vector<int64_t>> orders;
    for (const HuntTensor& tensor : elite) {
      orders[tensor.name] =
          SpecialOrder(hunted.case_file->seed, hunted.point.id, tensor.name, Numel(tensor.shape));
    }
    DrawFresh(elite, original.point, 0);
    // Keyed like the generator (FNV-1a of seed and id), not std::hash: the same on every library.
    HuntRandom random(CounterRandom(options_.seed, original.point.id, "hunt").key());
    PointHunt hunt;
    hunt.best.value = -1;
    while (Clock::now() < deadline &&
           (options_.max_calls == 0 || hunt.calls < options_.max_calls)) {
      std::vector<HuntTensor> tensors = elite;
      if (!options_.moves.any() || random.Chance(0.25))
        DrawFresh(tensors, original.point, static_cast<uint64_t>(totals_.calls) + 1);
      if (options_.moves.any() && hunt.calls > 0) MutateInputs(tensors, options_.moves, random);
      for (const HuntTensor& tensor : tensors) {
        hunted.case_file->inputs[tensor.name].specials =
            PinnedSpecials(tensor.values, orders.at(tensor.name));
      }
      const json result = runner_.Run(hunted.point);
      ++hunt.calls;
      ++totals_.calls;
      totals_.candidates += ElementsJudged(result);
      const HuntScore score = ScoreOf(result, options_.measure);
      if (score.failed && hunt.first_failure_call < 0) {
        hunt.first_failure_call = hunt.calls;
        if (totals_.first_failure_call < 0) totals_.first_failure_call = totals_.calls;
      }
      if (score > hunt.best) {
        hunt.best = score;
        elite = std::move(tensors);
        hunt.document = PinnedDocument(unpinned, elite, orders);
      }
      Report(original.point.id, hunt.best);
      if (score.failed && options_.stop_at_failure) break;
    }
    return hunt;
  }

 private:
  void Report(const std::string& id, const HuntScore& best) const {
    if (!options_.on_progress) return;
    options_.on_progress({id, totals_.calls, totals_.candidates,
                          std::chrono::duration<double>(Clock::now() - start_).count(), best});
  }

  const HuntOptions& options_;
  const PointRunner& runner_;
  HuntResult& totals_;
  Clock::time_point start_;
};

}  // namespace

HuntResult Hunt(const HuntOptions& options) {
  const auto start = Clock::now();
  const std::vector<json> targets = HuntTargets(options);
  const PointRunner runner(options);
  HuntResult hunt;
  hunt.points = static_cast<int>(targets.size());
  hunt.worst.value = -1;
  Search search(options, runner, hunt, start);
  for (size_t i = 0; i < targets.size(); ++i) {
    const auto deadline =
        start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
                    options.budget_seconds * static_cast<double>(i + 1) /
                    static_cast<double>(targets.size())));
    PointHunt point = search.HuntPoint(targets[i], deadline);
    if (point.calls > 0 && (hunt.document.is_null() || point.best > hunt.worst)) {
      hunt.worst = point.best;
      hunt.document = std::move(point.document);
    }
    if (hunt.worst.failed && options.stop_at_failure) break;
  }
  if (hunt.document.is_null())
    throw HuntError("the budget ended before the first call; give a larger --budget");
  hunt.document["description"] = std::string("found by aclnn-check hunt (--measure ") +
                                 std::string(HuntMeasureName(options.measure)) + ", --moves " +
                                 MoveSetName(options.moves) + ", --seed " +
                                 std::to_string(options.seed) + ")";
  hunt.path = options.output.empty()
                  ? "reports/hunt/" + hunt.document.at("name").get<std::string>() + ".json"
                  : options.output;
  WriteFileAtomically(hunt.path, hunt.document.dump(2) + "\n");
  std::error_code error;
  const PointCase written =
      Expand(hunt.document, std::filesystem::absolute(hunt.path, error).string(), options.product);
  hunt.point_id = written.point.id;
  hunt.result = runner.Run(written.point);
  hunt.reproduced = ScoreOf(hunt.result, options.measure).failed == hunt.worst.failed;
  hunt.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return hunt;
}

}  // namespace aclnn_check
