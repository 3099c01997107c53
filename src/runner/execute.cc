#include "runner/execute.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <set>

#include "cases/input_generator.h"
#include "catalogue/abi_call.h"
#include "core/block_values.h"
#include "core/heap.h"
#include "core/parallel_blocks.h"
#include "core/status.h"
#include "core/view_storage.h"
#include "runner/call_phases.h"
#include "runner/stage_clock.h"

namespace aclnn_check {

std::string ShellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

namespace {

void SetPhase(const RunContext& context, CallPhase phase) {
  if (context.phase) *context.phase = phase;
}

}  // namespace

std::string_view CallPhaseName(CallPhase phase) {
  switch (phase) {
    case CallPhase::kPrepare:
      return "preparing inputs";
    case CallPhase::kUpload:
      return "allocating and uploading buffers";
    case CallPhase::kGetWorkspaceSize:
      return "GetWorkspaceSize";
    case CallPhase::kExecute:
      return "execute";
    case CallPhase::kSynchronize:
      return "aclrtSynchronizeStream";
    case CallPhase::kCheck:
      return "copying back and checking";
  }
  return "unknown";
}

std::string ReproCommand(const TestPoint& point, const RunContext& context) {
  // Absolute paths: the line works when pasted from any folder. Matrix checks have no file; the
  // operator's case folder (or any case of it) regenerates them.
  const std::string& path = point.case_file->path;
  std::error_code error;
  const std::string cases = path == "<matrix>"
                                ? context.run_cases
                                : ShellQuote(std::filesystem::absolute(path, error).string());
  return context.repro_prefix + " " + cases + " --filter " + ShellQuote(point.id);
}

Tolerance ToleranceOf(const TestPoint& point, std::string_view output) {
  const OutputTolerance& documented = point.op().Tolerance(output);
  Tolerance tolerance{documented.ulp, documented.c, DType::kFloat32};
  const CaseFile& c = *point.case_file;
  if (c.ulp) tolerance.ulp = *c.ulp;
  if (c.c) tolerance.c = *c.c;
  if (auto it = c.c_by_output.find(std::string(output)); it != c.c_by_output.end()) tolerance.c = it->second;
  return tolerance;
}

ExpectationLookup ExpectationsOf(const Profiles& profiles) {
  return [&profiles](const RuleDef& rule) -> const Expectation& {
    const RuleOverride* o = profiles.Find(rule.id);
    return o && o->expect ? *o->expect : DocumentedExpectation(rule);
  };
}

namespace {

// A point's memory by part. On the host: each input's host copy (inputs are generated straight
// into it; an output's is only its fill) and the reference's value, mag and rule per output
// element (18 bytes; alt is sparse; references read their inputs a block or run at a time). On
// the device (the cpu provider's buffers are on this heap): every tensor's buffer. After the
// call: each output's download, checked a block at a time. Inputs are compared with their device
// copy chunk by chunk.
struct Footprint {
  uint64_t inputs = 0;
  uint64_t reference = 0;
  uint64_t device = 0;
  uint64_t downloads = 0;
};

Footprint FootprintOf(const TestPoint& point) {
  Footprint footprint;
  const OpArgs args = DescriptorArgs(point);
  for (size_t slot = 0; slot < args.tensors.size(); ++slot) {
    if (!args.tensors[slot]) continue;
    const TensorView& view = *args.tensors[slot];
    const uint64_t storage = static_cast<uint64_t>(view.storage_elements()) * DTypeSize(view.dtype);
    const bool output = point.op().tensors()[slot].role == SlotRole::kOutput;
    (output ? footprint.downloads : footprint.inputs) += storage;
    if (output) footprint.reference += 18 * static_cast<uint64_t>(view.numel());
    footprint.device += storage;
  }
  return footprint;
}

}  // namespace

BlockValues CapturedOutputs::ValuesOf(const std::string& name) const {
  const std::vector<std::byte>& encoded = bytes.at(name);
  const DType dtype = dtypes.at(name);
  TensorView view;
  view.dtype = dtype;
  view.shape = {static_cast<int64_t>(encoded.size() / DTypeSize(dtype))};
  view.strides = {1};
  view.data = const_cast<std::byte*>(encoded.data());
  return BlockValues(view);
}

DeviceOutputs CapturedOutputs::Decoded() const {
  DeviceOutputs decoded;
  for (const auto& output : bytes) {
    const std::string& name = output.first;
    const BlockValues values = ValuesOf(name);
    std::vector<double>& into = decoded[name];
    into.resize(static_cast<size_t>(values.size()));
    ForEachBlock(values.size(), [&](int64_t, int64_t begin, int64_t end) {
      const size_t at = static_cast<size_t>(begin);
      values.ReadInto(begin, std::span(into).subspan(at, static_cast<size_t>(end - begin)));
    });
  }
  return decoded;
}

uint64_t EstimatedBytes(const TestPoint& point, LaterCalls later) {
  const Footprint footprint = FootprintOf(point);
  const uint64_t after_call = footprint.inputs + footprint.downloads + footprint.reference;
  // One call: the inputs beside the device buffers, then beside the downloads and the reference.
  if (later == LaterCalls::kNone) return std::max(footprint.inputs + footprint.device, after_call);
  // A later call's device buffers beside what the first left.
  const uint64_t beside = after_call + footprint.device;
  return later == LaterCalls::kBesideItsReference ? beside : 2 * beside;
}

PreparedPoint PreparePoint(const TestPoint& point, bool with_reference) {
  const Operator& op = point.op();
  const CaseFile& c = *point.case_file;
  // Pages for what the point holds at its peak, faulted in by every thread instead of one page at
  // a time by this one: the inputs, and the device buffers beside the reference or, when the
  // runner computes the reference after the call, the larger of the device buffers and the
  // reference with the downloads (for another provider the device's part serves the downloads).
  const Footprint footprint = FootprintOf(point);
  const uint64_t after_call =
      with_reference ? footprint.reference + footprint.device
                     : std::max(footprint.device, footprint.downloads + footprint.reference);
  WarmHeap(footprint.inputs + after_call);
  PreparedPoint prepared;
  prepared.tensors.resize(op.tensors().size());
  const bool derive = op.def().derive_inputs && !op.derived_inputs().empty() &&
                      std::none_of(op.derived_inputs().begin(), op.derived_inputs().end(),
                                   [&](const std::string& t) { return c.explicit_inputs.count(t); });
  for (size_t slot = 0; slot < op.tensors().size(); ++slot) {
    const auto& plan = point.plan.tensors[slot];
    if (!plan) continue;
    const TensorSlot& def = op.tensors()[slot];
    const bool input = def.role == SlotRole::kInput;
    if (!input) {
      // Only the device holds the output's bytes; the host knows them as the sentinel.
      prepared.tensors[slot] =
          HostTensor::Filled(plan->dtype, plan->shape, point.layout, kOutputSentinel);
      continue;
    }
    prepared.tensors[slot].emplace(plan->dtype, plan->shape, point.layout, kInputGapFill);
    if (!IsFloating(plan->dtype)) continue;
    const std::string name(def.name);
    const InputSpec& spec = c.inputs.at(name);
    const CounterRandom random(c.seed, point.id, name);
    const SpecialContext ctx{plan->dtype, EpsParameter(point)};
    GenerateInto(spec, prepared.tensors[slot]->view(), random, ctx);
  }
  for (const auto& tensor : prepared.tensors) {
    prepared.args.tensors.push_back(tensor ? std::optional<TensorView>(tensor->view()) : std::nullopt);
  }
  prepared.args.params = point.plan.params;
  prepared.args.workspace_size_null = point.null_workspace_size;
  prepared.args.executor_null = point.null_executor;
  if (derive && point.expected.ok()) op.def().derive_inputs(prepared.args);
  if (with_reference && point.expected.ok()) prepared.reference = op.Reference(prepared.args);
  return prepared;
}

TestPointResult ResultIdentity(const TestPoint& point, const RunContext& context) {
  TestPointResult result;
  result.id = point.id;
  result.case_name = point.case_file->name;
  result.case_path = point.case_file->path;
  result.op = point.op().name();
  result.dtype = std::string(DTypeName(point.dtype));
  result.layout = point.layout.ToString();
  result.axes = point.axis_values;
  result.expected_status = point.expected.status;
  result.expected_rule = point.expected.rule;
  result.repro = ReproCommand(point, context);
  return result;
}

namespace {

// The call after its status: a rejected one writes nothing; an accepted one is launched,
// synchronised, and its inputs and outputs checked against the reference (computed here, after
// the call, in the memory the device buffers leave, when the prepared point has none).
void LaunchAndCheck(const TestPoint& point, const PreparedPoint& prepared,
                    const AcceptedStatuses& accepted, const DeviceSession& session,
                    const RunContext& context, DeviceCall* call, Outcome* outcome,
                    TestPointResult* result, CapturedOutputs* captured, StageClock* clock) {
  const Operator& op = point.op();
  PointStages& stages = result->stages;
  if (*result->status != 0) {
    CheckRejectedCall(op, prepared, *call, outcome);
    clock->Lap(&stages.check);
    return;
  }
  if (!point.expected.ok()) return;
  result->workspace_bytes = call->workspace_bytes;
  SetPhase(context, CallPhase::kExecute);
  const aclnnStatus executed = Launch(*context.provider->Symbols(op), session, call);
  SetPhase(context, CallPhase::kSynchronize);
  session.Synchronize();
  clock->Lap(&stages.call);
  SetPhase(context, CallPhase::kCheck);
  JudgeLaunch(executed, *context.provider, call, outcome, result);
  CallDownloads downloads = CheckInputsAndDownload(op, prepared, call, outcome);
  clock->Lap(&stages.check);
  std::optional<ReferenceResult> reference_here;
  if (!prepared.reference) reference_here = op.Reference(prepared.args);
  clock->Lap(&stages.reference);
  const ReferenceResult& reference = prepared.reference ? *prepared.reference : *reference_here;
  CheckOutputs(point, prepared, reference, accepted, std::move(downloads), context, outcome, result, captured);
  if (captured && reference_here) captured->reference = std::move(reference_here);
  clock->Lap(&stages.check);
}

}  // namespace

TestPointResult ExecutePoint(const TestPoint& point, const DeviceSession& session, const RunContext& context,
                             const PreparedPoint* given, CapturedOutputs* captured) {
  const auto start = std::chrono::steady_clock::now();
  TestPointResult result = ResultIdentity(point, context);
  if (point.case_file->cann_tolerance) {
    result.cann_standard = point.case_file->cann_tolerance->standard;
    result.cann_source = point.case_file->cann_tolerance->source;
  }
  const auto finish = [&](Verdict verdict) {
    result.verdict = verdict;
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  };
  const OperatorSymbols* symbols = context.provider->Symbols(point.op());
  if (!symbols) return finish(Verdict::kNotProvided);

  Outcome outcome(*context.profiles);
  StageClock clock;
  PointStages& stages = result.stages;
  try {
    SetPhase(context, CallPhase::kPrepare);
    std::optional<PreparedPoint> prepared_here;
    if (!given) prepared_here = PreparePoint(point, /*with_reference=*/false);
    const PreparedPoint& prepared = given ? *given : *prepared_here;
    const AcceptedStatuses accepted = AcceptedStatusesOf(point, prepared, *context.profiles);
    result.accepted_statuses = accepted.statuses;
    SetPhase(context, CallPhase::kUpload);
    DeviceCall call;
    UploadCall(point, prepared, session, &call);
    clock.Lap(&stages.prepare);
    SetPhase(context, CallPhase::kGetWorkspaceSize);
    const aclnnStatus status = GetWorkspace(point.op(), *symbols, &call);
    clock.Lap(&stages.call);
    SetPhase(context, CallPhase::kCheck);
    JudgeWorkspaceStatus(point, accepted, status, *context.provider, &outcome, &result);
    clock.Lap(&stages.check);
    LaunchAndCheck(point, prepared, accepted, session, context, &call, &outcome, &result, captured,
                   &clock);
    // A waived call rule (a whole kind of call the driver is known to get wrong) waives every
    // finding of the points it applies to; they stay in the report as waived.
    if (accepted.call_rule_waived) outcome.WaiveAll();
  } catch (const std::exception& error) {
    result.failures = outcome.failures();
    result.failures.push_back({"harness.status", std::string("harness error: ") + error.what()});
    result.rules = outcome.rules();
    return finish(Verdict::kError);
  }
  result.failures = outcome.failures();
  result.rules = outcome.rules();
  return finish(result.failures.empty() ? Verdict::kPassed : Verdict::kFailed);
}

}  // namespace aclnn_check
