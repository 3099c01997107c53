#include "report/run_history.h"

#include <fstream>
#include <map>
#include <optional>

#include "json_input/input_error.h"

namespace aclnn_check {

using nlohmann::json;

json RunHistoryEntry(const json& report) {
  const json& run = report.at("run");
  struct Tally {
    int64_t points = 0, passed = 0, failed = 0, errors = 0, not_provided = 0, nonfinite = 0;
    std::optional<double> max_ulp;
  };
  std::map<std::pair<std::string, std::string>, Tally> tallies;
  for (const json& point : report.at("test_points")) {
    Tally& t = tallies[{point.at("op").get<std::string>(), point.at("dtype").get<std::string>()}];
    ++t.points;
    const std::string verdict = point.at("verdict").get<std::string>();
    (verdict == "passed" ? t.passed : verdict == "failed" ? t.failed : verdict == "error" ? t.errors : t.not_provided) += 1;
    for (const json& output : point.at("outputs")) {
      const json& ulp = output.at("metrics").at("max_ulp");
      if (ulp.is_number()) {
        t.max_ulp = std::max(t.max_ulp.value_or(0.0), ulp.get<double>());
      } else {
        ++t.nonfinite;  // "inf" or "nan": a special value where a finite one was expected, or the reverse
      }
    }
  }
  json operators = json::array();
  for (const auto& [key, t] : tallies) {
    operators.push_back({{"op", key.first}, {"dtype", key.second}, {"test_points", t.points},
                         {"passed", t.passed}, {"failed", t.failed}, {"errors", t.errors},
                         {"not_provided", t.not_provided},
                         {"max_ulp", t.max_ulp ? json(*t.max_ulp) : json(nullptr)},
                         {"nonfinite_ulp", t.nonfinite}});
  }
  return {{"date", run.value("started", "")},
          {"git_revision", run.value("git_revision", "unknown")},
          {"provider", run.at("provider").value("spec", "")},
          {"soc", run.value("soc", "")},
          {"product", run.value("product", "")},
          {"host", run.value("host", "")},
          {"shard", run.value("shard", "1/1")},
          {"filter", run.value("filter", "*")},
          {"repeat", run.value("repeat", 1)},
          {"totals", report.at("totals")},
          {"operators", operators}};
}

void AppendJsonLine(const std::filesystem::path& file, const json& line) {
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  // One write of a whole line, so a reader never sees half an entry.
  std::ofstream out(file, std::ios::app | std::ios::binary);
  out << line.dump() + "\n";
  out.flush();
  if (!out) throw std::runtime_error(file.string() + ": cannot append to the history");
}

std::vector<json> ReadJsonLines(const std::filesystem::path& file, const std::string& what) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string(), "/", "cannot read the " + what + " (JSON lines)");
  std::vector<json> lines;
  std::string text;
  for (int number = 1; std::getline(in, text); ++number) {
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    json line = json::parse(text, nullptr, false);
    if (line.is_discarded() || !line.is_object()) {
      throw InputError(file.string(), "line " + std::to_string(number),
                       "expected one JSON object per line of the " + what);
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace aclnn_check
