// The calling patterns' names (docs/calling-patterns.md): each is a rule "contract." + its name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aclnn_check {

enum class Contract { kReusedExecutor, kCacheKey, kQueued, kConcurrent, kDevicesAgree };

std::string_view ContractName(Contract contract);
std::string ContractRule(Contract contract);
// A name with or without "contract.", or nullopt.
std::optional<Contract> ParseContract(std::string_view name);
// Every pattern; `all` on a run means these less devices_agree when the run names no devices
// (cli/contract_options.h).
std::vector<Contract> AllContracts();
// "0,1" for --devices and repro lines.
std::string FormatDeviceList(const std::vector<int32_t>& devices);

}  // namespace aclnn_check
