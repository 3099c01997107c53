#include "core/host_tensor.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace aclnn_check {

size_t HostTensor::BufferBytes(const TensorView& view) {
  const size_t bytes = static_cast<size_t>(view.storage_elements()) * DTypeSize(view.dtype);
  return std::max(bytes, kMinBufferBytes);
}

HostTensor::HostTensor(DType dtype, Dims shape, Layout layout, std::byte fill_byte)
    : view_(LayoutView(dtype, shape, layout)), fill_byte_(fill_byte) {
  byte_size_ = BufferBytes(view_);
  storage_.assign(byte_size_, fill_byte);
  view_.data = storage_.data();
}

HostTensor HostTensor::Filled(DType dtype, Dims shape, Layout layout, std::byte fill_byte) {
  HostTensor tensor;
  tensor.view_ = LayoutView(dtype, shape, layout);
  tensor.byte_size_ = BufferBytes(tensor.view_);
  tensor.fill_byte_ = fill_byte;
  tensor.held_ = false;
  return tensor;
}

int64_t HostTensor::FirstDifferenceAt(size_t offset, std::span<const std::byte> part) const {
  const size_t end = std::min(offset + part.size(), byte_size_);
  // Compared a chunk at a time with memcmp (against one chunk of the fill when nothing is
  // held), then byte by byte within the chunk that differs.
  constexpr size_t kChunk = 4096;
  std::array<std::byte, kChunk> fill;
  if (!held_) fill.fill(fill_byte_);
  for (size_t chunk = offset; chunk < end; chunk += kChunk) {
    const size_t length = std::min(kChunk, end - chunk);
    const std::byte* expected = held_ ? storage_.data() + chunk : fill.data();
    const std::byte* found = part.data() + (chunk - offset);
    if (std::memcmp(expected, found, length) == 0) continue;
    for (size_t i = 0; i < length; ++i) {
      if (expected[i] != found[i]) return static_cast<int64_t>(chunk + i);
    }
  }
  return -1;
}

HostTensor HostTensor::FromValues(DType dtype, Dims shape, std::span<const double> values,
                                  Layout layout) {
  HostTensor tensor(dtype, std::move(shape), layout);
  tensor.Assign(values);
  return tensor;
}

HostTensor::HostTensor(const HostTensor& other)
    : storage_(other.storage_),
      view_(other.view_),
      byte_size_(other.byte_size_),
      fill_byte_(other.fill_byte_),
      held_(other.held_) {
  view_.data = held_ ? storage_.data() : nullptr;
}

HostTensor& HostTensor::operator=(const HostTensor& other) {
  storage_ = other.storage_;
  view_ = other.view_;
  byte_size_ = other.byte_size_;
  fill_byte_ = other.fill_byte_;
  held_ = other.held_;
  view_.data = held_ ? storage_.data() : nullptr;
  return *this;
}

}  // namespace aclnn_check
