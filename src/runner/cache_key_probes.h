// contract.cache_key's probes: for a point A, the points B of its case that keep every shape and
// differ from A in exactly one of the things the operator's description (kernels/catalogue/
// operator.h) says a call has: a host parameter (each ParamSlot), the dtype, the layout (strides,
// storage offset) or an optional tensor given or null. A cache keyed without that thing hands B
// A's executor.
#pragma once

#include <string>
#include <vector>

#include "cases/test_point.h"

namespace aclnn_check {

struct CacheKeyProbe {
  std::string differs_in;  // "eps", "dtype", "layout offset:1", "weight null", ...
  const TestPoint* partner = nullptr;
};

// One probe per thing that some point of the case varies alone, the first such point after A.
std::vector<CacheKeyProbe> CacheKeyProbes(const TestPoint& point, Product product);

}  // namespace aclnn_check
