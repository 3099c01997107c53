#include "runner/contract.h"

#include <array>
#include <utility>

namespace aclnn_check {
namespace {

constexpr std::array<std::pair<Contract, std::string_view>, 4> kNames = {{
    {Contract::kReusedExecutor, "reused_executor"},
    {Contract::kCacheKey, "cache_key"},
    {Contract::kQueued, "queued"},
    {Contract::kConcurrent, "concurrent"},
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

}  // namespace aclnn_check
