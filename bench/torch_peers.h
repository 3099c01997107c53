// PyTorch ATen CPU peers of the workloads (libtorch), timed like the aclnn provider: inputs made
// once, outputs preallocated or their memory reused, `threads` intra-op threads. Each benchmark's
// label says how its outputs are obtained.
#pragma once

#include <vector>

#include "workload.h"

namespace aclnn_check::bench {

void RegisterTorchPeers(const std::vector<Workload>& workloads, int threads);

}  // namespace aclnn_check::bench
