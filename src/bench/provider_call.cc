#include "bench/provider_call.h"

#include <chrono>

#include "core/status.h"

namespace aclnn_check {

RepeatableCall::RepeatableCall(const TestPoint& point, const PreparedPoint& prepared,
                               const DeviceSession& session)
    : op_(point.op()), session_(session) {
  const Provider& provider = session.provider();
  const OperatorSymbols* symbols = provider.Symbols(op_);
  if (!symbols) throw ProviderError("the provider does not export " + op_.aclnn_symbol());
  execute_ = symbols->execute;
  get_workspace_size_ = symbols->get_workspace_size;
  for (size_t slot = 0; slot < op_.tensors().size(); ++slot) {
    if (!prepared.tensors[slot]) {
      call_.tensors.push_back(nullptr);
      continue;
    }
    const HostTensor& host = *prepared.tensors[slot];
    buffers_.emplace_back(provider, host.byte_size());
    if (host.held()) {
      buffers_.back().Upload(host.bytes());
    } else {
      buffers_.back().FillAt(0, host.byte_size(), host.fill_byte());
    }
    const int64_t storage = static_cast<int64_t>(host.byte_size() / DTypeSize(host.view().dtype));
    tensors_.push_back(session.CreateTensor(host.view(), buffers_.back().data(), storage));
    call_.tensors.push_back(tensors_.back().get());
  }
  params_.emplace(op_, session, point.plan.params);
  call_.params = params_->values();
  call_.workspace_size = &workspace_bytes_;
  call_.executor = &executor_;
}

namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

double RepeatableCall::GetWorkspaceSize() {
  const auto start = std::chrono::steady_clock::now();
  const aclnnStatus status = op_.def().invoke_get_workspace_size(get_workspace_size_, call_);
  const double seconds = SecondsSince(start);
  if (status != 0) {
    CheckAcl(session_.provider(), static_cast<int>(status),
             op_.workspace_symbol() + " (" + DescribeStatus(status) + ")");
  }
  if (workspace_bytes_ > workspace_.size())
    workspace_ = DeviceBuffer(session_.provider(), workspace_bytes_);
  return seconds;
}

double RepeatableCall::Launch() {
  const auto start = std::chrono::steady_clock::now();
  const aclnnStatus executed = execute_(workspace_bytes_ ? workspace_.data() : nullptr,
                                        workspace_bytes_, executor_, session_.stream());
  const double seconds = SecondsSince(start);
  if (executed != 0) {
    CheckAcl(session_.provider(), static_cast<int>(executed),
             op_.aclnn_symbol() + " (" + DescribeStatus(executed) + ")");
  }
  return seconds;
}

void RepeatableCall::Call() {
  GetWorkspaceSize();
  Launch();
  session_.Synchronize();
}

}  // namespace aclnn_check
