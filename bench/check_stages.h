// The harness's own data path as benchmarks beside the operators: for every workload, input
// generation, the float64 reference and the check of every output, each credited the workload's
// elements (items_per_second) and minimum traffic, so a regression of the checker shows in
// `bench compare` like one of a kernel. Names: <workload>/<dtype>/stage_<generate|reference|check>
// /threads:<n>; the harness's threads are set to n (core/parallel_blocks.h).
#pragma once

#include <vector>

#include "workload.h"

namespace aclnn_check::bench {

void RegisterCheckStages(const std::vector<Workload>& workloads, int threads);

}  // namespace aclnn_check::bench
