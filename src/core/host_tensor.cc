#include "core/host_tensor.h"

#include <algorithm>

namespace aclnn_check {

HostTensor::HostTensor(DType dtype, Dims shape, Layout layout, std::byte fill_byte)
    : view_(LayoutView(dtype, shape, layout)) {
  const size_t bytes = static_cast<size_t>(view_.storage_elements()) * DTypeSize(dtype);
  storage_.assign(std::max(bytes, kMinBufferBytes), fill_byte);
  view_.data = storage_.data();
}

HostTensor HostTensor::FromValues(DType dtype, Dims shape, std::span<const double> values,
                                  Layout layout) {
  HostTensor tensor(dtype, std::move(shape), layout);
  tensor.Assign(values);
  return tensor;
}

HostTensor::HostTensor(const HostTensor& other) : storage_(other.storage_), view_(other.view_) {
  view_.data = storage_.data();
}

HostTensor& HostTensor::operator=(const HostTensor& other) {
  storage_ = other.storage_;
  view_ = other.view_;
  view_.data = storage_.data();
  return *this;
}

}  // namespace aclnn_check
