// The .npy header (numpy.lib.format, versions 1.0 and 2.0) byte for byte, against the format's
// description: magic "\x93NUMPY", major and minor version, the header length little-endian, a dict
// literal padded with spaces to a 64-byte boundary and ended by '\n'.
#include <gtest/gtest.h>

#include <cstring>

#include "core/tensor_view.h"
#include "results/npy_file.h"

namespace aclnn_check {
namespace {

TEST(NpyFile, HeaderOfATwoDimensionalFloat32Array) {
  const Dims shape = {2, 3};
  const std::string header = NpyHeader("<f4", shape);
  // 10 bytes of prefix + 59 of dict + '\n' pass 64, so spaces pad to 128: a length of 118 (0x76),
  // as numpy.save writes for the same array.
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  // Appended piece by piece: GCC 12 at -O2 warns (-Warray-bounds, a false positive) on the same
  // string built with operator+ once GoogleTest's header comes precompiled.
  std::string expected("\x93NUMPY\x01\x00", 8);
  expected.append("\x76\x00", 2);
  expected += dict;
  expected += std::string(128 - 10 - dict.size() - 1, ' ') + "\n";
  EXPECT_EQ(header, expected);
  EXPECT_EQ(header.size(), 128u);
}

TEST(NpyFile, OneDimensionalShapeIsATupleOfOneAndScalarsAreEmpty) {
  const Dims vector = {7};
  EXPECT_NE(NpyHeader("<f2", vector).find("'shape': (7,), }"), std::string::npos);
  const Dims scalar = {};
  EXPECT_NE(NpyHeader("<f8", scalar).find("'shape': (), }"), std::string::npos);
  const Dims empty = {3, 0};
  EXPECT_NE(NpyHeader("<u2", empty).find("'shape': (3, 0), }"), std::string::npos);
}

TEST(NpyFile, EveryHeaderEndsOnA64ByteBoundaryWithANewline) {
  for (size_t rank = 0; rank <= 16; ++rank) {
    const Dims shape(rank, 123456789);
    const std::string header = NpyHeader("<f4", shape);
    EXPECT_EQ(header.size() % 64, 0u) << rank;
    EXPECT_EQ(header.back(), '\n');
    const size_t length = static_cast<uint8_t>(header[8]) | static_cast<uint8_t>(header[9]) << 8;
    EXPECT_EQ(length, header.size() - 10);
  }
}

TEST(NpyFile, AHeaderOverVersion1sLimitIsVersion2WithAFourByteLength) {
  const Dims shape(22000, 1);  // "1, " 22000 times: more than 65535 bytes of dict
  const std::string header = NpyHeader("<f4", shape);
  EXPECT_EQ(header.substr(0, 8), std::string("\x93NUMPY\x02\x00", 8));
  const size_t length = static_cast<uint8_t>(header[8]) | static_cast<uint8_t>(header[9]) << 8 |
                        static_cast<size_t>(static_cast<uint8_t>(header[10])) << 16 |
                        static_cast<size_t>(static_cast<uint8_t>(header[11])) << 24;
  EXPECT_EQ(length, header.size() - 12);
  EXPECT_EQ(header.size() % 64, 0u);
}

TEST(NpyFile, DescriptorsFollowTheArrayProtocol) {
  EXPECT_EQ(NpyDescr(DType::kFloat16), "<f2");
  EXPECT_EQ(NpyDescr(DType::kFloat32), "<f4");
  EXPECT_EQ(NpyDescr(DType::kFloat64), "<f8");
  EXPECT_EQ(NpyDescr(DType::kBFloat16), "<u2");  // no NumPy bfloat16: raw bits
  EXPECT_EQ(NpyDescr(DType::kInt64), "<i8");
  EXPECT_EQ(NpyDescr(DType::kBool), "|b1");
}

TEST(NpyFile, DataFollowsTheHeader) {
  const float values[2] = {1.5f, -2.0f};
  const Dims shape = {2};
  const std::string file = NpyFile("<f4", shape, std::as_bytes(std::span(values)));
  ASSERT_EQ(file.size(), 128u + 8u);  // a 1-d header is 57 bytes of dict: padded to 128 too
  float read[2];
  std::memcpy(read, file.data() + 128, sizeof read);
  EXPECT_EQ(read[0], 1.5f);
  EXPECT_EQ(read[1], -2.0f);
}

}  // namespace
}  // namespace aclnn_check
