// The cuda provider (built only where CMake finds a CUDA compiler). On a machine without a usable
// GPU every test skips with one line naming the reason; on one with a GPU they run.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <sstream>
#include <memory>
#include <string>
#include <vector>

#include "device_access/device.h"
#include "device_access/provider.h"
#include "support/temp_dir.h"

namespace aclnn_check {
namespace {

struct CudaSession {
  std::unique_ptr<Provider> provider;
  std::unique_ptr<DeviceSession> session;
  std::string why_not;  // set when there is no usable device
};

CudaSession OpenCuda() {
  CudaSession opened;
  opened.provider = Provider::Load("cuda");
  try {
    opened.session = std::make_unique<DeviceSession>(*opened.provider);
  } catch (const ProviderError& error) {
    const std::string text = error.what();
    opened.why_not = text.substr(0, text.find('\n'));
  }
  return opened;
}

#define SKIP_WITHOUT_GPU(cuda) \
  if (!(cuda).session) GTEST_SKIP() << "no usable CUDA device: " << (cuda).why_not

using WorkspaceSize = aclnnStatus (*)(const aclTensor*, const aclTensor*, aclTensor*, uint64_t*,
                                      aclOpExecutor**);

// A missing device is an ACL error naming CUDA's reason, never an abort: the session either opens
// or says why not.
TEST(CudaProvider, OpensADeviceOrSaysWhyNot) {
  const CudaSession cuda = OpenCuda();
  if (cuda.session) SUCCEED();
  else EXPECT_NE(cuda.why_not.find("aclrtSetDevice"), std::string::npos) << cuda.why_not;
}

TEST(CudaProvider, MemoryRoundTripsThroughTheDevice) {
  const CudaSession cuda = OpenCuda();
  SKIP_WITHOUT_GPU(cuda);
  std::vector<std::byte> bytes(1000);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::byte>(i * 7 + 3);
  DeviceBuffer buffer(*cuda.provider, bytes.size());
  buffer.Upload(bytes);
  EXPECT_EQ(buffer.Download(), bytes);
}

// HardswishBackward on the GPU against values worked out by hand: 0 below -3, gradOutput above 3,
// gradOutput * (x / 3 + 0.5) between, NaN through the formula.
TEST(CudaProvider, HardswishBackwardMatchesHandValues) {
  const CudaSession cuda = OpenCuda();
  SKIP_WITHOUT_GPU(cuda);
  const std::vector<float> self = {-4.0f, -3.0f, 0.0f, 1.5f, 3.0f, 4.0f, NAN};
  const std::vector<float> grad = {2.0f, 2.0f, 2.0f, 2.0f, 2.0f, 2.0f, 2.0f};
  const std::vector<float> expected = {0.0f, -1.0f, 1.0f, 2.0f, 2.0f, 2.0f, NAN};
  const int64_t n = static_cast<int64_t>(self.size());
  const size_t bytes = self.size() * sizeof(float);
  DeviceBuffer grad_buffer(*cuda.provider, bytes), self_buffer(*cuda.provider, bytes),
      out_buffer(*cuda.provider, bytes);
  grad_buffer.Upload(std::as_bytes(std::span(grad)));
  self_buffer.Upload(std::as_bytes(std::span(self)));
  TensorView view;
  view.shape = {n};
  view.strides = {1};
  auto grad_tensor = cuda.session->CreateTensor(view, grad_buffer.data(), n);
  auto self_tensor = cuda.session->CreateTensor(view, self_buffer.data(), n);
  auto out_tensor = cuda.session->CreateTensor(view, out_buffer.data(), n);
  const Operator* op = FindOperator("HardswishBackward");
  ASSERT_NE(op, nullptr);
  const OperatorSymbols* symbols = cuda.provider->Symbols(*op);
  ASSERT_NE(symbols, nullptr);
  uint64_t workspace = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(reinterpret_cast<WorkspaceSize>(symbols->get_workspace_size)(
                grad_tensor.get(), self_tensor.get(), out_tensor.get(), &workspace, &executor),
            0);
  ASSERT_EQ(symbols->execute(nullptr, workspace, executor, cuda.session->stream()), 0);
  cuda.session->Synchronize();
  const std::vector<std::byte> raw = out_buffer.Download();
  std::vector<float> out(self.size());
  std::memcpy(out.data(), raw.data(), bytes);
  for (size_t i = 0; i < out.size(); ++i) {
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(out[i])) << "element " << i;
    } else {
      EXPECT_EQ(out[i], expected[i]) << "element " << i;
    }
  }
}

// The default suites through the CLI: every test point passes on the GPU.
TEST(CudaProvider, DefaultSuitesPass) {
  {
    const CudaSession cuda = OpenCuda();
    SKIP_WITHOUT_GPU(cuda);
  }
  const testing::TempDir reports;
  // Built with a stream: GCC 12's -Warray-bounds misfires on a chain of string + literals here.
  std::ostringstream command;
  command << ACLNN_CHECK_CLI << " run " << ACLNN_CHECK_SOURCE_DIR << "/cases --provider cuda --report-dir "
          << reports.path().string() << " > " << (reports.path() / "log.txt").string() << " 2>&1";
  EXPECT_EQ(std::system(command.str().c_str()), 0) << "see " << (reports.path() / "log.txt");
}

}  // namespace
}  // namespace aclnn_check
