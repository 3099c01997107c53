// `aclnn-check hunt` end to end (docs/hunt.md): each narrow-band fault of
// tests/faulty_provider/hunt_faults.cc is found by the full moves within a fixed number of calls,
// random sampling of the same calls does not find it, and the case file the hunt writes fails
// under `run` exactly as the hunt said; a healthy provider's hunts end with no failure, and a
// provider that crashes on an input ends that call, not the hunt.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "device_access/loader.h"
#include "hunt/hunt_search.h"
#include "support/temp_dir.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

std::string HuntFault(const std::string& name) {
  return BundledProviderDir() + "/libaclnn_hunt_fault_" + name + ".so";
}

HuntOptions OptionsFor(const std::string& provider, const std::string& op,
                       const testing::TempDir& dir) {
  HuntOptions options;
  options.op = op;
  options.provider = provider;
  options.product = Product::kA2;
  options.repro_prefix =
      std::string(ACLNN_CHECK_CLI) + " run --provider '" + provider + "' --soc Ascend910B3";
  options.output = (dir.path() / "hunted.json").string();
  options.budget_seconds = 300;  // the calls bound these hunts; this only guards a hung test
  options.timeout_seconds = 30;
  return options;
}

// The written case file's verdict under `run` (its repro line; with another provider when one is
// named), as its exit status (0 passed, 1 failed).
int RunCaseFile(const HuntResult& hunt, const testing::TempDir& dir, const std::string& provider) {
  std::string repro = hunt.result.at("repro").get<std::string>();
  if (!provider.empty())
    repro = std::regex_replace(repro, std::regex("--provider '[^']*'"), "--provider " + provider);
  const int status = std::system(
      (repro + " --report-dir '" + (dir.path() / "run").string() + "' > /dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct PlantedFault {
  const char* library;
  const char* op;
  const char* dtype;
  std::vector<std::string> axes;
  int64_t calls;  // the budget of the table in docs/hunt.md
};
std::ostream& operator<<(std::ostream& out, const PlantedFault& fault) {
  return out << fault.library;
}

class HuntPlantedFault : public ::testing::TestWithParam<PlantedFault> {};

TEST_P(HuntPlantedFault, TheMovesFindItAndTheCaseFileReproducesIt) {
  const PlantedFault& fault = GetParam();
  testing::TempDir dir;
  HuntOptions options = OptionsFor(HuntFault(fault.library), fault.op, dir);
  options.dtype = fault.dtype;
  options.axes = fault.axes;
  options.max_calls = fault.calls;
  options.stop_at_failure = true;
  const HuntResult hunt = Hunt(options);
  ASSERT_TRUE(hunt.worst.failed) << "not found in " << fault.calls << " calls";
  EXPECT_TRUE(hunt.reproduced);
  EXPECT_EQ(hunt.result.at("verdict"), "failed");
  std::cout << "[ calls to find ] " << fault.library << ": " << hunt.first_failure_call << "\n";
  EXPECT_EQ(RunCaseFile(hunt, dir, ""), 1) << hunt.result.at("repro");
  // What fails is the planted fault: the ref provider, which the fault libraries compute like
  // outside their band, passes the same case file.
  EXPECT_EQ(RunCaseFile(hunt, dir, "ref"), 0);
}

TEST_P(HuntPlantedFault, RandomSamplingOfTheSameCallsDoesNot) {
  const PlantedFault& fault = GetParam();
  testing::TempDir dir;
  HuntOptions options = OptionsFor(HuntFault(fault.library), fault.op, dir);
  options.dtype = fault.dtype;
  options.axes = fault.axes;
  options.max_calls = fault.calls;
  options.moves = *ParseMoveSet("random");
  const HuntResult hunt = Hunt(options);
  EXPECT_FALSE(hunt.worst.failed) << "random sampling found it at call " << hunt.first_failure_call;
  EXPECT_EQ(hunt.calls, fault.calls);
  EXPECT_EQ(RunCaseFile(hunt, dir, ""), 0);
}

INSTANTIATE_TEST_SUITE_P(
    Faults, HuntPlantedFault,
    ::testing::Values(PlantedFault{"swi_glu_sigmoid_band", "SwiGluGrad", "float32", {}, 60},
                      PlantedFault{"logit_subnormal_flush", "LogitGrad", "float32", {}, 60},
                      PlantedFault{"nsa_half_accumulation", "NsaCompressGrad", "float16", {}, 600},
                      PlantedFault{
                          "layer_norm_cancelled_column", "LayerNormBackward", "float32", {}, 150}),
    [](const auto& info) { return std::string(info.param.library); });

// A healthy provider: every operator and dtype it supports on A2, a few calls each. The cpu
// provider once failed hunts of SwiGluGrad and LayerNormBackward (docs/hunt.md, "What the hunt
// found"); both kernels are fixed, so no operator is left out.
struct HealthyProvider {
  const char* provider;
  std::vector<std::string> known_findings;  // operators the provider is known to fail a hunt on
};
std::ostream& operator<<(std::ostream& out, const HealthyProvider& p) { return out << p.provider; }

class HuntHealthy : public ::testing::TestWithParam<HealthyProvider> {};

TEST_P(HuntHealthy, EveryOperatorAndDTypeEndsWithNoFailure) {
  const HealthyProvider& healthy = GetParam();
  for (const Operator& op : Catalogue()) {
    if (std::find(healthy.known_findings.begin(), healthy.known_findings.end(), op.name()) !=
        healthy.known_findings.end())
      continue;
    for (DType dtype : op.SupportedDTypes(Product::kA2)) {
      testing::TempDir dir;
      HuntOptions options = OptionsFor(healthy.provider, op.name(), dir);
      options.dtype = std::string(DTypeName(dtype));
      options.max_calls = 12;
      options.seed = 5;
      const HuntResult hunt = Hunt(options);
      EXPECT_FALSE(hunt.worst.failed)
          << op.name() << " " << DTypeName(dtype) << ": " << hunt.result.at("failures").dump(1);
      EXPECT_GT(hunt.candidates, 0);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Providers, HuntHealthy,
                         ::testing::Values(HealthyProvider{"ref", {}},
                                           HealthyProvider{"cpu", {}}),
                         [](const auto& info) { return std::string(info.param.provider); });

TEST(HuntIsolation, ACrashEndsTheCallNotTheHuntAndIsTheResult) {
  testing::TempDir dir;
  // HardswishBackward crashes on 21 elements (tests/faulty_provider/faulty_backend.cc).
  HuntOptions options =
      OptionsFor(BundledProviderDir() + "/libaclnn_faulty_crashsegv.so", "HardswishBackward", dir);
  options.dtype = "float32";
  options.shape = "[21]";
  options.max_calls = 3;
  const HuntResult hunt = Hunt(options);
  EXPECT_EQ(hunt.calls, 3);  // every call crashed; the hunt went on
  ASSERT_TRUE(hunt.worst.failed);
  EXPECT_NE(hunt.result.at("failures").at(0).at("message").get<std::string>().find("SIGSEGV"),
            std::string::npos)
      << hunt.result.dump(1);
}

TEST(HuntCommand, ShrinkTakesTheFailureItFound) {
  testing::TempDir dir;
  const std::string hunted = (dir.path() / "hunted.json").string();
  const std::string command =
      std::string(ACLNN_CHECK_CLI) +
      " hunt LogitGrad --dtype float32 --calls 20 --stop-at-failure --quiet --provider '" +
      HuntFault("logit_subnormal_flush") + "' --soc Ascend910B3 -o '" + hunted +
      "' --shrink --shrink-time-limit 10 > '" + (dir.path() / "out.txt").string() + "' 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);
  std::ifstream out(dir.path() / "out.txt");
  const std::string text((std::istreambuf_iterator<char>(out)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("shrunk to hunt_logit_grad/"), std::string::npos) << text;
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "hunted.shrunk.json")) << text;
}

TEST(HuntSearch, ASeedAndACallCountRepeatExactly) {
  testing::TempDir dir;
  HuntOptions options = OptionsFor("cpu", "LogitGrad", dir);
  options.dtype = "float16";
  options.max_calls = 8;
  options.seed = 42;
  const json first = Hunt(options).document;
  const json second = Hunt(options).document;
  EXPECT_EQ(first, second);
}

}  // namespace
}  // namespace aclnn_check
