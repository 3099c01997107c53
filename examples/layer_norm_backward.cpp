// aclnnLayerNormBackward on the emulator, written like CANN's samples.
// Rows of x [2, 4] are normalized over the last axis; mean and rstd are the forward's saved
// statistics. With xhat = (x - mean) * rstd and g = gradOut * weight:
//   gradInput  = rstd * (g - mean(g) - xhat * mean(g * xhat))
//   gradWeight = sum over rows of gradOut * xhat,  gradBias = sum over rows of gradOut.
// Worked by hand:
//   row 0, x = [1, 1, 3, 3]: mean 2, variance 1, rstd 1, xhat = [-1, -1, 1, 1];
//     gradOut = [1, 0, 2, 1], g = [1, 0, 6, 4], mean(g) = 2.75, mean(g * xhat) = 2.25,
//     gradInput = [0.5, -0.5, 1, -1]
//   row 1, x = [0, 4, 4, 0]: mean 2, variance 4, rstd 0.5, xhat = [-1, 1, 1, -1];
//     gradOut = [2, 1, 0, 1], g = [2, 2, 0, 4], mean(g) = 2, mean(g * xhat) = -1,
//     gradInput = 0.5 * ([0, 0, -2, 2] + [-1, 1, 1, -1]) = [-0.5, 0.5, -0.5, 0.5]
//   gradWeight = [-1, 0, 2, 1] + [-2, 1, 0, -1] = [-3, 1, 2, 0],  gradBias = [3, 1, 2, 2]
#include "aclnnop/aclnn_layer_norm_backward.h"
#include "example_support.h"

int main() {
  int32_t deviceId = 0;
  aclrtContext context = nullptr;
  aclrtStream stream = nullptr;
  auto ret = Init(deviceId, &context, &stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  std::vector<int64_t> xShape = {2, 4};
  std::vector<int64_t> statShape = {2, 1};
  std::vector<int64_t> normShape = {4};
  std::vector<float> gradOutHostData = {1, 0, 2, 1, 2, 1, 0, 1};
  std::vector<float> xHostData = {1, 1, 3, 3, 0, 4, 4, 0};
  std::vector<float> meanHostData = {2, 2};
  std::vector<float> rstdHostData = {1, 0.5};
  std::vector<float> weightHostData = {1, 2, 3, 4};
  std::vector<float> biasHostData = {0, 0, 0, 0};
  std::vector<float> gradInputHostData(8, 0);
  std::vector<float> gradWeightHostData(4, 0);
  std::vector<float> gradBiasHostData(4, 0);
  std::vector<int64_t> normalizedShapeData = {4};
  bool outputMaskData[3] = {true, true, true};
  const std::vector<float> expectedGradInput = {0.5, -0.5, 1, -1, -0.5, 0.5, -0.5, 0.5};
  const std::vector<float> expectedGradWeight = {-3, 1, 2, 0};
  const std::vector<float> expectedGradBias = {3, 1, 2, 2};

  void* gradOutDeviceAddr = nullptr;
  void* xDeviceAddr = nullptr;
  void* meanDeviceAddr = nullptr;
  void* rstdDeviceAddr = nullptr;
  void* weightDeviceAddr = nullptr;
  void* biasDeviceAddr = nullptr;
  void* gradInputDeviceAddr = nullptr;
  void* gradWeightDeviceAddr = nullptr;
  void* gradBiasDeviceAddr = nullptr;
  aclTensor* gradOut = nullptr;
  aclTensor* x = nullptr;
  aclTensor* mean = nullptr;
  aclTensor* rstd = nullptr;
  aclTensor* weight = nullptr;
  aclTensor* bias = nullptr;
  aclTensor* gradInput = nullptr;
  aclTensor* gradWeight = nullptr;
  aclTensor* gradBias = nullptr;
  ret = CreateAclTensor(gradOutHostData, xShape, &gradOutDeviceAddr, ACL_FLOAT, &gradOut);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(xHostData, xShape, &xDeviceAddr, ACL_FLOAT, &x);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(meanHostData, statShape, &meanDeviceAddr, ACL_FLOAT, &mean);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(rstdHostData, statShape, &rstdDeviceAddr, ACL_FLOAT, &rstd);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(weightHostData, normShape, &weightDeviceAddr, ACL_FLOAT, &weight);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(biasHostData, normShape, &biasDeviceAddr, ACL_FLOAT, &bias);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(gradInputHostData, xShape, &gradInputDeviceAddr, ACL_FLOAT, &gradInput);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(gradWeightHostData, normShape, &gradWeightDeviceAddr, ACL_FLOAT,
                        &gradWeight);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(gradBiasHostData, normShape, &gradBiasDeviceAddr, ACL_FLOAT, &gradBias);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  aclIntArray* normalizedShape =
      aclCreateIntArray(normalizedShapeData.data(), normalizedShapeData.size());
  aclBoolArray* outputMask = aclCreateBoolArray(outputMaskData, 3);
  CHECK_RET(normalizedShape != nullptr && outputMask != nullptr, return ACL_ERROR_FAILURE);

  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  ret = aclnnLayerNormBackwardGetWorkspaceSize(gradOut, x, normalizedShape, mean, rstd, weight,
                                               bias, outputMask, gradInput, gradWeight, gradBias,
                                               &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("aclnnLayerNormBackwardGetWorkspaceSize failed. ERROR: %d (%s)\n", ret,
                      aclGetRecentErrMsg());
            return ret);
  void* workspaceAddr = nullptr;
  if (workspaceSize > 0) {
    ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret);
              return ret);
  }
  ret = aclnnLayerNormBackward(workspaceAddr, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnLayerNormBackward failed. ERROR: %d\n", ret);
            return ret);
  ret = aclrtSynchronizeStream(stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret);
            return ret);

  std::vector<float> gradInputResult;
  std::vector<float> gradWeightResult;
  std::vector<float> gradBiasResult;
  ret = ReadBack(gradInputDeviceAddr, GetShapeSize(xShape), &gradInputResult);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = ReadBack(gradWeightDeviceAddr, GetShapeSize(normShape), &gradWeightResult);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = ReadBack(gradBiasDeviceAddr, GetShapeSize(normShape), &gradBiasResult);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  bool ok = MatchesExpected("gradInput", gradInputResult, expectedGradInput);
  ok = MatchesExpected("gradWeight", gradWeightResult, expectedGradWeight) && ok;
  ok = MatchesExpected("gradBias", gradBiasResult, expectedGradBias) && ok;

  for (aclTensor* tensor : {gradOut, x, mean, rstd, weight, bias, gradInput, gradWeight, gradBias}) {
    aclDestroyTensor(tensor);
  }
  aclDestroyIntArray(normalizedShape);
  aclDestroyBoolArray(outputMask);
  for (void* address : {gradOutDeviceAddr, xDeviceAddr, meanDeviceAddr, rstdDeviceAddr,
                        weightDeviceAddr, biasDeviceAddr, gradInputDeviceAddr,
                        gradWeightDeviceAddr, gradBiasDeviceAddr}) {
    aclrtFree(address);
  }
  if (workspaceSize > 0) aclrtFree(workspaceAddr);
  Finalize(deviceId, context, stream);
  return ok ? 0 : 1;
}
