#include "cli/bench_command.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

#include "core/build_info.h"
#include "bench/device_events.h"
#include "bench/point_benchmark.h"
#include "bench/operator_workloads.h"
#include "cases/case_file.h"
#include "cases/test_point.h"
#include "core/product.h"
#include "device_access/device.h"
#include "device_access/loader.h"
#include "device_access/provider.h"
#include "report/bench_history.h"
#include "json_input/input_error.h"
#include "json_input/json_schema.h"

namespace aclnn_check {
namespace {

nlohmann::json ReadJsonFile(const std::string& file) {
  return ParseJsonText(ReadTextFile(file, "benchmark JSON file"), file);
}

bool AnyBenchmarkFailed(const nlohmann::json& output) {
  for (const nlohmann::json& run : output.value("benchmarks", nlohmann::json::array())) {
    if (run.value("error_occurred", false)) return true;
  }
  return false;
}

// The folder of --json, made before anything runs; an error names the option and the path.
bool MakeOutputFolder(const std::string& json_out) {
  if (json_out.empty()) {
    std::cerr << "aclnn-check bench: --json: expected a file for Google Benchmark's JSON, got ''\n";
    return false;
  }
  std::error_code error;
  const std::filesystem::path folder = std::filesystem::absolute(json_out, error).parent_path();
  if (!error) std::filesystem::create_directories(folder, error);
  if (error) {
    std::cerr << "aclnn-check bench: --json " << json_out << ": cannot create its folder "
              << folder << ": " << error.message() << "\n";
    return false;
  }
  return true;
}

}  // namespace

int RunBenchmarks(const BenchOptions& options) {
  if (!MakeOutputFolder(options.json_out)) return 2;
  const bool bundled = IsBundledProvider(options.provider);
  // The bundled providers emulate the product named by ACLNN_CPU_SOC; set before they load.
  if (bundled && options.soc) setenv("ACLNN_CPU_SOC", options.soc->c_str(), 1);
  std::unique_ptr<Provider> provider;
  std::unique_ptr<DeviceSession> session;
  std::vector<std::unique_ptr<CaseFile>> cases;
  std::vector<TestPoint> points;
  std::string soc;
  try {
    provider = Provider::Load(options.provider);
    soc = options.soc ? *options.soc : provider->SocName().value_or("");
    const std::optional<Product> product = ProductOfSoc(soc);
    if (!product) {
      std::cerr << "aclnn-check: SoC '" << soc
                << "' is not a known Ascend product; name one with --soc\n";
      return 2;
    }
    const std::vector<std::string> folders =
        options.cases.empty() ? OperatorWorkloadFolders("kernels") : options.cases;
    for (const auto& path : FindCaseFiles(folders)) {
      cases.push_back(std::make_unique<CaseFile>(LoadCaseFile(path)));
      for (TestPoint& point : ExpandCase(*cases.back(), *product)) {
        // Rejected calls return before any work: there is nothing to time.
        if (point.expected.ok()) points.push_back(std::move(point));
      }
    }
    session = std::make_unique<DeviceSession>(*provider);
  } catch (const std::exception& error) {
    std::cerr << "aclnn-check: " << error.what() << "\n";
    return 2;
  }
  if (points.empty()) {
    std::cerr << "aclnn-check: no test point that must succeed in the given case files\n";
    return 2;
  }
  const PointBenchmarkOptions point_options{options.pipelined};
  const std::string suffix =
      options.pipelined > 1 ? "/pipelined:" + std::to_string(options.pipelined) : "";
  for (const TestPoint& point : points) {
    RegisterPointBenchmark(point.id + suffix, point, *session, point_options);
  }

  std::vector<std::string> args = {options.program};
  args.insert(args.end(), options.benchmark_flags.begin(), options.benchmark_flags.end());
  args.push_back("--benchmark_out=" + options.json_out);
  args.push_back("--benchmark_out_format=json");
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  int argc = static_cast<int>(argv.size());
  benchmark::Initialize(&argc, argv.data());
  if (argc > 1) {
    std::cerr << "aclnn-check: unknown benchmark flag " << argv[1] << " (see --benchmark_help)\n";
    return 2;
  }
  benchmark::AddCustomContext(kContextGitRevision, GitRevision());
  benchmark::AddCustomContext(kContextProvider, options.provider);
  benchmark::AddCustomContext(kContextSoc, soc);
  benchmark::AddCustomContext(kContextDeviceTime, HasEvents(*provider) ? "events" : "host");
  benchmark::RunSpecifiedBenchmarks();
  ReleasePointBenchmarks();
  benchmark::Shutdown();

  try {
    const nlohmann::json output = ReadJsonFile(options.json_out);
    if (!options.history.empty()) AppendBenchHistory(options.history, BenchHistoryEntries(output));
    std::cerr << "aclnn-check: wrote " << options.json_out
              << (options.history.empty() ? "" : ", appended to " + options.history) << "\n";
    return AnyBenchmarkFailed(output) ? 1 : 0;
  } catch (const std::exception& error) {
    std::cerr << "aclnn-check: " << error.what() << "\n";
    return 2;
  }
}

int CompareBenchmarkFiles(const std::string& base_file, const std::string& new_file,
                          const CompareOptions& options) {
  try {
    const auto base = ReadBenchmarkSamples(ReadJsonFile(base_file), base_file);
    const auto candidate = ReadBenchmarkSamples(ReadJsonFile(new_file), new_file);
    const Comparison comparison = CompareBenchmarkOutputs(base, candidate, options);
    if (comparison.common == 0) {
      std::cerr << "aclnn-check: " << base_file << " and " << new_file
                << " have no benchmark name in common\n";
      return 2;
    }
    std::cout << FormatComparison(comparison, options);
    return comparison.regressed() ? 1 : 0;
  } catch (const std::exception& error) {
    std::cerr << "aclnn-check: " << error.what() << "\n";
    return 2;
  }
}

}  // namespace aclnn_check
