// What every example does around its operator call, written the way CANN's aclnn samples write it
// (hicann/ops-nn */examples/test_aclnn_*.cpp): acl initialization with an explicit context,
// device buffers filled with aclrtMemcpy, contiguous aclTensors, results copied back, and a
// comparison with values the example computed by hand.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

#define CHECK_RET(cond, return_expr) \
  do {                               \
    if (!(cond)) {                   \
      return_expr;                   \
    }                                \
  } while (0)

#define LOG_PRINT(message, ...)     \
  do {                              \
    printf(message, ##__VA_ARGS__); \
  } while (0)

inline int64_t GetShapeSize(const std::vector<int64_t>& shape) {
  int64_t size = 1;
  for (int64_t dim : shape) size *= dim;
  return size;
}

// aclInit, aclrtSetDevice, an explicit context made current, and a stream in it.
inline int Init(int32_t deviceId, aclrtContext* context, aclrtStream* stream) {
  auto ret = aclInit(nullptr);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret);
  ret = aclrtSetDevice(deviceId);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret);
  ret = aclrtCreateContext(context, deviceId);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateContext failed. ERROR: %d\n", ret);
            return ret);
  ret = aclrtSetCurrentContext(*context);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetCurrentContext failed. ERROR: %d\n", ret);
            return ret);
  ret = aclrtCreateStream(stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret);
            return ret);
  return ACL_SUCCESS;
}

// The reverse of Init, in the order CANN asks for: stream, context, device, acl.
inline void Finalize(int32_t deviceId, aclrtContext context, aclrtStream stream) {
  aclrtDestroyStream(stream);
  aclrtDestroyContext(context);
  aclrtResetDevice(deviceId);
  aclFinalize();
}

// A contiguous tensor over a new device buffer holding hostData.
template <typename T>
int CreateAclTensor(const std::vector<T>& hostData, const std::vector<int64_t>& shape,
                    void** deviceAddr, aclDataType dataType, aclTensor** tensor) {
  const size_t size = static_cast<size_t>(GetShapeSize(shape)) * sizeof(T);
  auto ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
  ret = aclrtMemcpy(*deviceAddr, size, hostData.data(), size, ACL_MEMCPY_HOST_TO_DEVICE);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; i--) {
    strides[i] = shape[i + 1] * strides[i + 1];
  }
  *tensor = aclCreateTensor(shape.data(), shape.size(), dataType, strides.data(), 0,
                            ACL_FORMAT_ND, shape.data(), shape.size(), *deviceAddr);
  CHECK_RET(*tensor != nullptr, LOG_PRINT("aclCreateTensor failed: %s\n", aclGetRecentErrMsg());
            return ACL_ERROR_FAILURE);
  return ACL_SUCCESS;
}

// Copies count elements of a device buffer into pinned host memory and returns them.
template <typename T>
int ReadBack(void* deviceAddr, int64_t count, std::vector<T>* result) {
  const size_t size = static_cast<size_t>(count) * sizeof(T);
  void* pinned = nullptr;
  auto ret = aclrtMallocHost(&pinned, size);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMallocHost failed. ERROR: %d\n", ret); return ret);
  ret = aclrtMemcpy(pinned, size, deviceAddr, size, ACL_MEMCPY_DEVICE_TO_HOST);
  if (ret == ACL_SUCCESS) {
    const T* values = static_cast<const T*>(pinned);
    result->assign(values, values + count);
  } else {
    LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret);
  }
  aclrtFreeHost(pinned);
  return ret;
}

// Prints every value next to the hand-computed one; true when all agree to 1e-5 (relative to
// the expected value, absolute below 1).
inline bool MatchesExpected(const char* name, const std::vector<float>& actual,
                            const std::vector<float>& expected) {
  bool ok = actual.size() == expected.size();
  for (size_t i = 0; i < actual.size() && i < expected.size(); ++i) {
    const bool close = std::fabs(actual[i] - expected[i]) <=
                       1e-5f * std::fmax(1.0f, std::fabs(expected[i]));
    LOG_PRINT("%s[%zu] is: %f (expected %f)%s\n", name, i, actual[i], expected[i],
              close ? "" : "  MISMATCH");
    ok = ok && close;
  }
  return ok;
}
