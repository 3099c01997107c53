// Executor reuse in the bundled providers as hicann/opbase documents it (aclnn/acl_meta.h;
// docs/contract/interface.md 2.1): a repeatable executor runs again with its tensors moved by
// aclSetInputTensorAddr / aclSetOutputTensorAddr until aclDestroyAclOpExecutor; a plain one runs
// once; null pointers answer 561103 and an index past the operator's inputs or outputs 161002.
// HardswishBackward: out = gradOutput * (self / 3 + 0.5) for self in (-3, 3).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "acl/acl_rt.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_hardswish_backward.h"
#include "support/emulated_provider.h"

namespace aclnn_check {
namespace {

constexpr size_t kCount = 2;
constexpr size_t kBytes = kCount * sizeof(float);
using Values = std::array<float, kCount>;

// One set of device buffers: gradOutput, self, out.
struct Buffers {
  std::array<void*, 3> device{};

  Buffers(const Values& grad, const Values& self) {
    for (void*& buffer : device) {
      EXPECT_EQ(ACL(aclrtMalloc)(&buffer, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    }
    EXPECT_EQ(ACL(aclrtMemcpy)(device[0], kBytes, grad.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    EXPECT_EQ(ACL(aclrtMemcpy)(device[1], kBytes, self.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    EXPECT_EQ(ACL(aclrtMemset)(device[2], kBytes, 0, kBytes), ACL_SUCCESS);
  }
  ~Buffers() {
    for (void* buffer : device) ACL(aclrtFree)(buffer);
  }
  Values Out() const {
    Values out{};
    EXPECT_EQ(ACL(aclrtMemcpy)(out.data(), kBytes, device[2], kBytes, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return out;
  }
};

class RepeatableExecutor : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(ACL(aclrtSetDevice)(0), ACL_SUCCESS);
    ASSERT_EQ(ACL(aclrtCreateStream)(&stream_), ACL_SUCCESS);
    const int64_t shape[1] = {kCount};
    for (size_t i = 0; i < tensors_.size(); ++i) {
      tensors_[i] = ACL(aclCreateTensor)(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1,
                                         first_.device[i]);
    }
  }
  void TearDown() override {
    for (aclTensor* tensor : tensors_) ACL(aclDestroyTensor)(tensor);
    EXPECT_EQ(ACL(aclrtDestroyStream)(stream_), ACL_SUCCESS);
    EXPECT_EQ(ACL(aclrtResetDevice)(0), ACL_SUCCESS);
  }
  aclOpExecutor* Prepare() {
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    EXPECT_EQ(ACL(aclnnHardswishBackwardGetWorkspaceSize)(tensors_[0], tensors_[1], tensors_[2],
                                                          &workspace, &executor),
              ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
    return executor;
  }
  aclnnStatus Execute(aclOpExecutor* executor) {
    const aclnnStatus status = ACL(aclnnHardswishBackward)(nullptr, 0, executor, stream_);
    EXPECT_EQ(ACL(aclrtSynchronizeStream)(stream_), ACL_SUCCESS);
    return status;
  }
  // Moves every tensor of the executor to the buffers given.
  void MoveTo(aclOpExecutor* executor, const Buffers& buffers) {
    EXPECT_EQ(ACL(aclSetInputTensorAddr)(executor, 0, tensors_[0], buffers.device[0]),
              ACLNN_SUCCESS);
    EXPECT_EQ(ACL(aclSetInputTensorAddr)(executor, 1, tensors_[1], buffers.device[1]),
              ACLNN_SUCCESS);
    EXPECT_EQ(ACL(aclSetOutputTensorAddr)(executor, 0, tensors_[2], buffers.device[2]),
              ACLNN_SUCCESS);
  }

  aclrtStream stream_ = nullptr;
  Buffers first_{{2, 4}, {0, 0.75f}};
  std::array<aclTensor*, 3> tensors_{};
};

TEST_F(RepeatableExecutor, RunsAgainOnTheBuffersItWasMovedTo) {
  aclOpExecutor* executor = Prepare();
  ASSERT_EQ(ACL(aclSetAclOpExecutorRepeatable)(executor), ACLNN_SUCCESS);
  ASSERT_EQ(Execute(executor), ACLNN_SUCCESS);
  EXPECT_EQ(first_.Out(), (Values{1, 3}));  // 2 * 0.5, 4 * (0.25 + 0.5)

  const Buffers second({6, 8}, {1.5f, -1.5f});
  MoveTo(executor, second);
  ASSERT_EQ(Execute(executor), ACLNN_SUCCESS);
  EXPECT_EQ(second.Out(), (Values{6, 0}));  // 6 * (0.5 + 0.5), 8 * (-0.5 + 0.5)
  EXPECT_EQ(first_.Out(), (Values{1, 3}));  // the first buffers were left alone

  const Buffers third({-1, 10}, {0.75f, 0});
  MoveTo(executor, third);
  ASSERT_EQ(Execute(executor), ACLNN_SUCCESS);
  EXPECT_EQ(third.Out(), (Values{-0.75f, 5}));
  EXPECT_EQ(ACL(aclDestroyAclOpExecutor)(executor), ACLNN_SUCCESS);
}

TEST_F(RepeatableExecutor, APlainExecutorRunsOnceAndADestroyedOneNever) {
  aclOpExecutor* plain = Prepare();
  ASSERT_EQ(Execute(plain), ACLNN_SUCCESS);
  EXPECT_EQ(Execute(plain), ACLNN_ERR_PARAM_INVALID);

  aclOpExecutor* repeatable = Prepare();
  ASSERT_EQ(ACL(aclSetAclOpExecutorRepeatable)(repeatable), ACLNN_SUCCESS);
  ASSERT_EQ(ACL(aclDestroyAclOpExecutor)(repeatable), ACLNN_SUCCESS);
  EXPECT_EQ(Execute(repeatable), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(ACL(aclDestroyAclOpExecutor)(repeatable), ACLNN_ERR_INNER);
  EXPECT_EQ(ACL(aclSetAclOpExecutorRepeatable)(repeatable), ACLNN_ERR_INNER);
}

TEST_F(RepeatableExecutor, NullPointersAnswer561103AndIndexesPastTheLast161002) {
  EXPECT_EQ(ACL(aclSetAclOpExecutorRepeatable)(nullptr), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(ACL(aclDestroyAclOpExecutor)(nullptr), ACLNN_ERR_INNER_NULLPTR);
  aclOpExecutor* executor = Prepare();
  ASSERT_EQ(ACL(aclSetAclOpExecutorRepeatable)(executor), ACLNN_SUCCESS);
  void* address = first_.device[0];
  EXPECT_EQ(ACL(aclSetInputTensorAddr)(nullptr, 0, tensors_[0], address), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(ACL(aclSetInputTensorAddr)(executor, 0, nullptr, address), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(ACL(aclSetOutputTensorAddr)(nullptr, 0, tensors_[2], address),
            ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(ACL(aclSetOutputTensorAddr)(executor, 0, nullptr, address), ACLNN_ERR_INNER_NULLPTR);
  // Two inputs (gradOutput, self) and one output (out), counted apart.
  EXPECT_EQ(ACL(aclSetInputTensorAddr)(executor, 2, tensors_[2], address), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(ACL(aclSetOutputTensorAddr)(executor, 1, tensors_[2], address),
            ACLNN_ERR_PARAM_INVALID);
  // The emulator's own strictness: the tensor must be the one the call got at that index.
  EXPECT_EQ(ACL(aclSetInputTensorAddr)(executor, 0, tensors_[1], address), ACLNN_ERR_PARAM_INVALID);
  // None of the refused calls moved anything: the executor still computes on the first buffers.
  ASSERT_EQ(Execute(executor), ACLNN_SUCCESS);
  EXPECT_EQ(first_.Out(), (Values{1, 3}));
  EXPECT_EQ(ACL(aclDestroyAclOpExecutor)(executor), ACLNN_SUCCESS);
}

}  // namespace
}  // namespace aclnn_check
