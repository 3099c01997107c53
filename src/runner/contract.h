// The calling patterns' names (docs/calling-patterns.md): each is a rule "contract." + its name.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aclnn_check {

enum class Contract { kReusedExecutor, kCacheKey, kQueued, kConcurrent };

std::string_view ContractName(Contract contract);
std::string ContractRule(Contract contract);
// A name with or without "contract.", or nullopt.
std::optional<Contract> ParseContract(std::string_view name);
std::vector<Contract> AllContracts();

}  // namespace aclnn_check
