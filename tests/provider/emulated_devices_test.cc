// Several emulated devices (ACLNN_CPU_DEVICES) and contexts per thread. The count is read once
// per process, so the cases that set it run in a fresh child (a "threadsafe" death test).
#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>

#include "acl/acl_rt.h"
#include "support/emulated_provider.h"

namespace aclnn_check {
namespace {

// Exits 0 when the emulator has exactly three devices and each thread keeps its own.
[[noreturn]] void CheckThreeDevicesAndExit() {
  uint32_t count = 0;
  if (ACL(aclrtGetDeviceCount)(&count) != ACL_SUCCESS || count != 3) std::_Exit(1);
  if (ACL(aclrtSetDevice)(3) != ACL_ERROR_RT_INVALID_DEVICEID) std::_Exit(2);
  if (ACL(aclrtSetDevice)(2) != ACL_SUCCESS) std::_Exit(3);
  int32_t other_device = -1;
  std::thread other([&] {
    ACL(aclrtSetDevice)(1);
    ACL(aclrtGetDevice)(&other_device);
    ACL(aclrtResetDevice)(1);
  });
  other.join();
  int32_t device = -1;
  if (ACL(aclrtGetDevice)(&device) != ACL_SUCCESS || device != 2 || other_device != 1) {
    std::_Exit(4);
  }
  std::_Exit(ACL(aclrtResetDevice)(2) == ACL_SUCCESS ? 0 : 5);
}

[[noreturn]] void SetDeviceAndExit() { std::_Exit(ACL(aclrtSetDevice)(0) == ACL_SUCCESS ? 0 : 1); }

TEST(EmulatedDevices, TheCountComesFromTheEnvironmentAndEachThreadSetsItsOwn) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  setenv("ACLNN_CPU_DEVICES", "3", 1);
  EXPECT_EXIT(CheckThreeDevicesAndExit(), ::testing::ExitedWithCode(0), "");
  unsetenv("ACLNN_CPU_DEVICES");
}

TEST(EmulatedDevices, ACountThatIsNotANumberLeavesNoDevice) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  setenv("ACLNN_CPU_DEVICES", "eight", 1);
  EXPECT_EXIT(SetDeviceAndExit(), ::testing::ExitedWithCode(1), "");
  unsetenv("ACLNN_CPU_DEVICES");
}

// A context is current per thread: a context made current on one thread is not on another.
TEST(EmulatedDevices, ACurrentContextBelongsToOneThread) {
  aclrtContext created = nullptr;
  ASSERT_EQ(ACL(aclrtCreateContext)(&created, 0), ACL_SUCCESS);
  aclrtContext seen_there = nullptr;
  aclError there = ACL_SUCCESS;
  std::thread other([&] { there = ACL(aclrtGetCurrentContext)(&seen_there); });
  other.join();
  EXPECT_EQ(there, ACL_ERROR_RT_CONTEXT_NULL);
  aclrtContext here = nullptr;
  EXPECT_EQ(ACL(aclrtGetCurrentContext)(&here), ACL_SUCCESS);
  EXPECT_EQ(here, created);
  EXPECT_EQ(ACL(aclrtDestroyContext)(created), ACL_SUCCESS);
}

}  // namespace
}  // namespace aclnn_check
