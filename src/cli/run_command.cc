#include "cli/run_command.h"

#include <fnmatch.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include "core/build_info.h"
#include "cases/test_point.h"
#include "import/case_import.h"
#include "device_access/loader.h"
#include "core/sha256.h"
#include "results/atomic_file.h"
#include "report/report_files.h"
#include "report/report_json.h"
#include "report/run_history.h"
#include "runner/execute.h"
#include "runner/failure_archive.h"
#include "runner/in_process.h"
#include "runner/isolation.h"
#include "runner/precision_gate.h"

namespace aclnn_check {
namespace {

uint64_t HalfOfMemory() {
  return static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE)) / 2;
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

// The matrix checks of SPEC section 3: for each operator in the run and each floating dtype the
// product does not list, one call that must be rejected with 161002.
std::vector<std::unique_ptr<CaseFile>> MatrixCases(const std::set<const Operator*>& operators,
                                                   Product product) {
  std::vector<std::unique_ptr<CaseFile>> cases;
  for (const Operator& op : Catalogue()) {
    if (!operators.count(&op)) continue;
    nlohmann::json dtypes = nlohmann::json::array();
    for (DType dtype : ComputeDTypes()) {
      if (!op.Supports(product, dtype)) dtypes.push_back(std::string(DTypeName(dtype)));
    }
    if (dtypes.empty()) continue;
    auto c = std::make_unique<CaseFile>();
    c->path = "<matrix>";
    c->name = "matrix." + op.id();
    c->op = &op;
    c->axes.emplace_back("dtype", dtypes);
    for (const AxisDef& axis : op.axes()) {
      c->axes.emplace_back(axis.name, nlohmann::json::array({(*axis.default_values)[0]}));
    }
    for (const TensorSlot& slot : op.tensors()) {
      if (slot.role == SlotRole::kInput) c->inputs[std::string(slot.name)] = InputSpec{};
    }
    c->layouts = {Layout{}};
    c->expect.pass = false;
    c->expect.status = ACLNN_ERR_PARAM_INVALID;
    cases.push_back(std::move(c));
  }
  return cases;
}

class Progress {
 public:
  Progress(bool enabled, size_t total) : enabled_(enabled), total_(total), start_(Clock::now()) {}
  void Update(size_t done, size_t failed) {
    if (!enabled_) return;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    const double eta = done ? elapsed / static_cast<double>(done) * static_cast<double>(total_ - done) : 0;
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
  for (const std::string& path : precision.benchmark_run_paths) {
    prefix += " --benchmark-run " + ShellQuote(std::filesystem::absolute(path, error).string());
  }
  if (!precision.benchmark_provider.empty()) prefix += " --benchmark-provider " + ShellQuote(precision.benchmark_provider);
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

int Run(const RunOptions& options) {
  const auto started = std::chrono::system_clock::now();
  const auto steady_start = std::chrono::steady_clock::now();
  const bool bundled = IsBundledProvider(options.provider);
  // The bundled providers emulate the product named by ACLNN_CPU_SOC.
  const ScopedEnvironment emulated_soc("ACLNN_CPU_SOC", bundled ? options.soc : std::nullopt);

  std::unique_ptr<Provider> provider;
  std::string soc;
  Product product;
  std::vector<std::unique_ptr<CaseFile>> cases;
  std::vector<TestPoint> points;
  try {
    // Isolated runs never load provider code into this process: a probe worker reports the SoC.
    std::optional<std::string> reported;
    if (options.isolate) {
      const ProviderProbe probe = ProbeProvider(options.provider);
      if (!probe.error.empty()) throw ProviderError(probe.error);
      reported = probe.soc;
    } else {
      provider = Provider::Load(options.provider);
      reported = provider->SocName();
    }
    soc = options.soc ? *options.soc : reported.value_or("");
    if (soc.empty()) {
      std::cerr << "aclnn-check: the provider has no aclrtGetSocName; name the product with --soc\n";
      return 2;
    }
    const std::optional<Product> known = ProductOfSoc(soc);
    if (!known) {
      std::cerr << "aclnn-check: SoC '" << soc
                << "' is not a known Ascend product (SPEC section 3); name one with --soc\n";
      return 2;
    }
    product = *known;
    std::set<const Operator*> operators;
    std::vector<SkippedCase> skipped;
    for (const auto& path : FindCaseFiles(options.cases)) {
      for (CaseFile& loaded : LoadCaseSource(path, &skipped)) {
        cases.push_back(std::make_unique<CaseFile>(std::move(loaded)));
        operators.insert(cases.back()->op);
      }
    }
    // CANN cases the harness cannot express are named, never dropped silently.
    for (const SkippedCase& s : skipped) {
      std::cerr << "aclnn-check: skipped " << s.file << " " << s.location << ", " << s.column << ": " << s.why << "\n";
    }
    for (auto& matrix : MatrixCases(operators, product)) cases.push_back(std::move(matrix));
    std::set<std::string> ids;
    for (const auto& c : cases) {
      for (TestPoint& point : ExpandCase(*c, product)) {
        if (c->path == "<matrix>") point.id = "matrix/" + c->op->name() + "/dtype=" + std::string(DTypeName(point.dtype));
        if (!ids.insert(point.id).second) {
          throw InputError(c->path, "/name", "test point id " + point.id +
                                                 " occurs twice (two case files with the same name?)");
        }
        points.push_back(std::move(point));
      }
    }
  } catch (const InputError& error) {
    std::cerr << "aclnn-check: " << error.what() << "\n";
    return 2;
  } catch (const ProviderError& error) {
    std::cerr << "aclnn-check: " << error.what() << "\n";
    return 2;
  }

  Profiles profiles;
  try {
    profiles = Profiles::Load(options.profiles);
  } catch (const InputError& error) {
    std::cerr << "aclnn-check: " << error.what() << "\n";
    return 2;
  }

  std::vector<const TestPoint*> selected;
  size_t position = 0;
  for (const TestPoint& point : points) {
    if (fnmatch(options.filter.c_str(), point.id.c_str(), 0) != 0) continue;
    if (static_cast<int>(position++ % static_cast<size_t>(options.shard_total)) + 1 != options.shard_index) continue;
    selected.push_back(&point);
  }
  // A gate that tested nothing must not pass: a filter with a typo, or case paths without a case
  // file, select no point at all. An empty shard of a non-empty selection (more shards than
  // points) is not an error.
  if (position == 0) {
    std::cerr << "aclnn-check: --filter '" << options.filter << "' selects none of the "
              << points.size() << " test points of the given case files; nothing was run\n";
    return 2;
  }
  if (options.list_only) {
    for (const TestPoint* point : selected) std::cout << point->id << "\n";
    return 0;
  }

  RunContext context{.provider = provider.get(),
                     .product = product,
                     .profiles = &profiles,
                     .repro_prefix = ReproPrefix(options, soc),
                     .run_cases = {}};
  for (const std::string& path : options.cases) {
    std::error_code error;
    context.run_cases += (context.run_cases.empty() ? "" : " ") +
                         ShellQuote(std::filesystem::absolute(path, error).string());
  }
  context.repeat = std::max(1, options.repeat);
  context.contracts = options.contracts;
  const PrecisionGate precision_gate(options.precision);
  context.precision = &precision_gate;
  std::unique_ptr<FailureArchive> failure_archive;
  if (!options.save_failures.empty()) {
    try {
      failure_archive = std::make_unique<FailureArchive>(options.save_failures, options.save_failures_max_bytes);
    } catch (const std::exception& error) {
      std::cerr << "aclnn-check: " << error.what() << "\n";
      return 2;
    }
    context.failure_archive = failure_archive.get();
  }
  const uint64_t max_memory = options.max_memory_bytes ? options.max_memory_bytes : HalfOfMemory();
  std::vector<std::optional<nlohmann::json>> results(selected.size());
  size_t done = 0, failed = 0;
  std::mutex output;
  Progress progress(options.progress, selected.size());
  const auto record = [&](size_t index, nlohmann::json result) {
    std::lock_guard lock(output);
    const std::string verdict = result.at("verdict").get<std::string>();
    const bool bad = verdict == "failed" || verdict == "error" ||
                     (options.require_all && verdict == "not-provided");
    if (bad) {
      ++failed;
      if (options.progress) std::cerr << "\r";
      std::cout << "FAIL " << result.at("id").get<std::string>();
      if (!result.at("failures").empty()) {
        const auto& first = result.at("failures")[0];
        std::cout << "\n  " << first.at("rule").get<std::string>() << ": "
                  << first.at("message").get<std::string>();
      }
      if (verdict == "not-provided") std::cout << "\n  the provider does not export " << result.at("op").get<std::string>();
      std::cout << "\n  repro: " << result.at("repro").get<std::string>();
      if (const auto saved = result.find("failure_data"); saved != result.end()) {
        std::cout << (saved->contains("not_saved") ? "\n  data not saved (" + saved->at("not_saved").get<std::string>() + "): "
                                                   : "\n  data: ")
                  << saved->at("path").get<std::string>();
      }
      std::cout << "\n" << std::flush;
    }
    results[index] = std::move(result);
    progress.Update(++done, failed);
  };

  // Points over the memory limit are refused up front instead of being killed by the system.
  std::vector<const TestPoint*> runnable;
  std::vector<size_t> runnable_index;
  const LaterCalls later = options.precision.recheck > 0 ? LaterCalls::kOnFreshSeedPoints
                           : context.repeat > 1 || !options.precision.benchmark_provider.empty()
                               ? LaterCalls::kBesideItsReference
                               : LaterCalls::kNone;
  for (size_t i = 0; i < selected.size(); ++i) {
    const uint64_t needed = EstimatedBytes(*selected[i], later);
    if (needed > max_memory) {
      TestPointResult refused = AbortedResult(
          *selected[i], context, "harness.memory",
          "needs about " + std::to_string(needed >> 20) + " MiB, more than --max-memory (" +
              std::to_string(max_memory >> 20) + " MiB); not run");
      refused.verdict = Verdict::kError;
      record(i, TestPointJson(refused));
      continue;
    }
    runnable.push_back(selected[i]);
    runnable_index.push_back(i);
  }

  const int jobs = std::max(1, std::min<int>(options.jobs, static_cast<int>(std::max<size_t>(runnable.size(), 1))));
  bool completed = true;
  try {
    if (options.isolate) {
      IsolationOptions isolation;
      isolation.workers = jobs;
      isolation.timeout_of = [&](const TestPoint& point) {
        // --repeat N makes N calls in the same worker: the limit is per call.
        // --recheck N adds up to N calls on the device and N on the benchmark provider.
        return point.case_file->timeout_seconds.value_or(options.timeout_seconds) *
               (context.repeat + 2 * std::max(0, options.precision.recheck));
      };
      completed = RunIsolated(options.provider, context, runnable, isolation,
                              [&](size_t i, nlohmann::json result) { record(runnable_index[i], std::move(result)); });
    } else {
      completed = RunInProcess(*provider, context, runnable, jobs,
                               [&](size_t i, nlohmann::json result) { record(runnable_index[i], std::move(result)); });
    }
  } catch (const std::exception& error) {
    progress.Finish();
    std::cerr << "aclnn-check: " << error.what() << "\n";
    return 2;
  }
  progress.Finish();

  nlohmann::json test_points = nlohmann::json::array();
  for (auto& result : results) {
    if (result) test_points.push_back(std::move(*result));
  }
  nlohmann::json provider_files = nlohmann::json::array();
  for (const std::string& path : ProviderPaths(options.provider)) {
    provider_files.push_back({{"path", path}, {"sha256", Sha256OfFile(path)}});
  }
  const nlohmann::json metadata = {
      {"provider", {{"spec", options.provider}, {"libraries", provider_files}}},
      {"soc", soc},
      {"product", std::string(ProductName(product))},
      {"host", HostName()},
      {"git_revision", GitRevision()},
      {"started", IsoTime(started)},
      {"duration_seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - steady_start).count()},
      {"command", options.command_line},
      {"filter", options.filter},
      {"shard", std::to_string(options.shard_index) + "/" + std::to_string(options.shard_total)},
      {"jobs", jobs},
      {"isolated", options.isolate},
      {"interrupted", !completed},
      {"require_all", options.require_all},
      {"repeat", context.repeat},
      {"precision", PrecisionRunJson(options.precision)},
      {"overrides", OverridesJson(profiles)},
  };
  std::vector<std::string> operator_names;
  for (const auto& c : cases) {
    if (std::find(operator_names.begin(), operator_names.end(), c->op->name()) == operator_names.end()) {
      operator_names.push_back(c->op->name());
    }
  }
  const nlohmann::json report = BuildReport(metadata, std::move(test_points), operator_names);
  try {
    WriteReports(report, options.report_dir);
    // An interrupted run is not a data point of the trends, nor is a shard: `report merge`
    // appends the line of the whole run.
    if (!options.run_history.empty() && completed && options.shard_total == 1) {
      AppendJsonLine(options.run_history, RunHistoryEntry(report));
    }
  } catch (const std::exception& error) {
    std::cerr << "aclnn-check: " << error.what() << "\n";
    return 2;
  }
  const auto& totals = report.at("totals");
  std::cout << totals.at("test_points") << " test points: " << totals.at("passed") << " passed, "
            << totals.at("failed") << " failed, " << totals.at("not_provided") << " not provided, "
            << totals.at("errors") << " errors (" << soc << ", " << ProductName(product)
            << ", provider " << options.provider << "); reports in " << options.report_dir << "\n";
  if (failure_archive) {
    std::cout << "failure data: " << ByteSize(failure_archive->used_bytes()) << " in "
              << failure_archive->dir().string() << "\n";
  }
  if (!completed) {
    std::cout << "interrupted: the report holds the " << report.at("test_points").size() << " of "
              << selected.size() << " test points that finished\n";
    return kInterruptedExitCode;
  }
  return failed > 0 ? 1 : 0;
}

}  // namespace aclnn_check
