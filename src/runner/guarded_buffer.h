// A device buffer with guard regions before and after its payload, filled with a pattern and
// checked after the call: a write past either end is caught and located (buffer name and offset)
// instead of silently corrupting a neighbour.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/host_tensor.h"
#include "device_access/device.h"

namespace aclnn_check {

class GuardedBuffer {
 public:
  static constexpr size_t kGuardBytes = 256;  // a multiple of 64: the payload stays aligned
  static constexpr std::byte kGuardPattern{0xCD};

  // Uploads [guard][payload][guard].
  GuardedBuffer(const Provider& provider, std::string name, std::span<const std::byte> payload);
  // A payload of `bytes` bytes each holding `fill` (by default the guard pattern: scratch such as
  // the workspace).
  GuardedBuffer(const Provider& provider, std::string name, size_t bytes,
                std::byte fill = kGuardPattern);
  // The host tensor's bytes, or its fill when it holds none (HostTensor::Filled).
  GuardedBuffer(const Provider& provider, std::string name, const HostTensor& initial);

  void* payload() const { return static_cast<std::byte*>(buffer_.data()) + kGuardBytes; }
  size_t payload_size() const { return payload_size_; }
  const std::string& name() const { return name_; }

  struct Contents {
    std::vector<std::byte> payload;
    // "<name>: 4 bytes written past the end, first at offset +0 after the buffer" or nullopt.
    std::optional<std::string> guard_violation;
  };
  Contents Download() const;
  std::optional<std::string> GuardViolation() const;
  // The first byte offset where the payload differs from the host tensor's initial bytes (its
  // bytes, or its fill when it holds none), or -1, downloaded in chunks into one small buffer: an
  // input's check then costs no copy of its size.
  int64_t FirstDifference(const HostTensor& expected) const;

 private:
  void UploadGuards();

  std::string name_;
  size_t payload_size_;
  DeviceBuffer buffer_;
};

}  // namespace aclnn_check
