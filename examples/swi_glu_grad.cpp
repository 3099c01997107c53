// aclnnSwiGluGrad on the emulator, written like CANN's samples.
// x [2, 4] splits along dim -1 into A (first half) and B; y = silu(A) * B. With s = sigmoid(A):
// dA = g * B * s * (1 + A * (1 - s)), dB = g * A * s. Worked by hand with
// s(0) = 0.5, s(1) = 0.73105858, s(-1) = 0.26894142, s(2) = 0.88079708:
//   row 0, A = [0, 1], B = [2, 3], g = [1, 2]:
//     dA = [1 * 2 * 0.5, 2 * 3 * 0.73105858 * 1.26894142] = [1, 5.5660231]
//     dB = [0, 2 * 0.73105858] = [0, 1.4621172]
//   row 1, A = [-1, 2], B = [-1, 0.5], g = [3, -2]:
//     dA = [3 * -1 * 0.26894142 * 0.26894142, -2 * 0.5 * 0.88079708 * 1.23840584]
//        = [-0.21698847, -1.0907843]
//     dB = [3 * -1 * 0.26894142, -2 * 2 * 0.88079708] = [-0.80682426, -3.5231883]
#include "aclnnop/aclnn_swi_glu_grad.h"
#include "example_support.h"

int main() {
  int32_t deviceId = 0;
  aclrtContext context = nullptr;
  aclrtStream stream = nullptr;
  auto ret = Init(deviceId, &context, &stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  std::vector<int64_t> yGradShape = {2, 2};
  std::vector<int64_t> xShape = {2, 4};
  std::vector<float> yGradHostData = {1, 2, 3, -2};
  std::vector<float> xHostData = {0, 1, 2, 3, -1, 2, -1, 0.5};
  std::vector<float> outHostData(8, 0);
  int64_t dim = -1;
  const std::vector<float> expected = {1,           5.5660231f,  0,           1.4621172f,
                                       -0.21698847f, -1.0907843f, -0.80682426f, -3.5231883f};

  void* yGradDeviceAddr = nullptr;
  void* xDeviceAddr = nullptr;
  void* outDeviceAddr = nullptr;
  aclTensor* yGrad = nullptr;
  aclTensor* x = nullptr;
  aclTensor* out = nullptr;
  ret = CreateAclTensor(yGradHostData, yGradShape, &yGradDeviceAddr, ACL_FLOAT, &yGrad);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(xHostData, xShape, &xDeviceAddr, ACL_FLOAT, &x);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(outHostData, xShape, &outDeviceAddr, ACL_FLOAT, &out);
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  ret = aclnnSwiGluGradGetWorkspaceSize(yGrad, x, dim, out, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("aclnnSwiGluGradGetWorkspaceSize failed. ERROR: %d (%s)\n", ret,
                      aclGetRecentErrMsg());
            return ret);
  void* workspaceAddr = nullptr;
  if (workspaceSize > 0) {
    ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret);
              return ret);
  }
  ret = aclnnSwiGluGrad(workspaceAddr, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnSwiGluGrad failed. ERROR: %d\n", ret); return ret);
  ret = aclrtSynchronizeStream(stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret);
            return ret);

  std::vector<float> result;
  ret = ReadBack(outDeviceAddr, GetShapeSize(xShape), &result);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  const bool ok = MatchesExpected("out", result, expected);

  aclDestroyTensor(yGrad);
  aclDestroyTensor(x);
  aclDestroyTensor(out);
  aclrtFree(yGradDeviceAddr);
  aclrtFree(xDeviceAddr);
  aclrtFree(outDeviceAddr);
  if (workspaceSize > 0) aclrtFree(workspaceAddr);
  Finalize(deviceId, context, stream);
  return ok ? 0 : 1;
}
