#include "runner/guarded_buffer.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace aclnn_check {
namespace {

using Guard = std::array<std::byte, GuardedBuffer::kGuardBytes>;

Guard GuardFill() {
  Guard guard;
  guard.fill(GuardedBuffer::kGuardPattern);
  return guard;
}

}  // namespace

GuardedBuffer::GuardedBuffer(const Provider& provider, std::string name,
                             std::span<const std::byte> payload)
    : name_(std::move(name)),
      payload_size_(payload.size()),
      buffer_(provider, payload.size() + 2 * kGuardBytes) {
  // Three copies in place: a framed staging copy of a large payload cost a second pass over it.
  UploadGuards();
  buffer_.UploadAt(kGuardBytes, payload);
}

GuardedBuffer::GuardedBuffer(const Provider& provider, std::string name, size_t bytes,
                             std::byte fill)
    : name_(std::move(name)), payload_size_(bytes), buffer_(provider, bytes + 2 * kGuardBytes) {
  // The pattern goes up in chunks: a whole copy cost host memory of the buffer's size
  // (LayerNorm's workspace is 32 bytes per element of a row) and one thread to fault it in.
  UploadGuards();
  buffer_.FillAt(kGuardBytes, bytes, fill);
}

GuardedBuffer::GuardedBuffer(const Provider& provider, std::string name, const HostTensor& initial)
    : name_(std::move(name)),
      payload_size_(initial.byte_size()),
      buffer_(provider, initial.byte_size() + 2 * kGuardBytes) {
  UploadGuards();
  if (initial.held()) {
    buffer_.UploadAt(kGuardBytes, initial.bytes());
  } else {
    buffer_.FillAt(kGuardBytes, payload_size_, initial.fill_byte());
  }
}

void GuardedBuffer::UploadGuards() {
  const Guard guard = GuardFill();
  buffer_.UploadAt(0, guard);
  buffer_.UploadAt(kGuardBytes + payload_size_, guard);
}

std::optional<std::string> GuardedBuffer::GuardViolation() const {
  Guard before, after;
  buffer_.DownloadInto(0, before);
  buffer_.DownloadInto(kGuardBytes + payload_size_, after);
  int64_t first_before = -1, count_before = 0, first_after = -1, count_after = 0;
  for (size_t i = 0; i < kGuardBytes; ++i) {
    if (before[i] != kGuardPattern) {
      if (first_before < 0) first_before = static_cast<int64_t>(kGuardBytes - i);
      ++count_before;
    }
    if (after[i] != kGuardPattern) {
      if (first_after < 0) first_after = static_cast<int64_t>(i);
      ++count_after;
    }
  }
  if (count_before > 0) {
    return name_ + ": " + std::to_string(count_before) +
           " bytes written before the buffer, the farthest at offset -" + std::to_string(first_before);
  }
  if (count_after > 0) {
    return name_ + " (" + std::to_string(payload_size_) + " bytes): " + std::to_string(count_after) +
           " bytes written past the end, the first at offset +" + std::to_string(first_after) +
           " after it";
  }
  return std::nullopt;
}

GuardedBuffer::Contents GuardedBuffer::Download() const {
  Contents contents;
  contents.guard_violation = GuardViolation();
  contents.payload.resize(payload_size_);
  buffer_.DownloadInto(kGuardBytes, contents.payload);
  return contents;
}

int64_t GuardedBuffer::FirstDifference(const HostTensor& expected) const {
  constexpr size_t kChunk = size_t{1} << 20;
  const size_t compared = std::min(expected.byte_size(), payload_size_);
  std::vector<std::byte> chunk(std::min(kChunk, compared));
  for (size_t from = 0; from < compared; from += kChunk) {
    const std::span<std::byte> part(chunk.data(), std::min(kChunk, compared - from));
    buffer_.DownloadInto(kGuardBytes + from, part);
    const int64_t changed = expected.FirstDifferenceAt(from, part);
    if (changed >= 0) return changed;
  }
  return -1;
}

}  // namespace aclnn_check
