// A tensor in host memory that owns its buffer: the harness's staging copy of a device tensor,
// and the tests' way to build operator arguments.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/layout.h"
#include "core/tensor_view.h"

namespace aclnn_check {

class HostTensor {
 public:
  // The buffer holds the layout's extent, at least kMinBufferBytes, filled with fill_byte.
  HostTensor(DType dtype, Dims shape, Layout layout = {}, std::byte fill_byte = std::byte{0});
  // A contiguous tensor holding values (logical order), each rounded once to dtype.
  static HostTensor FromValues(DType dtype, Dims shape, std::span<const double> values,
                               Layout layout = {});
  // A tensor whose every byte is fill_byte, described but not held: an output's initial state is
  // uploaded and compared as a pattern, so a large point does not keep a host copy of it.
  // view().data is null and bytes() is empty; byte_size() is what the buffer would hold.
  static HostTensor Filled(DType dtype, Dims shape, Layout layout, std::byte fill_byte);

  const TensorView& view() const { return view_; }
  std::span<std::byte> bytes() { return storage_; }
  std::span<const std::byte> bytes() const { return storage_; }
  bool held() const { return held_; }
  size_t byte_size() const { return byte_size_; }
  std::byte fill_byte() const { return fill_byte_; }  // the initial byte everywhere
  void Assign(std::span<const double> values) { WriteFromDouble(view_, values); }
  // The first byte offset in [offset, offset + part.size()) where part, the bytes found there in
  // a buffer of this tensor, differs from its initial bytes (its bytes, or its fill when it holds
  // none), or -1. Bytes past byte_size() are not compared.
  int64_t FirstDifferenceAt(size_t offset, std::span<const std::byte> part) const;
  std::vector<double> Values() const { return ReadAsDouble(view_); }

  HostTensor(const HostTensor& other);
  HostTensor& operator=(const HostTensor& other);
  HostTensor(HostTensor&&) noexcept = default;
  HostTensor& operator=(HostTensor&&) noexcept = default;

  // An empty tensor still gets a buffer: the harness never allocates 0 bytes on a device.
  static constexpr size_t kMinBufferBytes = 64;

 private:
  HostTensor() = default;
  // What a tensor of this view occupies: its layout's extent, at least kMinBufferBytes.
  static size_t BufferBytes(const TensorView& view);

  std::vector<std::byte> storage_;
  TensorView view_;
  size_t byte_size_ = 0;
  std::byte fill_byte_{0};
  bool held_ = true;
};

}  // namespace aclnn_check
