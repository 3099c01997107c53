#include "report/bench_history.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <stdexcept>

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

std::vector<BenchHistoryEntry> BenchHistoryEntries(const nlohmann::json& benchmark_output) {
  const nlohmann::json context = benchmark_output.value("context", nlohmann::json::object());
  // Repetitions of one benchmark share its run_name; aggregates (mean, median, ...) are derived
  // from them and are skipped.
  std::vector<std::string> order;
  std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> rates;
  for (const nlohmann::json& run : benchmark_output.value("benchmarks", nlohmann::json::array())) {
    if (run.value("run_type", "iteration") != "iteration" || run.value("error_occurred", false))
      continue;
    const auto bytes = run.find("bytes_per_second");
    if (bytes == run.end() || !bytes->is_number()) continue;
    const std::string name = run.value("run_name", run.value("name", ""));
    if (!rates.count(name)) order.push_back(name);
    rates[name].first.push_back(bytes->get<double>());
    const auto items = run.find("items_per_second");
    if (items != run.end() && items->is_number())
      rates[name].second.push_back(items->get<double>());
  }
  std::vector<BenchHistoryEntry> entries;
  for (const std::string& name : order) {
    entries.push_back(
        {name, ContextString(context, "date", ""), Median(rates[name].first),
         Median(rates[name].second), ContextString(context, kContextGitRevision, "unknown"),
         ContextString(context, kContextProvider, "unknown"),
         ContextString(context, kContextSoc, "unknown"), ContextString(context, "host_name", ""),
         rates[name].first});
  }
  return entries;
}

void AppendBenchHistory(const std::filesystem::path& file,
                        const std::vector<BenchHistoryEntry>& entries) {
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  std::string lines;
  for (const BenchHistoryEntry& entry : entries) {
    lines += nlohmann::json{{"name", entry.name},
                            {"date", entry.date},
                            {"bytes_per_second", entry.bytes_per_second},
                            {"items_per_second", entry.items_per_second},
                            {"git_revision", entry.git_revision},
                            {"provider", entry.provider},
                            {"soc", entry.soc},
                            {"host", entry.host},
                            {"bytes_per_second_repetitions", entry.bytes_per_second_repetitions}}
                 .dump() +
             "\n";
  }
  // One write of whole lines, so a reader never sees half an entry.
  std::ofstream out(file, std::ios::app | std::ios::binary);
  out << lines;
  out.flush();
  if (!out) throw std::runtime_error(file.string() + ": cannot append the benchmark history");
}

}  // namespace aclnn_check
