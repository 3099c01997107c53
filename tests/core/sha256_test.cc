#include "core/sha256.h"

#include <gtest/gtest.h>

#include <string>

#include "support/temp_dir.h"

namespace aclnn_check {
namespace {

// FIPS 180-2 appendix B test vectors.
TEST(Sha256, KnownVectors) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// The same vectors read from files: the million-byte one spans several of the reader's buffers and
// ends in a partial one.
TEST(Sha256OfFile, KnownVectorsFromFiles) {
  testing::TempDir dir;
  EXPECT_EQ(Sha256OfFile(dir.Write("empty", "")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256OfFile(dir.Write("abc", "abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256OfFile(dir.Write("million", std::string(1000000, 'a'))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256OfFile, HashesEveryByteValueAsTheStringHashDoes) {
  testing::TempDir dir;
  std::string bytes;
  for (int i = 0; i < 70000; ++i) bytes.push_back(static_cast<char>((i * 7 + i / 256) & 0xFF));
  EXPECT_EQ(Sha256OfFile(dir.Write("binary", bytes)), Sha256Hex(bytes));
}

TEST(Sha256OfFile, UnreadableFileGivesAnEmptyDigest) {
  testing::TempDir dir;
  EXPECT_EQ(Sha256OfFile(dir.path() / "missing"), "");
}

}  // namespace
}  // namespace aclnn_check
