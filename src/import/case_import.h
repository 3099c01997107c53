// Case sources by content: an aclnn-check case file (a JSON object), a CANN ATK case list (a JSON
// array of cases with aclnn_name) or a CANN ST case table (CSV with op_name and input_shapes).
// CANN files are converted case by case; a case the harness cannot express is skipped with its
// file, row or index, column and reason, never changed to fit.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cases/case_file.h"
#include "import/source_case.h"

namespace aclnn_check {

enum class CaseSourceFormat { kCaseFile, kAtkJson, kStCsv };
std::string_view CaseSourceFormatName(CaseSourceFormat format);  // "case file", "ATK JSON", "ST CSV"
CaseSourceFormat DetectCaseSourceFormat(const std::string& text);

struct ImportResult {
  std::string file;
  CaseSourceFormat format = CaseSourceFormat::kCaseFile;
  size_t total = 0;                       // cases in the source
  std::vector<nlohmann::json> converted;  // case-file documents, names unique within the file
  std::vector<SkippedCase> skipped;
};

// Converts a CANN file's text. Each converted case is also parsed as a case file and expanded on
// A2, so a case whose call the documented checks reject is skipped here with their reason.
// Throws InputError for bad input (not a CANN format, a malformed cell or entry).
ImportResult ImportCannText(const std::string& text, const std::string& path);
ImportResult ImportCannFile(const std::filesystem::path& path);

// The case files a path holds: one for a case file, the converted cases for a CANN file (their
// skipped cases appended to *skipped).
std::vector<CaseFile> LoadCaseSource(const std::filesystem::path& path, std::vector<SkippedCase>* skipped);

// "converted N, skipped M" per file with the skipped cases counted by reason, for people.
std::string ImportSummary(const std::vector<ImportResult>& results);

// Writes each converted case to <dir>/<source file stem>/<case name>.json; returns the count.
size_t WriteConvertedCases(const ImportResult& result, const std::filesystem::path& dir);

}  // namespace aclnn_check
