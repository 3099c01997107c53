// RAII wrappers over a provider's runtime: the device, a stream, buffers, tensors and host arrays.
// Failures throw ProviderError with the provider's own message (aclGetRecentErrMsg) attached.
#pragma once

#include <cstddef>
#include <span>
#include <utility>
#include <string>
#include <vector>

#include "core/tensor_view.h"
#include "device_access/provider.h"

namespace aclnn_check {

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const Provider& provider, size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;

  void* data() const { return data_; }
  size_t size() const { return size_; }
  void Upload(std::span<const std::byte> host);
  std::vector<std::byte> Download() const;
  // The same for a part of the buffer, from byte offset on: no staging copy of the whole buffer.
  void UploadAt(size_t offset, std::span<const std::byte> host);
  void DownloadInto(size_t offset, std::span<std::byte> host) const;
  // Sets `length` bytes from byte offset on to `value`, uploaded 16 MiB at a time: a pattern
  // costs no host copy of its size.
  void FillAt(size_t offset, size_t length, std::byte value);

 private:
  const Provider* provider_ = nullptr;
  void* data_ = nullptr;
  size_t size_ = 0;
};

// A handle created by the provider and destroyed with it; Handle<aclTensor> etc.
template <typename T>
class ProviderHandle {
 public:
  using Destroy = aclnnStatus (*)(const T*);
  ProviderHandle() = default;
  ProviderHandle(T* handle, Destroy destroy) : handle_(handle), destroy_(destroy) {}
  ~ProviderHandle() {
    if (handle_) destroy_(handle_);
  }
  ProviderHandle(ProviderHandle&& other) noexcept
      : handle_(std::exchange(other.handle_, nullptr)), destroy_(other.destroy_) {}
  ProviderHandle& operator=(ProviderHandle&& other) noexcept {
    std::swap(handle_, other.handle_);
    std::swap(destroy_, other.destroy_);
    return *this;
  }
  T* get() const { return handle_; }

 private:
  T* handle_ = nullptr;
  Destroy destroy_ = nullptr;
};

class DeviceSession {
 public:
  // aclInit, aclrtSetDevice(0), aclrtCreateStream.
  explicit DeviceSession(const Provider& provider);
  // A worker's session on a device: aclrtSetDevice(device), and with own_context a context of its
  // own made current on the calling thread (aclrtCreateContext, aclrtSetCurrentContext; the
  // provider must have them, Provider::patterns().contexts()), then its stream.
  DeviceSession(const Provider& provider, int32_t device, bool own_context);
  ~DeviceSession();
  DeviceSession(const DeviceSession&) = delete;
  DeviceSession& operator=(const DeviceSession&) = delete;

  const Provider& provider() const { return provider_; }
  aclrtStream stream() const { return stream_; }
  void Synchronize() const;

  // A tensor with the layout of view (view.data is ignored) over device memory at data holding
  // storage_elements elements.
  ProviderHandle<aclTensor> CreateTensor(const TensorView& view, void* data,
                                         int64_t storage_elements) const;
  ProviderHandle<aclIntArray> CreateIntArray(std::span<const int64_t> values) const;
  ProviderHandle<aclBoolArray> CreateBoolArray(const std::vector<bool>& values) const;

 private:
  const Provider& provider_;
  int32_t device_ = 0;
  aclrtContext context_ = nullptr;
  aclrtStream stream_ = nullptr;
};

// Throws ProviderError("<what> failed with <code>: <provider message>") when code != 0.
void CheckAcl(const Provider& provider, int code, const std::string& what);

}  // namespace aclnn_check
