#include "core/tensor_view.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/float_bits.h"
#include "core/float_blocks.h"

namespace aclnn_check {

int64_t NumElements(std::span<const int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

Dims ContiguousStrides(std::span<const int64_t> shape) {
  Dims strides(shape.size());
  int64_t step = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = step;
    step *= std::max<int64_t>(shape[i], 1);
  }
  return strides;
}

std::string FormatDims(std::span<const int64_t> dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) text += ", ";
    text += std::to_string(dims[i]);
  }
  return text + "]";
}

bool TensorView::is_contiguous() const {
  int64_t step = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] != 1 && strides[i] != step) return false;
    step *= shape[i];
  }
  return true;
}

int64_t TensorView::storage_elements() const {
  if (numel() == 0) return 0;
  int64_t last = offset;
  for (size_t i = 0; i < shape.size(); ++i)
    last += (shape[i] - 1) * std::max<int64_t>(strides[i], 0);
  return last + 1;
}

std::vector<int64_t> StorageIndices(const TensorView& view) {
  std::vector<int64_t> indices(static_cast<size_t>(view.numel()));
  ForEachElement(view, [&](int64_t logical, int64_t storage) { indices[logical] = storage; });
  return indices;
}

void ReadAsDouble(const TensorView& view, int64_t begin, std::span<double> into) {
  const int64_t end = begin + static_cast<int64_t>(into.size());
  if (view.is_contiguous()) {
    const std::byte* first = static_cast<const std::byte*>(view.data) +
                             (view.offset + begin) * static_cast<int64_t>(DTypeSize(view.dtype));
    if (DecodeBlock(view.dtype, first, into.size(), into.data())) return;
  }
  ForEachElementIn(view, begin, end, [&](int64_t logical, int64_t storage) {
    into[static_cast<size_t>(logical - begin)] = DecodeElement(view.element_address(storage), view.dtype);
  });
}

std::vector<double> ReadAsDouble(const TensorView& view) {
  std::vector<double> values(static_cast<size_t>(view.numel()));
  ReadAsDouble(view, 0, values);
  return values;
}

void ReadAsFloat(const TensorView& view, std::span<float> into) {
  // Contiguous float32 (LayerNormBackward's mean and rstd) in one loop the compiler vectorises:
  // decoding it one element at a time showed in that kernel's profile
  // (docs/layer-norm-performance.md). A signalling NaN gets its quiet bit, as the round trip
  // through DecodeElement's double gives it.
  if (view.dtype == DType::kFloat32 && view.is_contiguous()) {
    const auto* first = static_cast<const std::byte*>(view.data) + view.offset * sizeof(float);
    for (size_t i = 0; i < static_cast<size_t>(view.numel()); ++i) {
      uint32_t bits;
      std::memcpy(&bits, first + i * sizeof(float), sizeof(bits));
      if ((bits & 0x7FFFFFFFu) > 0x7F800000u) bits |= 0x400000u;
      std::memcpy(&into[i], &bits, sizeof(bits));
    }
    return;
  }
  ForEachElement(view, [&](int64_t logical, int64_t storage) {
    into[logical] = static_cast<float>(DecodeElement(view.element_address(storage), view.dtype));
  });
}

std::vector<float> ReadAsFloat(const TensorView& view) {
  std::vector<float> values(static_cast<size_t>(view.numel()));
  ReadAsFloat(view, values);
  return values;
}

void WriteFromDouble(const TensorView& view, std::span<const double> values) {
  ForEachElement(view, [&](int64_t logical, int64_t storage) {
    EncodeElement(view.element_address(storage), view.dtype, values[logical]);
  });
}

void WriteFromFloat(const TensorView& view, std::span<const float> values) {
  ForEachElement(view, [&](int64_t logical, int64_t storage) {
    EncodeElement(view.element_address(storage), view.dtype, values[logical]);
  });
}

}  // namespace aclnn_check
