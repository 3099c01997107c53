#include "bench/benchmark_comparison.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>

#include "bench/point_benchmark.h"
#include "json_input/input_error.h"

namespace aclnn_check {
namespace {

double SecondsPerUnit(const std::string& unit, const std::string& file, const std::string& at) {
  if (unit == "ns") return 1e-9;
  if (unit == "us") return 1e-6;
  if (unit == "ms") return 1e-3;
  if (unit == "s") return 1;
  throw InputError(file, at + "/time_unit", "expected ns, us, ms or s, got \"" + unit + "\"");
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

std::string FormatSeconds(double seconds) {
  char text[32];
  if (seconds >= 1) {
    std::snprintf(text, sizeof text, "%.3g s", seconds);
  } else if (seconds >= 1e-3) {
    std::snprintf(text, sizeof text, "%.3g ms", seconds * 1e3);
  } else if (seconds >= 1e-6) {
    std::snprintf(text, sizeof text, "%.3g us", seconds * 1e6);
  } else {
    std::snprintf(text, sizeof text, "%.3g ns", seconds * 1e9);
  }
  return text;
}

// A host counter of one run, in seconds; absent or not a number leaves `into` alone.
void ReadCounter(const nlohmann::json& run, Figure figure, std::vector<double>& into) {
  const auto found = run.find(std::string(FigureKey(figure)));
  if (found != run.end() && found->is_number()) into.push_back(found->get<double>());
}

}  // namespace

std::string_view FigureName(Figure figure) {
  switch (figure) {
    case Figure::kDevice:
      return "device";
    case Figure::kHostGetWorkspace:
      return "host GetWorkspaceSize";
    case Figure::kHostLaunch:
      return "host launch";
  }
  return "unknown";
}

std::string_view FigureKey(Figure figure) {
  switch (figure) {
    case Figure::kDevice:
      return "real_time";
    case Figure::kHostGetWorkspace:
      return kHostGetWorkspaceCounter;
    case Figure::kHostLaunch:
      return kHostLaunchCounter;
  }
  return "";
}

std::string PointBenchmarkName(std::string run_name) {
  constexpr std::string_view kManual = "/manual_time";
  if (run_name.size() >= kManual.size() &&
      run_name.compare(run_name.size() - kManual.size(), kManual.size(), kManual) == 0) {
    run_name.resize(run_name.size() - kManual.size());
  }
  return run_name;
}

const std::vector<double>& BenchmarkSamples::Of(Figure figure) const {
  switch (figure) {
    case Figure::kHostGetWorkspace:
      return host_get_workspace_seconds;
    case Figure::kHostLaunch:
      return host_launch_seconds;
    default:
      return seconds;
  }
}

std::vector<double>& BenchmarkSamples::Of(Figure figure) {
  return const_cast<std::vector<double>&>(std::as_const(*this).Of(figure));
}

std::string_view ChangeVerdictName(ChangeVerdict verdict) {
  switch (verdict) {
    case ChangeVerdict::kRegression:
      return "REGRESSION";
    case ChangeVerdict::kImprovement:
      return "improvement";
    case ChangeVerdict::kNoChange:
      return "no significant change";
    case ChangeVerdict::kFailed:
      return "FAILED in NEW";
    case ChangeVerdict::kOnlyInBase:
      return "only in BASE";
    case ChangeVerdict::kOnlyInNew:
      return "only in NEW";
  }
  return "unknown";
}

std::vector<BenchmarkSamples> ReadBenchmarkSamples(const nlohmann::json& output,
                                                   const std::string& file) {
  if (!output.is_object() || !output.contains("benchmarks") || !output["benchmarks"].is_array()) {
    throw InputError(file, "/benchmarks",
                     "not a Google Benchmark JSON output (no \"benchmarks\" array)");
  }
  std::vector<BenchmarkSamples> samples;
  std::map<std::string, size_t> index;
  std::map<std::string, const nlohmann::json*> median_aggregate;
  std::map<std::string, double> aggregate_seconds;
  const auto entry_of = [&](const std::string& name) -> BenchmarkSamples& {
    auto [it, added] = index.emplace(name, samples.size());
    if (added) samples.push_back({name, {}, false, std::nullopt});
    return samples[it->second];
  };
  const nlohmann::json& runs = output["benchmarks"];
  for (size_t i = 0; i < runs.size(); ++i) {
    const nlohmann::json& run = runs[i];
    const std::string at = "/benchmarks/" + std::to_string(i);
    if (!run.is_object()) throw InputError(file, at, "expected an object");
    const auto text_field = [&](const char* field, const std::string& fallback) -> std::string {
      const auto it = run.find(field);
      if (it == run.end()) return fallback;
      if (!it->is_string()) throw InputError(file, at + "/" + field, "expected a string");
      return it->get<std::string>();
    };
    if (!run.contains("name")) throw InputError(file, at + "/name", "missing");
    const std::string name = PointBenchmarkName(text_field("run_name", text_field("name", "")));
    if (run.value("error_occurred", false)) {
      entry_of(name).error = text_field("error_message", "error");
      continue;
    }
    const auto real_time = run.find("real_time");
    if (real_time == run.end()) throw InputError(file, at + "/real_time", "missing (" + name + ")");
    if (!real_time->is_number() || real_time->get<double>() < 0) {
      throw InputError(file, at + "/real_time", "expected a number >= 0 (" + name + ")");
    }
    const double seconds =
        real_time->get<double>() * SecondsPerUnit(text_field("time_unit", "ns"), file, at);
    const std::string run_type = text_field("run_type", "iteration");
    if (run_type == "iteration") {
      BenchmarkSamples& entry = entry_of(name);
      entry.seconds.push_back(seconds);
      ReadCounter(run, Figure::kHostGetWorkspace, entry.host_get_workspace_seconds);
      ReadCounter(run, Figure::kHostLaunch, entry.host_launch_seconds);
    } else if (run_type == "aggregate" && text_field("aggregate_name", "") == "median") {
      entry_of(name);
      median_aggregate[name] = &run;
      aggregate_seconds[name] = seconds;
    }
  }
  for (BenchmarkSamples& s : samples) {
    if (s.seconds.empty() && median_aggregate.count(s.name)) {
      s.seconds.push_back(aggregate_seconds[s.name]);
      ReadCounter(*median_aggregate[s.name], Figure::kHostGetWorkspace,
                  s.host_get_workspace_seconds);
      ReadCounter(*median_aggregate[s.name], Figure::kHostLaunch, s.host_launch_seconds);
      s.from_aggregate = true;
    }
  }
  return samples;
}

bool Comparison::regressed() const {
  return std::any_of(changes.begin(), changes.end(), [](const BenchmarkChange& c) {
    return c.verdict == ChangeVerdict::kRegression || c.verdict == ChangeVerdict::kFailed;
  });
}

namespace {

// Flags the comparison collects while judging: said once, below the table.
struct JudgeNotes {
  bool threshold_only = false;
  bool aggregates_only = false;
};

BenchmarkChange JudgeFigure(const std::string& name, Figure figure, const BenchmarkSamples& before,
                            const BenchmarkSamples& now, const CompareOptions& options,
                            JudgeNotes& notes) {
  BenchmarkChange change;
  change.name = name;
  change.figure = figure;
  const std::vector<double>& base = before.Of(figure);
  const std::vector<double>& candidate = now.Of(figure);
  change.base_seconds = Median(base);
  change.new_seconds = Median(candidate);
  change.relative_change = change.new_seconds / change.base_seconds - 1;
  notes.aggregates_only = notes.aggregates_only || before.from_aggregate || now.from_aggregate;
  const bool testable = std::min(base.size(), candidate.size()) >= options.min_repetitions;
  if (testable) change.u_test = MannWhitneyU(base, candidate);
  notes.threshold_only = notes.threshold_only || !testable;
  const bool significant = !change.u_test || change.u_test->p_value < options.alpha;
  if (change.relative_change > options.threshold && significant) {
    change.verdict = ChangeVerdict::kRegression;
  } else if (change.relative_change < -options.threshold && significant) {
    change.verdict = ChangeVerdict::kImprovement;
  }
  return change;
}

// The changes of one benchmark in both files: the device time always, a host figure where both
// have it; or one line when it failed or has no timings.
void JudgeBenchmark(const BenchmarkSamples& before, const BenchmarkSamples& now,
                    const CompareOptions& options, JudgeNotes& notes,
                    std::vector<BenchmarkChange>& changes) {
  BenchmarkChange change;
  change.name = now.name;
  if (now.error) {
    change.verdict = ChangeVerdict::kFailed;
    change.note = *now.error;
    changes.push_back(change);
    return;
  }
  if (before.error || before.seconds.empty() || now.seconds.empty()) {
    change.note = before.error ? "failed in BASE: " + *before.error : "no timings";
    changes.push_back(change);
    return;
  }
  for (const Figure figure : kFigures) {
    const bool present = !before.Of(figure).empty() && !now.Of(figure).empty();
    if (figure == Figure::kDevice || present) {
      changes.push_back(JudgeFigure(now.name, figure, before, now, options, notes));
    }
  }
}

}  // namespace

Comparison CompareBenchmarkOutputs(const std::vector<BenchmarkSamples>& base,
                                   const std::vector<BenchmarkSamples>& candidate,
                                   const CompareOptions& options) {
  Comparison comparison;
  std::map<std::string, const BenchmarkSamples*> base_by_name;
  for (const BenchmarkSamples& s : base) base_by_name[s.name] = &s;
  std::map<std::string, bool> in_candidate;
  JudgeNotes notes;
  for (const BenchmarkSamples& now : candidate) {
    in_candidate[now.name] = true;
    const auto found = base_by_name.find(now.name);
    if (found == base_by_name.end()) {
      BenchmarkChange change;
      change.name = now.name;
      change.verdict = ChangeVerdict::kOnlyInNew;
      comparison.changes.push_back(change);
      continue;
    }
    ++comparison.common;
    JudgeBenchmark(*found->second, now, options, notes, comparison.changes);
  }
  for (const BenchmarkSamples& before : base) {
    if (!in_candidate.count(before.name)) {
      BenchmarkChange change;
      change.name = before.name;
      change.verdict = ChangeVerdict::kOnlyInBase;
      comparison.changes.push_back(change);
    }
  }
  if (notes.threshold_only) {
    comparison.notes.push_back(
        "fewer than " + std::to_string(options.min_repetitions) +
        " repetitions in BASE or NEW for some benchmarks: those are judged by the threshold alone "
        "(no U test, p-value '-'); run both with --benchmark_repetitions=" +
        std::to_string(std::max<size_t>(options.min_repetitions, 9)) + " for a significance test");
  }
  if (notes.aggregates_only) {
    comparison.notes.push_back(
        "some benchmarks have only aggregates (--benchmark_report_aggregates_only): their median "
        "stands for the repetitions, so no U test applies; drop that flag to keep the samples");
  }
  return comparison;
}

std::string FormatComparison(const Comparison& comparison, const CompareOptions& options) {
  size_t width = 9;
  for (const BenchmarkChange& c : comparison.changes) width = std::max(width, c.name.size());
  std::string text;
  char line[512];
  std::snprintf(line, sizeof line, "%-*s %-21s %11s %11s %8s %8s  %s\n", static_cast<int>(width),
                "benchmark", "figure", "base", "new", "change", "p-value", "verdict");
  text += line;
  size_t regressions = 0, improvements = 0, failed = 0;
  for (const BenchmarkChange& c : comparison.changes) {
    const bool timed = c.base_seconds > 0 && c.new_seconds > 0;
    char change[16] = "-", p[16] = "-";
    if (timed) std::snprintf(change, sizeof change, "%+.1f%%", 100 * c.relative_change);
    if (c.u_test) std::snprintf(p, sizeof p, "%.4f", c.u_test->p_value);
    std::snprintf(line, sizeof line, "%-*s %-21s %11s %11s %8s %8s  %s", static_cast<int>(width),
                  c.name.c_str(), timed ? std::string(FigureName(c.figure)).c_str() : "-", timed ? FormatSeconds(c.base_seconds).c_str() : "-",
                  timed ? FormatSeconds(c.new_seconds).c_str() : "-", change, p,
                  std::string(ChangeVerdictName(c.verdict)).c_str());
    text += line;
    if (!c.note.empty()) text += " (" + c.note + ")";
    text += "\n";
    regressions += c.verdict == ChangeVerdict::kRegression;
    improvements += c.verdict == ChangeVerdict::kImprovement;
    failed += c.verdict == ChangeVerdict::kFailed;
  }
  char summary[256];
  std::snprintf(
      summary, sizeof summary,
      "%zu regressions, %zu improvements, %zu failed (threshold %.3g relative change of a "
      "figure's median, alpha %.3g, U test from %zu repetitions)\n",
      regressions, improvements, failed, options.threshold, options.alpha, options.min_repetitions);
  text += summary;
  for (const std::string& note : comparison.notes) text += "note: " + note + "\n";
  return text;
}

}  // namespace aclnn_check
