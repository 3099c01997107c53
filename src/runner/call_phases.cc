#include "runner/call_phases.h"

#include <algorithm>

#include "check/rule_ids.h"
#include "core/status.h"
#include "core/view_storage.h"

namespace aclnn_check {
namespace {

std::string StatusList(const std::vector<int>& statuses) {
  std::string text;
  for (int s : statuses) text += (text.empty() ? "" : " or ") + DescribeStatus(s);
  return text;
}

std::string WithProviderMessage(std::string text, const std::string& message) {
  return message.empty() ? text : text + " (provider: " + message + ")";
}

// First byte offset in [from, to) where `after` differs from the output's initial bytes, or -1.
int64_t FirstChangeIn(const HostTensor& before, std::span<const std::byte> after, size_t from,
                      size_t to) {
  to = std::min(to, after.size());
  return from < to ? before.FirstDifferenceAt(from, after.subspan(from, to - from)) : -1;
}

// First byte offset outside the view's storage where the buffer changed, or -1. The view's
// storage is a list of index intervals, so the bytes between them are compared as whole ranges.
int64_t FirstChangeOutside(const HostTensor& before, std::span<const std::byte> after) {
  const TensorView& view = before.view();
  const size_t size = DTypeSize(view.dtype);
  size_t from = 0;
  for (const StorageInterval& inside : StorageIntervals(view)) {
    const int64_t changed =
        FirstChangeIn(before, after, from, static_cast<size_t>(inside.begin) * size);
    if (changed >= 0) return changed;
    from = static_cast<size_t>(inside.end) * size;
  }
  return FirstChangeIn(before, after, from, std::max(before.byte_size(), after.size()));
}

// Keeps an output's elements as the device wrote them, in logical order: the download itself when
// the view is the whole buffer, else the view's bytes.
void Capture(const TensorView& view, std::vector<std::byte> after, const std::string& name,
             CapturedOutputs* captured) {
  captured->dtypes[name] = view.dtype;
  std::vector<std::byte>& bytes = captured->bytes[name];
  const size_t size = DTypeSize(view.dtype);
  const size_t view_bytes = static_cast<size_t>(view.numel()) * size;
  if (view.is_contiguous() && view.offset == 0 && view_bytes == after.size()) {
    bytes = std::move(after);
  } else if (view.is_contiguous() && view.numel() > 0) {
    // One copy of the view's bytes instead of an insert per element.
    const size_t offset = static_cast<size_t>(view.offset) * size;
    const auto first = after.begin() + static_cast<std::ptrdiff_t>(offset);
    bytes.assign(first, first + static_cast<std::ptrdiff_t>(view_bytes));
  } else {
    bytes.reserve(view_bytes);
    ForEachElement(view, [&](int64_t, int64_t storage) {
      const std::byte* element = after.data() + static_cast<size_t>(storage) * size;
      bytes.insert(bytes.end(), element, element + size);
    });
  }
}

std::string DescribeElement(const ElementReport& e) {
  return "worst element [" + std::to_string(e.index) + "]: device " + std::to_string(e.device) +
         ", reference " + std::to_string(e.reference) + ", " + std::to_string(e.ulp_error) + " ulp";
}

// The element rules and the element bound of one checked output.
void RecordElementRules(const std::string& name, const OutputCheck& check, Outcome* outcome) {
  int64_t rule_failures = 0;
  for (const auto& [rule_id, tally] : check.rules) {
    if (rule_id == rule_ids::kRoundingBias || rule_id == rule_ids::kUnderflow) continue;
    rule_failures += tally.applied - tally.held;
    outcome->Rule(rule_id, tally.held == tally.applied,
                  name + ": " + std::to_string(tally.applied - tally.held) + " of " +
                      std::to_string(tally.applied) + " elements differ, first at [" +
                      std::to_string(tally.first_failure) + "]",
                  tally.applied);
  }
  const int64_t plain_failures = check.metrics.failures - rule_failures;
  outcome->Rule(rule_ids::kElementBound, plain_failures == 0,
                name + ": " + std::to_string(plain_failures) + " of " +
                    std::to_string(check.metrics.elements) + " elements outside the bound; " +
                    DescribeElement(check.metrics.worst),
                check.metrics.elements);
  if (check.metrics.rounding_bias) {
    outcome->Rule(
        rule_ids::kRoundingBias, check.metrics.rounding_bias_ok,
        name + ": mean signed error " + std::to_string(*check.metrics.rounding_bias) +
            " ulp; correctly rounded: " + std::to_string(*check.metrics.correctly_rounded_bias) +
            " ulp (limit 0.1 on either the error or its excess)");
  }
  if (check.metrics.underflow_accepted > 0) outcome->Rule(rule_ids::kUnderflow, true);
}

// One computed output against its reference; returns what the report shows of it.
OutputResult CheckComputedOutput(const TestPoint& point, const TensorSlot& def,
                                 const HostTensor& host, const std::vector<std::byte>& after,
                                 const ReferenceOutput& expected, const CallDownloads& downloads,
                                 const RunContext& context, Outcome* outcome) {
  const Operator& op = point.op();
  const int64_t outside = FirstChangeOutside(host, after);
  outcome->Rule(
      rule_ids::kWritesInsideView, outside < 0,
      std::string(def.name) + " written outside its view at byte " + std::to_string(outside));
  TensorView view = host.view();
  view.data = const_cast<std::byte*>(after.data());
  // Checked straight from the download, a block at a time: no decoded copy of its size.
  const BlockValues device(view);
  const CaseFile& c = *point.case_file;
  const OutputCheck check =
      CheckOutput(op, expected, device, view.dtype, ToleranceOf(point, def.name),
                  ExpectationsOf(*context.profiles));
  OutputResult output{.name = std::string(def.name),
                      .dtype = std::string(DTypeName(view.dtype)),
                      .metrics = check.metrics};
  if (c.cann_tolerance) {
    CannOutputVerdict verdict;
    if (JudgeCannTolerance(*c.cann_tolerance, output.name, device, expected.value, view.dtype,
                           &verdict)) {
      output.cann = verdict;
    }
  }
  for (const auto& [input, input_view] : downloads.floating_inputs) {
    if (input_view.numel() == view.numel() && check.metrics.worst.index >= 0) {
      const int64_t storage = StorageIndexOf(input_view, check.metrics.worst.index);
      output.worst_inputs[input] =
          DecodeElement(input_view.element_address(storage), input_view.dtype);
    }
  }
  RecordElementRules(output.name, check, outcome);
  return output;
}

}  // namespace

AcceptedStatuses AcceptedStatusesOf(const TestPoint& point, const PreparedPoint& prepared,
                                    const Profiles& profiles) {
  AcceptedStatuses accepted;
  accepted.statuses = {point.expected.status};
  if (!point.expected.ok()) {
    if (const RuleOverride* o = profiles.Find(point.expected.rule)) {
      accepted.statuses.insert(accepted.statuses.end(), o->status.begin(), o->status.end());
      accepted.any = o->waive;
    }
    return accepted;
  }
  const Operator& op = point.op();
  const std::vector<RuleTag> tags =
      prepared.reference ? prepared.reference->call_rules : op.CallRules(prepared.args);
  for (RuleTag tag : tags) {
    const RuleDef& rule = op.RuleOfTag(tag);
    accepted.call_rules.push_back(&rule);
    accepted.statuses.insert(accepted.statuses.end(), rule.accept_status.begin(),
                             rule.accept_status.end());
    if (const RuleOverride* o = profiles.Find(rule.id)) {
      accepted.statuses.insert(accepted.statuses.end(), o->status.begin(), o->status.end());
      accepted.call_rule_waived = accepted.call_rule_waived || o->waive;
    }
  }
  return accepted;
}

void UploadCall(const TestPoint& point, const PreparedPoint& prepared, const DeviceSession& session,
                DeviceCall* call) {
  const Operator& op = point.op();
  call->buffers.resize(op.tensors().size());
  call->tensors.resize(op.tensors().size());
  for (size_t slot = 0; slot < op.tensors().size(); ++slot) {
    if (!prepared.tensors[slot]) {
      call->abi.tensors.push_back(nullptr);
      continue;
    }
    const HostTensor& host = *prepared.tensors[slot];
    call->buffers[slot].emplace(session.provider(), std::string(op.tensors()[slot].name), host);
    const int64_t storage = static_cast<int64_t>(host.byte_size() / DTypeSize(host.view().dtype));
    call->tensors[slot] =
        session.CreateTensor(host.view(), call->buffers[slot]->payload(), storage);
    call->abi.tensors.push_back(call->tensors[slot].get());
  }
  call->params.emplace(op, session, point.plan.params);
  call->abi.params = call->params->values();
  call->abi.workspace_size = point.null_workspace_size ? nullptr : &call->workspace_bytes;
  call->abi.executor = point.null_executor ? nullptr : &call->executor;
}

aclnnStatus GetWorkspace(const Operator& op, const OperatorSymbols& symbols, DeviceCall* call) {
  return op.def().invoke_get_workspace_size(symbols.get_workspace_size, call->abi);
}

void JudgeWorkspaceStatus(const TestPoint& point, const AcceptedStatuses& accepted,
                          aclnnStatus status, const Provider& provider, Outcome* outcome,
                          TestPointResult* result) {
  result->status = status;
  if (status != 0) result->provider_message = provider.RecentError();
  const std::vector<int>& statuses = accepted.statuses;
  const bool status_ok =
      accepted.any || std::find(statuses.begin(), statuses.end(), status) != statuses.end();
  const std::string status_rule = point.expected.ok() ? rule_ids::kStatus : point.expected.rule;
  outcome->Rule(status_rule, status_ok,
                WithProviderMessage("GetWorkspaceSize returned " + DescribeStatus(status) +
                                        ", expected " + StatusList(statuses),
                                    result->provider_message));
  for (const RuleDef* rule : accepted.call_rules) {
    const bool rejected_as_allowed =
        std::find(rule->accept_status.begin(), rule->accept_status.end(), status) !=
        rule->accept_status.end();
    if (rejected_as_allowed) outcome->Rule(rule->id, true);
  }
}

void CheckRejectedCall(const Operator& op, const PreparedPoint& prepared, const DeviceCall& call,
                       Outcome* outcome) {
  for (size_t slot = 0; slot < op.tensors().size(); ++slot) {
    if (!call.buffers[slot] || op.tensors()[slot].role != SlotRole::kOutput) continue;
    if (const auto violation = call.buffers[slot]->GuardViolation()) {
      outcome->Rule(rule_ids::kGuardBytes, false, *violation);
    }
    const int64_t changed = call.buffers[slot]->FirstDifference(*prepared.tensors[slot]);
    outcome->Rule(rule_ids::kRejectWritesNothing, changed < 0,
                  std::string(op.tensors()[slot].name) + " changed at byte " +
                      std::to_string(changed) + " by a rejected call");
  }
}

aclnnStatus Launch(const OperatorSymbols& symbols, const DeviceSession& session, DeviceCall* call) {
  if (call->workspace_bytes > 0)
    call->workspace.emplace(session.provider(), "workspace", call->workspace_bytes);
  return symbols.execute(call->workspace ? call->workspace->payload() : nullptr,
                         call->workspace_bytes, call->executor, session.stream());
}

void JudgeLaunch(aclnnStatus executed, const Provider& provider, DeviceCall* call, Outcome* outcome,
                 TestPointResult* result) {
  result->execute_status = executed;
  if (call->workspace) {
    const auto violation = call->workspace->GuardViolation();
    outcome->Rule(rule_ids::kGuardBytes, !violation, violation.value_or(""));
    call->workspace.reset();  // its memory then serves the outputs' downloads
  }
  if (executed != 0) result->provider_message = provider.RecentError();
  outcome->Rule(rule_ids::kStatus, executed == 0,
                WithProviderMessage("execute returned " + DescribeStatus(executed),
                                    result->provider_message));
}

CallDownloads CheckInputsAndDownload(const Operator& op, const PreparedPoint& prepared,
                                     DeviceCall* call, Outcome* outcome) {
  CallDownloads downloads;
  downloads.outputs.resize(op.tensors().size());
  for (size_t slot = 0; slot < op.tensors().size(); ++slot) {
    std::optional<GuardedBuffer>& buffer = call->buffers[slot];
    if (!buffer) continue;
    const TensorSlot& def = op.tensors()[slot];
    const HostTensor& host = *prepared.tensors[slot];
    if (def.role == SlotRole::kOutput) {
      downloads.outputs[slot] = buffer->Download();
      buffer.reset();
      continue;
    }
    const std::optional<std::string> violation = buffer->GuardViolation();
    outcome->Rule(rule_ids::kGuardBytes, !violation, violation.value_or(""));
    const int64_t changed = buffer->FirstDifference(host);
    buffer.reset();
    outcome->Rule(rule_ids::kInputsUnchanged, changed < 0,
                  std::string(def.name) + " changed at byte " + std::to_string(changed));
    if (IsFloating(host.view().dtype))
      downloads.floating_inputs.emplace_back(std::string(def.name), host.view());
  }
  return downloads;
}

void CheckOutputs(const TestPoint& point, const PreparedPoint& prepared,
                  const ReferenceResult& reference, const AcceptedStatuses& accepted,
                  CallDownloads downloads, const RunContext& context, Outcome* outcome,
                  TestPointResult* result, CapturedOutputs* captured) {
  const Operator& op = point.op();
  for (size_t slot = 0; slot < op.tensors().size(); ++slot) {
    if (!downloads.outputs[slot]) continue;
    const TensorSlot& def = op.tensors()[slot];
    const HostTensor& host = *prepared.tensors[slot];
    std::vector<std::byte> after = std::move(downloads.outputs[slot]->payload);
    const std::optional<std::string> violation =
        std::move(downloads.outputs[slot]->guard_violation);
    downloads.outputs[slot].reset();
    outcome->Rule(rule_ids::kGuardBytes, !violation, violation.value_or(""));
    const ReferenceOutput& expected = reference.outputs[slot];
    if (!expected.computed) {
      const int64_t changed = FirstChangeIn(host, after, 0, after.size());
      outcome->Rule(rule_ids::kUntouchedOutput, changed < 0,
                    std::string(def.name) + " must be left untouched but changed at byte " +
                        std::to_string(changed));
      continue;
    }
    result->outputs.push_back(
        CheckComputedOutput(point, def, host, after, expected, downloads, context, outcome));
    if (captured) {
      TensorView view = host.view();
      view.data = const_cast<std::byte*>(after.data());
      Capture(view, std::move(after), std::string(def.name), captured);
    }
  }
  for (const RuleDef* rule : accepted.call_rules)
    outcome->Rule(rule->id, outcome->failures().empty());
}

}  // namespace aclnn_check
