#include "core/host_tensor.h"

#include <algorithm>

namespace aclnn_check {

HostTensor::HostTensor(DType dtype, Dims shape, Layout layout, std::byte fill_byte)
    : view_(LayoutView(dtype, shape, layout)), fill_byte_(fill_byte) {
  const size_t bytes = static_cast<size_t>(view_.storage_elements()) * DTypeSize(dtype);
  byte_size_ = std::max(bytes, kMinBufferBytes);
  storage_.assign(byte_size_, fill_byte);
  view_.data = storage_.data();
}

HostTensor HostTensor::Filled(DType dtype, Dims shape, Layout layout, std::byte fill_byte) {
  HostTensor tensor;
  tensor.view_ = LayoutView(dtype, shape, layout);
  const size_t bytes = static_cast<size_t>(tensor.view_.storage_elements()) * DTypeSize(dtype);
  tensor.byte_size_ = std::max(bytes, kMinBufferBytes);
  tensor.fill_byte_ = fill_byte;
  tensor.held_ = false;
  return tensor;
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
