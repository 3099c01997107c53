// The probe that asks an isolated run's provider for its SoC gets the run's timeout: a provider
// that hangs while loading fails the run with a message instead of holding it forever.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "device_access/loader.h"
#include "runner/isolation.h"

namespace aclnn_check {
namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(ProviderProbe, AProviderThatHangsWhileLoadingGetsTheTimeout) {
  const auto start = std::chrono::steady_clock::now();
  const ProviderProbe probe =
      ProbeProvider(BundledProviderDir() + "/libaclnn_hang_on_load.so", 1.5);
  EXPECT_NE(probe.error.find("did not finish within 1.5"), std::string::npos) << probe.error;
  EXPECT_FALSE(probe.soc);
  EXPECT_GE(SecondsSince(start), 1.5);
  EXPECT_LT(SecondsSince(start), 30);  // killed at the timeout, not left to the test's own limit
}

TEST(ProviderProbe, AHealthyProviderAnswersWithinTheTimeout) {
  const ProviderProbe probe = ProbeProvider("cpu", 60);
  EXPECT_EQ(probe.error, "");
  ASSERT_TRUE(probe.soc);
  EXPECT_FALSE(probe.soc->empty());
}

}  // namespace
}  // namespace aclnn_check
