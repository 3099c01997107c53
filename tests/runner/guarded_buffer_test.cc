// A scratch buffer (the workspace) holds the guard pattern throughout, however large: its
// pattern goes up a chunk at a time.
#include "runner/guarded_buffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>

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

}  // namespace
}  // namespace aclnn_check
