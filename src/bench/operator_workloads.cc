#include "bench/operator_workloads.h"

#include <algorithm>
#include <filesystem>

#include "json_input/input_error.h"

namespace aclnn_check {

std::vector<std::string> OperatorWorkloadFolders(const std::string& kernels) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(kernels)) {
    throw InputError(kernels, "/", "no operator folders here (kernels/<folder>/bench/*.json expected)");
  }
  std::vector<std::string> folders;
  for (const fs::directory_entry& folder : fs::directory_iterator(kernels)) {
    if (fs::is_directory(folder.path() / "bench")) folders.push_back((folder.path() / "bench").string());
  }
  std::sort(folders.begin(), folders.end());
  return folders;
}

}  // namespace aclnn_check
