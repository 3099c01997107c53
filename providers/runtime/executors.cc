// Executor reuse as hicann/opbase documents it (docs/en/api/nnopbase/aclnn/
// aclSetAclOpExecutorRepeatable.md, aclSetInputTensorAddr.md, aclSetOutputTensorAddr.md,
// aclDestroyAclOpExecutor.md; the status codes of docs/contract/interface.md, 2.1): a null
// executor or tensor answers 561103, an index outside the operator's inputs (resp. outputs)
// 161002, as does a position whose tensor was null at GetWorkspaceSize. Where CANN is silent the
// emulator is strict: a tensor other than the one GetWorkspaceSize got at that position, and a
// pointer that is not a live executor, are refused (161002, 561000) and change nothing.
#include "providers/runtime/executors.h"

#include <mutex>
#include <string>
#include <unordered_set>
#include <utility>

#include "aclnn/opdev/op_errno.h"
#include "providers/runtime/last_error.h"

namespace aclnn_check::provider {
namespace {

struct Registry {
  std::mutex mutex;
  std::unordered_set<aclOpExecutor*> live;
  uint64_t created = 0;
};

Registry& Executors() {
  static Registry registry;
  return registry;
}

aclnnStatus Fail(aclnnStatus status, std::string message) {
  SetLastError(std::move(message));
  return status;
}

aclnnStatus NotLive(const char* function) {
  return Fail(ACLNN_ERR_INNER, std::string(function) +
                                   ": not a live executor (from GetWorkspaceSize, neither "
                                   "consumed by its execute call nor destroyed)");
}

// The TensorSlot of the index-th tensor of that role, or nullopt past the last one.
std::optional<size_t> SlotOfRole(const Operator& op, SlotRole role, size_t index) {
  size_t seen = 0;
  for (size_t slot = 0; slot < op.tensors().size(); ++slot) {
    if (op.tensors()[slot].role != role) continue;
    if (seen++ == index) return slot;
  }
  return std::nullopt;
}

size_t CountOfRole(const Operator& op, SlotRole role) {
  size_t count = 0;
  for (const TensorSlot& slot : op.tensors()) count += slot.role == role;
  return count;
}

aclnnStatus SetTensorAddress(const char* function, SlotRole role, aclOpExecutor* executor,
                             size_t index, aclTensor* tensor, void* address) {
  if (!executor || !tensor) {
    return Fail(ACLNN_ERR_INNER_NULLPTR, std::string(function) + ": executor or tensor is null");
  }
  const char* role_name = role == SlotRole::kInput ? "input" : "output";
  Registry& registry = Executors();
  std::lock_guard lock(registry.mutex);
  if (registry.live.count(executor) == 0) return NotLive(function);
  const Operator& op = *executor->op;
  const std::optional<size_t> slot = SlotOfRole(op, role, index);
  if (!slot) {
    return Fail(ACLNN_ERR_PARAM_INVALID,
                std::string(function) + ": index " + std::to_string(index) + " is out of range: aclnn" +
                    op.name() + " has " + std::to_string(CountOfRole(op, role)) + " " + role_name +
                    " tensors");
  }
  const std::string position = std::string(role_name) + " " + std::to_string(index) + " (" +
                               std::string(op.tensors()[*slot].name) + ")";
  if (!executor->handles[*slot] || !executor->args.tensors[*slot]) {
    return Fail(ACLNN_ERR_PARAM_INVALID, std::string(function) + ": " + position +
                                             " was null at GetWorkspaceSize; it has no address");
  }
  if (executor->handles[*slot] != tensor) {
    return Fail(ACLNN_ERR_PARAM_INVALID,
                std::string(function) + ": tensor is not the one GetWorkspaceSize got as " +
                    position);
  }
  tensor->view.data = address;
  executor->args.tensors[*slot]->data = address;
  return ACLNN_SUCCESS;
}

}  // namespace

void AdoptExecutor(aclOpExecutor* executor) {
  Registry& registry = Executors();
  std::lock_guard lock(registry.mutex);
  executor->serial = ++registry.created;
  registry.live.insert(executor);
}

std::optional<ExecutorLaunch> ClaimExecutor(aclOpExecutor* executor) {
  Registry& registry = Executors();
  std::lock_guard lock(registry.mutex);
  const auto found = registry.live.find(executor);
  if (found == registry.live.end()) return std::nullopt;
  if (executor->repeatable) {
    return ExecutorLaunch{executor->op, executor->args, executor->workspace_bytes,
                          executor->serial, true};
  }
  registry.live.erase(found);
  ExecutorLaunch launch{executor->op, std::move(executor->args), executor->workspace_bytes,
                        executor->serial, false};
  delete executor;
  return launch;
}

}  // namespace aclnn_check::provider

namespace provider = aclnn_check::provider;

extern "C" {

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) {
  if (!executor) {
    return provider::Fail(ACLNN_ERR_INNER_NULLPTR, "aclSetAclOpExecutorRepeatable: executor is null");
  }
  provider::Registry& registry = provider::Executors();
  std::lock_guard lock(registry.mutex);
  if (registry.live.count(executor) == 0) {
    return provider::NotLive("aclSetAclOpExecutorRepeatable");
  }
  executor->repeatable = true;
  return ACLNN_SUCCESS;
}

// CANN destroys a non-repeatable executor too (one never executed); so does the emulator.
aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
  if (!executor) {
    return provider::Fail(ACLNN_ERR_INNER_NULLPTR, "aclDestroyAclOpExecutor: executor is null");
  }
  {
    provider::Registry& registry = provider::Executors();
    std::lock_guard lock(registry.mutex);
    if (registry.live.erase(executor) == 0) return provider::NotLive("aclDestroyAclOpExecutor");
  }
  delete executor;
  return ACLNN_SUCCESS;
}

aclnnStatus aclSetInputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                                  void* addr) {
  return provider::SetTensorAddress("aclSetInputTensorAddr", aclnn_check::SlotRole::kInput,
                                    executor, index, tensor, addr);
}

aclnnStatus aclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                                   void* addr) {
  return provider::SetTensorAddress("aclSetOutputTensorAddr", aclnn_check::SlotRole::kOutput,
                                    executor, index, tensor, addr);
}

}  // extern "C"
