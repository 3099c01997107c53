#include "device_access/device.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <utility>

namespace aclnn_check {

void CheckAcl(const Provider& provider, int code, const std::string& what) {
  if (code == 0) return;
  std::string message = what + " failed with " + std::to_string(code);
  const std::string detail = provider.RecentError();
  if (!detail.empty()) message += ": " + detail;
  throw ProviderError(message);
}

DeviceBuffer::DeviceBuffer(const Provider& provider, size_t bytes)
    : provider_(&provider), size_(bytes) {
  CheckAcl(provider, provider.api().malloc(&data_, bytes, ACL_MEM_MALLOC_HUGE_FIRST),
           "aclrtMalloc(" + std::to_string(bytes) + ")");
}

DeviceBuffer::~DeviceBuffer() {
  if (data_) provider_->api().free(data_);
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : provider_(other.provider_),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  std::swap(provider_, other.provider_);
  std::swap(data_, other.data_);
  std::swap(size_, other.size_);
  return *this;
}

void DeviceBuffer::Upload(std::span<const std::byte> host) {
  CheckAcl(*provider_,
           provider_->api().memcpy(data_, size_, host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE),
           "aclrtMemcpy host to device");
}

std::vector<std::byte> DeviceBuffer::Download() const {
  std::vector<std::byte> host(size_);
  CheckAcl(*provider_,
           provider_->api().memcpy(host.data(), host.size(), data_, size_, ACL_MEMCPY_DEVICE_TO_HOST),
           "aclrtMemcpy device to host");
  return host;
}

void DeviceBuffer::UploadAt(size_t offset, std::span<const std::byte> host) {
  if (offset > size_ || host.size() > size_ - offset) {
    throw std::out_of_range("DeviceBuffer::UploadAt past the end of the buffer");
  }
  CheckAcl(*provider_,
           provider_->api().memcpy(static_cast<std::byte*>(data_) + offset, size_ - offset, host.data(),
                                   host.size(), ACL_MEMCPY_HOST_TO_DEVICE),
           "aclrtMemcpy host to device");
}

void DeviceBuffer::FillAt(size_t offset, size_t length, std::byte value) {
  if (offset > size_ || length > size_ - offset) {
    throw std::out_of_range("DeviceBuffer::FillAt past the end of the buffer");
  }
  const std::vector<std::byte> pattern(std::min(length, size_t{16} << 20), value);
  for (size_t done = 0; done < length; done += pattern.size()) {
    UploadAt(offset + done, std::span(pattern).first(std::min(pattern.size(), length - done)));
  }
}

void DeviceBuffer::DownloadInto(size_t offset, std::span<std::byte> host) const {
  if (offset > size_ || host.size() > size_ - offset) {
    throw std::out_of_range("DeviceBuffer::DownloadInto past the end of the buffer");
  }
  CheckAcl(*provider_,
           provider_->api().memcpy(host.data(), host.size(), static_cast<std::byte*>(data_) + offset,
                                   host.size(), ACL_MEMCPY_DEVICE_TO_HOST),
           "aclrtMemcpy device to host");
}

DeviceSession::DeviceSession(const Provider& provider) : DeviceSession(provider, 0, false) {}

DeviceSession::DeviceSession(const Provider& provider, int32_t device, bool own_context)
    : provider_(provider), device_(device) {
  const int init = provider.api().init(nullptr);
  if (init != ACL_SUCCESS && init != ACL_ERROR_REPEAT_INITIALIZE) CheckAcl(provider, init, "aclInit");
  const std::string which = "(" + std::to_string(device) + ")";
  CheckAcl(provider, provider.api().set_device(device), "aclrtSetDevice" + which);
  if (own_context) {
    const PatternApi& patterns = provider.patterns();
    if (!patterns.contexts()) throw ProviderError("the provider has no aclrtCreateContext/aclrtSetCurrentContext");
    CheckAcl(provider, patterns.create_context(&context_, device), "aclrtCreateContext" + which);
    CheckAcl(provider, patterns.set_current_context(context_), "aclrtSetCurrentContext");
  }
  CheckAcl(provider, provider.api().create_stream(&stream_), "aclrtCreateStream");
}

DeviceSession::~DeviceSession() {
  if (stream_) provider_.api().destroy_stream(stream_);
  if (context_) provider_.patterns().destroy_context(context_);
  provider_.api().reset_device(device_);
}

void DeviceSession::Synchronize() const {
  CheckAcl(provider_, provider_.api().synchronize_stream(stream_), "aclrtSynchronizeStream");
}

ProviderHandle<aclTensor> DeviceSession::CreateTensor(const TensorView& view, void* data,
                                                      int64_t storage_elements) const {
  // The storage shape is the flat extent of the buffer in elements, as a real framework passes
  // for a strided view into a larger allocation.
  aclTensor* tensor = provider_.api().create_tensor(
      view.shape.data(), view.shape.size(), ToAclDataType(view.dtype), view.strides.data(),
      view.offset, ACL_FORMAT_ND, &storage_elements, 1, data);
  if (!tensor) CheckAcl(provider_, -1, "aclCreateTensor " + FormatDims(view.shape));
  return {tensor, provider_.api().destroy_tensor};
}

ProviderHandle<aclIntArray> DeviceSession::CreateIntArray(std::span<const int64_t> values) const {
  aclIntArray* array = provider_.api().create_int_array(values.data(), values.size());
  if (!array) CheckAcl(provider_, -1, "aclCreateIntArray");
  return {array, provider_.api().destroy_int_array};
}

ProviderHandle<aclBoolArray> DeviceSession::CreateBoolArray(const std::vector<bool>& values) const {
  const std::unique_ptr<bool[]> flat(new bool[values.size() + 1]);
  for (size_t i = 0; i < values.size(); ++i) flat[i] = values[i];
  aclBoolArray* array = provider_.api().create_bool_array(flat.get(), values.size());
  if (!array) CheckAcl(provider_, -1, "aclCreateBoolArray");
  return {array, provider_.api().destroy_bool_array};
}

}  // namespace aclnn_check
