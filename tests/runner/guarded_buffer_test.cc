// A scratch buffer (the workspace) holds the guard pattern throughout, however large: its
// pattern goes up a chunk at a time. An output the host does not hold (HostTensor::Filled) goes
// up as its fill, and the buffer is compared against that fill.
#include "runner/guarded_buffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>

#include "core/host_tensor.h"
#include "device_access/device.h"
#include "device_access/provider.h"

namespace aclnn_check {
namespace {

TEST(GuardedBuffer, AScratchBufferOfManyChunksHoldsThePatternEverywhere) {
  const auto provider = Provider::Load("cpu");
  const DeviceSession session(*provider);
  const size_t bytes = (size_t{40} << 20) + 7;  // two whole chunks of 16 MiB and a part
  const GuardedBuffer scratch(*provider, "workspace", bytes);
  const GuardedBuffer::Contents contents = scratch.Download();
  ASSERT_EQ(contents.payload.size(), bytes);
  const auto other = std::find_if(contents.payload.begin(), contents.payload.end(),
                                  [](std::byte b) { return b != GuardedBuffer::kGuardPattern; });
  EXPECT_EQ(other, contents.payload.end())
      << "byte " << (other - contents.payload.begin()) << " is not the pattern";
  EXPECT_FALSE(contents.guard_violation.has_value()) << *contents.guard_violation;
  EXPECT_FALSE(scratch.GuardViolation().has_value());
}

TEST(GuardedBuffer, AnOutputTheHostDoesNotHoldGoesUpAndIsComparedAsItsFill) {
  const auto provider = Provider::Load("cpu");
  const DeviceSession session(*provider);
  constexpr std::byte kFill{0xA5};
  // 5 Mi + 3 float32 elements: more than one 1 MiB comparison chunk and a part.
  constexpr int64_t kElements = 5 * (int64_t{1} << 20) + 3;
  const HostTensor output = HostTensor::Filled(DType::kFloat32, {kElements}, {}, kFill);
  ASSERT_FALSE(output.held());
  ASSERT_TRUE(output.bytes().empty());
  ASSERT_EQ(output.byte_size(), static_cast<size_t>(kElements) * 4);

  GuardedBuffer buffer(*provider, "out", output);
  const GuardedBuffer::Contents contents = buffer.Download();
  ASSERT_EQ(contents.payload.size(), output.byte_size());
  const auto other = std::find_if(contents.payload.begin(), contents.payload.end(),
                                  [&](std::byte b) { return b != kFill; });
  EXPECT_EQ(other, contents.payload.end()) << "byte " << (other - contents.payload.begin());
  EXPECT_FALSE(buffer.GuardViolation().has_value());
  EXPECT_EQ(buffer.FirstDifference(output), -1);

  // One byte in the last partial chunk changes: found there, as it would be in a held copy.
  const size_t changed = output.byte_size() - 2;
  const std::byte other_byte{0x00};
  ASSERT_EQ(provider->api().memcpy(static_cast<std::byte*>(buffer.payload()) + changed, 1,
                                   &other_byte, 1, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  EXPECT_EQ(buffer.FirstDifference(output), static_cast<int64_t>(changed));
}

}  // namespace
}  // namespace aclnn_check
