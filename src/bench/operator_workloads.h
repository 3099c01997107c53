// Where the benchmark workloads live: each operator's own in kernels/<folder>/bench/*.json, so a
// new operator's workload is a file in its folder. `aclnn-check bench` and aclnn_bench use them
// when no case files are named.
#pragma once

#include <string>
#include <vector>

namespace aclnn_check {

// Every <kernels>/<folder>/bench folder, sorted; throws InputError when `kernels` is no folder.
std::vector<std::string> OperatorWorkloadFolders(const std::string& kernels);

}  // namespace aclnn_check
