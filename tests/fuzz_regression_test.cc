// Replays the fuzzers' seed corpus and every saved crash (fuzz/regressions/<target>/) through the
// fuzz targets in the normal build: bad input must end in InputError inside the target; an escaping
// exception fails the test, and a crash fails it loudly. The default case files seed the case-file
// fuzzer too.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "fuzz/fuzz_targets.h"
#include "golden/golden_file.h"
#include "report/report_json.h"
#include "support/source_files.h"

namespace aclnn_check {
namespace {

using testing::kSourceDir;
using testing::ReadFile;

template <typename Target>
int ReplayFolder(const std::filesystem::path& folder, Target target) {
  int replayed = 0;
  if (!std::filesystem::exists(folder)) return 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder)) {
    if (!entry.is_regular_file() || entry.path().filename() == "README.md") continue;
    EXPECT_NO_THROW(target(ReadFile(entry.path()))) << entry.path();
    ++replayed;
  }
  return replayed;
}

TEST(FuzzRegressions, CaseFileCorpusAndSavedCrashes) {
  const int regressions =
      ReplayFolder(kSourceDir / "fuzz/regressions/case_file", fuzz::FuzzCaseFile);
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
  ReplayFolder(kSourceDir / "golden", [](std::string_view data) {
    if (data.substr(0, 8) == "\x89HDF\r\n\x1a\n") fuzz::FuzzGoldenFile(data);
  });
  EXPECT_GT(seeds, 0);
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

TEST(FuzzRegressions, HostileInputsEndInInputError) {
  // Inputs that once could have escaped as other exceptions: wrong JSON types deep inside.
  EXPECT_NO_THROW(fuzz::FuzzReports(R"({"schema_version": 1, "test_points": [{"id": 3}]})"));
  EXPECT_NO_THROW(fuzz::FuzzReports("{\"schema_version\": 1}\n---\n[]"));
  EXPECT_NO_THROW(
      fuzz::FuzzCaseFile(R"({"name": "x", "op": "LogitGrad", "axes": {"eps": [[1]]}})"));
  EXPECT_NO_THROW(fuzz::FuzzCaseFile(
      R"({"name": "x", "op": "LayerNormBackward", "axes": {"normalized_rank": [-5]}})"));
  // Nesting deep enough to overflow a recursive parser's stack.
  EXPECT_NO_THROW(fuzz::FuzzCannImport("op_name,input_shapes,input_dtypes\nswi_glu_grad,\"" +
                                       std::string(1 << 20, '(') + "\",\n"));
  EXPECT_NO_THROW(fuzz::FuzzCannImport("[{\"aclnn_name\": \"aclnnLogitGrad\", \"id\": " +
                                       std::string(1 << 20, '[') + std::string(1 << 20, ']') + "}]"));
}

}  // namespace
}  // namespace aclnn_check
