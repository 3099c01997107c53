// aclnnLogitGrad on the emulator, written like CANN's samples.
// dx = dy / (x * (1 - x)) for x in [eps, 1 - eps], 0 outside. With eps = 0.2, worked by hand:
// x = 0.5 -> 1 / 0.25 = 4; x = 0.25 -> 2 / 0.1875 = 10.666667; x = 0.75 -> 3 / 0.1875 = 16;
// x = 0.1 lies below eps -> 0; x = 0.6 -> 5 / 0.24 = 20.833333.
#include "aclnnop/aclnn_logit_grad.h"
#include "example_support.h"

int main() {
  int32_t deviceId = 0;
  aclrtContext context = nullptr;
  aclrtStream stream = nullptr;
  auto ret = Init(deviceId, &context, &stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  std::vector<int64_t> shape = {1, 5};
  std::vector<float> xHostData = {0.5, 0.25, 0.75, 0.1, 0.6};
  std::vector<float> dyHostData = {1, 2, 3, 4, 5};
  std::vector<float> dxHostData(5, 0);
  double eps = 0.2;
  const std::vector<float> expected = {4, 10.666667f, 16, 0, 20.833333f};

  void* xDeviceAddr = nullptr;
  void* dyDeviceAddr = nullptr;
  void* dxDeviceAddr = nullptr;
  aclTensor* x = nullptr;
  aclTensor* dy = nullptr;
  aclTensor* dx = nullptr;
  ret = CreateAclTensor(xHostData, shape, &xDeviceAddr, ACL_FLOAT, &x);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(dyHostData, shape, &dyDeviceAddr, ACL_FLOAT, &dy);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(dxHostData, shape, &dxDeviceAddr, ACL_FLOAT, &dx);
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  ret = aclnnLogitGradGetWorkspaceSize(x, dy, eps, dx, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("aclnnLogitGradGetWorkspaceSize failed. ERROR: %d (%s)\n", ret,
                      aclGetRecentErrMsg());
            return ret);
  void* workspaceAddr = nullptr;
  if (workspaceSize > 0) {
    ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret);
              return ret);
  }
  ret = aclnnLogitGrad(workspaceAddr, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnLogitGrad failed. ERROR: %d\n", ret); return ret);
  ret = aclrtSynchronizeStream(stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret);
            return ret);

  std::vector<float> result;
  ret = ReadBack(dxDeviceAddr, GetShapeSize(shape), &result);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  const bool ok = MatchesExpected("dx", result, expected);

  aclDestroyTensor(x);
  aclDestroyTensor(dy);
  aclDestroyTensor(dx);
  aclrtFree(xDeviceAddr);
  aclrtFree(dyDeviceAddr);
  aclrtFree(dxDeviceAddr);
  if (workspaceSize > 0) aclrtFree(workspaceAddr);
  Finalize(deviceId, context, stream);
  return ok ? 0 : 1;
}
