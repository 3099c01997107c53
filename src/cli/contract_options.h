// `run --contract LIST|all` and `run --devices LIST`: the calling patterns
// (docs/calling-patterns.md) run on each point after its default call.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cli/run_command.h"

namespace aclnn_check {

// What --contract and --devices gave, before they fit together (FinishContractOptions).
struct ContractFlags {
  std::vector<std::string> names;
  std::string devices;
};

// The patterns named in a comma list ("all", "queued", "contract.queued", ...); `all` holds
// devices_agree only when the run names devices. Throws CLI::ValidationError naming the unknown
// name and the known ones.
std::vector<Contract> ParseContractList(const std::vector<std::string>& names, bool with_devices);

// "0,1" as device numbers; throws CLI::ValidationError for anything but distinct numbers >= 0.
std::vector<int32_t> ParseDeviceList(const std::string& text);

void AddContractOptions(CLI::App* run, ContractFlags* flags);

// The flags as RunOptions::contracts and ::devices: --devices turns contract.devices_agree on,
// which cannot run without it. False (with the error on stderr) when they do not fit.
bool FinishContractOptions(const ContractFlags& flags, RunOptions* options);

}  // namespace aclnn_check
