#include "runner/precision_gate.h"

#include <algorithm>
#include <cmath>

#include "core/hashing.h"
#include "core/status.h"

namespace aclnn_check {
namespace {

constexpr const char* kSingleBenchmarkRule = "precision.single_bm";
constexpr const char* kDoubleBenchmarkRule = "precision.double_bm";

// Findings of docs/contract/numerics.md's element check: the operator's element rules and the
// numerics rules.
bool FromElementCheck(const Operator& op, const std::string& rule) {
  if (rule.rfind("numerics.", 0) == 0) return true;
  const RuleDef* def = op.FindRule(rule);
  return def && def->kind == "element";
}

std::string Format(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

std::optional<size_t> SlotNamed(const Operator& op, const std::string& name) {
  for (size_t slot = 0; slot < op.tensors().size(); ++slot) {
    if (op.tensors()[slot].name == name) return slot;
  }
  return std::nullopt;
}

std::map<std::string, std::vector<double>> InputValues(const Operator& op, const PreparedPoint& prepared) {
  std::map<std::string, std::vector<double>> inputs;
  for (size_t slot = 0; slot < op.tensors().size(); ++slot) {
    const auto& tensor = prepared.tensors[slot];
    if (!tensor || op.tensors()[slot].role != SlotRole::kInput || !IsFloating(tensor->view().dtype)) continue;
    inputs[std::string(op.tensors()[slot].name)] = tensor->Values();
  }
  return inputs;
}

// Whether kernels/<op>/README.md's element rule of an element, or docs/contract/numerics.md's
// overflow the bound leaves undecided, accepts the device's value there: the "formula" the
// standard's inf/NaN judgement combines with.
DocumentedValue DocumentedValueOf(const TestPoint& point, const ReferenceOutput& reference,
                                  const BlockValues& device, DType dtype, const std::string& output,
                                  const Profiles& profiles) {
  const Operator& op = point.op();
  const Tolerance tolerance = ToleranceOf(point, output);
  const ExpectationLookup expectation_of = ExpectationsOf(profiles);
  return [&op, &reference, &device, dtype, tolerance, expectation_of](size_t i) {
    if (i >= static_cast<size_t>(device.size()) || i >= reference.value.size()) return false;
    const double value = device.At(static_cast<int64_t>(i));
    const double mag = i < reference.mag.size() ? reference.mag[i] : 0.0;
    if (i < reference.rule.size() && reference.rule[i] != kNoRule) {
      const double alt = i < reference.alt.size() ? reference.alt[i] : 0.0;
      const Expectation& expectation = expectation_of(op.RuleOfTag(reference.rule[i]));
      return expectation.Accepts(value, reference.value[i], alt, mag, dtype, tolerance);
    }
    return OverflowUndecided(reference.value[i], mag, dtype, tolerance) &&
           CheckElement(value, reference.value[i], mag, dtype, tolerance).pass;
  };
}

RunContext PlainContext(const RunContext& context) {
  RunContext plain = context;
  plain.repeat = 1;
  plain.failure_archive = nullptr;
  plain.precision = nullptr;
  return plain;
}

}  // namespace

struct PrecisionGate::LoadedComparator {
  std::unique_ptr<Provider> provider;
  std::unique_ptr<DeviceSession> session;
  std::string error;
};

PrecisionGate::PrecisionGate(PrecisionGateOptions options) : options_(std::move(options)) {}
PrecisionGate::~PrecisionGate() = default;

uint64_t RecheckSeed(uint64_t case_seed, const std::string& point_id, int run) {
  return SplitMix64(SplitMix64(case_seed ^ Fnv1a(point_id)) + static_cast<uint64_t>(run) + 1);
}

FreshSeedPoint FreshSeedPointOf(const TestPoint& point, int run) {
  FreshSeedPoint fresh{std::make_unique<CaseFile>(*point.case_file), point};
  fresh.case_file->seed = RecheckSeed(point.case_file->seed, point.id, run);
  fresh.point.case_file = fresh.case_file.get();
  return fresh;
}

std::string RecheckPointId(const std::string& point_id, int run) {
  return point_id + "#recheck" + std::to_string(run);
}

nlohmann::json PrecisionRunJson(const PrecisionGateOptions& options) {
  nlohmann::json run = {{"verdict", options.verdict ? options.verdict->ToString() : "per case file (default element)"},
                        {"recheck", options.recheck}};
  if (options.comparator_run) run["benchmark_run"] = options.comparator_run->Describe();
  if (!options.comparator_provider.empty()) run["benchmark_provider"] = options.comparator_provider;
  return run;
}

VerdictSelection PrecisionGate::VerdictsOf(const TestPoint& point) const {
  if (options_.verdict) return *options_.verdict;
  if (point.case_file->verdict) return *point.case_file->verdict;
  return VerdictSelection{};
}

ComparatorLookup PrecisionGate::RunComparatorProvider(const TestPoint& point, const PreparedPoint& prepared,
                                                    Product product) const {
  std::lock_guard lock(comparator_mutex_);
  if (!comparator_) {
    comparator_ = std::make_unique<LoadedComparator>();
    try {
      comparator_->provider = Provider::Load(options_.comparator_provider);
      comparator_->session = std::make_unique<DeviceSession>(*comparator_->provider);
    } catch (const std::exception& error) {
      comparator_->error = std::string("comparator provider ") + options_.comparator_provider + ": " + error.what();
    }
  }
  if (!comparator_->error.empty()) return {{}, comparator_->error};
  const Profiles profiles;
  const RunContext context{.provider = comparator_->provider.get(), .product = product, .profiles = &profiles};
  CapturedOutputs captured;
  const TestPointResult result = ExecutePoint(point, *comparator_->session, context, &prepared, &captured);
  if (result.verdict == Verdict::kNotProvided) {
    return {{}, "comparator provider " + options_.comparator_provider + " does not export " + point.op().name()};
  }
  if (result.status != 0 || result.execute_status != 0) {
    return {{}, "comparator provider " + options_.comparator_provider + " returned " +
                    DescribeStatus(result.execute_status.value_or(result.status.value_or(-1)))};
  }
  return {captured.Decoded(), ""};
}

ComparatorLookup PrecisionGate::ComparatorOf(const TestPoint& point, const PreparedPoint& prepared,
                                           Product product) const {
  ComparatorLookup lookup;
  if (options_.comparator_run) {
    lookup = options_.comparator_run->Find(point.id, InputValues(point.op(), prepared));
    if (lookup.missing.empty() || options_.comparator_provider.empty()) return lookup;
  }
  if (!options_.comparator_provider.empty()) {
    ComparatorLookup ran = RunComparatorProvider(point, prepared, product);
    if (!lookup.missing.empty() && !ran.missing.empty()) ran.missing = lookup.missing + "; " + ran.missing;
    return ran;
  }
  return {{}, "no comparator given (--comparator-run or --comparator-provider)"};
}

ComparatorLookup PrecisionGate::FreshSeedComparator(const TestPoint& fresh, const PreparedPoint& prepared, int run,
                                                  Product product) const {
  if (!options_.comparator_provider.empty()) return RunComparatorProvider(fresh, prepared, product);
  return options_.comparator_run->Find(RecheckPointId(fresh.id, run), InputValues(fresh.op(), prepared));
}

nlohmann::json PrecisionGate::Recheck(const TestPoint& point,
                                      const std::vector<std::pair<std::string, RatioKind>>& failed,
                                      const DeviceSession& session, const RunContext& context, bool* passed) const {
  *passed = false;
  nlohmann::json recheck = {{"requested_runs", options_.recheck}, {"minimum_runs", kMinimumRecheckRuns},
                            {"resamples", kBootstrapResamples}};
  if (options_.comparator_provider.empty() && !options_.comparator_run) {
    recheck["runs"] = 0;
    recheck["why"] = "fresh seeds need a comparator on new inputs: give --comparator-provider, or a --comparator-run "
                     "made from `golden inputs --recheck N`";
    return recheck;
  }
  const RunContext plain = PlainContext(context);
  std::map<std::pair<std::string, RatioKind>, std::vector<double>> samples;
  int runs = 0;
  std::string skipped;
  for (int run = 0; run < options_.recheck; ++run) {
    const FreshSeedPoint fresh_seed = FreshSeedPointOf(point, run);
    const TestPoint& fresh = fresh_seed.point;
    const PreparedPoint prepared = PreparePoint(fresh);
    // The comparator first: a recorded run that lacks this seed costs no device call.
    const ComparatorLookup comparator = FreshSeedComparator(fresh, prepared, run, context.product);
    if (!comparator.missing.empty()) {
      skipped = comparator.missing;
      continue;
    }
    CapturedOutputs device;
    const TestPointResult result = ExecutePoint(fresh, session, plain, &prepared, &device);
    if (result.status != 0 || result.execute_status != 0 || !prepared.reference) {
      skipped = "the device's call failed on seed " + std::to_string(fresh_seed.case_file->seed);
      continue;
    }
    bool complete = true;
    std::vector<std::pair<std::pair<std::string, RatioKind>, double>> ratios;
    for (const auto& [output, kind] : failed) {
      const std::optional<size_t> slot = SlotNamed(point.op(), output);
      const auto bench = comparator.values.find(output);
      if (!slot || !device.bytes.count(output) || bench == comparator.values.end()) {
        complete = false;
        break;
      }
      const DoubleBenchmarkComparison c = CompareDoubleBenchmark(
          device.ValuesOf(output), bench->second, prepared.reference->outputs[*slot].value,
          prepared.tensors[*slot]->view().dtype);
      ratios.push_back({{output, kind}, c.ratios[static_cast<size_t>(kind)]});
    }
    if (!complete) continue;
    for (const auto& [key, ratio] : ratios) samples[key].push_back(ratio);
    ++runs;
  }
  recheck["runs"] = runs;
  if (!skipped.empty()) recheck["skipped"] = skipped;
  nlohmann::json intervals = nlohmann::json::array();
  bool all_within = true;
  for (const auto& [key, values] : samples) {
    const uint64_t seed = SplitMix64(point.case_file->seed ^ Fnv1a(point.id + "/" + key.first + "/" +
                                                                std::string(RatioName(key.second))));
    const BootstrapInterval interval = BootstrapMedianInterval(values, seed, kBootstrapResamples);
    const bool within = interval.lower <= 1.0;
    all_within = all_within && within;
    intervals.push_back({{"output", key.first}, {"ratio", RatioName(key.second)}, {"median", interval.median},
                         {"ci_lower", interval.lower}, {"ci_upper", interval.upper}, {"passed", within}});
  }
  recheck["intervals"] = intervals;
  if (runs < kMinimumRecheckRuns) {
    recheck["why"] = std::to_string(runs) + " fresh-seed runs, fewer than the standard's " +
                     std::to_string(kMinimumRecheckRuns);
    return recheck;
  }
  *passed = all_within;
  return recheck;
}

// What the outputs' measurements add up to, for the verdicts.
struct PrecisionGate::Tally {
  std::string single_failures, double_failures;
  std::vector<std::pair<std::string, RatioKind>> failed_ratios;
  bool double_final = false;  // a failure the re-check cannot lift (missing comparator output, wrong inf/NaN)
  int64_t judged_elements = 0;
};

namespace {

// One output measured against golden and, when the comparator has it at the same size, against
// the comparator's (why not, in the report's benchmark_missing).
OutputPrecision MeasureOutput(const TestPoint& point, const ReferenceOutput& reference, const BlockValues& values,
                              DType dtype, const std::string& name, const ComparatorLookup& comparator,
                              const Profiles& profiles) {
  const std::vector<double>& golden = reference.value;
  const DocumentedValue documented = DocumentedValueOf(point, reference, values, dtype, name, profiles);
  OutputPrecision p;
  p.single = JudgeSingleBenchmark(values, golden, dtype);
  const auto bench = comparator.values.find(name);
  const bool same_size =
      bench != comparator.values.end() && static_cast<int64_t>(bench->second.size()) == values.size();
  if (same_size) {
    p.comparison = CompareDoubleBenchmark(values, bench->second, golden, dtype, documented);
    p.device = p.comparison->device;
    p.specials = p.comparison->specials;
  } else {
    p.device = MeasureAgainstGolden(values, golden, dtype, &p.specials, documented);
    p.benchmark_missing = !comparator.missing.empty() ? comparator.missing
                          : bench == comparator.values.end()
                              ? "the comparator has no output " + name
                              : "the comparator's " + name + " has " + std::to_string(bench->second.size()) +
                                    " elements, the device's " + std::to_string(values.size());
  }
  return p;
}

std::string SingleBenchmarkFailure(const std::string& name, const SingleBenchmark& single) {
  return name + ": MERE " + Format(single.mere) + ", MARE " + Format(single.mare) + " (limits " +
         Format(single.threshold) + " and " + Format(10 * single.threshold) + ")" +
         (single.special_mismatches
              ? ", " + std::to_string(single.special_mismatches) + " inf/NaN differ from golden"
              : "");
}

// Without the element verdict, the element check's findings stay in the report as advice.
void DemoteElementFindings(const Operator& op, TestPointResult* result) {
  std::vector<Finding> kept;
  for (Finding& finding : result->failures) {
    (FromElementCheck(op, finding.rule) ? result->advisory : kept).push_back(std::move(finding));
  }
  result->failures = std::move(kept);
}

// The failure message of a double benchmark that did not hold, with the re-check's account.
std::string DoubleBenchmarkMessage(const std::string& failures, const nlohmann::json& precision) {
  std::string message = failures;
  if (precision.contains("recheck")) {
    const nlohmann::json& r = precision["recheck"];
    message += r.contains("why") ? "; re-check: " + r["why"].get<std::string>()
                                 : "; re-check over " + r["runs"].dump() + " fresh seeds: a 95 % interval "
                                                                           "of the median ratio lies above 1";
  }
  return message;
}

}  // namespace

void PrecisionGate::TallyOutput(const OutputPrecision& p, const std::string& name, int64_t elements,
                                const VerdictSelection& verdicts, Tally* tally) {
  tally->judged_elements += elements;
  if (!p.single.passed) {
    tally->single_failures += (tally->single_failures.empty() ? "" : "; ") + SingleBenchmarkFailure(name, p.single);
  }
  if (!verdicts.double_bm) return;
  std::vector<std::string> failures;
  if (!p.comparison) {
    if (elements > 0) {
      failures.push_back("no comparator output: " + p.benchmark_missing);
      tally->double_final = true;
    }
  } else {
    failures = DoubleBenchmarkFailures(*p.comparison, *verdicts.double_bm);
    if (p.comparison->specials.wrong > 0) tally->double_final = true;
    for (size_t k = 0; k < kRatioKinds.size(); ++k) {
      if (!RatioWithinLimit(kRatioKinds[k], p.comparison->ratios[k], *verdicts.double_bm)) {
        tally->failed_ratios.push_back({name, kRatioKinds[k]});
      }
    }
  }
  for (const std::string& failure : failures) {
    tally->double_failures += (tally->double_failures.empty() ? "" : "; ") + name + ": " + failure;
  }
}

void PrecisionGate::ApplyDoubleBenchmark(const TestPoint& point, const Tally& tally, DoubleBenchmarkLevel level,
                                         const DeviceSession& session, const RunContext& context,
                                         TestPointResult* result) const {
  const std::string rule = std::string(kDoubleBenchmarkRule) + "." + std::string(LevelName(level));
  bool held = tally.double_failures.empty();
  if (!held && !tally.double_final && options_.recheck > 0) {
    bool recheck_passed = false;
    result->precision["recheck"] = Recheck(point, tally.failed_ratios, session, context, &recheck_passed);
    if (recheck_passed) {
      held = true;
      result->precision["lifted_by_recheck"] = tally.double_failures;
    }
  }
  result->rules.push_back({rule, held, false, tally.judged_elements});
  if (!held) result->failures.push_back({rule, DoubleBenchmarkMessage(tally.double_failures, result->precision)});
}

void PrecisionGate::Apply(const TestPoint& point, const PreparedPoint& prepared, const CapturedOutputs& device,
                          const DeviceSession& session, const RunContext& context, TestPointResult* result) const {
  const Operator& op = point.op();
  const VerdictSelection verdicts = VerdictsOf(point);
  result->precision = {{"verdicts", verdicts.ToString()}};
  if (!prepared.reference || device.bytes.empty()) return;

  const ComparatorLookup comparator = ComparatorOf(point, prepared, context.product);
  if (options_.comparator_run) result->precision["benchmark_run"] = options_.comparator_run->Describe();
  if (!options_.comparator_provider.empty()) result->precision["benchmark_provider"] = options_.comparator_provider;

  Tally tally;
  for (OutputResult& output : result->outputs) {
    const std::optional<size_t> slot = SlotNamed(op, output.name);
    if (!device.bytes.count(output.name) || !slot) continue;
    const BlockValues values = device.ValuesOf(output.name);
    OutputPrecision p = MeasureOutput(point, prepared.reference->outputs[*slot], values,
                                      prepared.tensors[*slot]->view().dtype, output.name, comparator,
                                      *context.profiles);
    TallyOutput(p, output.name, values.size(), verdicts, &tally);
    output.precision = std::move(p);
  }

  if (!verdicts.element) DemoteElementFindings(op, result);
  if (verdicts.single_bm) {
    result->rules.push_back({kSingleBenchmarkRule, tally.single_failures.empty(), false, tally.judged_elements});
    if (!tally.single_failures.empty()) result->failures.push_back({kSingleBenchmarkRule, tally.single_failures});
  }
  if (verdicts.double_bm) ApplyDoubleBenchmark(point, tally, *verdicts.double_bm, session, context, result);
  if (result->verdict == Verdict::kPassed || result->verdict == Verdict::kFailed) {
    result->verdict = result->failures.empty() ? Verdict::kPassed : Verdict::kFailed;
  }
}

}  // namespace aclnn_check
