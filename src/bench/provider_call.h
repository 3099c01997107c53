// One test point made ready to be called on a provider again and again, for benchmarks: inputs
// uploaded once, tensors and parameters created once. Executors are single-use, so every call
// asks GetWorkspaceSize for a new one, as a framework does for every launch.
#pragma once

#include <optional>
#include <vector>

#include "cases/test_point.h"
#include "device_access/device.h"
#include "runner/abi_params.h"
#include "runner/execute.h"

namespace aclnn_check {

class RepeatableCall {
 public:
  // Uploads the prepared inputs (the host copies may be dropped afterwards). Throws
  // ProviderError when the provider lacks the operator or cannot allocate or create the call's
  // objects.
  RepeatableCall(const TestPoint& point, const PreparedPoint& prepared,
                 const DeviceSession& session);

  // One launch: GetWorkspaceSize, execute, aclrtSynchronizeStream (the bundled providers, like a
  // device, only queue work at execute and run it at the synchronisation). The workspace is
  // allocated once and grown when a call asks for more. Throws ProviderError naming the function
  // and status when a call fails.
  void Call();

  // Call's two host steps apart, each returning the host seconds of the provider's call alone:
  // GetWorkspaceSize (then the workspace grown, untimed), and the execute call, which only
  // enqueues. A launch needs a GetWorkspaceSize before it (executors are single-use).
  double GetWorkspaceSize();
  double Launch();

 private:
  const Operator& op_;
  const DeviceSession& session_;
  ExecuteFunction execute_ = nullptr;
  void* get_workspace_size_ = nullptr;
  std::vector<DeviceBuffer> buffers_;
  std::vector<ProviderHandle<aclTensor>> tensors_;
  std::optional<AbiParams> params_;
  AbiCall call_;
  uint64_t workspace_bytes_ = 0;
  aclOpExecutor* executor_ = nullptr;
  DeviceBuffer workspace_;
};

}  // namespace aclnn_check
