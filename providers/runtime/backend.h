// How a bundled provider computes: each provider library (cpu, ref, cuda) defines ActiveBackend().
#pragma once

#include <cstdint>

#include "catalogue/operator.h"

namespace aclnn_check::provider {

struct ComputeBackend {
  const char* name;
  uint64_t (*workspace_bytes)(const Operator& op, const OpArgs& args);
  // The work of an execute call on the host (host_stream_launch.cc); the cuda provider enqueues
  // its kernels in its own LaunchOnStream instead.
  void (*run)(const Operator& op, const OpArgs& args, void* workspace);
  // Replaces Operator::Validate when set; only the test-only faulty providers set it.
  CheckOutcome (*validate)(const Operator& op, const OpArgs& args, Product product) = nullptr;
  // Test-only (tests/faulty_provider/pattern_faults.cc): called by each execute call that passed
  // with its operator, the executor's serial number (unique in the process), whether it is repeatable, and the
  // arguments its launch will run with, which it may change.
  void (*launching)(const Operator& op, uint64_t executor_serial, bool repeatable,
                    OpArgs& args) = nullptr;
  // Test-only: called by aclDestroyTensor with the device address the tensor held.
  void (*tensor_destroyed)(const void* data) = nullptr;
  // Host work of the execute call before it enqueues; only the test-only bench-fault providers
  // set it (tests/faulty_provider/bench_faults.cc: a launch that got slower).
  void (*before_launch)(const Operator& op) = nullptr;
};

const ComputeBackend& ActiveBackend();

}  // namespace aclnn_check::provider
