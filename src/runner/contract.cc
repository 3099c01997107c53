#include "runner/contract.h"

#include <array>
#include <utility>

namespace aclnn_check {
namespace {

constexpr std::array<std::pair<Contract, std::string_view>, 5> kNames = {{
    {Contract::kReusedExecutor, "reused_executor"},
    {Contract::kCacheKey, "cache_key"},
    {Contract::kQueued, "queued"},
    {Contract::kConcurrent, "concurrent"},
    {Contract::kDevicesAgree, "devices_agree"},
}};

}  // namespace

std::string_view ContractName(Contract contract) {
  for (const auto& [which, name] : kNames) {
    if (which == contract) return name;
  }
  return "unknown";
}

std::string ContractRule(Contract contract) {
  return "contract." + std::string(ContractName(contract));
}

std::optional<Contract> ParseContract(std::string_view name) {
  if (name.starts_with("contract.")) name.remove_prefix(9);
  for (const auto& [which, known] : kNames) {
    if (known == name) return which;
  }
  return std::nullopt;
}

std::vector<Contract> AllContracts() {
  std::vector<Contract> all;
  for (const auto& entry : kNames) all.push_back(entry.first);
  return all;
}

std::string FormatDeviceList(const std::vector<int32_t>& devices) {
  std::string list;
  for (const int32_t device : devices) list += (list.empty() ? "" : ",") + std::to_string(device);
  return list;
}

}  // namespace aclnn_check
