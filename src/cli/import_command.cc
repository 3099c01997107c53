#include "cli/import_command.h"

#include <iostream>
#include <memory>

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

void AddImportCommand(CLI::App& app, int* exit_code) {
  struct ImportArguments {
    std::vector<std::string> inputs;
    std::string output;
  };
  auto a = std::make_shared<ImportArguments>();
  auto* import_cmd = app.add_subcommand(
      "import", "Convert CANN case files (ATK JSON, ST CSV; detected by content) into case files");
  import_cmd->add_option("files", a->inputs, "CANN case files")->required();
  import_cmd->add_option("-o,--output", a->output, "Folder for the converted case files")->required();
  import_cmd->callback([a, exit_code] { *exit_code = ImportCommand(a->inputs, a->output); });
}

}  // namespace aclnn_check
