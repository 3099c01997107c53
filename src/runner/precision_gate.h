// CANN's precision standards in a run (docs/contract/numerics.md, docs/precision-standards.md):
// every computed output is measured against the float64 reference (golden) and, when a comparator
// (the second implementation of CANN's double benchmark) is given, against its outputs on the
// same inputs; the chosen verdicts (--verdict or the case file's "verdict";
// docs/contract/numerics.md's element check by default) decide the point, the others are
// reported. The comparator is a recorded run (--comparator-run FILE: `golden record`, or
// tools/torch_comparator_run.py) or a second provider run in the same worker
// (--comparator-provider). A point that fails the double benchmark is re-checked with --recheck N
// fresh seeds against the comparator provider, or against the recorded run's fresh-seed points.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "check/verdict_selection.h"
#include "runner/execute.h"

namespace aclnn_check {

// A comparator's outputs looked up by test point (the recorded runs of
// --comparator-run: golden/recorded_comparator.h). `inputs` are the harness's inputs of the point
// (tensor name -> values in logical order): a source whose stored inputs differ has no outputs for it.
struct ComparatorLookup {
  DeviceOutputs values;
  std::string missing;  // why there are none ('' when found)
};
class ComparatorSource {
 public:
  virtual ~ComparatorSource() = default;
  virtual ComparatorLookup Find(const std::string& point_id,
                               const std::map<std::string, std::vector<double>>& inputs) const = 0;
  virtual std::string Describe() const = 0;  // "recorded run FILE (provider ...)"
};

struct PrecisionGateOptions {
  std::optional<VerdictSelection> verdict;  // --verdict: replaces every case file's
  std::shared_ptr<const ComparatorSource> comparator_run;  // --comparator-run FILE
  std::vector<std::string> comparator_run_paths;           // its files, for the repro line
  std::string comparator_provider;          // --comparator-provider cpu|ref|PATH ('' none)
  int recheck = 0;                          // --recheck N (0: a failed double benchmark is final)
};

class PrecisionGate {
 public:
  // The comparator provider is loaded by the first point that needs it, in the process that runs
  // the point (a worker when isolated).
  explicit PrecisionGate(PrecisionGateOptions options);
  ~PrecisionGate();

  // The verdicts that decide a point: --verdict, else the case file's, else the element check.
  VerdictSelection VerdictsOf(const TestPoint& point) const;

  // Measures the outputs in `device`, applies the verdicts to result (rules, failures, advisory
  // findings, verdict) and re-checks a failed double benchmark.
  void Apply(const TestPoint& point, const PreparedPoint& prepared, const CapturedOutputs& device,
             const DeviceSession& session, const RunContext& context, TestPointResult* result) const;

  const PrecisionGateOptions& options() const { return options_; }

 private:
  ComparatorLookup ComparatorOf(const TestPoint& point, const PreparedPoint& prepared, Product product) const;
  ComparatorLookup RunComparatorProvider(const TestPoint& point, const PreparedPoint& prepared, Product product) const;
  ComparatorLookup FreshSeedComparator(const TestPoint& fresh, const PreparedPoint& prepared, int run,
                                     Product product) const;
  nlohmann::json Recheck(const TestPoint& point, const std::vector<std::pair<std::string, RatioKind>>& failed,
                         const DeviceSession& session, const RunContext& context, bool* passed) const;
  // Apply's phases: each output's measurements added up, then the double benchmark's verdict
  // (with its re-check).
  struct Tally;
  static void TallyOutput(const OutputPrecision& p, const std::string& name, int64_t elements,
                          const VerdictSelection& verdicts, Tally* tally);
  void ApplyDoubleBenchmark(const TestPoint& point, const Tally& tally, DoubleBenchmarkLevel level,
                            const DeviceSession& session, const RunContext& context,
                            TestPointResult* result) const;

  PrecisionGateOptions options_;
  struct LoadedComparator;
  mutable std::mutex comparator_mutex_;
  mutable std::unique_ptr<LoadedComparator> comparator_;
};

// The run metadata's "precision": --verdict (or "per case file"), the comparator, --recheck.
nlohmann::json PrecisionRunJson(const PrecisionGateOptions& options);

// The seed of fresh-seed run `run` of a point: derived from the case's seed and the point's id.
uint64_t RecheckSeed(uint64_t case_seed, const std::string& point_id, int run);

// Fresh-seed run `run` of a point: the point on a copy of its case file with RecheckSeed's seed
// (the case file is owned here, so the point's pointer to it stays valid when this moves).
struct FreshSeedPoint {
  std::unique_ptr<CaseFile> case_file;
  TestPoint point;
};
FreshSeedPoint FreshSeedPointOf(const TestPoint& point, int run);

// The id under which a recorded run holds fresh-seed run `run` of a point (`golden inputs
// --recheck N` writes them, so that a recorded comparator such as PyTorch's can serve the re-check).
std::string RecheckPointId(const std::string& point_id, int run);

}  // namespace aclnn_check
