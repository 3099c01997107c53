#include "core/layout.h"

#include <algorithm>
#include <charconv>
#include <utility>

namespace aclnn_check {

std::optional<Layout> Layout::Parse(std::string_view text) {
  if (text == "contiguous") return Layout{};
  if (text == "transposed") return Layout{Kind::kTransposed, 0};
  for (const auto& [prefix, kind] :
       {std::pair{std::string_view("offset:"), Kind::kOffset},
        std::pair{std::string_view("strided:"), Kind::kStrided}}) {
    if (!text.starts_with(prefix)) continue;
    const std::string_view digits = text.substr(prefix.size());
    int64_t k = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), k);
    if (error != std::errc() || end != digits.data() + digits.size() || k < 1) return std::nullopt;
    return Layout{kind, k};
  }
  return std::nullopt;
}

std::string Layout::ToString() const {
  switch (kind) {
    case Kind::kContiguous:
      return "contiguous";
    case Kind::kOffset:
      return "offset:" + std::to_string(k);
    case Kind::kStrided:
      return "strided:" + std::to_string(k);
    case Kind::kTransposed:
      return "transposed";
  }
  return "contiguous";
}

TensorView LayoutView(DType dtype, const Dims& shape, const Layout& layout) {
  TensorView view{dtype, shape, ContiguousStrides(shape), 0, nullptr};
  const size_t rank = shape.size();
  switch (layout.kind) {
    case Layout::Kind::kContiguous:
      break;
    case Layout::Kind::kOffset:
      view.offset = layout.k;
      break;
    case Layout::Kind::kStrided: {
      int64_t step = layout.k;
      for (size_t i = rank; i-- > 0;) {
        view.strides[i] = step;
        step *= std::max<int64_t>(shape[i], 1);
      }
      break;
    }
    case Layout::Kind::kTransposed:
      if (rank >= 2) {
        Dims memory_shape = shape;
        std::swap(memory_shape[rank - 1], memory_shape[rank - 2]);
        view.strides = ContiguousStrides(memory_shape);
        std::swap(view.strides[rank - 1], view.strides[rank - 2]);
      }
      break;
  }
  return view;
}

std::optional<int64_t> StorageBytesBound(DType dtype, const Dims& shape, const Layout& layout) {
  // Dims of 0 count as 1, as the strides do.
  int64_t bound = 1;
  for (int64_t d : shape) {
    if (__builtin_mul_overflow(bound, std::max<int64_t>(d, 1), &bound)) return std::nullopt;
  }
  if (layout.kind == Layout::Kind::kStrided && __builtin_mul_overflow(bound, layout.k, &bound)) {
    return std::nullopt;
  }
  if (layout.kind == Layout::Kind::kOffset && __builtin_add_overflow(bound, layout.k, &bound)) {
    return std::nullopt;
  }
  if (__builtin_mul_overflow(bound, static_cast<int64_t>(DTypeSize(dtype)), &bound)) {
    return std::nullopt;
  }
  return bound;
}

}  // namespace aclnn_check
