// Tensor views: a dtype, a shape, strides in elements and a storage offset over a buffer.
// The only place that walks strided memory element by element; everything that reads or writes a
// tensor in logical (row-major) order goes through ForEachElement / ReadAsDouble / WriteFromDouble.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/dtype.h"

namespace aclnn_check {

using Dims = std::vector<int64_t>;

// The most dimensions a case file may give a tensor (the case schema's limit). Above the rank of
// 8 that validation accepts, so that rank checks can be tested; golden files hold what the harness
// records, so they accept the same.
constexpr int kMaxShapeRank = 16;

int64_t NumElements(std::span<const int64_t> shape);  // 1 for rank 0, 0 if any dim is 0
Dims ContiguousStrides(std::span<const int64_t> shape);
std::string FormatDims(std::span<const int64_t> dims);  // "[3, 65, 7]"

struct TensorView {
  DType dtype = DType::kFloat32;
  Dims shape;
  Dims strides;        // in elements, same length as shape
  int64_t offset = 0;  // in elements from data
  void* data = nullptr;

  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  int64_t numel() const { return NumElements(shape); }
  bool is_contiguous() const;
  // Elements from data that the view may touch: offset + 1 + max reachable index (0 if empty).
  int64_t storage_elements() const;
  char* element_address(int64_t storage_index) const {
    return static_cast<char*>(data) + storage_index * static_cast<int64_t>(DTypeSize(dtype));
  }
};

// Calls visit(logical_index, storage_index) for the elements [begin, end) in row-major order,
// where storage_index counts elements from data (it includes the offset).
template <typename Visit>
void ForEachElementIn(const TensorView& view, int64_t begin, int64_t end, Visit&& visit) {
  if (begin >= end) return;
  if (view.is_contiguous()) {
    for (int64_t i = begin; i < end; ++i) visit(i, view.offset + i);
    return;
  }
  // Odometer over the outer dims, a plain loop over the innermost one, started at begin.
  const size_t rank = view.shape.size();
  const int64_t inner = view.shape[rank - 1];
  const int64_t inner_stride = view.strides[rank - 1];
  std::vector<int64_t> index(rank, 0);
  int64_t base = view.offset;
  int64_t rest = begin / inner;
  for (size_t d = rank - 1; d-- > 0;) {
    index[d] = rest % view.shape[d];
    rest /= view.shape[d];
    base += index[d] * view.strides[d];
  }
  int64_t first = begin % inner;
  for (int64_t logical = begin - first; logical < end; logical += inner) {
    const int64_t last = std::min(inner, end - logical);
    for (int64_t i = first; i < last; ++i) visit(logical + i, base + i * inner_stride);
    first = 0;
    for (size_t d = rank - 1; d-- > 0;) {
      if (++index[d] < view.shape[d]) {
        base += view.strides[d];
        break;
      }
      base -= (view.shape[d] - 1) * view.strides[d];
      index[d] = 0;
    }
  }
}

// Calls visit(logical_index, storage_index) for every element in row-major order.
template <typename Visit>
void ForEachElement(const TensorView& view, Visit&& visit) {
  ForEachElementIn(view, 0, view.numel(), visit);
}
// Storage index of every element in logical order.
std::vector<int64_t> StorageIndices(const TensorView& view);

std::vector<double> ReadAsDouble(const TensorView& view);
// Logical elements [begin, begin + into.size()) as doubles: a reference's inputs block by block.
void ReadAsDouble(const TensorView& view, int64_t begin, std::span<double> into);
std::vector<float> ReadAsFloat(const TensorView& view);
// The same into caller-owned memory of at least numel() floats (a kernel's workspace).
void ReadAsFloat(const TensorView& view, std::span<float> into);
// Rounds each value once to the view's dtype; values is in logical order.
void WriteFromDouble(const TensorView& view, std::span<const double> values);
void WriteFromFloat(const TensorView& view, std::span<const float> values);

}  // namespace aclnn_check
