// `bench compare` names the figure that got slower: base = the cpu provider, new = a provider that
// computes like it but got slower in one step (tests/faulty_provider/bench_faults.cc), both timed
// in this test. Each planted delay (50 ms) is 10^4 to 10^5 times the figure it lands in (about a
// microsecond); the threshold asks for 1000 times. A delayed run times one cold iteration per
// repetition, which makes its other figures up to ~60 times the base's warm ones (measured on a
// loaded 2-core machine): far below the threshold, so only the slower figure is flagged, and
// swapping any two figures in bench or compare fails every case.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "bench/benchmark_comparison.h"
#include "device_access/loader.h"
#include "support/temp_dir.h"

namespace aclnn_check {
namespace {

std::string ShellQuoted(const std::filesystem::path& path) { return "'" + path.string() + "'"; }

int RunShell(const std::string& command_line) {
  const std::string command = command_line + " >/dev/null 2>&1";
  return WEXITSTATUS(std::system(command.c_str()));
}

int RunCli(const std::string& arguments) {
  const std::string command = std::string(ACLNN_CHECK_CLI) + " " + arguments + " >/dev/null 2>&1";
  return WEXITSTATUS(std::system(command.c_str()));
}

std::vector<BenchmarkSamples> Samples(const std::filesystem::path& file) {
  std::ifstream in(file);
  return ReadBenchmarkSamples(nlohmann::json::parse(in), file.string());
}

class BenchFaults : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    // One small point: its figures on the cpu provider are microseconds.
    dir_->Write("cases/small.json", R"({"name": "small", "op": "HardswishBackward",
        "axes": {"dtype": ["float32"], "shape": [[256]]}, "seed": 1})");
    ASSERT_EQ(Bench("cpu", "base.json"), 0);
  }
  static void TearDownTestSuite() { delete dir_; }

  // The stream is held until the synchronisation (ACLNN_CPU_DEFER_LAUNCHES): otherwise the start
  // event is reached while the host is still in a slow launch call and the device window holds
  // that call too, as on a device whose stream is idle (docs/device-time.md: holding the stream).
  // Five repetitions (the U test's minimum here). min_time counts manual (device) time, so a
  // small one keeps a run whose host got slower to a few iterations per repetition.
  static int Bench(const std::string& provider, const std::string& out) {
    return RunShell("env ACLNN_CPU_DEFER_LAUNCHES=1 " + std::string(ACLNN_CHECK_CLI) + " bench " + ShellQuoted(dir_->path() / "cases") + " --provider " + ShellQuoted(provider) +
                  " --json " + ShellQuoted(dir_->path() / out) +
                  " --history '' --benchmark_min_time=0.00001 --benchmark_repetitions=5");
  }

  // The figures `bench compare` flags when `variant` is NEW.
  static std::vector<Figure> FlaggedFigures(const std::string& variant) {
    const std::string out = variant + ".json";
    EXPECT_EQ(Bench(BundledProviderDir() + "/libaclnn_bench_fault_" + variant + ".so", out), 0);
    CompareOptions options;
    options.threshold = 1000;
    const Comparison comparison = CompareBenchmarkOutputs(Samples(dir_->path() / "base.json"),
                                                          Samples(dir_->path() / out), options);
    EXPECT_EQ(comparison.common, 1u);
    std::vector<Figure> flagged;
    for (const BenchmarkChange& change : comparison.changes) {
      EXPECT_NE(change.verdict, ChangeVerdict::kFailed) << change.note;
      if (change.verdict == ChangeVerdict::kRegression) flagged.push_back(change.figure);
    }
    // The command line says the same with its exit code.
    EXPECT_EQ(RunCli("bench compare " + ShellQuoted(dir_->path() / "base.json") + " " +
                     ShellQuoted(dir_->path() / out) + " --threshold 1000"),
              flagged.empty() ? 0 : 1);
    return flagged;
  }

  static testing::TempDir* dir_;
};
testing::TempDir* BenchFaults::dir_ = nullptr;

TEST_F(BenchFaults, SlowerGetWorkspaceSizeIsAHostRegression) {
  EXPECT_EQ(FlaggedFigures("slowgetworkspace"), std::vector<Figure>{Figure::kHostGetWorkspace});
}

TEST_F(BenchFaults, SlowerLaunchIsAHostRegression) {
  EXPECT_EQ(FlaggedFigures("slowlaunch"), std::vector<Figure>{Figure::kHostLaunch});
}

TEST_F(BenchFaults, SlowerKernelIsADeviceRegression) {
  EXPECT_EQ(FlaggedFigures("slowkernel"), std::vector<Figure>{Figure::kDevice});
}

}  // namespace
}  // namespace aclnn_check
