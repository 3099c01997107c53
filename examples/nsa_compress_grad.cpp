// aclnnNsaCompressGrad on the emulator, written like CANN's samples (float16, layout TND).
// One sequence of T = 48 tokens, N = 1 head, D = 16; windows of compressBlockSize l = 32 tokens
// every compressStride d = 16 tokens, so T' = (48 - 32) / 16 + 1 = 2 windows (rows 0-31, 16-47).
// The forward is out[i] = sum_j weight[j] * input[16 i + j], so
//   inputGrad[t]  = sum over the windows i covering t of weight[t - 16 i] * outputGrad[i]
//   weightGrad[j] = sum over i and e of outputGrad[i, e] * input[16 i + j, e].
// With outputGrad[0] = 1, outputGrad[1] = 3, weight[j] = 1 for j < 16 and 2 above, and
// input[t, e] = t mod 5, worked by hand:
//   inputGrad: tokens 0-15 see window 0 only (weight 1 * 1 = 1); 16-31 see both
//     (2 * 1 + 1 * 3 = 5); 32-47 window 1 only (2 * 3 = 6).
//   weightGrad[j] = 16 * (1 * (j mod 5) + 3 * ((j + 16) mod 5)) = 16 * (j mod 5 + 3 ((j + 1) mod 5)),
//     which runs 48, 112, 176, 240, 64 and repeats.
#include "aclnnop/aclnn_nsa_compress_grad.h"
#include "example_support.h"

int main() {
  int32_t deviceId = 0;
  aclrtContext context = nullptr;
  aclrtStream stream = nullptr;
  auto ret = Init(deviceId, &context, &stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  const int64_t tokens = 48;
  const int64_t headNum = 1;
  const int64_t headDim = 16;
  int64_t compressBlockSize = 32;
  int64_t compressStride = 16;
  int64_t actSeqLenType = 0;
  char layout[] = "TND";
  std::vector<int64_t> outputGradShape = {2, headNum, headDim};
  std::vector<int64_t> inputShape = {tokens, headNum, headDim};
  std::vector<int64_t> weightShape = {compressBlockSize, headNum};
  std::vector<int64_t> actSeqLenData = {tokens};

  std::vector<aclFloat16> outputGradHostData;
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t e = 0; e < headDim; ++e) outputGradHostData.push_back(aclFloatToFloat16(i == 0 ? 1 : 3));
  }
  std::vector<aclFloat16> inputHostData;
  for (int64_t t = 0; t < tokens; ++t) {
    for (int64_t e = 0; e < headDim; ++e) inputHostData.push_back(aclFloatToFloat16(t % 5));
  }
  std::vector<aclFloat16> weightHostData;
  for (int64_t j = 0; j < compressBlockSize; ++j) weightHostData.push_back(aclFloatToFloat16(j < 16 ? 1 : 2));
  std::vector<aclFloat16> inputGradHostData(tokens * headDim, aclFloatToFloat16(0));
  std::vector<aclFloat16> weightGradHostData(compressBlockSize, aclFloatToFloat16(0));

  std::vector<float> expectedInputGrad;
  for (int64_t t = 0; t < tokens; ++t) {
    for (int64_t e = 0; e < headDim; ++e) expectedInputGrad.push_back(t < 16 ? 1 : t < 32 ? 5 : 6);
  }
  const float weightGradPeriod[5] = {48, 112, 176, 240, 64};
  std::vector<float> expectedWeightGrad;
  for (int64_t j = 0; j < compressBlockSize; ++j) expectedWeightGrad.push_back(weightGradPeriod[j % 5]);

  void* outputGradDeviceAddr = nullptr;
  void* inputDeviceAddr = nullptr;
  void* weightDeviceAddr = nullptr;
  void* inputGradDeviceAddr = nullptr;
  void* weightGradDeviceAddr = nullptr;
  aclTensor* outputGrad = nullptr;
  aclTensor* input = nullptr;
  aclTensor* weight = nullptr;
  aclTensor* inputGrad = nullptr;
  aclTensor* weightGrad = nullptr;
  ret = CreateAclTensor(outputGradHostData, outputGradShape, &outputGradDeviceAddr, ACL_FLOAT16,
                        &outputGrad);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(inputHostData, inputShape, &inputDeviceAddr, ACL_FLOAT16, &input);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(weightHostData, weightShape, &weightDeviceAddr, ACL_FLOAT16, &weight);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(inputGradHostData, inputShape, &inputGradDeviceAddr, ACL_FLOAT16,
                        &inputGrad);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(weightGradHostData, weightShape, &weightGradDeviceAddr, ACL_FLOAT16,
                        &weightGrad);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  aclIntArray* actSeqLen = aclCreateIntArray(actSeqLenData.data(), actSeqLenData.size());
  CHECK_RET(actSeqLen != nullptr, return ACL_ERROR_FAILURE);

  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  ret = aclnnNsaCompressGradGetWorkspaceSize(outputGrad, input, weight, actSeqLen,
                                             compressBlockSize, compressStride, actSeqLenType,
                                             layout, inputGrad, weightGrad, &workspaceSize,
                                             &executor);
  CHECK_RET(ret == ACL_SUCCESS,
            LOG_PRINT("aclnnNsaCompressGradGetWorkspaceSize failed. ERROR: %d (%s)\n", ret,
                      aclGetRecentErrMsg());
            return ret);
  void* workspaceAddr = nullptr;
  if (workspaceSize > 0) {
    ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret);
              return ret);
  }
  ret = aclnnNsaCompressGrad(workspaceAddr, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnNsaCompressGrad failed. ERROR: %d\n", ret);
            return ret);
  ret = aclrtSynchronizeStream(stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret);
            return ret);

  std::vector<aclFloat16> inputGradBits;
  std::vector<aclFloat16> weightGradBits;
  ret = ReadBack(inputGradDeviceAddr, GetShapeSize(inputShape), &inputGradBits);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = ReadBack(weightGradDeviceAddr, GetShapeSize(weightShape), &weightGradBits);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  std::vector<float> inputGradResult;
  std::vector<float> weightGradResult;
  for (aclFloat16 bits : inputGradBits) inputGradResult.push_back(aclFloat16ToFloat(bits));
  for (aclFloat16 bits : weightGradBits) weightGradResult.push_back(aclFloat16ToFloat(bits));
  bool ok = MatchesExpected("inputGrad", inputGradResult, expectedInputGrad);
  ok = MatchesExpected("weightGrad", weightGradResult, expectedWeightGrad) && ok;

  for (aclTensor* tensor : {outputGrad, input, weight, inputGrad, weightGrad}) aclDestroyTensor(tensor);
  aclDestroyIntArray(actSeqLen);
  for (void* address : {outputGradDeviceAddr, inputDeviceAddr, weightDeviceAddr,
                        inputGradDeviceAddr, weightGradDeviceAddr}) {
    aclrtFree(address);
  }
  if (workspaceSize > 0) aclrtFree(workspaceAddr);
  Finalize(deviceId, context, stream);
  return ok ? 0 : 1;
}
