// StorageBytesBound (src/core/layout.cc): a bound on a view's bytes that never overflows, nullopt
// exactly where int64 cannot count it.
#include "core/layout.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace aclnn_check {
namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

TEST(StorageBytesBound, CountsElementsTimesTheLayoutsFactorTimesTheElementSize) {
  const Layout contiguous{};
  EXPECT_EQ(StorageBytesBound(DType::kFloat32, {16, 32}, contiguous), 16 * 32 * 4);
  EXPECT_EQ(StorageBytesBound(DType::kFloat16, {0, 7}, contiguous), 7 * 2);  // a 0 dim counts 1
  EXPECT_EQ(StorageBytesBound(DType::kFloat32, {}, contiguous), 4);
  EXPECT_EQ(StorageBytesBound(DType::kFloat32, {16, 32}, *Layout::Parse("strided:3")),
            16 * 32 * 3 * 4);
  EXPECT_EQ(StorageBytesBound(DType::kBFloat16, {16, 32}, *Layout::Parse("offset:5")),
            (16 * 32 + 5) * 2);
  EXPECT_EQ(StorageBytesBound(DType::kFloat32, {16, 32}, *Layout::Parse("transposed")),
            16 * 32 * 4);
}

TEST(StorageBytesBound, IsNulloptWhereInt64CannotCountTheBytes) {
  const Layout contiguous{};
  // The fuzzer's shape: 32 * 1666666666666666666 elements overflow before the element size.
  EXPECT_FALSE(StorageBytesBound(DType::kFloat32, {1666666666666666666, 32}, contiguous));
  // The elements fit, their bytes do not.
  EXPECT_FALSE(StorageBytesBound(DType::kFloat32, {kInt64Max / 2}, contiguous));
  EXPECT_EQ(StorageBytesBound(DType::kUInt8, {kInt64Max}, contiguous), kInt64Max);
  // The layout's factor or offset is what overflows.
  EXPECT_FALSE(StorageBytesBound(DType::kUInt8, {kInt64Max / 2 + 1}, *Layout::Parse("strided:2")));
  EXPECT_FALSE(StorageBytesBound(DType::kUInt8, {kInt64Max}, *Layout::Parse("offset:1")));
}

}  // namespace
}  // namespace aclnn_check
