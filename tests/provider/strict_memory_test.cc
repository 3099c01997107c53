// Strict device memory (ACLNN_CPU_STRICT_MEMORY=1, providers/runtime/host_memory.h): a host
// dereference of a device address faults at once, while aclrtMemcpy, aclrtMemset and the kernels
// reach the same bytes. The mode is read once per process, so each case runs in a fresh child
// (a "threadsafe" death test re-executes this program).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <csignal>
#include <cstdlib>

#include "acl/acl_rt.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_hardswish_backward.h"
#include "support/emulated_provider.h"

namespace aclnn_check {
namespace {

// HardswishBackward on gradOutput {2, 4}, self {0, 0.75} through device memory; exits 0 when out
// is {1, 3}, 1 otherwise, so that a child process reports the whole program's outcome.
[[noreturn]] void RunSampleAndExit() {
  if (ACL(aclrtSetDevice)(0) != ACL_SUCCESS) std::_Exit(2);
  aclrtStream stream = nullptr;
  if (ACL(aclrtCreateStream)(&stream) != ACL_SUCCESS) std::_Exit(2);
  const float inputs[2][2] = {{2, 4}, {0, 0.75f}};
  void* device[3] = {};
  aclTensor* tensors[3] = {};
  const int64_t shape[1] = {2};
  for (int i = 0; i < 3; ++i) {
    if (ACL(aclrtMalloc)(&device[i], 8, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) std::_Exit(2);
    if (i < 2) ACL(aclrtMemcpy)(device[i], 8, inputs[i], 8, ACL_MEMCPY_HOST_TO_DEVICE);
    if (i == 2) ACL(aclrtMemset)(device[i], 8, 0, 8);
    tensors[i] =
        ACL(aclCreateTensor)(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1, device[i]);
  }
  uint64_t workspace = 0;
  aclOpExecutor* executor = nullptr;
  if (ACL(aclnnHardswishBackwardGetWorkspaceSize)(tensors[0], tensors[1], tensors[2], &workspace,
                                                  &executor) != ACLNN_SUCCESS ||
      ACL(aclnnHardswishBackward)(nullptr, 0, executor, stream) != ACLNN_SUCCESS ||
      ACL(aclrtSynchronizeStream)(stream) != ACL_SUCCESS) {
    std::_Exit(2);
  }
  float out[2] = {};
  ACL(aclrtMemcpy)(out, 8, device[2], 8, ACL_MEMCPY_DEVICE_TO_HOST);
  std::_Exit(out[0] == 1.0f && out[1] == 3.0f ? 0 : 1);
}

[[noreturn]] void DereferenceDevicePointerAndExit() {
  void* device = nullptr;
  if (ACL(aclrtMalloc)(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) std::_Exit(2);
  volatile float* host_view = static_cast<float*>(device);
  host_view[0] = 1.0f;  // a host write through a device address
  std::_Exit(0);
}

class StrictDeviceMemory : public ::testing::Test {
 protected:
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    setenv("ACLNN_CPU_STRICT_MEMORY", "1", 1);
  }
  void TearDown() override { unsetenv("ACLNN_CPU_STRICT_MEMORY"); }
};

// Killed by SIGSEGV; under AddressSanitizer, which reports the fault and exits with 1 instead,
// any exit but the program's own (0, or 2 for a failed set-up call).
bool FaultedOnTheHostWrite(int status) {
  if (WIFSIGNALED(status)) return WTERMSIG(status) == SIGSEGV;
  return WIFEXITED(status) && WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 2;
}

TEST_F(StrictDeviceMemory, AHostDereferenceOfADevicePointerFaults) {
  EXPECT_EXIT(DereferenceDevicePointerAndExit(), FaultedOnTheHostWrite, "");
}

TEST_F(StrictDeviceMemory, CopiesAndKernelsReachTheSameBytes) {
  EXPECT_EXIT(RunSampleAndExit(), ::testing::ExitedWithCode(0), "");
}

// Without the variable a device address is host memory, as before: the same write is harmless.
TEST(LenientDeviceMemory, AHostDereferenceOfADevicePointerWorks) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  unsetenv("ACLNN_CPU_STRICT_MEMORY");
  EXPECT_EXIT(DereferenceDevicePointerAndExit(), ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace aclnn_check
