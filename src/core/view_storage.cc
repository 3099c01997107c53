#include "core/view_storage.h"

#include <algorithm>

namespace aclnn_check {

int64_t StorageIndexOf(const TensorView& view, int64_t logical) {
  int64_t storage = view.offset;
  for (size_t d = view.shape.size(); d-- > 0;) {
    if (view.shape[d] == 0) return view.offset;
    storage += (logical % view.shape[d]) * view.strides[d];
    logical /= view.shape[d];
  }
  return storage;
}

std::vector<StorageInterval> StorageIntervals(const TensorView& view) {
  std::vector<StorageInterval> intervals;
  if (view.numel() == 0) return intervals;
  if (view.is_contiguous()) return {{view.offset, view.offset + view.numel()}};
  ForEachElement(view, [&](int64_t, int64_t storage) {
    if (!intervals.empty() && intervals.back().end == storage) {
      ++intervals.back().end;
    } else {
      intervals.push_back({storage, storage + 1});
    }
  });
  std::sort(intervals.begin(), intervals.end(),
            [](const StorageInterval& a, const StorageInterval& b) { return a.begin < b.begin; });
  std::vector<StorageInterval> merged;
  for (const StorageInterval& interval : intervals) {
    if (!merged.empty() && interval.begin <= merged.back().end) {
      merged.back().end = std::max(merged.back().end, interval.end);
    } else {
      merged.push_back(interval);
    }
  }
  return merged;
}

}  // namespace aclnn_check
