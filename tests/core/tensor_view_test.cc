#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "core/tensor_view.h"

namespace aclnn_check {
namespace {

TEST(TensorView, ContiguousStridesAndCounts) {
  EXPECT_EQ(ContiguousStrides(Dims{2, 3, 4}), (Dims{12, 4, 1}));
  EXPECT_EQ(NumElements(Dims{}), 1);
  EXPECT_EQ(NumElements(Dims{3, 0, 2}), 0);
  EXPECT_EQ(FormatDims(Dims{3, 65, 7}), "[3, 65, 7]");
}

TEST(TensorView, TransposedViewReadsInLogicalOrder) {
  // A 2x3 logical view of a 3x2 row-major buffer holding 0..5: element (i, j) is buffer[j*2+i].
  std::vector<float> buffer = {0, 1, 2, 3, 4, 5};
  TensorView view{DType::kFloat32, {2, 3}, {1, 2}, 0, buffer.data()};
  EXPECT_FALSE(view.is_contiguous());
  EXPECT_EQ(ReadAsDouble(view), (std::vector<double>{0, 2, 4, 1, 3, 5}));
  EXPECT_EQ(StorageIndices(view), (std::vector<int64_t>{0, 2, 4, 1, 3, 5}));
}

TEST(TensorView, ARangeOfAStridedViewStartsMidRowAndReadsInLogicalOrder) {
  // A [3, 4, 5] view with permuted strides and an offset: element (i, j, k) sits at
  // 7 + i * 3 + j * 45 + k * 9 of a buffer holding its own index.
  std::vector<float> buffer(200);
  for (size_t i = 0; i < buffer.size(); ++i) buffer[i] = static_cast<float>(i);
  const TensorView view{DType::kFloat32, {3, 4, 5}, {3, 45, 9}, 7, buffer.data()};
  const std::vector<std::pair<int64_t, int64_t>> ranges = {{0, 60}, {3, 4},   {7, 33},
                                                            {20, 60}, {59, 60}, {12, 12}};
  for (const auto& range : ranges) {
    // Named copies: clang before 16 does not let a lambda capture a structured binding.
    const int64_t begin = range.first, end = range.second;
    std::vector<double> block(static_cast<size_t>(end - begin));
    ReadAsDouble(view, begin, block);
    std::vector<int64_t> visited;
    ForEachElementIn(view, begin, end, [&](int64_t logical, int64_t storage) {
      visited.push_back(logical);
      const int64_t i = logical / 20, j = logical / 5 % 4, k = logical % 5;
      EXPECT_EQ(storage, 7 + i * 3 + j * 45 + k * 9) << logical;
      EXPECT_EQ(block[static_cast<size_t>(logical - begin)], static_cast<double>(storage))
          << logical;
    });
    ASSERT_EQ(static_cast<int64_t>(visited.size()), end - begin) << begin << ".." << end;
    for (size_t n = 0; n < visited.size(); ++n) {
      EXPECT_EQ(visited[n], begin + static_cast<int64_t>(n));
    }
  }
}

TEST(TensorView, OffsetAndStrideWriteOnlyTheirElements) {
  std::vector<float> buffer(9, -1.0f);
  TensorView view{DType::kFloat32, {3}, {2}, 3, buffer.data()};
  EXPECT_EQ(view.storage_elements(), 8);
  const std::vector<double> values = {10, 20, 30};
  WriteFromDouble(view, values);
  EXPECT_EQ(buffer, (std::vector<float>{-1, -1, -1, 10, -1, 20, -1, 30, -1}));
}

TEST(TensorView, WriteRoundsOnceToHalf) {
  std::vector<uint16_t> buffer(1);
  TensorView view{DType::kFloat16, {}, {}, 0, buffer.data()};
  const double value = 1.0 + 0x1p-11 + 0x1p-30;  // just above a tie
  WriteFromDouble(view, std::span<const double>(&value, 1));
  EXPECT_EQ(buffer[0], 0x3C01);
}

TEST(TensorView, ContiguousFloat32ReadsAsFloatFromItsOffsetWithSignallingNaNsQuietened) {
  // Bits: 1.5, a signalling NaN with payload 1, a quiet NaN with payload 5, -0, the largest
  // subnormal, -infinity; the view starts at the second.
  const std::vector<uint32_t> bits = {0x3FC00000, 0x7F800001, 0x7FC00005,
                                      0x80000000, 0x007FFFFF, 0xFF800000};
  const TensorView view{DType::kFloat32, {5}, {1}, 1, const_cast<uint32_t*>(bits.data())};
  ASSERT_TRUE(view.is_contiguous());
  const std::vector<float> values = ReadAsFloat(view);
  std::vector<uint32_t> read(values.size());
  std::memcpy(read.data(), values.data(), values.size() * sizeof(float));
  EXPECT_EQ(read, (std::vector<uint32_t>{0x7FC00001, 0x7FC00005, 0x80000000, 0x007FFFFF,
                                         0xFF800000}));
}

TEST(TensorView, EmptyViewTouchesNothing) {
  TensorView view{DType::kFloat32, {4, 0}, {0, 1}, 0, nullptr};
  EXPECT_EQ(view.storage_elements(), 0);
  EXPECT_TRUE(ReadAsDouble(view).empty());
  EXPECT_TRUE(ReadAsFloat(view).empty());
}

}  // namespace
}  // namespace aclnn_check
