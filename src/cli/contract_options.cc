#include "cli/contract_options.h"

#include <algorithm>

namespace aclnn_check {

std::vector<Contract> ParseContractList(const std::vector<std::string>& names) {
  std::vector<Contract> chosen;
  for (const std::string& name : names) {
    const std::vector<Contract> these =
        name == "all" ? AllContracts()
                      : std::vector<Contract>{ParseContract(name).value_or(Contract{-1})};
    for (const Contract contract : these) {
      if (static_cast<int>(contract) < 0) {
        std::string known = "all";
        for (const Contract c : AllContracts()) known += ", " + std::string(ContractName(c));
        throw CLI::ValidationError("--contract",
                                   "unknown calling pattern '" + name + "' (known: " + known + ")");
      }
      if (std::find(chosen.begin(), chosen.end(), contract) == chosen.end())
        chosen.push_back(contract);
    }
  }
  return chosen;
}

void AddContractOptions(CLI::App* run, RunOptions* options) {
  run->add_option_function<std::vector<std::string>>(
         "--contract",
         [options](const std::vector<std::string>& names) {
           options->contracts = ParseContractList(names);
         },
         "Calling patterns to check on every point after its default call (comma list or all): "
         "reused_executor, "
         "cache_key, queued, concurrent; each is rule contract.<name> (docs/calling-patterns.md)")
      ->delimiter(',');
}

}  // namespace aclnn_check
