// What one call of an operator must move at least, for the benchmarks' bytes_per_second and
// items_per_second: every input element it needs read once, every output element it produces
// written once. Caches, recomputation and layout gaps are the implementation's business, so two
// implementations of the same call are credited the same bytes and their GB/s compare like speed.
#pragma once

#include <cstdint>

#include "common/operator.h"

namespace aclnn_check {

struct MinimumTraffic {
  uint64_t bytes = 0;  // inputs read once + outputs written once
  uint64_t items = 0;  // elements of the call's largest tensor
};

// Per operator (see the .cc for each formula); an operator without its own formula is credited
// every non-null input read and every non-null output written.
MinimumTraffic MinimumTrafficOf(const Operator& op, const OpArgs& args);

}  // namespace aclnn_check
