// A reference output's alternative values: +0 wherever nothing else was written, pages only
// where something was, and the same values from one thread or many.
#include "catalogue/sparse_values.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <thread>
#include <vector>

namespace aclnn_check {
namespace {

constexpr size_t kPage = SparseValues::kPageElements;

TEST(SparseValues, ReadsWhatWasWrittenAndPlusZeroElsewhere) {
  SparseValues values;
  values.Reset(3 * kPage + 5);
  EXPECT_EQ(values.size(), 3 * kPage + 5);
  values.Set(7, 2.5);
  values.Set(3 * kPage + 4, std::nan(""));
  values.Set(kPage + 1, -0.0);  // not +0: it must be kept
  values.Set(2 * kPage, 0.0);   // +0 into an absent page leaves it absent
  EXPECT_EQ(values[7], 2.5);
  EXPECT_TRUE(std::isnan(values[3 * kPage + 4]));
  EXPECT_EQ(std::bit_cast<uint64_t>(values[kPage + 1]), std::bit_cast<uint64_t>(-0.0));
  for (size_t i : {size_t{0}, size_t{8}, kPage, 2 * kPage, 3 * kPage}) {
    EXPECT_EQ(std::bit_cast<uint64_t>(values[i]), 0u) << i;
  }
  const SparseValues copy = values;
  EXPECT_EQ(copy[7], 2.5);
  values.Set(7, 1.0);
  EXPECT_EQ(copy[7], 2.5);  // a deep copy
  values.Reset(10);
  EXPECT_EQ(values[7], 0.0);
}

TEST(SparseValues, ThreadsWritingNeighboursInOnePageKeepEveryValue) {
  // Each thread writes every fourth element of the same absent pages: whichever installs a page
  // first, no write may be lost.
  for (int round = 0; round < 20; ++round) {
    SparseValues values;
    values.Reset(2 * kPage);
    std::vector<std::thread> threads;
    for (size_t t = 0; t < 4; ++t) {
      threads.emplace_back([&values, t] {
        for (size_t i = t; i < 2 * kPage; i += 4) values.Set(i, static_cast<double>(i) + 1);
      });
    }
    for (std::thread& thread : threads) thread.join();
    size_t wrong = 0;
    for (size_t i = 0; i < 2 * kPage; ++i) wrong += values[i] != static_cast<double>(i) + 1;
    ASSERT_EQ(wrong, 0u) << "round " << round;
  }
}

}  // namespace
}  // namespace aclnn_check
