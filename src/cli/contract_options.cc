#include "cli/contract_options.h"

#include <algorithm>
#include <iostream>

namespace aclnn_check {
namespace {

std::string KnownNames() {
  std::string known = "all, none";
  for (const Contract c : AllContracts()) known += ", " + std::string(ContractName(c));
  return known;
}

void AddOnce(Contract contract, std::vector<Contract>* chosen) {
  if (std::find(chosen->begin(), chosen->end(), contract) == chosen->end())
    chosen->push_back(contract);
}

}  // namespace

std::vector<Contract> ParseContractList(const std::vector<std::string>& names, bool with_devices) {
  std::vector<Contract> chosen;
  for (const std::string& name : names) {
    if (name == "all") {
      for (const Contract contract : AllContracts()) {
        if (contract != Contract::kDevicesAgree || with_devices) AddOnce(contract, &chosen);
      }
      continue;
    }
    const std::optional<Contract> contract = ParseContract(name);
    if (!contract) {
      throw CLI::ValidationError("--contract", "unknown calling pattern '" + name +
                                                   "' (known: " + KnownNames() + ")");
    }
    if (*contract == Contract::kDevicesAgree && !with_devices) {
      throw CLI::ValidationError(
          "--contract", "devices_agree needs the devices to compare: add --devices LIST (e.g. 0,1)");
    }
    AddOnce(*contract, &chosen);
  }
  return chosen;
}

std::vector<int32_t> ParseDeviceList(const std::string& text) {
  std::vector<int32_t> devices;
  size_t at = 0;
  while (at <= text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    const bool digits = !item.empty() && item.size() <= 6 &&
                        std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits) {
      throw CLI::ValidationError("--devices", "'" + text +
                                                  "': expected device numbers separated by commas, "
                                                  "e.g. 0,1 ('" + item + "' is not one)");
    }
    const int32_t device = std::stoi(item);
    if (std::find(devices.begin(), devices.end(), device) != devices.end()) {
      throw CLI::ValidationError("--devices", "'" + text + "' names device " + item + " twice");
    }
    devices.push_back(device);
    at = comma + 1;
  }
  return devices;
}

void AddContractOptions(CLI::App* run, ContractFlags* flags) {
  run->add_option("--contract", flags->names,
                  "Calling patterns to check on every point after its default call (comma list, all, or "
                  "none to ignore case files' \"contract\" keys too): reused_executor, cache_key, queued, "
                  "concurrent, devices_agree (with --devices); each is rule contract.<name> "
                  "(docs/calling-patterns.md)")
      ->delimiter(',');
  run->add_option("--devices", flags->devices,
                  "Devices to run each point on, comma list (e.g. 0,1): rule contract.devices_agree, "
                  "every device's outputs checked and bit-identical to the first's");
}

bool FinishContractOptions(const ContractFlags& flags, RunOptions* options) {
  try {
    if (std::find(flags.names.begin(), flags.names.end(), "none") != flags.names.end()) {
      if (flags.names.size() > 1 || !flags.devices.empty()) {
        throw CLI::ValidationError("--contract", "none stands alone (no other pattern, no --devices)");
      }
      options->case_file_contracts = false;
      return true;
    }
    if (!flags.devices.empty()) options->devices = ParseDeviceList(flags.devices);
    options->contracts = ParseContractList(flags.names, !options->devices.empty());
    if (!options->devices.empty()) AddOnce(Contract::kDevicesAgree, &options->contracts);
  } catch (const CLI::ValidationError& error) {
    std::cerr << "aclnn-check: " << error.what() << "\n";
    return false;
  }
  return true;
}

}  // namespace aclnn_check
