#include "cli/run_command.h"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include "cases/matrix_cases.h"
#include "cases/test_point.h"
#include "core/build_info.h"
#include "core/sha256.h"
#include "device_access/loader.h"
#include "import/case_import.h"
#include "report/report_files.h"
#include "report/report_json.h"
#include "report/run_history.h"
#include "results/atomic_file.h"
#include "results/journal.h"
#include "runner/calling_patterns.h"
#include "runner/execute.h"
#include "runner/failure_archive.h"
#include "runner/in_process.h"
#include "runner/isolation.h"
#include "runner/precision_gate.h"

namespace aclnn_check {
namespace {

uint64_t HalfOfMemory() {
  return static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) *
         static_cast<uint64_t>(sysconf(_SC_PAGESIZE)) / 2;
}

std::string IsoTime(std::chrono::system_clock::time_point time) {
  const std::time_t t = std::chrono::system_clock::to_time_t(time);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

std::string HostName() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

class Progress {
 public:
  Progress(bool enabled, size_t total) : enabled_(enabled), total_(total), start_(Clock::now()) {}
  void Update(size_t done, size_t failed) {
    if (!enabled_) return;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    const double eta =
        done ? elapsed / static_cast<double>(done) * static_cast<double>(total_ - done) : 0;
    std::lock_guard lock(mutex_);
    std::cerr << "\r[" << done << "/" << total_ << "] " << failed << " failed, ETA "
              << static_cast<int>(eta + 0.5) << " s   " << std::flush;
  }
  void Finish() {
    if (enabled_) std::cerr << "\n";
  }

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  size_t total_;
  Clock::time_point start_;
  std::mutex mutex_;
};

// Sets an environment variable for the lifetime of the object, then restores it.
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) setenv(name, value->c_str(), 1);
  }
  ~ScopedEnvironment() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace

std::string ReproPrefix(const RunOptions& options, const std::string& soc) {
  std::error_code error;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  // Tests drive Run() in-process: name the harness next to them rather than the test binary.
  if (error || exe.filename() != "aclnn-check") exe = exe.parent_path() / "aclnn-check";
  const bool bundled = IsBundledProvider(options.provider);
  std::string provider = options.provider;
  if (!bundled) {
    provider.clear();
    for (const std::string& path : ProviderPaths(options.provider)) {
      provider += (provider.empty() ? "" : ":") + std::filesystem::absolute(path, error).string();
    }
  }
  std::string prefix = exe.string() + " run --provider '" + provider + "' --soc " + soc;
  for (const std::string& profile : options.profiles) {
    prefix += " --profile '" + std::filesystem::absolute(profile, error).string() + "'";
  }
  const PrecisionGateOptions& precision = options.precision;
  if (precision.verdict) prefix += " --verdict " + precision.verdict->ToString();
  for (const std::string& path : precision.comparator_run_paths) {
    prefix += " --comparator-run " + ShellQuote(std::filesystem::absolute(path, error).string());
  }
  if (!precision.comparator_provider.empty())
    prefix += " --comparator-provider " + ShellQuote(precision.comparator_provider);
  if (precision.recheck > 0) prefix += " --recheck " + std::to_string(precision.recheck);
  return prefix;
}

std::pair<int, int> ParseShard(const std::string& text) {
  const size_t slash = text.find('/');
  if (slash == std::string::npos) throw std::invalid_argument("--shard expects I/N, e.g. 2/3");
  const int index = std::stoi(text.substr(0, slash));
  const int total = std::stoi(text.substr(slash + 1));
  if (total < 1 || index < 1 || index > total) {
    throw std::invalid_argument("--shard " + text + ": expected 1 <= I <= N");
  }
  return {index, total};
}

namespace {

// A failure that ends the run before its reports: the message, and exit code 2.
struct RunError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What loading gives the later phases.
struct LoadedRun {
  std::unique_ptr<Provider> provider;  // only with --no-isolate
  std::string soc;
  Product product{};
  std::optional<uint32_t> devices;  // aclrtGetDeviceCount's answer
  std::vector<std::filesystem::path> case_files;
  std::vector<std::unique_ptr<CaseFile>> cases;
  std::vector<TestPoint> points;
  Profiles profiles;
};

// Isolated runs never load provider code into this process: a probe worker reports the SoC.
void ResolveProduct(const RunOptions& options, LoadedRun* run) {
  std::optional<std::string> reported;
  if (options.isolate) {
    const ProviderProbe probe = ProbeProvider(options.provider, options.timeout_seconds);
    if (!probe.error.empty()) throw ProviderError(probe.error);
    reported = probe.soc;
    run->devices = probe.devices;
  } else {
    run->provider = Provider::Load(options.provider);
    reported = run->provider->SocName();
    run->devices = run->provider->DeviceCount();
  }
  run->soc = options.soc ? *options.soc : reported.value_or("");
  if (run->soc.empty())
    throw RunError("the provider has no aclrtGetSocName; name the product with --soc");
  const std::optional<Product> known = ProductOfSoc(run->soc);
  if (!known) {
    throw RunError("SoC '" + run->soc +
                   "' is not a known Ascend product (docs/contract/products.md); name one with --soc");
  }
  run->product = *known;
}

void ExpandPoints(const RunOptions& options, LoadedRun* run) {
  std::set<const Operator*> operators;
  std::vector<SkippedCase> skipped;
  run->case_files = FindCaseFiles(options.cases);
  for (const auto& path : run->case_files) {
    for (CaseFile& loaded : LoadCaseSource(path, &skipped)) {
      run->cases.push_back(std::make_unique<CaseFile>(std::move(loaded)));
      operators.insert(run->cases.back()->op);
    }
  }
  // CANN cases the harness cannot express are named, never dropped silently.
  for (const SkippedCase& s : skipped) {
    std::cerr << "aclnn-check: skipped " << s.file << " " << s.location << ", " << s.column << ": "
              << s.why << "\n";
  }
  for (auto& matrix : MatrixCases(operators, run->product)) run->cases.push_back(std::move(matrix));
  std::set<std::string> ids;
  for (const auto& c : run->cases) {
    for (TestPoint& point : ExpandCase(*c, run->product)) {
      if (IsMatrixCase(*c))
        point.id = "matrix/" + c->op->name() + "/dtype=" + std::string(DTypeName(point.dtype));
      if (!ids.insert(point.id).second) {
        throw InputError(
            c->path, "/name",
            "test point id " + point.id + " occurs twice (two case files with the same name?)");
      }
      run->points.push_back(std::move(point));
    }
  }
}

// Load: the product, every case expanded into test points, the profiles.
// --devices names devices the provider has (contract.devices_agree runs on each).
void CheckDevices(const std::vector<int32_t>& devices, std::optional<uint32_t> count) {
  if (devices.empty()) return;
  const int32_t highest = *std::max_element(devices.begin(), devices.end());
  if (count && static_cast<uint32_t>(highest) < *count) return;
  throw RunError("--devices " + FormatDeviceList(devices) + ": the provider " +
                 (count ? "has " + std::to_string(*count) + " device(s), 0 to " +
                              std::to_string(static_cast<int64_t>(*count) - 1)
                        : "does not say how many devices it has (aclrtGetDeviceCount)") +
                 " (the bundled providers emulate N devices with ACLNN_CPU_DEVICES=N)");
}

LoadedRun LoadRun(const RunOptions& options) {
  LoadedRun run;
  try {
    ResolveProduct(options, &run);
    CheckDevices(options.devices, run.devices);
    ExpandPoints(options, &run);
    run.profiles = Profiles::Load(options.profiles);
  } catch (const InputError& error) {
    throw RunError(error.what());
  } catch (const ProviderError& error) {
    throw RunError(error.what());
  }
  return run;
}

// Select: the filter, then this shard's share of what it selects.
std::vector<const TestPoint*> SelectPoints(const RunOptions& options,
                                           const std::vector<TestPoint>& points) {
  std::vector<const TestPoint*> selected;
  size_t position = 0;
  for (const TestPoint& point : points) {
    if (fnmatch(options.filter.c_str(), point.id.c_str(), 0) != 0) continue;
    if (static_cast<int>(position++ % static_cast<size_t>(options.shard_total)) + 1 !=
        options.shard_index)
      continue;
    selected.push_back(&point);
  }
  // A gate that tested nothing must not pass: a filter with a typo, or case paths without a case
  // file, select no point at all. An empty shard of a non-empty selection (more shards than
  // points) is not an error.
  if (position == 0) {
    throw RunError("--filter '" + options.filter + "' selects none of the " +
                   std::to_string(points.size()) +
                   " test points of the given case files; nothing was run");
  }
  return selected;
}

uint64_t MaxMemory(const RunOptions& options) {
  return options.max_memory_bytes ? options.max_memory_bytes : HalfOfMemory();
}

std::string AbsolutePath(const std::string& path) {
  std::error_code error;
  return std::filesystem::absolute(path, error).string();
}

nlohmann::json FilesWithHashes(const std::vector<std::string>& paths) {
  nlohmann::json files = nlohmann::json::array();
  for (const std::string& path : paths)
    files.push_back({{"path", AbsolutePath(path)}, {"sha256", Sha256OfFile(path)}});
  return files;
}

std::vector<std::string> ContractNames(const std::vector<Contract>& contracts) {
  std::vector<std::string> names;
  for (Contract contract : contracts) names.emplace_back(ContractName(contract));
  return names;
}

// Everything that changes a run's results: a journal is resumed only by the same run.
nlohmann::json RunIdentity(const RunOptions& options, const LoadedRun& run) {
  std::vector<std::string> case_files;
  for (const auto& path : run.case_files) case_files.push_back(path.string());
  return {
      {"harness", GitRevision()},
      {"cases", FilesWithHashes(case_files)},
      {"provider",
       {{"spec", options.provider},
        {"libraries", FilesWithHashes(ProviderPaths(options.provider))}}},
      {"soc", run.soc},
      {"options",
       {{"filter", options.filter},
        {"shard", std::to_string(options.shard_index) + "/" + std::to_string(options.shard_total)},
        {"timeout_seconds", options.timeout_seconds},
        {"require_all", options.require_all},
        {"isolated", options.isolate},
        {"max_memory_bytes", MaxMemory(options)},
        {"profiles", FilesWithHashes(options.profiles)},
        {"repeat", std::max(1, options.repeat)},
        {"save_failures", options.save_failures.empty() ? "" : AbsolutePath(options.save_failures)},
        {"precision", PrecisionRunJson(options.precision)},
        {"contracts", ContractNames(options.contracts)},
        {"devices", options.devices},
        {"case_file_contracts", options.case_file_contracts}}},
  };
}

RunContext MakeContext(const RunOptions& options, const LoadedRun& run) {
  RunContext context{.provider = run.provider.get(),
                     .product = run.product,
                     .profiles = &run.profiles,
                     .repro_prefix = ReproPrefix(options, run.soc),
                     .run_cases = {}};
  for (const std::string& path : options.cases) {
    context.run_cases += (context.run_cases.empty() ? "" : " ") + ShellQuote(AbsolutePath(path));
  }
  context.repeat = std::max(1, options.repeat);
  context.contracts = options.contracts;
  context.devices = options.devices;
  context.case_file_contracts = options.case_file_contracts;
  return context;
}

// Each finished point: printed when it failed, appended to the journal, kept for the reports.
class ResultRecorder {
 public:
  ResultRecorder(const RunOptions& options, size_t total, JournalWriter* journal)
      : options_(options), journal_(journal), results_(total), progress_(options.progress, total) {}

  // `journaled`: the point came from the journal of an earlier attempt (--resume). `line`: the
  // result as the worker serialized it, journaled as it is (ResultSink); empty: serialized here.
  void Record(size_t index, nlohmann::json result, std::string_view line = {},
              bool journaled = false) {
    std::lock_guard lock(mutex_);
    if (!journaled) Journal(result, line);
    const std::string verdict = result.at("verdict").get<std::string>();
    if (verdict == "failed" || verdict == "error" ||
        (options_.require_all && verdict == "not-provided")) {
      ++failed_;
      PrintFailure(result);
    }
    results_[index] = std::move(result);
    progress_.Update(++done_, failed_);
  }
  void Finish() { progress_.Finish(); }
  size_t failed() const { return failed_; }
  const std::string& journal_error() const { return journal_error_; }
  nlohmann::json TakeResults() {
    nlohmann::json test_points = nlohmann::json::array();
    for (auto& result : results_) {
      if (result) test_points.push_back(std::move(*result));
    }
    return test_points;
  }

 private:
  // A journal that cannot be written (a full disk) is named once; the run goes on to its reports.
  void Journal(const nlohmann::json& result, std::string_view line) {
    if (!journal_ || !journal_error_.empty()) return;
    try {
      if (line.empty()) {
        journal_->Append(result);
      } else {
        journal_->AppendLine(line);
      }
    } catch (const std::exception& error) {
      journal_error_ = error.what();
      std::cerr << "\naclnn-check: " << journal_error_
                << "; the points after this one are not journaled\n";
    }
  }
  void PrintFailure(const nlohmann::json& result) const {
    if (options_.progress) std::cerr << "\r";
    std::cout << "FAIL " << result.at("id").get<std::string>();
    if (!result.at("failures").empty()) {
      const auto& first = result.at("failures")[0];
      std::cout << "\n  " << first.at("rule").get<std::string>() << ": "
                << first.at("message").get<std::string>();
    }
    if (result.at("verdict") == "not-provided") {
      std::cout << "\n  the provider does not export " << result.at("op").get<std::string>();
    }
    std::cout << "\n  repro: " << result.at("repro").get<std::string>();
    if (const auto saved = result.find("failure_data"); saved != result.end()) {
      std::cout << (saved->contains("not_saved")
                        ? "\n  data not saved (" + saved->at("not_saved").get<std::string>() + "): "
                        : "\n  data: ")
                << saved->at("path").get<std::string>();
    }
    std::cout << "\n" << std::flush;
  }

  const RunOptions& options_;
  JournalWriter* journal_;
  std::vector<std::optional<nlohmann::json>> results_;
  Progress progress_;
  std::mutex mutex_;
  size_t done_ = 0, failed_ = 0;
  std::string journal_error_;
};

struct OpenedJournal {
  std::optional<JournalWriter> writer;
  std::map<std::string, nlohmann::json> finished;  // by point id: an earlier attempt's entries
  std::string command;                             // the command line of the run's first attempt
};

// A new run does not replace the journal of a run that did not finish (killed, interrupted, its
// disk full) unless told to: those points may have taken hours. A journal that names its point
// count and holds fewer lines is unfinished; one that cannot be resumed anyway (another format
// version, no header) protects nothing and is replaced.
void RefuseUnfinishedJournal(const RunOptions& options) {
  const std::filesystem::path path = JournalPath(options.report_dir);
  if (options.overwrite || !std::filesystem::exists(path)) return;
  JournalSummary journal;
  try {
    journal = SummariseJournal(path);
  } catch (const std::exception&) {
    return;
  }
  const nlohmann::json points = journal.header.value("points", nlohmann::json());
  if (!points.is_number_unsigned() || journal.entries >= points.get<size_t>()) return;
  throw RunError(options.report_dir + " holds an unfinished run (" +
                 std::to_string(journal.entries) + " of " + std::to_string(points.get<size_t>()) +
                 " test points in " + path.string() + "): finish it with --resume " +
                 options.report_dir + ", or give --overwrite to start anew and drop its points");
}

// A new journal, or with --resume the earlier attempt's, checked to be this run's.
OpenedJournal OpenJournal(const RunOptions& options, const LoadedRun& run, size_t points) {
  const std::filesystem::path path = JournalPath(options.report_dir);
  const nlohmann::json identity = RunIdentity(options, run);
  OpenedJournal journal{.writer = {}, .finished = {}, .command = options.command_line};
  try {
    if (!options.resume) {
      // Only for measuring the journal's cost (docs/journal-and-resume.md): such a run cannot be
      // resumed, so it is no option of the command line.
      if (std::getenv("ACLNN_CHECK_MEASURE_WITHOUT_JOURNAL")) return journal;
      RefuseUnfinishedJournal(options);
      journal.writer.emplace(JournalWriter::Start(
          path, {{"run", identity}, {"command", options.command_line}, {"points", points}}));
      return journal;
    }
    JournalContents contents = ReadJournal(path);
    if (const std::string difference =
            FirstDifference(contents.header.value("run", nlohmann::json()), identity);
        !difference.empty()) {
      throw RunError("--resume " + options.report_dir + ": not the same run (" + difference + ")");
    }
    journal.command = contents.header.value("command", options.command_line);
    journal.writer.emplace(JournalWriter::Continue(path, contents.valid_bytes));
    for (nlohmann::json& entry : contents.entries) {
      std::string id = entry.value("id", "");
      journal.finished[std::move(id)] = std::move(entry);
    }
  } catch (const std::runtime_error& error) {
    throw RunError(error.what());
  }
  return journal;
}

// The selected points an earlier attempt finished are recorded from its journal, not run again.
std::set<std::string> RecordFinished(const std::vector<const TestPoint*>& selected,
                                     OpenedJournal* journal, ResultRecorder* recorder) {
  std::set<std::string> recorded;
  for (size_t i = 0; i < selected.size(); ++i) {
    auto found = journal->finished.find(selected[i]->id);
    if (found == journal->finished.end()) continue;
    recorder->Record(i, std::move(found->second), {}, /*journaled=*/true);
    recorded.insert(selected[i]->id);
  }
  return recorded;
}

LaterCalls LaterCallsOf(const RunOptions& options, const RunContext& context) {
  return options.precision.recheck > 0 ? LaterCalls::kOnFreshSeedPoints
         : context.repeat > 1 || !options.precision.comparator_provider.empty()
             ? LaterCalls::kBesideItsReference
             : LaterCalls::kNone;
}

// Execute: the points not yet recorded, on --jobs workers. Returns false when interrupted.
bool ExecutePoints(const RunOptions& options, const LoadedRun& run, const RunContext& context,
                   const std::vector<const TestPoint*>& selected,
                   const std::set<std::string>& already, ResultRecorder* recorder, int* jobs) {
  // Points over the memory limit are refused up front instead of being killed by the system.
  std::vector<const TestPoint*> runnable;
  std::vector<size_t> runnable_index;
  const uint64_t max_memory = MaxMemory(options);
  for (size_t i = 0; i < selected.size(); ++i) {
    if (already.contains(selected[i]->id)) continue;
    const uint64_t needed = EstimatedBytes(*selected[i], LaterCallsOf(options, context));
    if (needed > max_memory) {
      TestPointResult refused = AbortedResult(
          *selected[i], context, "harness.memory",
          "needs about " + std::to_string(needed >> 20) + " MiB, more than --max-memory (" +
              std::to_string(max_memory >> 20) + " MiB); not run");
      refused.verdict = Verdict::kError;
      recorder->Record(i, TestPointJson(refused));
      continue;
    }
    runnable.push_back(selected[i]);
    runnable_index.push_back(i);
  }
  *jobs = std::max(
      1, std::min<int>(options.jobs, static_cast<int>(std::max<size_t>(runnable.size(), 1))));
  const auto on_result = [&](size_t i, nlohmann::json result, std::string_view line) {
    recorder->Record(runnable_index[i], std::move(result), line);
  };
  if (!options.isolate) return RunInProcess(*run.provider, context, runnable, *jobs, on_result);
  IsolationOptions isolation;
  isolation.workers = *jobs;
  isolation.timeout_of = [&](const TestPoint& point) {
    // --repeat N makes N calls in the same worker: the limit is per call.
    // --recheck N adds up to N calls on the device and N on the comparator provider, the calling
    // patterns their calls (all on the same point's shapes or its case's).
    return point.case_file->timeout_seconds.value_or(options.timeout_seconds) *
           (context.repeat + 2 * std::max(0, options.precision.recheck) +
            CallingPatternCalls(point, context));
  };
  return RunIsolated(options.provider, context, runnable, isolation, on_result);
}

struct RunClock {
  std::chrono::system_clock::time_point started = std::chrono::system_clock::now();
  std::chrono::steady_clock::time_point steady_start = std::chrono::steady_clock::now();
};

nlohmann::json RunMetadata(const RunOptions& options, const LoadedRun& run,
                           const RunContext& context, const RunClock& clock,
                           const std::string& command, int jobs, bool completed) {
  nlohmann::json provider_files = nlohmann::json::array();
  for (const std::string& path : ProviderPaths(options.provider)) {
    provider_files.push_back({{"path", path}, {"sha256", Sha256OfFile(path)}});
  }
  return {
      {"provider", {{"spec", options.provider}, {"libraries", provider_files}}},
      {"soc", run.soc},
      {"product", std::string(ProductName(run.product))},
      {"host", HostName()},
      {"git_revision", GitRevision()},
      {"started", IsoTime(clock.started)},
      {"duration_seconds",
       std::chrono::duration<double>(std::chrono::steady_clock::now() - clock.steady_start)
           .count()},
      {"command", command},
      {"filter", options.filter},
      {"shard", std::to_string(options.shard_index) + "/" + std::to_string(options.shard_total)},
      {"jobs", jobs},
      {"isolated", options.isolate},
      {"interrupted", !completed},
      {"require_all", options.require_all},
      {"repeat", context.repeat},
      {"precision", PrecisionRunJson(options.precision)},
      {"overrides", OverridesJson(run.profiles)},
  };
}

// Report: report.json, junit.xml, report.html and the history line; the summary on stdout.
nlohmann::json WriteRunReports(const RunOptions& options, const LoadedRun& run,
                               nlohmann::json metadata, nlohmann::json test_points,
                               bool completed) {
  std::vector<std::string> operator_names;
  for (const auto& c : run.cases) {
    if (std::find(operator_names.begin(), operator_names.end(), c->op->name()) ==
        operator_names.end()) {
      operator_names.push_back(c->op->name());
    }
  }
  nlohmann::json report = BuildReport(metadata, std::move(test_points), operator_names);
  try {
    WriteReports(report, options.report_dir);
    // An interrupted run is not a data point of the trends, nor is a shard: `report merge`
    // appends the line of the whole run.
    if (!options.run_history.empty() && completed && options.shard_total == 1) {
      AppendJsonLine(options.run_history, RunHistoryEntry(report));
    }
  } catch (const std::exception& error) {
    throw RunError(error.what());
  }
  const auto& totals = report.at("totals");
  std::cout << totals.at("test_points") << " test points: " << totals.at("passed") << " passed, "
            << totals.at("failed") << " failed, " << totals.at("not_provided") << " not provided, "
            << totals.at("errors") << " errors (" << run.soc << ", " << ProductName(run.product)
            << ", provider " << options.provider << "); reports in " << options.report_dir << "\n";
  return report;
}

int RunPhases(const RunOptions& options) {
  const RunClock clock;
  const LoadedRun run = LoadRun(options);
  const std::vector<const TestPoint*> selected = SelectPoints(options, run.points);
  if (options.list_only) {
    for (const TestPoint* point : selected) std::cout << point->id << "\n";
    return 0;
  }
  RunContext context = MakeContext(options, run);
  const PrecisionGate precision_gate(options.precision);
  context.precision = &precision_gate;
  std::unique_ptr<FailureArchive> failure_archive;
  if (!options.save_failures.empty()) {
    try {
      failure_archive =
          std::make_unique<FailureArchive>(options.save_failures, options.save_failures_max_bytes);
    } catch (const std::exception& error) {
      throw RunError(error.what());
    }
    context.failure_archive = failure_archive.get();
  }
  OpenedJournal journal = OpenJournal(options, run, selected.size());
  ResultRecorder recorder(options, selected.size(), journal.writer ? &*journal.writer : nullptr);
  const std::set<std::string> already = RecordFinished(selected, &journal, &recorder);
  int jobs = 1;
  bool completed = true;
  try {
    completed = ExecutePoints(options, run, context, selected, already, &recorder, &jobs);
  } catch (const std::exception& error) {
    recorder.Finish();
    throw RunError(error.what());
  }
  recorder.Finish();
  const size_t failed = recorder.failed();
  nlohmann::json metadata =
      RunMetadata(options, run, context, clock, journal.command, jobs, completed);
  const nlohmann::json report =
      WriteRunReports(options, run, std::move(metadata), recorder.TakeResults(), completed);
  if (failure_archive) {
    std::cout << "failure data: " << ByteSize(failure_archive->used_bytes()) << " in "
              << failure_archive->dir().string() << "\n";
  }
  if (!recorder.journal_error().empty()) throw RunError(recorder.journal_error());
  if (!completed) {
    std::cout << "interrupted: the report holds the " << report.at("test_points").size() << " of "
              << selected.size() << " test points that finished\n";
    return kInterruptedExitCode;
  }
  return failed > 0 ? 1 : 0;
}

}  // namespace

int Run(const RunOptions& options) {
  const bool bundled = IsBundledProvider(options.provider);
  // The bundled providers emulate the product named by ACLNN_CPU_SOC.
  const ScopedEnvironment emulated_soc("ACLNN_CPU_SOC", bundled ? options.soc : std::nullopt);
  try {
    return RunPhases(options);
  } catch (const RunError& error) {
    std::cerr << "aclnn-check: " << error.what() << "\n";
    return 2;
  }
}

}  // namespace aclnn_check
