// aclnnHardswishBackward on the emulator, written like CANN's samples.
// out = gradOutput * (0 below -3, self / 3 + 0.5 on [-3, 3], 1 above 3). The expected values are
// worked by hand from that formula: -4 -> 0; -1.5 -> 0; 0 -> 0.5 * 3; 0.75 -> 0.75 * 4;
// 1.5 -> 1 * 5; 3 -> 1.5 * 6 (the interval is closed); 4 -> 7.
#include "aclnnop/aclnn_hardswish_backward.h"
#include "example_support.h"

int main() {
  int32_t deviceId = 0;
  aclrtContext context = nullptr;
  aclrtStream stream = nullptr;
  auto ret = Init(deviceId, &context, &stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  std::vector<int64_t> shape = {7};
  std::vector<float> gradOutputHostData = {1, 2, 3, 4, 5, 6, 7};
  std::vector<float> selfHostData = {-4, -1.5, 0, 0.75, 1.5, 3, 4};
  std::vector<float> outHostData(7, 0);
  const std::vector<float> expected = {0, 0, 1.5, 3, 5, 9, 7};

  void* gradOutputDeviceAddr = nullptr;
  void* selfDeviceAddr = nullptr;
  void* outDeviceAddr = nullptr;
  aclTensor* gradOutput = nullptr;
  aclTensor* self = nullptr;
  aclTensor* out = nullptr;
  ret = CreateAclTensor(gradOutputHostData, shape, &gradOutputDeviceAddr, ACL_FLOAT, &gradOutput);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(selfHostData, shape, &selfDeviceAddr, ACL_FLOAT, &self);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(outHostData, shape, &outDeviceAddr, ACL_FLOAT, &out);
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  ret = aclnnHardswishBackwardGetWorkspaceSize(gradOutput, self, out, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("aclnnHardswishBackwardGetWorkspaceSize failed. ERROR: %d (%s)\n", ret,
                      aclGetRecentErrMsg());
            return ret);
  void* workspaceAddr = nullptr;
  if (workspaceSize > 0) {
    ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret);
              return ret);
  }
  ret = aclnnHardswishBackward(workspaceAddr, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnHardswishBackward failed. ERROR: %d\n", ret);
            return ret);
  ret = aclrtSynchronizeStream(stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret);
            return ret);

  std::vector<float> result;
  ret = ReadBack(outDeviceAddr, GetShapeSize(shape), &result);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  const bool ok = MatchesExpected("out", result, expected);

  aclDestroyTensor(gradOutput);
  aclDestroyTensor(self);
  aclDestroyTensor(out);
  aclrtFree(gradOutputDeviceAddr);
  aclrtFree(selfDeviceAddr);
  aclrtFree(outDeviceAddr);
  if (workspaceSize > 0) aclrtFree(workspaceAddr);
  Finalize(deviceId, context, stream);
  return ok ? 0 : 1;
}
