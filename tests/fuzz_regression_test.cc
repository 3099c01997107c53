// Replays the fuzzers' seed corpus and every saved crash (fuzz/regressions/<target>/) through the
// fuzz targets in the normal build: bad input must end in InputError inside the target; an escaping
// exception fails the test, and a crash fails it loudly. The default case files seed the case-file
// fuzzer too.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "fuzz/fuzz_targets.h"
#include "golden/golden_file.h"
#include "report/report_json.h"
#include "support/source_files.h"

namespace aclnn_check {
namespace {

using testing::kSourceDir;
using testing::ReadFile;

// Replays every file of `folder` (which must exist: a moved or misspelt folder would replay
// nothing) except its README.md and dot files such as .gitkeep; returns how many it replayed.
template <typename Target>
int ReplayFolder(const std::filesystem::path& folder, Target target) {
  int replayed = 0;
  EXPECT_TRUE(std::filesystem::is_directory(folder)) << folder;
  if (!std::filesystem::is_directory(folder)) return 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || name == "README.md" || name.front() == '.') continue;
    EXPECT_NO_THROW(target(ReadFile(entry.path()))) << entry.path();
    ++replayed;
  }
  return replayed;
}

// The crashes saved so far (fuzz/regressions/case_file/crash-*); fewer replayed means some were
// lost or skipped. Raise it when saving a new one.
constexpr int kSavedCaseFileCrashes = 4;

TEST(FuzzRegressions, CaseFileCorpusAndSavedCrashes) {
  const int regressions =
      ReplayFolder(kSourceDir / "fuzz/regressions/case_file", fuzz::FuzzCaseFile);
  EXPECT_GE(regressions, kSavedCaseFileCrashes);
  int seeds = 0;
  for (const char* folder : {"cases/hardswish_backward", "cases/logit_grad"}) {
    seeds += ReplayFolder(kSourceDir / folder, fuzz::FuzzCaseFile);
  }
  EXPECT_GT(seeds, 10);
  RecordProperty("regressions", regressions);
}

TEST(FuzzRegressions, CannImportSeedsAndSavedCrashes) {
  const int seeds = ReplayFolder(kSourceDir / "tests/import/data", fuzz::FuzzCannImport);
  ReplayFolder(kSourceDir / "fuzz/regressions/cann_import", fuzz::FuzzCannImport);
  EXPECT_GE(seeds, 3);
}

TEST(FuzzRegressions, ReportCorpusAndSavedCrashes) {
  const int seeds = ReplayFolder(kSourceDir / "fuzz/corpus/reports", fuzz::FuzzReports);
  ReplayFolder(kSourceDir / "fuzz/regressions/reports", fuzz::FuzzReports);
  EXPECT_GT(seeds, 0);
}

TEST(FuzzRegressions, GoldenCorpusAndSavedCrashes) {
  const int seeds = ReplayFolder(kSourceDir / "fuzz/corpus/golden", fuzz::FuzzGoldenFile);
  ReplayFolder(kSourceDir / "fuzz/regressions/golden", fuzz::FuzzGoldenFile);
  // The golden data itself seeds the fuzzer too.
  const int golden = ReplayFolder(kSourceDir / "golden", [](std::string_view data) {
    if (data.substr(0, 8) == "\x89HDF\r\n\x1a\n") fuzz::FuzzGoldenFile(data);
  });
  EXPECT_GT(seeds, 0);
  EXPECT_GT(golden, 0);
}

TEST(FuzzRegressions, SeedsAreAcceptedNotRejected) {
  // A target that rejected everything would pass the replays above; the seeds are valid input.
  for (const char* seed : {"cases/hardswish_backward/shapes.json", "cases/logit_grad/edges.json"}) {
    const std::optional<std::string> error = fuzz::FuzzCaseFile(ReadFile(kSourceDir / seed));
    EXPECT_FALSE(error) << seed << ": " << error.value_or("");
  }
  const std::optional<std::string> report_error =
      fuzz::FuzzReports(ReadFile(kSourceDir / "fuzz/corpus/reports/logit_eps_table.json"));
  EXPECT_FALSE(report_error) << report_error.value_or("");
}

TEST(FuzzRegressions, GoldenSeedIsAReadableGoldenFile) {
  int read = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kSourceDir / "fuzz/corpus/golden")) {
    const GoldenFile file = ReadGoldenImage(ReadFile(entry.path()), entry.path().string());
    EXPECT_FALSE(file.points.empty()) << entry.path();
    EXPECT_FALSE(file.points.front().expected.empty()) << entry.path();
    ++read;
  }
  EXPECT_GE(read, 1);
}

TEST(FuzzRegressions, ReportSeedsAreValidReports) {
  // Seeds the fuzzer mutates must start valid, or it spends its time on the first parse error; a
  // schema change that rejects reports this build wrote fails here.
  int parsed = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(kSourceDir / "fuzz/corpus/reports")) {
    if (entry.path().extension() != ".json") continue;
    const nlohmann::json report = ParseReport(ReadFile(entry.path()), entry.path().string());
    EXPECT_TRUE(report.contains("test_points")) << entry.path();
    ++parsed;
  }
  EXPECT_GE(parsed, 2);
}

// The InputError's message (the input was rejected), or a failure saying it was accepted.
::testing::AssertionResult RejectedNaming(const std::optional<std::string>& error,
                                          const std::string& field) {
  if (!error) return ::testing::AssertionFailure() << "accepted, expected an InputError";
  if (error->find(field) == std::string::npos) {
    return ::testing::AssertionFailure() << "rejected without naming " << field << ": " << *error;
  }
  return ::testing::AssertionSuccess();
}

TEST(FuzzRegressions, HostileInputsEndInInputError) {
  // Inputs that once could have escaped as other exceptions: wrong JSON types deep inside. Each
  // must be rejected (not accepted) with a message naming the file and the offending field.
  EXPECT_TRUE(RejectedNaming(
      fuzz::FuzzReports(R"({"schema_version": 1, "test_points": [{"id": 3}]})"), "fuzz0.json"));
  EXPECT_TRUE(RejectedNaming(
      fuzz::FuzzReports(R"({"schema_version": 1, "test_points": [{"id": 3}]})"), "test_points"));
  EXPECT_TRUE(RejectedNaming(fuzz::FuzzReports("{\"schema_version\": 1}\n---\n[]"), "fuzz0.json"));
  EXPECT_TRUE(RejectedNaming(
      fuzz::FuzzCaseFile(R"({"name": "x", "op": "LogitGrad", "axes": {"eps": [[1]]}})"), "eps"));
  EXPECT_TRUE(RejectedNaming(
      fuzz::FuzzCaseFile(
          R"({"name": "x", "op": "LayerNormBackward", "axes": {"normalized_rank": [-5]}})"),
      "normalized_rank"));
  EXPECT_TRUE(RejectedNaming(fuzz::FuzzGoldenFile("not an HDF5 file"), "fuzz.h5"));
  // Nesting deep enough to overflow a recursive parser's stack: rejected at the nesting bound.
  EXPECT_TRUE(RejectedNaming(
      fuzz::FuzzCannImport("op_name,input_shapes,input_dtypes\nswi_glu_grad,\"" +
                           std::string(1 << 20, '(') + "\",\n"),
      "fuzz_cases.csv"));
  EXPECT_TRUE(RejectedNaming(
      fuzz::FuzzCannImport("[{\"aclnn_name\": \"aclnnLogitGrad\", \"id\": " +
                           std::string(1 << 20, '[') + std::string(1 << 20, ']') + "}]"),
      "fuzz_cases.csv"));
}

}  // namespace
}  // namespace aclnn_check
