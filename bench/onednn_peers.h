// oneDNN CPU peers of the workloads: eltwise hardswish backward and layer normalization backward
// (scale and shift), with memory and a user scratchpad allocated once, `threads` OpenMP threads.
// A dtype the library has no implementation for on this CPU reports an error naming it.
#pragma once

#include <vector>

#include "workload.h"

namespace aclnn_check::bench {

void RegisterOneDnnPeers(const std::vector<Workload>& workloads, int threads);

}  // namespace aclnn_check::bench
