#include "report/bench_history.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string_view>

#include "bench/benchmark_comparison.h"
#include "bench/point_benchmark.h"

namespace aclnn_check {
namespace {

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

std::string ContextString(const nlohmann::json& context, const char* key, const char* fallback) {
  const auto it = context.find(key);
  return it != context.end() && it->is_string() ? it->get<std::string>() : fallback;
}

}  // namespace

namespace {

// The repetitions of one benchmark, in file order.
struct Repetitions {
  std::vector<double> bytes, items, get_workspace, launch;
};

void AppendNumber(const nlohmann::json& run, std::string_view key, std::vector<double>& into) {
  const auto found = run.find(std::string(key));
  if (found != run.end() && found->is_number()) into.push_back(found->get<double>());
}

}  // namespace

std::vector<BenchHistoryEntry> BenchHistoryEntries(const nlohmann::json& benchmark_output) {
  const nlohmann::json context = benchmark_output.value("context", nlohmann::json::object());
  // Repetitions of one benchmark share its run_name; aggregates (mean, median, ...) are derived
  // from them and are skipped.
  std::vector<std::string> order;
  std::map<std::string, Repetitions> runs;
  for (const nlohmann::json& run : benchmark_output.value("benchmarks", nlohmann::json::array())) {
    if (run.value("run_type", "iteration") != "iteration" || run.value("error_occurred", false))
      continue;
    const auto bytes = run.find("bytes_per_second");
    if (bytes == run.end() || !bytes->is_number()) continue;
    const std::string name = PointBenchmarkName(run.value("run_name", run.value("name", "")));
    if (!runs.count(name)) order.push_back(name);
    Repetitions& repetitions = runs[name];
    repetitions.bytes.push_back(bytes->get<double>());
    AppendNumber(run, "items_per_second", repetitions.items);
    AppendNumber(run, FigureKey(Figure::kHostGetWorkspace), repetitions.get_workspace);
    AppendNumber(run, FigureKey(Figure::kHostLaunch), repetitions.launch);
  }
  std::vector<BenchHistoryEntry> entries;
  for (const std::string& name : order) {
    Repetitions& repetitions = runs[name];
    entries.push_back(
        {name, ContextString(context, "date", ""), Median(repetitions.bytes),
         Median(repetitions.items), ContextString(context, kContextGitRevision, "unknown"),
         ContextString(context, kContextProvider, "unknown"),
         ContextString(context, kContextSoc, "unknown"), ContextString(context, "host_name", ""),
         repetitions.bytes, ContextString(context, kContextDeviceTime, ""),
         repetitions.get_workspace, repetitions.launch});
  }
  return entries;
}

void AppendBenchHistory(const std::filesystem::path& file,
                        const std::vector<BenchHistoryEntry>& entries) {
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  std::string lines;
  for (const BenchHistoryEntry& entry : entries) {
    nlohmann::json line{{"name", entry.name},
                        {"date", entry.date},
                        {"bytes_per_second", entry.bytes_per_second},
                        {"items_per_second", entry.items_per_second},
                        {"git_revision", entry.git_revision},
                        {"provider", entry.provider},
                        {"soc", entry.soc},
                        {"host", entry.host},
                        {"bytes_per_second_repetitions", entry.bytes_per_second_repetitions}};
    if (!entry.device_time.empty()) line["device_time"] = entry.device_time;
    const auto figure = [&](const char* key, const std::vector<double>& repetitions) {
      if (repetitions.empty()) return;
      line[key] = Median(repetitions);
      line[std::string(key) + "_repetitions"] = repetitions;
    };
    figure(kHostGetWorkspaceCounter, entry.host_get_workspace_seconds_repetitions);
    figure(kHostLaunchCounter, entry.host_launch_seconds_repetitions);
    lines += line.dump() + "\n";
  }
  // One write of whole lines, so a reader never sees half an entry.
  std::ofstream out(file, std::ios::app | std::ios::binary);
  out << lines;
  out.flush();
  if (!out) throw std::runtime_error(file.string() + ": cannot append the benchmark history");
}

}  // namespace aclnn_check
