// ForEachBlockOfTwo hands each block of [0, numel) to one call, with both views' elements of that
// block in logical order, whatever the views' layouts.
#include <gtest/gtest.h>

#include <mutex>
#include <vector>

#include "catalogue/input_blocks.h"
#include "core/parallel_blocks.h"

namespace aclnn_check {
namespace {

TEST(ForEachBlockOfTwo, EveryElementOnceWithBothViewsInLogicalOrder) {
  SetHarnessThreadCount(3);
  // First: contiguous, element k holds k. Second: a [rows, cols] view of a column-major buffer,
  // so logical element (r, c) = k sits at c * rows + r; the buffer holds -(storage index).
  const int64_t rows = 3, cols = kHarnessBlock + 7, numel = rows * cols;
  std::vector<double> first_buffer(static_cast<size_t>(numel));
  std::vector<double> second_buffer(static_cast<size_t>(numel));
  for (int64_t k = 0; k < numel; ++k) {
    first_buffer[static_cast<size_t>(k)] = static_cast<double>(k);
    second_buffer[static_cast<size_t>(k)] = -static_cast<double>(k);
  }
  const TensorView first{DType::kFloat64, {rows, cols}, {cols, 1}, 0, first_buffer.data()};
  const TensorView second{DType::kFloat64, {rows, cols}, {1, rows}, 0, second_buffer.data()};

  std::mutex mutex;
  std::vector<int> seen(static_cast<size_t>(numel));
  int64_t wrong_first = 0, wrong_second = 0;
  ForEachBlockOfTwo(first, second, [&](int64_t begin, int64_t end, auto a, auto b) {
    std::lock_guard lock(mutex);
    ASSERT_EQ(a.size(), static_cast<size_t>(end - begin));
    ASSERT_EQ(b.size(), a.size());
    for (int64_t k = begin; k < end; ++k) {
      ++seen[static_cast<size_t>(k)];
      const int64_t storage = (k % cols) * rows + k / cols;
      if (a[static_cast<size_t>(k - begin)] != static_cast<double>(k)) ++wrong_first;
      if (b[static_cast<size_t>(k - begin)] != -static_cast<double>(storage)) ++wrong_second;
    }
  });
  SetHarnessThreadCount(HarnessThreadCountFromEnvironment());
  EXPECT_EQ(wrong_first, 0);
  EXPECT_EQ(wrong_second, 0);
  for (int64_t k = 0; k < numel; ++k) ASSERT_EQ(seen[static_cast<size_t>(k)], 1) << k;
}

}  // namespace
}  // namespace aclnn_check
