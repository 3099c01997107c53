// The phases of one call of a test point, each callable alone: the default call (execute.cc) runs
// them in order, and a calling pattern (docs/calling-patterns.md) runs the same phases in its own
// order (several uploads before one synchronisation, one executor launched on new buffers), so
// every call in a pattern is checked exactly as a default call is.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalogue/abi_call.h"
#include "runner/abi_params.h"
#include "runner/execute.h"
#include "runner/guarded_buffer.h"
#include "runner/outcome.h"

namespace aclnn_check {

// The statuses GetWorkspaceSize may answer with, and the call rules the point's arguments trigger
// (with the profiles' extra statuses and waivers).
struct AcceptedStatuses {
  std::vector<int> statuses;
  bool any = false;  // a waived expected rule accepts every status
  std::vector<const RuleDef*> call_rules;
  bool call_rule_waived = false;
};
AcceptedStatuses AcceptedStatusesOf(const TestPoint& point, const PreparedPoint& prepared,
                                    const Profiles& profiles);

// One call's device side: a guarded buffer and a tensor per slot (empty for a null tensor), the
// parameters, the executor and the workspace. The AbiCall points into this object, so it stays
// where it was made.
struct DeviceCall {
  DeviceCall() = default;
  DeviceCall(const DeviceCall&) = delete;
  DeviceCall& operator=(const DeviceCall&) = delete;

  std::vector<std::optional<GuardedBuffer>> buffers;
  std::vector<ProviderHandle<aclTensor>> tensors;
  std::optional<AbiParams> params;
  AbiCall abi;
  uint64_t workspace_bytes = 0;
  aclOpExecutor* executor = nullptr;
  std::optional<GuardedBuffer> workspace;
};

// Device buffers with the same bytes as the host copies (gaps and sentinels too) between guard
// regions, a tensor over each, and the parameters in ABI form.
void UploadCall(const TestPoint& point, const PreparedPoint& prepared, const DeviceSession& session,
                DeviceCall* call);

// GetWorkspaceSize on the uploaded call.
aclnnStatus GetWorkspace(const Operator& op, const OperatorSymbols& symbols, DeviceCall* call);

// GetWorkspaceSize's status against the accepted ones (the point's expected rule, or
// harness.status), and the call rules whose rejection the operator allows.
void JudgeWorkspaceStatus(const TestPoint& point, const AcceptedStatuses& accepted,
                          aclnnStatus status, const Provider& provider, Outcome* outcome,
                          TestPointResult* result);

// A rejected call writes nothing: every output's guards and bytes as uploaded.
void CheckRejectedCall(const Operator& op, const PreparedPoint& prepared, const DeviceCall& call,
                       Outcome* outcome);

// Allocates exactly workspace_bytes (none for 0) and launches the executor on the stream; the
// caller synchronises.
aclnnStatus Launch(const OperatorSymbols& symbols, const DeviceSession& session, DeviceCall* call);

// After the synchronisation: the workspace's guards (its memory is freed) and the launch status.
void JudgeLaunch(aclnnStatus executed, const Provider& provider, DeviceCall* call, Outcome* outcome,
                 TestPointResult* result);

// What the call left: every input's guards and bytes compared with its host copy, every output
// downloaded; each device buffer is freed at once.
struct CallDownloads {
  std::vector<std::optional<GuardedBuffer::Contents>> outputs;  // per slot
  std::vector<std::pair<std::string, TensorView>>
      floating_inputs;  // for the worst elements' inputs
};
CallDownloads CheckInputsAndDownload(const Operator& op, const PreparedPoint& prepared,
                                     DeviceCall* call, Outcome* outcome);

// Every downloaded output against its reference (guards, untouched outputs, writes outside the
// view, element rules and bound, the CANN standard of an imported case), then the call rules.
void CheckOutputs(const TestPoint& point, const PreparedPoint& prepared,
                  const ReferenceResult& reference, const AcceptedStatuses& accepted,
                  CallDownloads downloads, const RunContext& context, Outcome* outcome,
                  TestPointResult* result, CapturedOutputs* captured);

}  // namespace aclnn_check
