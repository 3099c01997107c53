// The golden reader on good, truncated and corrupted files: every damaged file ends in an
// InputError that names the file, never in another exception or a crash.
#include <gtest/gtest.h>

#include <filesystem>

#include "golden/golden_file.h"
#include "support/temp_dir.h"
#include "support/source_files.h"

namespace aclnn_check {
namespace {

using testing::TempDir;

// A one-point golden file (the fuzzer's seed), small enough to damage at thousands of places.
const std::filesystem::path kTinyGolden =
    testing::kSourceDir / "fuzz/corpus/golden/hardswish_float32_3x5x7.h5";

GoldenPoint SmallHardswishPoint() {
  GoldenPoint point;
  point.id = "tiny/dtype=float32/shape=2x3/layout=contiguous";
  point.op = FindOperator("HardswishBackward");
  point.case_path = "cases/tiny.json";
  point.dtype = DType::kFloat32;
  point.plan.tensors = {TensorPlan{DType::kFloat32, {2, 3}}, TensorPlan{DType::kFloat32, {2, 3}},
                        TensorPlan{DType::kFloat32, {2, 3}}};
  point.inputs["gradOutput"] = {1, 2, 3, 4, 5, 6};
  point.inputs["self"] = {-4, -3, 0, 3, 4, std::nan("")};
  point.device["out"] = {0, -1, 1.5, 6, 5, std::nan("")};
  return point;
}

TEST(GoldenFile, WrittenPointsReadBackExactly) {
  TempDir dir;
  const std::string path = (dir.path() / "tiny.h5").string();
  GoldenFile file;
  file.attributes = {{"kind", "recorded"}, {"soc", "Ascend910B3"}};
  file.points = {SmallHardswishPoint()};
  WriteGoldenFile(path, file);

  const GoldenFile read = ReadGoldenFile(path);
  ASSERT_EQ(read.points.size(), 1u);
  EXPECT_EQ(read.attributes.at("soc"), "Ascend910B3");
  const GoldenPoint& point = read.points[0];
  EXPECT_EQ(point.id, "tiny/dtype=float32/shape=2x3/layout=contiguous");
  EXPECT_EQ(point.op->name(), "HardswishBackward");
  ASSERT_TRUE(point.plan.tensors[2]);
  EXPECT_EQ(point.plan.tensors[2]->shape, (Dims{2, 3}));
  EXPECT_EQ(point.inputs.at("self")[1], -3);
  EXPECT_TRUE(std::isnan(point.inputs.at("self")[5]));
  EXPECT_EQ(point.device.at("out")[3], 6);
}

TEST(GoldenFile, MissingFileAndNonHdf5FileAreInputErrors) {
  TempDir dir;
  const std::filesystem::path text = dir.Write("not.h5", "just text, no HDF5 signature\n");
  try {
    ReadGoldenFile(text.string());
    FAIL() << "a text file was read as golden data";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), text.string());
    EXPECT_NE(error.message().find("HDF5"), std::string::npos) << error.what();
  }
  EXPECT_THROW(ReadGoldenFile((dir.path() / "missing.h5").string()), InputError);
}

TEST(GoldenFile, AnHdf5FileThatIsNotGoldenDataSaysWhatIsMissing) {
  TempDir dir;
  const std::string no_format = (dir.path() / "no_format.h5").string();
  Hdf5File::Create(no_format).Root().CreateGroup("something");
  try {
    ReadGoldenFile(no_format);
    FAIL() << "a file without the format attribute was accepted";
  } catch (const InputError& error) {
    EXPECT_EQ(error.pointer(), "/");
    EXPECT_NE(error.message().find("format"), std::string::npos) << error.what();
  }

  const std::string no_tensors = (dir.path() / "no_tensors.h5").string();
  {
    const Hdf5File file = Hdf5File::Create(no_tensors);
    file.Root().WriteStringAttribute("format", kGoldenFormat);
    const Hdf5Group point = file.Root().CreateGroup("points").CreateGroup("p");
    point.WriteStringAttribute("id", "p");
    point.WriteStringAttribute("op", "LogitGrad");
    point.WriteStringAttribute("dtype", "float32");
  }
  try {
    ReadGoldenFile(no_tensors);
    FAIL() << "a point without its tensors attribute was accepted";
  } catch (const InputError& error) {
    EXPECT_EQ(error.pointer(), "/points/p");
    EXPECT_NE(error.message().find("tensors"), std::string::npos) << error.what();
  }
}

TEST(GoldenFile, ADatasetOfTheWrongSizeNamesTheDataset) {
  TempDir dir;
  const std::string path = (dir.path() / "short.h5").string();
  {
    const Hdf5File file = Hdf5File::Create(path);
    file.Root().WriteStringAttribute("format", kGoldenFormat);
    const Hdf5Group point = file.Root().CreateGroup("points").CreateGroup("p");
    point.WriteStringAttribute("id", "p");
    point.WriteStringAttribute("op", "LogitGrad");
    point.WriteStringAttribute("dtype", "float32");
    point.WriteStringAttribute("params", R"({"eps": "nan"})");
    point.WriteStringAttribute(
        "tensors", R"({"x": {"dtype": "float32", "shape": [2, 3]}, "dy": {"dtype": "float32", "shape": [2, 3]},
                      "out": {"dtype": "float32", "shape": [2, 3]}})");
    point.CreateGroup("inputs").WriteDataset("x", {5}, {1, 2, 3, 4, 5});
  }
  try {
    ReadGoldenFile(path);
    FAIL() << "a dataset of the wrong size was accepted";
  } catch (const InputError& error) {
    EXPECT_EQ(error.pointer(), "/points/p/inputs/x");
    EXPECT_NE(error.message().find("6 elements"), std::string::npos) << error.what();
  }
}

TEST(GoldenFile, EveryTruncationOfAGoldenFileIsAnInputError) {
  const std::string bytes = testing::ReadFile(kTinyGolden);
  ASSERT_GT(bytes.size(), 1000u);
  ASSERT_EQ(ReadGoldenImage(bytes, "whole.h5").points.size(), 1u);
  int errors = 0;
  for (size_t length = 0; length < bytes.size(); length += std::max<size_t>(1, bytes.size() / 97)) {
    try {
      ReadGoldenImage(std::string_view(bytes).substr(0, length), "truncated.h5");
    } catch (const InputError& error) {
      EXPECT_EQ(error.file(), "truncated.h5");
      ++errors;
    }
  }
  // Every cut loses the end of the file, where HDF5 keeps its last data and its end-of-file mark.
  EXPECT_GE(errors, 97);
}

TEST(GoldenFile, FlippedBytesAreReadOrRejectedWithAnInputError) {
  const std::string bytes = testing::ReadFile(kTinyGolden);
  ASSERT_GT(bytes.size(), 1000u);
  int rejected = 0, tried = 0;
  for (size_t at = 0; at < bytes.size(); at += 7) {
    std::string damaged = bytes;
    damaged[at] = static_cast<char>(~damaged[at]);
    ++tried;
    try {
      ReadGoldenImage(damaged, "flipped.h5");
    } catch (const InputError& error) {
      EXPECT_EQ(error.file(), "flipped.h5");
      ++rejected;
    }  // any other exception fails the test
  }
  // Flips in headers, chunk indices and compressed data are caught; flips in padding are not.
  EXPECT_GT(rejected, 0);
  RecordProperty("rejected", rejected);
  RecordProperty("tried", tried);
}

}  // namespace
}  // namespace aclnn_check
