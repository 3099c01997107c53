// A tensor's elements in logical order as doubles, a block at a time: values already decoded, or
// a view over the tensor's bytes decoded on demand, so that a large output is checked without a
// decoded copy of its size (8 bytes per element).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/tensor_view.h"

namespace aclnn_check {

class BlockValues {
 public:
  explicit BlockValues(std::span<const double> decoded)
      : decoded_(decoded), size_(static_cast<int64_t>(decoded.size())) {}
  // The view's bytes must outlive this object.
  explicit BlockValues(const TensorView& view) : view_(view), size_(view.numel()) {}

  int64_t size() const { return size_; }
  // Elements [begin, end): a span of the decoded values, or the view's decoded into scratch (which
  // then holds them until its next use).
  std::span<const double> Block(int64_t begin, int64_t end, std::vector<double>& scratch) const;
  double At(int64_t index) const;
  // Elements [begin, begin + into.size()) decoded or copied into caller-owned memory.
  void ReadInto(int64_t begin, std::span<double> into) const;

 private:
  std::span<const double> decoded_;
  std::optional<TensorView> view_;
  int64_t size_;
};

}  // namespace aclnn_check
