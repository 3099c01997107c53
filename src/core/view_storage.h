// Where a view's elements lie in its buffer, without visiting every element: the storage index of
// one logical element, and the storage the view touches as index intervals (for telling bytes
// inside a view from bytes outside without a mask per byte).
#pragma once

#include <cstdint>
#include <vector>

#include "core/tensor_view.h"

namespace aclnn_check {

// Storage index of the element at one logical index (row-major).
int64_t StorageIndexOf(const TensorView& view, int64_t logical);

// A run of storage element indices [begin, end).
struct StorageInterval {
  int64_t begin = 0;
  int64_t end = 0;
};
// The storage a view touches as sorted, disjoint intervals; one for a contiguous view.
std::vector<StorageInterval> StorageIntervals(const TensorView& view);

}  // namespace aclnn_check
