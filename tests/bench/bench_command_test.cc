// `aclnn-check bench` and `bench compare` end to end: Google Benchmark JSON that compare.py reads,
// the history line, and compare's exit codes (a tiny smoke run: no speed is asserted).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/temp_dir.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

std::string Quoted(const std::filesystem::path& path) { return "'" + path.string() + "'"; }

// Runs the CLI in working_dir (the test's own when empty).
int ExitCode(const std::string& arguments, const std::filesystem::path& working_dir = {}) {
  const std::string cd = working_dir.empty() ? "" : "cd " + Quoted(working_dir) + " && ";
  const std::string command =
      cd + std::string(ACLNN_CHECK_CLI) + " " + arguments + " >/dev/null 2>&1";
  return WEXITSTATUS(std::system(command.c_str()));
}

json ReadJson(const std::filesystem::path& path) {
  std::ifstream in(path);
  return json::parse(in);
}

TEST(BenchCommand, WritesGoogleBenchmarkJsonAndAppendsTheHistory) {
  testing::TempDir dir;
  dir.Write("cases/tiny.json", R"({"name": "tiny", "op": "HardswishBackward",
      "axes": {"dtype": ["float32", "float16"], "shape": [[64]]}, "seed": 1})");
  const auto out = dir.path() / "out/latest.json", history = dir.path() / "out/history.jsonl";
  const std::string arguments =
      "bench " + Quoted(dir.path() / "cases") + " --provider ref --json " + Quoted(out) +
      " --history " + Quoted(history) + " --benchmark_min_time=0.001 --benchmark_repetitions=2";
  ASSERT_EQ(ExitCode(arguments), 0);
  ASSERT_EQ(ExitCode(arguments), 0);

  const json output = ReadJson(out);
  EXPECT_EQ(output["context"]["aclnn_check_provider"], "ref");
  EXPECT_EQ(output["context"]["aclnn_check_soc"], "Ascend910B3");
  size_t iterations = 0;
  for (const json& run : output["benchmarks"]) {
    for (const char* field :
         {"name", "run_name", "run_type", "repetitions", "real_time", "cpu_time", "time_unit",
          "iterations", "bytes_per_second", "items_per_second"}) {
      EXPECT_TRUE(run.contains(field)) << field;
    }
    if (run["run_type"] == "iteration") {
      ++iterations;
      EXPECT_EQ(run["run_name"].get<std::string>().rfind("tiny/", 0), 0u) << run["run_name"];
      // 64 elements of gradOutput, self and out: 3 x 64 x (4 or 2) bytes per call, and 64 items
      // (the largest tensor's elements). Both rates are taken over the same timed loop, so their
      // ratio is the bytes per item whatever the machine's load; a wrong byte count is off by 2x.
      const double bytes_per_item =
          run["run_name"].get<std::string>().find("float16") != std::string::npos ? 6 : 12;
      EXPECT_NEAR(run["bytes_per_second"].get<double>() / run["items_per_second"].get<double>(),
                  bytes_per_item, 1e-9 * bytes_per_item);
    }
  }
  EXPECT_EQ(iterations, 4u);  // 2 dtypes x 2 repetitions

  std::ifstream lines(history);
  size_t count = 0;
  for (std::string line; std::getline(lines, line); ++count) {
    const json entry = json::parse(line);
    EXPECT_EQ(entry["provider"], "ref");
    EXPECT_GT(entry["bytes_per_second"].get<double>(), 0);
  }
  EXPECT_EQ(count, 4u);  // two runs of two benchmarks
}

// `--history=` is an empty value: no history, and the next argument is not taken as its value
// (CLI11 2.1 took it, so the filter below was lost and a file named after it was written).
TEST(BenchCommand, AnEmptyOptionValueLeavesTheNextArgumentAlone) {
  testing::TempDir dir;
  dir.Write("cases/tiny.json", R"({"name": "tiny", "op": "HardswishBackward",
      "axes": {"dtype": ["float32", "float16"], "shape": [[64]]}, "seed": 1})");
  const auto out = dir.path() / "latest.json";
  const std::string arguments = "bench " + Quoted(dir.path() / "cases") + " --provider ref --json " +
                                Quoted(out) +
                                " --history= --benchmark_filter=float16 --benchmark_min_time=0.001";
  ASSERT_EQ(ExitCode(arguments, dir.path()), 0);
  const json output = ReadJson(out);
  ASSERT_EQ(output["benchmarks"].size(), 1u);
  EXPECT_NE(output["benchmarks"][0]["name"].get<std::string>().find("float16"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "--benchmark_filter=float16"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "reports"));  // no default history either
}

TEST(BenchCommand, BadInputExitsTwo) {
  testing::TempDir dir;
  dir.Write("cases/tiny.json",
            R"({"name": "tiny", "op": "HardswishBackward", "axes": {"shape": [[8]]}})");
  const std::string cases = Quoted(dir.path() / "cases");
  EXPECT_EQ(ExitCode("bench " + cases + " --provider /no/such/provider.so --history ''"), 2);
  EXPECT_EQ(ExitCode("bench " + cases + " --history '' --benchmark_no_such_flag=1"), 2);
  dir.Write("empty/bad.json", R"({"name": "bad", "op": "NoSuchOp"})");
  EXPECT_EQ(ExitCode("bench " + Quoted(dir.path() / "empty") + " --history ''"), 2);
  EXPECT_EQ(ExitCode("bench " + cases + " --history '' --json ''"), 2);
  EXPECT_EQ(ExitCode("bench " + cases + " --history '' --json="), 2);  // only --history= may be empty
  dir.Write("a_file", "not a folder");
  EXPECT_EQ(ExitCode("bench " + cases + " --history '' --json " + Quoted(dir.path() / "a_file/out.json")), 2);
}

json Repetitions(const std::string& name, std::vector<double> times) {
  json runs = json::array();
  for (double t : times) {
    runs.push_back({{"name", name},
                    {"run_name", name},
                    {"run_type", "iteration"},
                    {"repetitions", times.size()},
                    {"iterations", 1},
                    {"real_time", t},
                    {"cpu_time", t},
                    {"time_unit", "ms"}});
  }
  return {{"context", json::object()}, {"benchmarks", runs}};
}

TEST(BenchCompare, ExitCodesSayRegressionAndBadInput) {
  testing::TempDir dir;
  const auto base = dir.Write("base.json", Repetitions("op", {10, 10.1, 10.2, 10.3, 10.4}).dump());
  const auto same =
      dir.Write("same.json", Repetitions("op", {10.05, 10.15, 10.25, 10.35, 10.1}).dump());
  const auto slower =
      dir.Write("slower.json", Repetitions("op", {13, 13.1, 13.2, 13.3, 13.4}).dump());
  const auto other = dir.Write("other.json", Repetitions("another", {10, 10, 10, 10, 10}).dump());
  const auto broken =
      dir.Write("broken.json", R"({"benchmarks": [{"name": "op", "time_unit": "ms"}]})");
  // A number past double's range: nlohmann throws out_of_range, which once ended the process.
  const auto overflowing = dir.Write("overflowing.json", R"({"benchmarks": [], "x": 1e999})");
  EXPECT_EQ(ExitCode("bench compare " + Quoted(base) + " " + Quoted(same)), 0);
  EXPECT_EQ(ExitCode("bench compare " + Quoted(base) + " " + Quoted(slower)), 1);
  EXPECT_EQ(ExitCode("bench compare " + Quoted(slower) + " " + Quoted(base)), 0);  // an improvement
  EXPECT_EQ(ExitCode("bench compare " + Quoted(base) + " " + Quoted(slower) + " --threshold 0.5"),
            0);
  EXPECT_EQ(ExitCode("bench compare " + Quoted(base) + " " + Quoted(other)), 2);
  EXPECT_EQ(ExitCode("bench compare " + Quoted(base) + " " + Quoted(broken)), 2);
  EXPECT_EQ(ExitCode("bench compare " + Quoted(base) + " " + Quoted(overflowing)), 2);
  EXPECT_EQ(ExitCode("bench compare " + Quoted(base) + " " + Quoted(dir.path() / "missing.json")),
            2);
}

}  // namespace
}  // namespace aclnn_check
