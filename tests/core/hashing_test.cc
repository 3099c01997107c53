#include "core/hashing.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace aclnn_check {
namespace {

// The first outputs of Vigna's splitmix64.c seeded with 0 (its state steps by the increment).
TEST(Hashing, SplitMix64MatchesTheReferenceSequence) {
  uint64_t state = 0;
  EXPECT_EQ(SplitMix64(state), 0xE220A8397B1DCDAFull);
  state += kSplitMix64Increment;
  EXPECT_EQ(SplitMix64(state), 0x6E789E6AA1B965F4ull);
  state += kSplitMix64Increment;
  EXPECT_EQ(SplitMix64(state), 0x06C45D188009454Full);
}

// Test vectors of the FNV reference (Fowler, Noll, Vo: 64-bit FNV-1a).
TEST(Hashing, Fnv1aMatchesTheReferenceVectors) {
  EXPECT_EQ(Fnv1a(""), 0xCBF29CE484222325ull);
  EXPECT_EQ(Fnv1a("a"), 0xAF63DC4C8601EC8Cull);
  EXPECT_EQ(Fnv1a("foobar"), 0x85944171F73967E8ull);
  EXPECT_EQ(Fnv1a("bar", Fnv1a("foo")), Fnv1a("foobar"));  // continuing a hash
}

}  // namespace
}  // namespace aclnn_check
