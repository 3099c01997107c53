#include "cli/import_command.h"

#include <iostream>

#include "import/case_import.h"

namespace aclnn_check {

int ImportCommand(const std::vector<std::string>& files, const std::string& output_dir) {
  std::vector<ImportResult> results;
  try {
    // Every file is read before anything is written, so bad input leaves no partial output.
    for (const std::string& file : files) results.push_back(ImportCannFile(file));
    for (const ImportResult& result : results) WriteConvertedCases(result, output_dir);
  } catch (const InputError& error) {
    std::cerr << "aclnn-check: " << error.what() << "\n";
    return 2;
  } catch (const std::filesystem::filesystem_error& error) {
    std::cerr << "aclnn-check: " << error.what() << "\n";
    return 2;
  }
  std::cout << ImportSummary(results) << "case files in " << output_dir << "\n";
  return 0;
}

}  // namespace aclnn_check
