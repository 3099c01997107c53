#include "report/trend_data.h"

#include <algorithm>
#include <map>

#include "json_input/input_error.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

const json& Field(const json& line, const char* name, json::value_t type, const std::string& file, size_t index) {
  const auto found = line.find(name);
  const bool number = type == json::value_t::number_float;
  if (found == line.end() || (number ? !found->is_number() : found->type() != type)) {
    throw InputError(file, "line " + std::to_string(index + 1) + "/" + name,
                     std::string("expected ") + (number ? "a number" : type == json::value_t::string ? "a string" : "an object or array"));
  }
  return *found;
}

std::string Text(const json& line, const char* name, const char* fallback) {
  const auto found = line.find(name);
  return found != line.end() && found->is_string() ? found->get<std::string>() : fallback;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

std::vector<double> NumberArray(const json& line, const std::string& key, const std::string& file,
                                size_t index) {
  std::vector<double> values;
  const auto found = line.find(key);
  if (found == line.end()) return values;
  const auto bad = [&] {
    return InputError(file, "line " + std::to_string(index + 1) + "/" + key,
                      "expected an array of numbers");
  };
  if (!found->is_array()) throw bad();
  for (const json& value : *found) {
    if (!value.is_number()) throw bad();
    values.push_back(value.get<double>());
  }
  return values;
}

// A host figure's repetitions, or its median alone (a line with only the median).
std::vector<double> HostFigure(const json& line, Figure figure, const std::string& file,
                               size_t index) {
  const std::string key(FigureKey(figure));
  std::vector<double> values = NumberArray(line, key + "_repetitions", file, index);
  if (values.empty()) {
    if (const auto median = line.find(key); median != line.end() && median->is_number())
      values.push_back(median->get<double>());
  }
  return values;
}

json Spread(const std::vector<double>& values) {
  if (values.empty()) return nullptr;
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  return {{"median", Median(values)}, {"low", *low}, {"high", *high}};
}

// `bench compare` times an iteration; for one workload the time is bytes / rate, so the device
// samples are 1 / rate (the scale cancels in the relative change and the U test's ranks). The
// host figures are seconds already.
BenchmarkSamples SamplesOf(const std::string& name, const std::vector<double>& rates,
                           std::vector<double> get_workspace, std::vector<double> launch) {
  BenchmarkSamples samples{name, {}, false, std::nullopt, std::move(get_workspace),
                           std::move(launch)};
  for (double rate : rates) samples.seconds.push_back(rate > 0 ? 1 / rate : 0);
  return samples;
}

struct BenchRun {
  json point;
  BenchmarkSamples samples;
};

BenchRun ReadBenchRun(const json& line, const std::string& file, size_t i) {
  const std::string name = Field(line, "name", json::value_t::string, file, i).get<std::string>();
  const double median = Field(line, "bytes_per_second", json::value_t::number_float, file, i).get<double>();
  std::vector<double> rates = NumberArray(line, "bytes_per_second_repetitions", file, i);
  if (rates.empty()) rates.push_back(median);
  const auto [low, high] = std::minmax_element(rates.begin(), rates.end());
  std::vector<double> get_workspace = HostFigure(line, Figure::kHostGetWorkspace, file, i);
  std::vector<double> launch = HostFigure(line, Figure::kHostLaunch, file, i);
  json point = {{"date", Text(line, "date", "")},
                {"git_revision", Text(line, "git_revision", "unknown")},
                {"provider", Text(line, "provider", "unknown")},
                {"soc", Text(line, "soc", "unknown")},
                {"host", Text(line, "host", "")},
                {"device_time", Text(line, "device_time", "")},
                {"median", rates.size() > 1 ? Median(rates) : median},
                {"low", *low},
                {"high", *high},
                {"repetitions", rates.size()},
                {"host_get_workspace", Spread(get_workspace)},
                {"host_launch", Spread(launch)}};
  return {std::move(point), SamplesOf(name, rates, std::move(get_workspace), std::move(launch))};
}

// What `bench compare` says of run `now` against `before`: the figures it flags as regressions.
void MarkChanges(json& point, const BenchRun& before, const BenchRun& now, size_t before_index,
                 const CompareOptions& options) {
  const Comparison comparison = CompareBenchmarkOutputs({before.samples}, {now.samples}, options);
  json regressions = json::array();
  for (const BenchmarkChange& change : comparison.changes) {
    if (change.verdict == ChangeVerdict::kRegression) regressions.push_back(FigureName(change.figure));
    if (change.figure != Figure::kDevice) continue;
    point["regression"] = change.verdict == ChangeVerdict::kRegression;
    point["change"] = change.relative_change;  // of the time: positive is slower
    if (change.u_test) point["p_value"] = change.u_test->p_value;
  }
  point["regressions"] = std::move(regressions);
  point["compared_with"] = before_index;
}

json BenchTrends(const std::vector<json>& lines, const std::string& file, const CompareOptions& options) {
  std::map<std::string, std::vector<BenchRun>> series;
  for (size_t i = 0; i < lines.size(); ++i) {
    BenchRun run = ReadBenchRun(lines[i], file, i);
    series[run.samples.name].push_back(std::move(run));
  }
  json benchmarks = json::array();
  for (auto& [name, runs] : series) {
    std::stable_sort(runs.begin(), runs.end(), [](const BenchRun& a, const BenchRun& b) {
      return a.point.at("date").get<std::string>() < b.point.at("date").get<std::string>();
    });
    json points = json::array();
    for (size_t i = 0; i < runs.size(); ++i) {
      json point = runs[i].point;
      point["regression"] = false;
      point["regressions"] = json::array();
      point["change"] = nullptr;
      point["p_value"] = nullptr;
      point["compared_with"] = nullptr;
      // The previous run of the same benchmark on the same provider and SoC: what a release
      // engineer would have passed to `bench compare` as BASE.
      for (size_t j = i; j-- > 0;) {
        if (runs[j].point.at("provider") != point.at("provider") || runs[j].point.at("soc") != point.at("soc")) continue;
        MarkChanges(point, runs[j], runs[i], j, options);
        break;
      }
      points.push_back(std::move(point));
    }
    benchmarks.push_back({{"name", name}, {"runs", std::move(points)}});
  }
  return benchmarks;
}

json ConformanceTrends(const std::vector<json>& lines, const std::string& file) {
  std::vector<size_t> order(lines.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return Text(lines[a], "date", "") < Text(lines[b], "date", ""); });
  json runs = json::array();
  std::map<std::pair<std::string, std::string>, json> worst;
  for (size_t position = 0; position < order.size(); ++position) {
    const size_t i = order[position];
    const json& line = lines[i];
    const json& totals = Field(line, "totals", json::value_t::object, file, i);
    json run = {{"date", Text(line, "date", "")},         {"git_revision", Text(line, "git_revision", "unknown")},
                {"provider", Text(line, "provider", "")}, {"soc", Text(line, "soc", "")},
                {"product", Text(line, "product", "")},   {"host", Text(line, "host", "")}};
    for (const char* count : {"test_points", "passed", "failed", "errors", "not_provided"}) {
      run[count] = Field(totals, count, json::value_t::number_float, file, i);
    }
    runs.push_back(std::move(run));
    for (const json& entry : Field(line, "operators", json::value_t::array, file, i)) {
      const std::string op = Field(entry, "op", json::value_t::string, file, i).get<std::string>();
      const std::string dtype = Field(entry, "dtype", json::value_t::string, file, i).get<std::string>();
      json& series = worst[{op, dtype}];
      if (series.is_null()) series = {{"op", op}, {"dtype", dtype}, {"points", json::array()}};
      const auto ulp = entry.find("max_ulp");
      series["points"].push_back({{"run", position},
                                  {"max_ulp", ulp != entry.end() && ulp->is_number() ? *ulp : json(nullptr)},
                                  {"nonfinite", entry.value("nonfinite_ulp", 0)}});
    }
  }
  json worst_ulp = json::array();
  for (auto& [key, series] : worst) worst_ulp.push_back(std::move(series));
  return {{"runs", std::move(runs)}, {"worst_ulp", std::move(worst_ulp)}};
}

}  // namespace

json TrendData(const std::vector<json>& bench_lines, const std::string& bench_file,
               const std::vector<json>& run_lines, const std::string& run_file, const CompareOptions& options) {
  return {{"bench", BenchTrends(bench_lines, bench_file, options)},
          {"conformance", ConformanceTrends(run_lines, run_file)}};
}

}  // namespace aclnn_check
