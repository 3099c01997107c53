// The bundled providers' runtime against CANN's documented behaviour (hicann/runtime
// docs/zh/api_ref and src/acl/aclrt_impl): aclInit's count, device reference counts, contexts,
// streams, pinned host memory, aclrtMemset, data type sizes and float16 conversion. The calls go
// through the dlopen'd cpu provider, as a program linked against it would make them.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl_rt.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_hardswish_backward.h"
#include "support/emulated_provider.h"

namespace aclnn_check {
namespace {

TEST(EmulatedRuntime, AclInitCountsRepeatsAndFinalizeEndsThem) {
  ACL(aclFinalize)();  // whatever earlier tests left: finalized from here on
  EXPECT_EQ(ACL(aclFinalize)(), ACL_ERROR_REPEAT_FINALIZE);
  EXPECT_EQ(ACL(aclInit)(nullptr), ACL_SUCCESS);
  EXPECT_EQ(ACL(aclInit)(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(ACL(aclFinalize)(), ACL_SUCCESS);  // ends both
  EXPECT_EQ(ACL(aclFinalize)(), ACL_ERROR_REPEAT_FINALIZE);
  EXPECT_EQ(ACL(aclInit)(nullptr), ACL_SUCCESS);  // init after finalize starts again
  EXPECT_EQ(ACL(aclInit)(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
  uint64_t count = 99;
  EXPECT_EQ(ACL(aclFinalizeReference)(&count), ACL_SUCCESS);
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(ACL(aclFinalizeReference)(&count), ACL_SUCCESS);
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(ACL(aclFinalizeReference)(&count), ACL_ERROR_REPEAT_FINALIZE);
}

TEST(EmulatedRuntime, AclInitNeedsAReadableConfigurationFile) {
  ACL(aclFinalize)();
  EXPECT_EQ(ACL(aclInit)("/nonexistent/acl.json"), ACL_ERROR_INVALID_FILE);
  EXPECT_NE(std::string(ACL(aclGetRecentErrMsg)()).find("/nonexistent/acl.json"),
            std::string::npos);
}

TEST(EmulatedRuntime, SetDeviceMakesTheSharedDefaultContextCurrent) {
  aclrtContext first = nullptr;
  aclrtContext second = nullptr;
  ASSERT_EQ(ACL(aclrtSetDevice)(0), ACL_SUCCESS);
  ASSERT_EQ(ACL(aclrtGetCurrentContext)(&first), ACL_SUCCESS);
  std::thread other([&] {
    EXPECT_EQ(ACL(aclrtSetDevice)(0), ACL_SUCCESS);
    EXPECT_EQ(ACL(aclrtGetCurrentContext)(&second), ACL_SUCCESS);
    EXPECT_EQ(ACL(aclrtResetDevice)(0), ACL_SUCCESS);
  });
  other.join();
  EXPECT_EQ(first, second);
  int32_t device = -1;
  EXPECT_EQ(ACL(aclrtGetDevice)(&device), ACL_SUCCESS);
  EXPECT_EQ(device, 0);
  EXPECT_EQ(ACL(aclrtDestroyContext)(first), ACL_ERROR_INVALID_PARAM);  // default: reset only
  EXPECT_EQ(ACL(aclrtResetDevice)(0), ACL_SUCCESS);
}

TEST(EmulatedRuntime, CreatedContextBecomesCurrentAndOwnsItsStreams) {
  ASSERT_EQ(ACL(aclrtSetDevice)(0), ACL_SUCCESS);
  aclrtContext default_context = nullptr;
  ASSERT_EQ(ACL(aclrtGetCurrentContext)(&default_context), ACL_SUCCESS);
  aclrtContext created = nullptr;
  ASSERT_EQ(ACL(aclrtCreateContext)(&created, 0), ACL_SUCCESS);
  aclrtContext current = nullptr;
  ASSERT_EQ(ACL(aclrtGetCurrentContext)(&current), ACL_SUCCESS);
  EXPECT_EQ(current, created);
  aclrtStream stream = nullptr;
  ASSERT_EQ(ACL(aclrtCreateStream)(&stream), ACL_SUCCESS);
  EXPECT_EQ(ACL(aclrtSetCurrentContext)(default_context), ACL_SUCCESS);
  ASSERT_EQ(ACL(aclrtGetCurrentContext)(&current), ACL_SUCCESS);
  EXPECT_EQ(current, default_context);

  EXPECT_EQ(ACL(aclrtDestroyContext)(created), ACL_SUCCESS);
  EXPECT_EQ(ACL(aclrtDestroyStream)(stream), ACL_ERROR_INVALID_PARAM);  // went with its context
  EXPECT_EQ(ACL(aclrtSetCurrentContext)(created), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(ACL(aclrtDestroyContext)(created), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(ACL(aclrtCreateContext)(&created, 1), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(ACL(aclrtResetDevice)(0), ACL_SUCCESS);
}

TEST(EmulatedRuntime, AStreamNeedsAContextOnTheThread) {
  std::thread fresh([] {
    aclrtStream stream = nullptr;
    EXPECT_EQ(ACL(aclrtCreateStream)(&stream), ACL_ERROR_RT_CONTEXT_NULL);
    int32_t device = -1;
    EXPECT_EQ(ACL(aclrtGetDevice)(&device), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_NE(std::string(ACL(aclGetRecentErrMsg)()).find("aclrtSetDevice"), std::string::npos);
  });
  fresh.join();
}

TEST(EmulatedRuntime, ResetDeviceReleasesAtTheLastReference) {
  ASSERT_EQ(ACL(aclrtSetDevice)(0), ACL_SUCCESS);
  ASSERT_EQ(ACL(aclrtSetDevice)(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(ACL(aclrtCreateStream)(&stream), ACL_SUCCESS);
  EXPECT_EQ(ACL(aclrtResetDevice)(0), ACL_SUCCESS);
  EXPECT_EQ(ACL(aclrtSynchronizeStream)(stream), ACL_SUCCESS);  // one reference left
  EXPECT_EQ(ACL(aclrtResetDevice)(0), ACL_SUCCESS);
  EXPECT_EQ(ACL(aclrtSynchronizeStream)(stream), ACL_ERROR_INVALID_PARAM);  // released with it
  EXPECT_EQ(ACL(aclrtResetDevice)(0), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(ACL(aclrtSetDevice)(1), ACL_ERROR_RT_INVALID_DEVICEID);
  uint32_t count = 0;
  EXPECT_EQ(ACL(aclrtGetDeviceCount)(&count), ACL_SUCCESS);
  EXPECT_EQ(count, 1u);
}

// A CANN-style program that reads an output before aclrtSynchronizeStream reads the bytes the
// buffer held: the execute call only enqueues. ACLNN_CPU_DEFER_LAUNCHES holds the stream's thread
// until the synchronisation, so the early read is wrong every time, not only when it wins a race.
TEST(EmulatedRuntime, AnOutputReadBeforeSynchronisingHoldsTheOldBytesAndADeadStreamRunsNothing) {
  setenv("ACLNN_CPU_DEFER_LAUNCHES", "1", 1);
  ASSERT_EQ(ACL(aclrtSetDevice)(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(ACL(aclrtCreateStream)(&stream), ACL_SUCCESS);
  unsetenv("ACLNN_CPU_DEFER_LAUNCHES");
  float host[2][2] = {{2, 4}, {0, 0}};  // gradOutput, self = 0 and 0.75 (factor 0.5 and 0.75)
  const float self[2] = {0, 0.75f};
  void* device[3] = {};
  for (void*& buffer : device) {
    ASSERT_EQ(ACL(aclrtMalloc)(&buffer, sizeof(self), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  ASSERT_EQ(ACL(aclrtMemcpy)(device[0], 8, host[0], 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(ACL(aclrtMemcpy)(device[1], 8, self, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(ACL(aclrtMemset)(device[2], 8, 0, 8), ACL_SUCCESS);
  const int64_t shape[1] = {2};
  aclTensor* tensors[3] = {};
  for (int i = 0; i < 3; ++i) {
    tensors[i] =
        ACL(aclCreateTensor)(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1, device[i]);
  }
  const auto prepare = ACL(aclnnHardswishBackwardGetWorkspaceSize);
  const auto execute = ACL(aclnnHardswishBackward);
  uint64_t workspace = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(prepare(tensors[0], tensors[1], tensors[2], &workspace, &executor), ACLNN_SUCCESS);
  ASSERT_EQ(execute(nullptr, 0, executor, stream), ACLNN_SUCCESS);
  float out[2] = {-1, -1};
  ASSERT_EQ(ACL(aclrtMemcpy)(out, 8, device[2], 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(out[0], 0.0f);  // queued, not run yet
  ASSERT_EQ(ACL(aclrtSynchronizeStream)(stream), ACL_SUCCESS);
  ASSERT_EQ(ACL(aclrtMemcpy)(out, 8, device[2], 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(out[0], 1.0f);  // 2 * (0 / 3 + 0.5)
  EXPECT_EQ(out[1], 3.0f);  // 4 * (0.75 / 3 + 0.5)

  // The default stream (null) of the thread's context queues and synchronises the same way.
  ASSERT_EQ(ACL(aclrtMemset)(device[2], 8, 0, 8), ACL_SUCCESS);
  ASSERT_EQ(prepare(tensors[0], tensors[1], tensors[2], &workspace, &executor), ACLNN_SUCCESS);
  ASSERT_EQ(execute(nullptr, 0, executor, nullptr), ACLNN_SUCCESS);
  ASSERT_EQ(ACL(aclrtSynchronizeStream)(nullptr), ACL_SUCCESS);
  ASSERT_EQ(ACL(aclrtMemcpy)(out, 8, device[2], 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(out[1], 3.0f);

  ASSERT_EQ(prepare(tensors[0], tensors[1], tensors[2], &workspace, &executor), ACLNN_SUCCESS);
  ASSERT_EQ(ACL(aclrtDestroyStream)(stream), ACL_SUCCESS);
  EXPECT_EQ(execute(nullptr, 0, executor, stream), ACLNN_ERR_RUNTIME_ERROR);
  EXPECT_NE(std::string(ACL(aclGetRecentErrMsg)()).find("stream"), std::string::npos);
  for (int i = 0; i < 3; ++i) {
    ACL(aclDestroyTensor)(tensors[i]);
    ACL(aclrtFree)(device[i]);
  }
  EXPECT_EQ(ACL(aclrtResetDevice)(0), ACL_SUCCESS);
}

TEST(EmulatedRuntime, PinnedHostAndDeviceMemoryAreFreedByTheirOwnCalls) {
  void* host = nullptr;
  void* device = nullptr;
  ASSERT_EQ(ACL(aclrtMallocHost)(&host, 100), ACL_SUCCESS);
  ASSERT_EQ(ACL(aclrtMalloc)(&device, 100, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(host) % 64, 0u);
  EXPECT_EQ(ACL(aclrtFreeHost)(device), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(ACL(aclrtFree)(host), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(ACL(aclrtMallocHost)(&host, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(ACL(aclrtFreeHost)(host), ACL_SUCCESS);
  EXPECT_EQ(ACL(aclrtFree)(device), ACL_SUCCESS);
}

TEST(EmulatedRuntime, MemsetFillsBytesInsideOneAllocation) {
  void* device = nullptr;
  ASSERT_EQ(ACL(aclrtMalloc)(&device, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(ACL(aclrtMemset)(device, 16, 0xAB, 12), ACL_SUCCESS);
  EXPECT_EQ(ACL(aclrtMemset)(device, 8, 0, 12), ACL_ERROR_INVALID_PARAM);  // count > maxCount
  EXPECT_EQ(ACL(aclrtMemset)(static_cast<char*>(device) + 8, 16, 0, 16), ACL_ERROR_INVALID_PARAM);
  unsigned char host[16] = {};
  ASSERT_EQ(ACL(aclrtMemcpy)(host, 16, device, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(host[i], 0xAB) << i;
  EXPECT_EQ(
      ACL(aclrtMemcpy)(host, 16, static_cast<char*>(device) + 1, 16, ACL_MEMCPY_DEVICE_TO_HOST),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(ACL(aclrtMemcpy)(host, 16, device, 16, static_cast<aclrtMemcpyKind>(9)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(ACL(aclrtFree)(device), ACL_SUCCESS);
}

// Copies and fills of many MiB run in chunks over threads: every byte still lands once, where
// it belongs, and a copy within one allocation whose ends overlap moves like memmove. One thread
// (CTest runs each test in its own process, so the provider's pool starts here): chunks then run
// in order, and a chunked copy of ranges overlapping forward would always lose the bytes at the
// chunks' boundaries.
TEST(EmulatedRuntime, LargeCopiesAndFillsWriteEveryByteOnceAndOverlapsMoveLikeMemmove) {
  setenv("ACLNN_CHECK_THREADS", "1", 1);
  const size_t size = (size_t{64} << 20) + 12345;  // 16 chunks of 4 MiB and a part
  std::vector<uint32_t> host(size / 4);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<uint32_t>(i * 2654435761u);
  void* device = nullptr;
  ASSERT_EQ(ACL(aclrtMalloc)(&device, size + 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(ACL(aclrtMemset)(device, size + 64, 0x5A, size + 64), ACL_SUCCESS);
  const size_t bytes = host.size() * 4;
  ASSERT_EQ(ACL(aclrtMemcpy)(device, size + 64, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  std::vector<unsigned char> back(size + 64);
  ASSERT_EQ(
      ACL(aclrtMemcpy)(back.data(), back.size(), device, back.size(), ACL_MEMCPY_DEVICE_TO_HOST),
      ACL_SUCCESS);
  EXPECT_EQ(std::memcmp(back.data(), host.data(), bytes), 0);
  for (size_t i = bytes; i < back.size(); ++i) ASSERT_EQ(back[i], 0x5A) << i;
  // Within the allocation, 20 MiB moved forward by 3 bytes: the ranges overlap.
  auto* base = static_cast<unsigned char*>(device);
  const size_t moved = size_t{20} << 20;
  ASSERT_EQ(ACL(aclrtMemcpy)(base + 3, moved, base, moved, ACL_MEMCPY_DEVICE_TO_DEVICE),
            ACL_SUCCESS);
  ASSERT_EQ(
      ACL(aclrtMemcpy)(back.data(), back.size(), device, back.size(), ACL_MEMCPY_DEVICE_TO_HOST),
      ACL_SUCCESS);
  const auto* original = reinterpret_cast<const unsigned char*>(host.data());
  EXPECT_EQ(std::memcmp(back.data() + 3, original, moved), 0);
  EXPECT_EQ(ACL(aclrtFree)(device), ACL_SUCCESS);
}

TEST(EmulatedRuntime, DataTypeSizesAreCannsForEveryType) {
  const auto size = ACL(aclDataTypeSize);
  EXPECT_EQ(size(ACL_FLOAT), 4u);
  EXPECT_EQ(size(ACL_BF16), 2u);
  EXPECT_EQ(size(ACL_INT64), 8u);
  EXPECT_EQ(size(ACL_UINT32), 4u);
  EXPECT_EQ(size(ACL_COMPLEX128), 16u);
  EXPECT_EQ(size(ACL_COMPLEX32), 4u);
  EXPECT_EQ(size(ACL_INT4), 1u);
  EXPECT_EQ(size(ACL_FLOAT8_E4M3FN), 1u);
  EXPECT_EQ(size(ACL_STRING), 0u);
  EXPECT_EQ(size(ACL_DT_UNDEFINED), 0u);
}

TEST(EmulatedRuntime, Float16ConversionRoundsToNearestEven) {
  const auto to_half = ACL(aclFloatToFloat16);
  const auto to_float = ACL(aclFloat16ToFloat);
  EXPECT_EQ(to_half(1.0f), 0x3C00);
  EXPECT_EQ(to_half(-2.0f), 0xC000);
  EXPECT_EQ(to_half(65504.0f), 0x7BFF);
  EXPECT_EQ(to_half(1.0f + 0x1p-11f), 0x3C00);      // a tie goes to the even significand
  EXPECT_EQ(to_half(1.0f + 3 * 0x1p-11f), 0x3C02);  // and here up to it
  EXPECT_EQ(to_half(65536.0f), 0x7C00);             // overflow is infinity
  EXPECT_EQ(to_float(0x3C01), 1.0f + 0x1p-10f);
  EXPECT_EQ(to_float(0x0001), 0x1p-24f);  // smallest subnormal
}

}  // namespace
}  // namespace aclnn_check
