#include "shrink/shrink_search.h"

#include <fnmatch.h>

#include <chrono>
#include <memory>
#include <optional>

#include "import/case_import.h"
#include "device_access/loader.h"
#include "runner/in_process.h"
#include "runner/isolation.h"
#include "json_input/json_schema.h"

namespace aclnn_check {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// A case document expanded to its one test point; the point refers to the case file it owns.
struct Candidate {
  json document;
  std::unique_ptr<CaseFile> case_file;
  TestPoint point;
  PointSize size;
};

// The candidate of a one-point document, or nullopt when it does not make exactly one point
// (a variant the operator cannot plan, or whose documented outcome differs from the case's).
std::optional<Candidate> Expand(json document, const std::string& path, Product product) {
  Candidate candidate;
  try {
    candidate.case_file = std::make_unique<CaseFile>(ParseCaseFile(document.dump(), path));
    std::vector<TestPoint> points = ExpandCase(*candidate.case_file, product);
    if (points.size() != 1) return std::nullopt;
    candidate.point = std::move(points[0]);
  } catch (const InputError&) {
    return std::nullopt;
  }
  candidate.document = std::move(document);
  candidate.size = SizeOf(candidate.point);
  return candidate;
}

// The case documents a path holds: a case file, or the converted cases of a CANN file.
std::vector<json> CaseDocuments(const std::filesystem::path& path) {
  const std::string text = ReadTextFile(path.string(), "case file");
  if (DetectCaseSourceFormat(text) == CaseSourceFormat::kCaseFile) return {ParseJsonText(text, path.string())};
  return ImportCannText(text, path.string()).converted;
}

// The one test point the filter selects, as a candidate of its own case file.
Candidate FindPoint(const ShrinkOptions& options) {
  std::vector<Candidate> found;
  size_t points_seen = 0;
  for (const auto& path : FindCaseFiles(options.cases)) {
    for (const json& document : CaseDocuments(path)) {
      const CaseFile case_file = ParseCaseFile(document.dump(), path.string());
      for (const TestPoint& point : ExpandCase(case_file, options.product)) {
        ++points_seen;
        if (fnmatch(options.filter.c_str(), point.id.c_str(), 0) != 0) continue;
        std::optional<Candidate> single = Expand(SinglePointDocument(document, point), path.string(), options.product);
        if (!single || single->point.id != point.id) {
          throw ShrinkError("test point " + point.id + " cannot be written as a case file of its own");
        }
        found.push_back(std::move(*single));
      }
    }
  }
  if (found.size() != 1) {
    std::string message = "--filter '" + options.filter + "' selects " + std::to_string(found.size()) + " of the " +
                          std::to_string(points_seen) +
                          " test points of the given case files; shrink takes exactly one (a failing point's "
                          "repro line names it; matrix checks have nothing to shrink)";
    for (size_t i = 0; i < found.size() && i < 5; ++i) message += "\n  " + found[i].point.id;
    throw ShrinkError(message);
  }
  return std::move(found[0]);
}

}  // namespace

bool FailsRule(const json& result, const std::string& rule) {
  const std::string verdict = result.at("verdict").get<std::string>();
  if (verdict != "failed" && verdict != "error") return false;
  for (const json& failure : result.at("failures")) {
    if (failure.at("rule") == rule) return true;
  }
  return false;
}

namespace {

// Runs points on the provider the way `run` does (worker processes, or this process).
class PointRunner {
 public:
  PointRunner(const ShrinkOptions& options, const Profiles& profiles) : options_(options) {
    if (!options.isolate) provider_ = Provider::Load(options.provider);
    context_.provider = provider_.get();
    context_.product = options.product;
    context_.profiles = &profiles;
    context_.repro_prefix = options.repro_prefix;
  }

  std::vector<json> Run(const std::vector<const TestPoint*>& points) const {
    std::vector<json> results(points.size());
    const auto store = [&](size_t i, json result, std::string_view) {
      results[i] = std::move(result);
    };
    bool completed;
    if (options_.isolate) {
      IsolationOptions isolation;
      isolation.workers = options_.jobs;
      isolation.timeout_of = [&](const TestPoint& point) {
        return point.case_file->timeout_seconds.value_or(options_.timeout_seconds);
      };
      completed = RunIsolated(options_.provider, context_, points, isolation, store);
    } else {
      completed = RunInProcess(*provider_, context_, points, options_.jobs, store);
    }
    if (!completed) throw ShrinkError("interrupted");
    return results;
  }

  std::string Repro(const TestPoint& point) const { return ReproCommand(point, context_); }

 private:
  const ShrinkOptions& options_;
  std::unique_ptr<Provider> provider_;
  RunContext context_;
};

}  // namespace

ShrinkResult Shrink(const ShrinkOptions& options) {
  const auto start = Clock::now();
  const Profiles profiles = Profiles::Load(options.profiles);
  const PointRunner runner(options, profiles);
  ShrinkResult shrink;

  Candidate best = FindPoint(options);
  shrink.original_id = best.point.id;
  shrink.original_size = best.size;
  json best_result = runner.Run({&best.point}).at(0);
  const std::string verdict = best_result.at("verdict").get<std::string>();
  if (verdict != "failed" && verdict != "error") {
    throw ShrinkError("test point " + best.point.id + (verdict == "passed" ? " passes" : " is " + verdict) +
                      " on provider " + options.provider + ": there is no failure to shrink");
  }
  shrink.rule = options.rule.empty() ? best_result.at("failures").at(0).at("rule").get<std::string>() : options.rule;
  if (!FailsRule(best_result, shrink.rule)) {
    throw ShrinkError("test point " + best.point.id + " does not fail rule " + shrink.rule +
                      " (its first failure: " + best_result.at("failures").at(0).at("rule").get<std::string>() + ")");
  }
  // From here on every point is the case file written to the output path: its repro line names it
  // (the same id, so the same data: the result stands).
  shrink.path = options.output.empty() ? "reports/shrunk/" + best.case_file->name + ".json" : options.output;
  std::error_code error;
  const std::string path = std::filesystem::absolute(shrink.path, error).string();
  best = std::move(*Expand(best.document, path, options.product));
  best_result["repro"] = runner.Repro(best.point);

  bool improved = true;
  while (improved && !shrink.time_limit_reached) {
    improved = false;
    std::vector<Candidate> candidates;
    for (json& variant : SmallerVariants(best.document)) {
      std::optional<Candidate> candidate = Expand(std::move(variant), path, options.product);
      if (candidate && candidate->size < best.size) candidates.push_back(std::move(*candidate));
    }
    const size_t batch = static_cast<size_t>(std::max(1, options.jobs));
    for (size_t first = 0; first < candidates.size() && !improved; first += batch) {
      if (std::chrono::duration<double>(Clock::now() - start).count() >= options.time_limit_seconds) {
        shrink.time_limit_reached = true;
        break;
      }
      std::vector<const TestPoint*> points;
      for (size_t i = first; i < std::min(candidates.size(), first + batch); ++i) points.push_back(&candidates[i].point);
      const std::vector<json> results = runner.Run(points);
      shrink.tried += static_cast<int>(points.size());
      for (size_t i = 0; i < results.size(); ++i) {
        if (!FailsRule(results[i], shrink.rule)) continue;
        best = std::move(candidates[first + i]);
        best_result = results[i];
        ++shrink.steps;
        improved = true;
        break;
      }
    }
  }
  shrink.document = best.document;
  shrink.document["description"] = "shrunk by aclnn-check shrink from " + shrink.original_id + " (rule " +
                                   shrink.rule + ")";
  shrink.id = best.point.id;
  shrink.size = best.size;
  shrink.result = std::move(best_result);
  shrink.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return shrink;
}

}  // namespace aclnn_check
