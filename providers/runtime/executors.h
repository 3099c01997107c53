// The live executors of the bundled providers: GetWorkspaceSize creates them (dispatch.cc), an
// execute call claims one, and executors.cc implements CANN's reuse calls on them
// (aclSetAclOpExecutorRepeatable, aclSetInputTensorAddr, aclSetOutputTensorAddr,
// aclDestroyAclOpExecutor in aclnn/acl_meta.h).
#pragma once

#include <cstdint>
#include <optional>

#include "catalogue/operator.h"
#include "providers/runtime/objects.h"

namespace aclnn_check::provider {

// Registers a new executor, owned by the registry from here on, and numbers it (serial).
void AdoptExecutor(aclOpExecutor* executor);

// What one execute call runs: a copy of the executor's operator and arguments as they are at
// the call, so that a later address setter changes only later launches.
struct ExecutorLaunch {
  const Operator* op = nullptr;
  OpArgs args;
  uint64_t workspace_bytes = 0;
  uint64_t serial = 0;
  bool repeatable = false;
};

// The launch of a live executor, consuming (deleting) one that is not repeatable; nullopt for a
// pointer that is not a live executor (null, unknown, already consumed or destroyed).
std::optional<ExecutorLaunch> ClaimExecutor(aclOpExecutor* executor);

}  // namespace aclnn_check::provider
