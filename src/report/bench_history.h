// Benchmark history (docs/contract/benchmarks.md): `aclnn-check bench` appends one JSON object per
// benchmark and run to a JSON lines file,
//   {"name", "date", "bytes_per_second", "items_per_second", "git_revision", "provider", "soc",
//   "host", "bytes_per_second_repetitions", "device_time", "host_get_workspace_seconds",
//   "host_launch_seconds", "host_get_workspace_seconds_repetitions",
//   "host_launch_seconds_repetitions"}
// (bytes_per_second_repetitions, every repetition's rate, since the trend page marks what `bench
// compare` would flag and draws the spread; "device_time" says how the time behind the rates was
// taken, "events" or "host"; the host figures, medians and repetitions, are kept apart so that a
// host-side regression is named as one. Older lines lack the later fields).
// so that trends over revisions and drivers can be plotted from one file.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace aclnn_check {

struct BenchHistoryEntry {
  std::string name;
  std::string date;  // the run's date as Google Benchmark's context gives it (ISO 8601)
  double bytes_per_second = 0;
  double items_per_second = 0;
  std::string git_revision;  // of the harness that ran it, or "unknown"
  std::string provider;
  std::string soc;
  std::string host;
  std::vector<double> bytes_per_second_repetitions{};  // in file order
  std::string device_time{};  // "events", "host", or "" when the output does not say
  std::vector<double> host_get_workspace_seconds_repetitions{};
  std::vector<double> host_launch_seconds_repetitions{};
};

// Context keys aclnn-check adds to Google Benchmark's context (benchmark::AddCustomContext).
inline constexpr const char* kContextGitRevision = "aclnn_check_git_revision";
inline constexpr const char* kContextProvider = "aclnn_check_provider";
inline constexpr const char* kContextSoc = "aclnn_check_soc";
// How bench took the device time: "events" or "host" (the provider has no events).
inline constexpr const char* kContextDeviceTime = "aclnn_check_device_time";

// One entry per benchmark of a Google Benchmark JSON output, named by its point
// (PointBenchmarkName): the median bytes_per_second and items_per_second of its repetitions, and
// each repetition's host counters. Benchmarks that failed or report no bytes_per_second are
// left out; revision, provider and SoC come from the context keys above ("unknown" without them).
std::vector<BenchHistoryEntry> BenchHistoryEntries(const nlohmann::json& benchmark_output);

// Appends one line per entry, creating the file and its folders when missing. Throws
// std::runtime_error naming the file when it cannot be written.
void AppendBenchHistory(const std::filesystem::path& file,
                        const std::vector<BenchHistoryEntry>& entries);

}  // namespace aclnn_check
