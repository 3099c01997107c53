// How a bundled provider computes: each provider library (cpu, ref, cuda) defines ActiveBackend().
#pragma once

#include <cstdint>

#include "common/operator.h"

namespace aclnn_check::provider {

struct ComputeBackend {
  const char* name;
  uint64_t (*workspace_bytes)(const Operator& op, const OpArgs& args);
  void (*run)(const Operator& op, const OpArgs& args, void* workspace);
  // Replaces Operator::Validate when set; only the test-only faulty providers set it.
  CheckOutcome (*validate)(const Operator& op, const OpArgs& args, Product product) = nullptr;
  // Set by a provider whose streams are the device's own (cuda): enqueues the work on `stream`
  // (null: the device's default stream) in place of `run` and the host queue of stream.h, and
  // returns the status of the enqueue itself.
  aclnnStatus (*enqueue)(const Operator& op, const OpArgs& args, void* workspace,
                         aclrtStream stream) = nullptr;
};

const ComputeBackend& ActiveBackend();

}  // namespace aclnn_check::provider
