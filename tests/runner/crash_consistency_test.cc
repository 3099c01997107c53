// Nothing finished is lost (docs/contract/runner.md): `aclnn-check run` killed with SIGKILL at
// seeded pseudo-random moments and resumed each time ends with the report of an uninterrupted run
// (timings aside); a worker killed mid-point is a harness.crash and the run goes on; a report
// folder on a full file system is a clear error that leaves the previous reports as they were.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/harness_process.h"
#include "support/source_files.h"
#include "support/temp_dir.h"

namespace aclnn_check {
namespace {

using testing::ExitCode;
using testing::ReadFile;
using testing::StartHarness;
using testing::TempDir;
using testing::WaitStatus;
using Clock = std::chrono::steady_clock;

const char* kSmallSuite = R"({
  "name": "crash", "op": "HardswishBackward",
  "axes": {"dtype": ["float32", "float16", "bfloat16"], "shape": [[5], [2, 9], [64, 33], []]},
  "inputs": {"self": {"dist": "uniform", "low": -5, "high": 5, "specials": ["-3", "3", "nan"]}},
  "layout": ["contiguous", "strided:2", "transposed"], "seed": 7})";

std::vector<std::string> RunArguments(const TempDir& dir) {
  return {"run", (dir.path() / "cases").string(), "--jobs", "2", "--run-history", ""};
}

// A provider whose points at the hard-swish boundaries fail: each failure is printed, flushed, as
// its point finishes, so that the test sees which points an attempt finished before its kill.
std::vector<std::string> FailingRunArguments(const TempDir& dir) {
  std::vector<std::string> arguments = RunArguments(dir);
  arguments.insert(arguments.end(), {"--provider", ACLNN_FAULTY_WRONGBOUNDARY});
  return arguments;
}

std::vector<std::string> PrintedFailures(const std::filesystem::path& log) {
  std::vector<std::string> ids;
  std::ifstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("FAIL ", 0) == 0) ids.push_back(line.substr(5));
  }
  return ids;
}

// Timings, and what names the attempt rather than the run, are not compared.
void DropTimings(nlohmann::json& value) {
  static const std::set<std::string> kNotCompared = {"started", "command", "host", "jobs"};
  if (value.is_array()) {
    for (auto& item : value) DropTimings(item);
    return;
  }
  if (!value.is_object()) return;
  for (auto it = value.begin(); it != value.end();) {
    const std::string& key = it.key();
    const bool timing = key == "seconds" || (key.size() > 8 && key.ends_with("_seconds"));
    if (timing || kNotCompared.contains(key)) {
      it = value.erase(it);
    } else {
      DropTimings(*it);
      ++it;
    }
  }
}

nlohmann::json ComparableReport(const std::filesystem::path& dir) {
  nlohmann::json report = nlohmann::json::parse(ReadFile(dir / "report.json"));
  DropTimings(report);
  return report;
}

std::vector<std::string> JournaledIds(const std::filesystem::path& journal) {
  std::vector<std::string> ids;
  std::ifstream in(journal);
  std::string line;
  while (std::getline(in, line)) {
    const nlohmann::json entry = nlohmann::json::parse(line, nullptr, false);
    if (!entry.is_discarded() && entry.contains("id"))
      ids.push_back(entry.at("id").get<std::string>());
  }
  return ids;
}

int KillCount() {
  const char* text = std::getenv("ACLNN_CHECK_CRASH_KILLS");
  return text ? std::max(20, std::atoi(text)) : 20;
}

TEST(CrashConsistency, SigkillAtSeededMomentsLosesNoFinishedPoint) {
  TempDir dir;
  dir.Write("cases/crash.json", kSmallSuite);
  std::vector<std::string> reference = FailingRunArguments(dir);
  reference.insert(reference.end(), {"--report-dir", (dir.path() / "reference").string()});
  const auto started = Clock::now();
  ASSERT_EQ(ExitCode(StartHarness(reference, dir.path() / "reference.log")), 1)
      << ReadFile(dir.path() / "reference.log");
  const double whole_run = std::chrono::duration<double>(Clock::now() - started).count();

  const std::filesystem::path crashed = dir.path() / "crashed";
  std::mt19937_64 random(20261128);
  std::uniform_real_distribution<double> moment(0, whole_run);
  size_t journaled = 0, seen_finished = 0, lost = 0;
  int killed_mid_run = 0;
  for (int attempt = 0; attempt < KillCount(); ++attempt) {
    std::vector<std::string> arguments = FailingRunArguments(dir);
    const bool resume = std::filesystem::exists(crashed / "journal.jsonl");
    arguments.insert(arguments.end(), {resume ? "--resume" : "--report-dir", crashed.string()});
    const std::filesystem::path log = dir.path() / ("attempt" + std::to_string(attempt) + ".log");
    const pid_t pid = StartHarness(arguments, log);
    std::this_thread::sleep_for(std::chrono::duration<double>(moment(random)));
    kill(pid, SIGKILL);
    const int status = WaitStatus(pid);
    if (WIFSIGNALED(status)) ++killed_mid_run;
    const std::vector<std::string> ids = JournaledIds(crashed / "journal.jsonl");
    const std::set<std::string> unique(ids.begin(), ids.end());
    EXPECT_EQ(unique.size(), ids.size()) << "attempt " << attempt << " ran a journaled point again";
    EXPECT_GE(ids.size(), journaled) << "attempt " << attempt << " lost journaled points";
    for (const std::string& id : PrintedFailures(log)) {
      ++seen_finished;
      if (!unique.contains(id)) ++lost;
      EXPECT_TRUE(unique.contains(id))
          << "attempt " << attempt << " finished " << id << " but did not journal it";
    }
    journaled = ids.size();
  }
  std::vector<std::string> finish = FailingRunArguments(dir);
  finish.insert(finish.end(), {"--resume", crashed.string()});
  ASSERT_EQ(ExitCode(StartHarness(finish, dir.path() / "finish.log")), 1)
      << ReadFile(dir.path() / "finish.log");
  std::cout << "[ crash    ] " << KillCount() << " kills, " << killed_mid_run
            << " before the run ended, over " << whole_run << " s; " << seen_finished
            << " FAIL lines checked against the journal, " << lost << " not in it\n";
  EXPECT_GT(killed_mid_run, KillCount() / 2) << "the kill moments missed the run";
  EXPECT_GT(seen_finished, 0u) << "no kill came after a finished point";
  EXPECT_EQ(ComparableReport(crashed), ComparableReport(dir.path() / "reference"));
}

TEST(CrashConsistency, ResumingAnotherRunIsRefusedNamingTheDifference) {
  TempDir dir;
  dir.Write("cases/crash.json", kSmallSuite);
  std::vector<std::string> first = RunArguments(dir);
  first.insert(first.end(), {"--report-dir", (dir.path() / "report").string()});
  ASSERT_EQ(ExitCode(StartHarness(first, dir.path() / "first.log")), 0);
  std::vector<std::string> other = RunArguments(dir);
  other.insert(other.end(), {"--timeout", "5", "--resume", (dir.path() / "report").string()});
  EXPECT_EQ(ExitCode(StartHarness(other, dir.path() / "other.log")), 2);
  EXPECT_NE(ReadFile(dir.path() / "other.log").find("/options/timeout_seconds"), std::string::npos)
      << ReadFile(dir.path() / "other.log");
}

// docs/journal-and-resume.md: a new run keeps the journal of an unfinished run unless told to
// drop it, and replaces that of a finished one as before.
TEST(CrashConsistency, ANewRunRefusesToReplaceTheJournalOfAnUnfinishedRun) {
  TempDir dir;
  dir.Write("cases/crash.json", kSmallSuite);
  const std::filesystem::path report = dir.path() / "report";
  std::vector<std::string> arguments = RunArguments(dir);
  arguments.insert(arguments.end(), {"--report-dir", report.string()});
  ASSERT_EQ(ExitCode(StartHarness(arguments, dir.path() / "first.log")), 0);
  const std::vector<std::string> all = JournaledIds(report / "journal.jsonl");
  ASSERT_GT(all.size(), 3u);
  // A finished run's journal is replaced: the same run again is fine.
  EXPECT_EQ(ExitCode(StartHarness(arguments, dir.path() / "again.log")), 0)
      << ReadFile(dir.path() / "again.log");
  // The run as a kill would have left it: the header and two points.
  {
    std::ifstream in(report / "journal.jsonl");
    std::string header, first, second;
    std::getline(in, header);
    std::getline(in, first);
    std::getline(in, second);
    std::ofstream(report / "journal.jsonl", std::ios::trunc) << header << "\n"
                                                             << first << "\n"
                                                             << second << "\n";
  }
  const std::string unfinished = ReadFile(report / "journal.jsonl");
  EXPECT_EQ(ExitCode(StartHarness(arguments, dir.path() / "refused.log")), 2);
  const std::string refused = ReadFile(dir.path() / "refused.log");
  EXPECT_NE(refused.find("unfinished run (2 of " + std::to_string(all.size())), std::string::npos)
      << refused;
  EXPECT_NE(refused.find("--resume " + report.string()), std::string::npos) << refused;
  EXPECT_NE(refused.find("--overwrite"), std::string::npos) << refused;
  EXPECT_TRUE(ReadFile(report / "journal.jsonl") == unfinished)
      << "the refused run touched the journal";

  std::vector<std::string> both = arguments;
  both.insert(both.end(), {"--overwrite", "--resume", report.string()});
  EXPECT_EQ(ExitCode(StartHarness(both, dir.path() / "both.log")), 2);
  EXPECT_TRUE(ReadFile(report / "journal.jsonl") == unfinished) << "--resume with --overwrite touched the journal";

  std::vector<std::string> overwrite = arguments;
  overwrite.push_back("--overwrite");
  EXPECT_EQ(ExitCode(StartHarness(overwrite, dir.path() / "overwrite.log")), 0)
      << ReadFile(dir.path() / "overwrite.log");
  EXPECT_EQ(JournaledIds(report / "journal.jsonl").size(), all.size());
}

TEST(CrashConsistency, AWorkerKilledMidPointIsAHarnessCrashAndTheRunGoesOn) {
  TempDir dir;
  // Points large enough that the worker is inside one when it is killed.
  dir.Write("cases/slow.json", R"({"name": "slow", "op": "HardswishBackward",
    "axes": {"dtype": ["float32"], "shape": [[3000, 3000], [2999, 3000], [2998, 3000]]},
    "inputs": {"self": {"dist": "uniform", "low": -5, "high": 5}}, "layout": ["contiguous"], "seed": 1})");
  const std::filesystem::path report = dir.path() / "report";
  const pid_t pid = StartHarness({"run", (dir.path() / "cases").string(), "--jobs", "1",
                                  "--run-history", "", "--report-dir", report.string()},
                                 dir.path() / "run.log");
  // The journal's header is written after the probe worker has gone: the next child is the worker.
  while (!std::filesystem::exists(report / "journal.jsonl"))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  pid_t worker = 0;
  for (int tries = 0; tries < 2000 && worker == 0; ++tries) {
    std::ifstream children("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) +
                           "/children");
    children >> worker;
    if (worker == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_NE(worker, 0) << "no worker process found";
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  kill(worker, SIGKILL);
  EXPECT_EQ(ExitCode(pid), 1) << ReadFile(dir.path() / "run.log");
  const nlohmann::json written = nlohmann::json::parse(ReadFile(report / "report.json"));
  ASSERT_EQ(written.at("test_points").size(), 3u);
  int crashes = 0;
  for (const auto& point : written.at("test_points")) {
    if (point.at("verdict") == "passed") continue;
    ASSERT_FALSE(point.at("failures").empty());
    EXPECT_EQ(point.at("failures")[0].at("rule"), "harness.crash");
    EXPECT_NE(point.at("failures")[0].at("message").get<std::string>().find("SIGKILL"),
              std::string::npos);
    ++crashes;
  }
  EXPECT_EQ(crashes, 1);
}

TEST(CrashConsistency, AFullFileSystemIsAClearErrorAndThePreviousReportsStay) {
  TempDir dir;
  dir.Write("cases/crash.json", kSmallSuite);
  std::vector<std::string> arguments = RunArguments(dir);
  arguments.insert(arguments.end(), {"--report-dir", (dir.path() / "report").string()});
  ASSERT_EQ(ExitCode(StartHarness(arguments, dir.path() / "first.log")), 0);
  const std::string previous_json = ReadFile(dir.path() / "report" / "report.json");
  const std::string previous_junit = ReadFile(dir.path() / "report" / "junit.xml");
  const std::string previous_html = ReadFile(dir.path() / "report" / "report.html");
  // 16 KiB: the journal's header fits, some of its lines and no report do.
  EXPECT_EQ(ExitCode(StartHarness(arguments, dir.path() / "full.log", 16 << 10)), 2);
  const std::string log = ReadFile(dir.path() / "full.log");
  EXPECT_NE(log.find("File too large"), std::string::npos) << log;
  EXPECT_NE(log.find((dir.path() / "report").string()), std::string::npos) << log;
  EXPECT_EQ(ReadFile(dir.path() / "report" / "report.json"), previous_json);
  EXPECT_EQ(ReadFile(dir.path() / "report" / "junit.xml"), previous_junit);
  EXPECT_EQ(ReadFile(dir.path() / "report" / "report.html"), previous_html);
  for (const auto& entry : std::filesystem::directory_iterator(dir.path() / "report")) {
    const std::string name = entry.path().filename().string();
    EXPECT_TRUE(name == "report.json" || name == "junit.xml" || name == "report.html" ||
                name == "journal.jsonl")
        << "left behind: " << name;
  }
}

}  // namespace
}  // namespace aclnn_check
