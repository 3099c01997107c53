// Memory layouts of a test tensor (docs/contract/case-files.md): how a logical shape is laid into a
// buffer.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/tensor_view.h"

namespace aclnn_check {

struct Layout {
  enum class Kind : uint8_t { kContiguous, kOffset, kStrided, kTransposed };
  Kind kind = Kind::kContiguous;
  int64_t k = 0;  // offset:k elements, strided:k innermost stride

  // "contiguous", "offset:3", "strided:2", "transposed"; nullopt when malformed or k < 1.
  static std::optional<Layout> Parse(std::string_view text);
  std::string ToString() const;
  bool operator==(const Layout&) const = default;
};

// The view of `shape` in `layout` over a buffer starting at data (nullptr here): strides and
// offset. transposed swaps the last two dims in memory (rank < 2: contiguous).
TensorView LayoutView(DType dtype, const Dims& shape, const Layout& layout);

// An upper bound on the bytes that LayoutView's view spans (elements, the stride factor or offset
// k, the dtype's size); nullopt when int64 cannot count them. Below it, the view's strides,
// offset, element count and storage all fit in int64.
std::optional<int64_t> StorageBytesBound(DType dtype, const Dims& shape, const Layout& layout);

}  // namespace aclnn_check
