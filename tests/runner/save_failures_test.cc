// --save-failures (issue 27 item 5): a run on the provider whose factor at self = 3 is 1 instead of
// 1.5 (tests/faulty_provider, kWrongBoundary) saves each failing point's inputs, device outputs,
// reference and errors; the files say what that fault did, element by element. A size limit that
// nothing fits leaves a manifest and says why. tests/runner/read_failure_data.py reads the
// same files with numpy.
#include <gtest/gtest.h>

#include <cstring>
#include <regex>

#include <nlohmann/json.hpp>

#include "core/dtype.h"
#include "device_access/loader.h"
#include "cli/run_command.h"
#include "support/source_files.h"
#include "support/temp_dir.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

const char* kCase = R"({
  "name": "saved", "op": "HardswishBackward",
  "axes": {"dtype": ["float32", "float16", "bfloat16"], "shape": [[40], [4, 5]]},
  "inputs": {"gradOutput": {"dist": "normal", "mean": 0, "std": 2},
             "self": {"dist": "uniform", "low": -5, "high": 5, "specials": ["3", "-3"]}},
  "layout": ["contiguous", "strided:2"],
  "seed": 3})";

// A .npy file read as the format describes it (version 1.0 only: what these small arrays get).
struct Npy {
  std::string descr;
  std::string shape;  // as written, e.g. "4, 5"
  std::string data;
};

Npy ReadNpy(const std::filesystem::path& path) {
  const std::string file = testing::ReadFile(path);
  Npy npy;
  if (file.size() < 10 || file.compare(0, 8, std::string("\x93NUMPY\x01\x00", 8)) != 0) {
    ADD_FAILURE() << path << " is not a version 1.0 .npy file";
    return npy;
  }
  const size_t length = static_cast<uint8_t>(file[8]) | static_cast<uint8_t>(file[9]) << 8;
  const std::string header = file.substr(10, length);
  std::smatch match;
  EXPECT_TRUE(std::regex_search(header, match, std::regex(R"(\{'descr': '([<|][a-z][0-9])', 'fortran_order': False, 'shape': \(([0-9, ]*)\), \} *\n$)")))
      << path << ": " << header;
  if (match.size() == 3) {
    npy.descr = match[1];
    npy.shape = match[2];
  }
  npy.data = file.substr(10 + length);
  return npy;
}

// Element i of a 16- or 32-bit float array, decoded.
double Element(const Npy& npy, size_t i) {
  if (npy.descr == "<f4") {
    float value;
    std::memcpy(&value, npy.data.data() + 4 * i, 4);
    return value;
  }
  if (npy.descr == "<f8") {
    double value;
    std::memcpy(&value, npy.data.data() + 8 * i, 8);
    return value;
  }
  uint16_t bits;
  std::memcpy(&bits, npy.data.data() + 2 * i, 2);
  return npy.descr == "<f2" ? DecodeHalf(bits) : DecodeBFloat16(bits);
}

struct Outcome {
  int exit_code = -1;
  json report;
};

Outcome RunSaving(const testing::TempDir& dir, uint64_t limit_bytes) {
  dir.Write("cases/saved.json", kCase);
  RunOptions options;
  options.cases = {(dir.path() / "cases").string()};
  options.provider = BundledProviderDir() + "/libaclnn_faulty_wrongboundary.so";
  options.report_dir = (dir.path() / "report").string();
  options.save_failures = (dir.path() / "failures").string();
  options.save_failures_max_bytes = limit_bytes;
  options.jobs = 2;
  Outcome outcome;
  outcome.exit_code = aclnn_check::Run(options);
  outcome.report = json::parse(testing::ReadFile(dir.path() / "report/report.json"));
  return outcome;
}

TEST(SaveFailures, EachFailingPointsFilesShowTheFault) {
  testing::TempDir dir;
  const Outcome outcome = RunSaving(dir, uint64_t{64} << 20);
  ASSERT_EQ(outcome.exit_code, 1);
  int saved = 0;
  for (const json& point : outcome.report.at("test_points")) {
    if (point.at("verdict") == "passed") {
      EXPECT_FALSE(point.contains("failure_data")) << point.at("id");
      continue;
    }
    ASSERT_TRUE(point.contains("failure_data")) << point.at("id");
    ASSERT_FALSE(point.at("failure_data").contains("not_saved")) << point.at("failure_data");
    const std::filesystem::path folder = point.at("failure_data").at("path").get<std::string>();
    const json manifest = json::parse(testing::ReadFile(folder / "manifest.json"));
    EXPECT_EQ(manifest.at("id"), point.at("id"));
    EXPECT_EQ(manifest.at("repro"), point.at("repro"));
    EXPECT_EQ(manifest.at("failures"), point.at("failures"));
    const std::string dtype = point.at("dtype").get<std::string>();
    const json& out = manifest.at("outputs").at("out");
    EXPECT_EQ(out.at("dtype"), dtype);

    // The inputs and the device's output in their dtype's encoding; bfloat16 as raw bits with a
    // float32 copy beside it.
    const char* descr = dtype == "float32" ? "<f4" : dtype == "float16" ? "<f2" : "<u2";
    const Npy self = ReadNpy(folder / manifest.at("inputs").at("self").at("file").get<std::string>());
    const Npy grad = ReadNpy(folder / manifest.at("inputs").at("gradOutput").at("file").get<std::string>());
    const Npy device = ReadNpy(folder / out.at("file").get<std::string>());
    const Npy reference = ReadNpy(folder / out.at("reference_file").get<std::string>());
    const Npy error = ReadNpy(folder / out.at("error_file").get<std::string>());
    for (const Npy* npy : {&self, &grad, &device}) EXPECT_EQ(npy->descr, descr);
    EXPECT_EQ(reference.descr, "<f8");
    EXPECT_EQ(error.descr, "<f8");
    const std::string shape = point.at("axes").at("shape").size() == 1 ? "40," : "4, 5";
    EXPECT_EQ(self.shape, shape);
    EXPECT_EQ(device.shape, shape);
    if (dtype == "bfloat16") {
      const Npy decoded = ReadNpy(folder / manifest.at("inputs").at("self").at("float32_file").get<std::string>());
      EXPECT_EQ(decoded.descr, "<f4");
      for (size_t i = 0; i < 20; ++i) EXPECT_EQ(Element(decoded, i), Element(self, i));
    }
    // Where self is exactly 3 the fault multiplies by 1, the reference by 1.5; elsewhere (|self|
    // not 3) the two agree within the bound. The error is device - reference.
    int at_three = 0;
    for (size_t i = 0; i < 20; ++i) {
      EXPECT_EQ(Element(error, i), Element(device, i) - Element(reference, i)) << i;
      if (Element(self, i) != 3.0) continue;
      ++at_three;
      EXPECT_EQ(Element(device, i), Element(grad, i)) << i;
      EXPECT_EQ(Element(reference, i), Element(grad, i) * 1.5) << i;
    }
    EXPECT_GE(at_three, 1) << point.at("id");
    ++saved;
  }
  // Every dtype, shape and layout has self = 3 among its elements.
  EXPECT_EQ(saved, 12);
}

TEST(SaveFailures, APointOverTheLimitGetsOnlyItsManifestAndSaysWhy) {
  testing::TempDir dir;
  const Outcome outcome = RunSaving(dir, 100);  // bytes: no point's arrays fit
  ASSERT_EQ(outcome.exit_code, 1);
  int refused = 0;
  for (const json& point : outcome.report.at("test_points")) {
    if (point.at("verdict") == "passed") continue;
    const json& data = point.at("failure_data");
    ASSERT_TRUE(data.contains("not_saved")) << data;
    EXPECT_NE(data.at("not_saved").get<std::string>().find("--save-failures-max-mb"), std::string::npos);
    const std::filesystem::path folder = data.at("path").get<std::string>();
    EXPECT_TRUE(std::filesystem::exists(folder / "manifest.json"));
    EXPECT_FALSE(std::filesystem::exists(folder / "device.out.npy"));
    ++refused;
  }
  EXPECT_EQ(refused, 12);
}

}  // namespace
}  // namespace aclnn_check
