// CANN's public case files for the five operators (ops-nn's ATK lists and ST tables, copied into
// ../shared/cann-cases beside the source tree; ACLNN_CHECK_CANN_CASES names another folder): every
// case converts or is skipped with its reason, every converted case is parsed and expanded, and
// the converted cases up to a size cap pass on the cpu and ref providers. The cap keeps CI within
// its budget (docs/decisions.md, "CANN's public case files in CI"); the larger cases are listed in
// the test's output as not run here. With CI=true a missing folder fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "cases/test_point.h"
#include "import/case_import.h"
#include "report/report_json.h"
#include "cli/run_command.h"
#include "support/source_files.h"
#include "support/temp_dir.h"

namespace aclnn_check {
namespace {

using nlohmann::json;
using testing::ReadFile;
using testing::TempDir;

// The largest tensor of a converted case's point, at most (docs/decisions.md, "CANN's public case
// files"): the cpu run takes the cases up to 1 M elements (61 M elements in all, about a minute on
// 2 cores: the float64 reference and the checker dominate), the single-threaded ref provider those
// up to 256 K elements.
constexpr int64_t kCpuRunElements = 1 << 20;
constexpr int64_t kRefRunElements = 1 << 18;

int64_t LargestTensor(const TestPoint& point) {
  int64_t largest = 0;
  for (const auto& tensor : DescriptorArgs(point).tensors) {
    if (tensor) largest = std::max(largest, tensor->numel());
  }
  return largest;
}

std::optional<std::filesystem::path> CasesFolder() {
  if (const char* folder = std::getenv("ACLNN_CHECK_CANN_CASES")) return std::filesystem::path(folder);
  const auto beside = testing::kSourceDir.parent_path() / "shared/cann-cases";
  if (std::filesystem::is_directory(beside)) return beside;
  return std::nullopt;
}

// The folder, or a skip (a failure when CI=true: CI must run them).
#define REQUIRE_CANN_CASES(folder)                                                                  \
  const std::optional<std::filesystem::path> folder = CasesFolder();                                \
  if (!folder) {                                                                                    \
    const char* ci = std::getenv("CI");                                                             \
    if (ci && std::string(ci) == "true") {                                                          \
      FAIL() << "CI=true but CANN's public case files are missing: expected the folder "            \
             << (testing::kSourceDir.parent_path() / "shared/cann-cases")                           \
             << " (or ACLNN_CHECK_CANN_CASES naming one)";                                          \
    }                                                                                               \
    GTEST_SKIP() << "no " << (testing::kSourceDir.parent_path() / "shared/cann-cases")              \
                 << "; set ACLNN_CHECK_CANN_CASES to a folder of ops-nn ATK/ST case files";         \
  }

std::vector<std::filesystem::path> CannFiles(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (!entry.is_regular_file()) continue;
    if (DetectCaseSourceFormat(ReadFile(entry.path())) == CaseSourceFormat::kCaseFile) continue;
    files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Entries counted without the importer: ATK lists are JSON arrays, ST tables one row per line
// after the header (CANN's tables have no line breaks inside fields).
size_t EntriesInSource(const std::string& text) {
  if (text.find_first_not_of(" \t\r\n") != std::string::npos && text[text.find_first_not_of(" \t\r\n")] == '[') {
    return json::parse(text).size();
  }
  size_t rows = 0;
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line)) rows += line.find_first_not_of(" \t\r,") != std::string::npos;
  return rows;
}

// The cases of ../shared/cann-cases that convert today, by file name; a file not listed (another
// folder) is checked for reasons only. LayerNormGrad's table converts through rsqrt_uniform.
const std::map<std::string, size_t>& ConvertedByFile() {
  static const std::map<std::string, size_t> converted = {
      {"ops-nn__activation__swi_glu_grad__ttk_kernel_swi_glu_grad_st.csv", 5},
      {"ops-nn__loss__logit_grad__atk_aclnnLogitGrad.json", 201},
      {"ops-nn__norm__layer_norm_grad__ttk_kernel_layer_norm_grad_st.csv", 99},
      {"ops-nn__norm__layer_norm_grad_v3__atk_aclnnLayerNormBackward.json", 211},
      {"ops-nn__norm__layer_norm_grad_v3__ttk_kernel_layer_norm_grad_v3_st.csv", 99},
  };
  return converted;
}

TEST(PublicCannCases, EveryCaseConvertsOrIsSkippedWithAReason) {
  REQUIRE_CANN_CASES(folder);
  const std::vector<std::filesystem::path> files = CannFiles(*folder);
  ASSERT_FALSE(files.empty()) << *folder << " holds no ATK JSON or ST CSV file";
  std::vector<ImportResult> results;
  for (const auto& file : files) {
    const std::string text = ReadFile(file);
    const ImportResult result = ImportCannText(text, file.string());
    EXPECT_EQ(result.total, EntriesInSource(text)) << file;
    EXPECT_EQ(result.converted.size() + result.skipped.size(), result.total) << file;
    if (const auto known = ConvertedByFile().find(file.filename().string()); known != ConvertedByFile().end()) {
      EXPECT_EQ(result.converted.size(), known->second)
          << file << ": first skipped: " << (result.skipped.empty() ? "none" : result.skipped.front().why);
    }
    for (const SkippedCase& skipped : result.skipped) {
      EXPECT_FALSE(skipped.location.empty() || skipped.column.empty() || skipped.why.empty()) << file;
      // Every operator in these files has a mapping, and ATK's single_bm, plain or with type
      // high_performance only, is judged: neither may be a reason to skip.
      EXPECT_EQ(skipped.why.find("has no mapping"), std::string::npos) << file << " " << skipped.location;
      if (result.format == CaseSourceFormat::kAtkJson && skipped.column == "standard.acc") {
        const size_t index = std::stoul(skipped.location.substr(std::string("case ").size()));
        const json acc = json::parse(text).at(index).at("standard").at("acc");
        EXPECT_NE(acc, json("single_bm")) << file << " " << skipped.location;
        EXPECT_NE(acc, json::parse(R"({"single_bm": {"type": "high_performance"}})")) << file << " " << skipped.location;
      }
    }
    // Every converted case, as written, parses and expands on A2 (the product the sources target;
    // on INF a product rule such as SwiGluGrad's 64-byte alignment may reject a case that expects
    // success).
    for (const json& document : result.converted) {
      const CaseFile parsed = ParseCaseFile(document.dump(), file.string());
      EXPECT_FALSE(ExpandCase(parsed, Product::kA2).empty()) << file << " " << document.at("name");
    }
    results.push_back(result);
  }
  std::cout << ImportSummary(results);
}

// The converted cases whose tensors hold at most max_elements, written as case files into dir;
// the others are printed as not run here.
size_t WriteCasesUpTo(int64_t max_elements, const std::filesystem::path& dir) {
  const std::optional<std::filesystem::path> folder = CasesFolder();
  size_t written = 0;
  for (const auto& file : CannFiles(*folder)) {
    ImportResult result = ImportCannFile(file);
    std::vector<json> small;
    for (const json& document : result.converted) {
      const CaseFile parsed = ParseCaseFile(document.dump(), file.string());
      int64_t elements = 0;
      for (const TestPoint& point : ExpandCase(parsed, Product::kA2)) elements = std::max(elements, LargestTensor(point));
      if (elements <= max_elements) {
        small.push_back(document);
      } else {
        std::cout << "not run here (" << elements << " elements > " << max_elements
                  << "): " << file.filename().string() << " " << document.at("name").get<std::string>() << "\n";
      }
    }
    result.converted = small;
    written += WriteConvertedCases(result, dir);
  }
  return written;
}

void RunConvertedCases(const std::string& provider, int64_t max_elements) {
  const TempDir dir;
  const size_t cases = WriteCasesUpTo(max_elements, dir.path() / "cases");
  ASSERT_GT(cases, 0u);
  RunOptions options;
  options.cases = {(dir.path() / "cases").string()};
  options.provider = provider;
  options.jobs = 2;
  options.report_dir = (dir.path() / "report").string();
  const int status = aclnn_check::Run(options);
  const json report = LoadReport((dir.path() / "report/report.json").string());
  const json& totals = report.at("totals");
  std::cout << provider << ": " << cases << " cases, totals " << totals.dump() << "\n";
  for (const json& point : report.at("test_points")) {
    if (point.at("verdict") != "passed") {
      ADD_FAILURE() << point.at("id") << " " << point.at("verdict") << ": " << point.at("failures").dump();
    }
  }
  EXPECT_EQ(status, 0);
  EXPECT_EQ(totals.at("test_points"), cases);
}

TEST(PublicCannCases, ConvertedCasesPassOnCpu) {
  REQUIRE_CANN_CASES(folder);
  RunConvertedCases("cpu", kCpuRunElements);
}

TEST(PublicCannCases, ConvertedCasesPassOnRef) {
  REQUIRE_CANN_CASES(folder);
  RunConvertedCases("ref", kRefRunElements);
}

}  // namespace
}  // namespace aclnn_check
