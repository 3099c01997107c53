#include "import/case_import.h"

#include <fstream>
#include <set>
#include <sstream>

#include "cases/test_point.h"
#include "import/atk_json.h"
#include "import/case_mapping.h"
#include "import/st_csv.h"
#include "json_input/json_schema.h"

namespace aclnn_check {

std::string_view CaseSourceFormatName(CaseSourceFormat format) {
  switch (format) {
    case CaseSourceFormat::kAtkJson: return "ATK JSON";
    case CaseSourceFormat::kStCsv: return "ST CSV";
    default: return "case file";
  }
}

CaseSourceFormat DetectCaseSourceFormat(const std::string& text) {
  if (LooksLikeAtkJson(text)) return CaseSourceFormat::kAtkJson;
  if (LooksLikeStCsv(text)) return CaseSourceFormat::kStCsv;
  return CaseSourceFormat::kCaseFile;
}

ImportResult ImportCannText(const std::string& text, const std::string& path) {
  ImportResult result;
  result.file = path;
  result.format = DetectCaseSourceFormat(text);
  std::vector<SourceCase> sources;
  switch (result.format) {
    case CaseSourceFormat::kAtkJson:
      sources = ReadAtkJson(text, path, &result.skipped);
      break;
    case CaseSourceFormat::kStCsv:
      sources = ReadStCsv(text, path, &result.skipped);
      break;
    default:
      throw InputError(path, "/",
                       "not a CANN case file (expected an ATK JSON list of cases with aclnn_name, or an ST "
                       "CSV table with op_name and input_shapes columns)");
  }
  result.total = sources.size() + result.skipped.size();
  std::set<std::string> names;
  for (const SourceCase& source : sources) {
    nlohmann::json document;
    try {
      document = MapToCaseFile(source);
    } catch (const NotExpressible& reason) {
      result.skipped.push_back({path, source.location, reason.column(), reason.what()});
      continue;
    }
    std::string name = document.at("name").get<std::string>();
    if (!names.insert(name).second) {
      std::string suffix = source.location;
      for (char& c : suffix) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      name += "_" + suffix;
      names.insert(name);
      document["name"] = name;
    }
    try {
      // The documented checks decide whether the call is valid; a source case is a passing case.
      const CaseFile parsed = ParseCaseFile(document.dump(), path);
      ExpandCase(parsed, Product::kA2);
    } catch (const InputError& error) {
      result.skipped.push_back({path, source.location, "(whole case)",
                                "aclnn-check's documented checks reject it: " + error.message()});
      continue;
    }
    result.converted.push_back(std::move(document));
  }
  return result;
}

ImportResult ImportCannFile(const std::filesystem::path& path) {
  return ImportCannText(ReadTextFile(path.string(), "CANN case file"), path.string());
}

std::vector<CaseFile> LoadCaseSource(const std::filesystem::path& path, std::vector<SkippedCase>* skipped) {
  const std::string text = ReadTextFile(path.string(), "case file");
  if (DetectCaseSourceFormat(text) == CaseSourceFormat::kCaseFile) return {ParseCaseFile(text, path.string())};
  ImportResult result = ImportCannText(text, path.string());
  skipped->insert(skipped->end(), result.skipped.begin(), result.skipped.end());
  std::vector<CaseFile> cases;
  for (const nlohmann::json& document : result.converted) cases.push_back(ParseCaseFile(document.dump(), path.string()));
  return cases;
}

std::string ImportSummary(const std::vector<ImportResult>& results) {
  std::ostringstream text;
  size_t total = 0, converted = 0, skipped = 0;
  for (const ImportResult& result : results) {
    text << result.file << " (" << CaseSourceFormatName(result.format) << "): " << result.total << " cases, "
         << result.converted.size() << " converted, " << result.skipped.size() << " skipped\n";
    std::map<std::string, size_t> by_reason;
    for (const SkippedCase& s : result.skipped) ++by_reason[s.column + ": " + s.why];
    for (const auto& [reason, count] : by_reason) text << "  skipped " << count << " x " << reason << "\n";
    for (const SkippedCase& s : result.skipped) {
      text << "    " << s.file << " " << s.location << ", " << s.column << ": " << s.why << "\n";
    }
    total += result.total;
    converted += result.converted.size();
    skipped += result.skipped.size();
  }
  if (results.size() > 1) {
    text << "total: " << total << " cases, " << converted << " converted, " << skipped << " skipped\n";
  }
  return text.str();
}

size_t WriteConvertedCases(const ImportResult& result, const std::filesystem::path& dir) {
  const std::filesystem::path folder = dir / std::filesystem::path(result.file).stem();
  std::filesystem::create_directories(folder);
  for (const nlohmann::json& document : result.converted) {
    const std::filesystem::path file = folder / (document.at("name").get<std::string>() + ".json");
    std::ofstream out(file);
    out << document.dump(2) << "\n";
    if (!out) throw InputError(file.string(), "/", "cannot write the converted case");
  }
  return result.converted.size();
}

}  // namespace aclnn_check
