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
#include "runner/abi_params.h"
#include "runner/guarded_buffer.h"

namespace aclnn_check {
namespace {

}  // namespace

std::string ShellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

namespace {

std::string StatusList(const std::vector<int>& statuses) {
  std::string text;
  for (int s : statuses) text += (text.empty() ? "" : " or ") + DescribeStatus(s);
  return text;
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
    const int64_t changed = FirstChangeIn(before, after, from, static_cast<size_t>(inside.begin) * size);
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

class Outcome {
 public:
  explicit Outcome(const Profiles& profiles) : profiles_(profiles) {}

  // Records that a rule applied; a failure (held = false) becomes a finding unless waived.
  void Rule(const std::string& id, bool held, const std::string& failure_message = "",
            int64_t elements = 0) {
    auto it = std::find_if(rules_.begin(), rules_.end(), [&](const RuleOutcome& r) { return r.id == id; });
    if (it == rules_.end()) {
      rules_.push_back({id, true, false, 0});
      it = rules_.end() - 1;
    }
    const RuleOverride* override = profiles_.Find(id);
    it->waived = override && override->waive;
    it->elements += elements;
    if (!held) {
      it->held = false;
      if (!it->waived) failures_.push_back({id, failure_message});
    }
  }
  void WaiveAll() {
    for (RuleOutcome& rule : rules_) {
      if (!rule.held) rule.waived = true;
    }
    failures_.clear();
  }
  std::vector<RuleOutcome>& rules() { return rules_; }
  std::vector<Finding>& failures() { return failures_; }

 private:
  const Profiles& profiles_;
  std::vector<RuleOutcome> rules_;
  std::vector<Finding> failures_;
};

std::string DescribeElement(const ElementReport& e) {
  return "worst element [" + std::to_string(e.index) + "]: device " + std::to_string(e.device) +
         ", reference " + std::to_string(e.reference) + ", " + std::to_string(e.ulp_error) + " ulp";
}

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

TestPointResult ExecuteTestPoint(const TestPoint& point, const DeviceSession& session,
                                 const RunContext& context) {
  return ExecutePreparedPoint(point, std::nullopt, session, context);
}

TestPointResult ExecutePreparedPoint(const TestPoint& point, std::optional<PreparedPoint> given,
                                     const DeviceSession& session, const RunContext& context,
                                     DeviceOutputs* device_outputs) {
  CapturedOutputs captured;
  TestPointResult result =
      ExecuteOnPrepared(point, given ? &*given : nullptr, session, context, device_outputs ? &captured : nullptr);
  if (device_outputs) *device_outputs = captured.Decoded();
  return result;
}

TestPointResult ExecuteOnPrepared(const TestPoint& point, const PreparedPoint* given,
                                  const DeviceSession& session, const RunContext& context,
                                  CapturedOutputs* captured) {
  const auto start = std::chrono::steady_clock::now();
  const Operator& op = point.op();
  const Provider& provider = *context.provider;
  TestPointResult result;
  result.id = point.id;
  result.case_name = point.case_file->name;
  result.case_path = point.case_file->path;
  result.op = op.name();
  result.dtype = std::string(DTypeName(point.dtype));
  result.layout = point.layout.ToString();
  result.axes = point.axis_values;
  result.expected_status = point.expected.status;
  result.expected_rule = point.expected.rule;
  result.repro = ReproCommand(point, context);
  if (point.case_file->cann_tolerance) {
    result.cann_standard = point.case_file->cann_tolerance->standard;
    result.cann_source = point.case_file->cann_tolerance->source;
  }
  const auto finish = [&](Verdict verdict) {
    result.verdict = verdict;
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  };

  const OperatorSymbols* symbols = provider.Symbols(op);
  if (!symbols) return finish(Verdict::kNotProvided);

  Outcome outcome(*context.profiles);
  try {
    SetPhase(context, CallPhase::kPrepare);
    // A point prepared here gets its reference after the call, in the memory the device buffers
    // leave (a given point may bring its own, as the golden and precision checks do).
    std::optional<PreparedPoint> prepared_here;
    if (!given) prepared_here = PreparePoint(point, /*with_reference=*/false);
    const PreparedPoint& prepared = given ? *given : *prepared_here;
    // Statuses the device may answer with.
    std::vector<int> accepted = {point.expected.status};
    bool any_status = false;
    if (!point.expected.ok()) {
      if (const RuleOverride* o = context.profiles->Find(point.expected.rule)) {
        accepted.insert(accepted.end(), o->status.begin(), o->status.end());
        any_status = o->waive;
      }
    }
    std::vector<const RuleDef*> call_rules;
    bool call_rule_waived = false;
    if (point.expected.ok()) {
      const std::vector<RuleTag> tags =
          prepared.reference ? prepared.reference->call_rules : op.CallRules(prepared.args);
      for (RuleTag tag : tags) {
        const RuleDef& rule = op.RuleOfTag(tag);
        call_rules.push_back(&rule);
        accepted.insert(accepted.end(), rule.accept_status.begin(), rule.accept_status.end());
        if (const RuleOverride* o = context.profiles->Find(rule.id)) {
          accepted.insert(accepted.end(), o->status.begin(), o->status.end());
          call_rule_waived = call_rule_waived || o->waive;
        }
      }
    }
    result.accepted_statuses = accepted;

    // Device buffers: one per tensor, the same bytes as the host copy (gaps and sentinels
    // too), between guard regions.
    SetPhase(context, CallPhase::kUpload);
    std::vector<std::optional<GuardedBuffer>> buffers(op.tensors().size());
    std::vector<ProviderHandle<aclTensor>> tensors;
    AbiCall abi;
    for (size_t slot = 0; slot < op.tensors().size(); ++slot) {
      if (!prepared.tensors[slot]) {
        abi.tensors.push_back(nullptr);
        continue;
      }
      const HostTensor& host = *prepared.tensors[slot];
      buffers[slot].emplace(provider, std::string(op.tensors()[slot].name), host);
      const int64_t storage = static_cast<int64_t>(host.byte_size() / DTypeSize(host.view().dtype));
      tensors.push_back(session.CreateTensor(host.view(), buffers[slot]->payload(), storage));
      abi.tensors.push_back(tensors.back().get());
    }
    const AbiParams params(op, session, point.plan.params);
    abi.params = params.values();
    uint64_t workspace_bytes = 0;
    aclOpExecutor* executor = nullptr;
    abi.workspace_size = point.null_workspace_size ? nullptr : &workspace_bytes;
    abi.executor = point.null_executor ? nullptr : &executor;

    SetPhase(context, CallPhase::kGetWorkspaceSize);
    const aclnnStatus status = op.def().invoke_get_workspace_size(symbols->get_workspace_size, abi);
    SetPhase(context, CallPhase::kCheck);
    result.status = status;
    if (status != 0) result.provider_message = provider.RecentError();
    const bool status_ok =
        any_status || std::find(accepted.begin(), accepted.end(), status) != accepted.end();
    const std::string status_rule = point.expected.ok() ? "harness.status" : point.expected.rule;
    outcome.Rule(status_rule, status_ok,
                 "GetWorkspaceSize returned " + DescribeStatus(status) + ", expected " +
                     StatusList(accepted) +
                     (result.provider_message.empty() ? "" : " (provider: " + result.provider_message + ")"));
    for (const RuleDef* rule : call_rules) {
      if (!rule->accept_status.empty()) {
        const bool rejected_as_allowed =
            std::find(rule->accept_status.begin(), rule->accept_status.end(), status) !=
            rule->accept_status.end();
        if (rejected_as_allowed) outcome.Rule(rule->id, true);
      }
    }

    if (status != 0) {
      // A rejected call writes nothing.
      for (size_t slot = 0; slot < op.tensors().size(); ++slot) {
        if (!buffers[slot] || op.tensors()[slot].role != SlotRole::kOutput) continue;
        if (const auto violation = buffers[slot]->GuardViolation()) {
          outcome.Rule("harness.guard_bytes", false, *violation);
        }
        const int64_t changed = buffers[slot]->FirstDifference(*prepared.tensors[slot]);
        outcome.Rule("harness.reject_writes_nothing", changed < 0,
                     std::string(op.tensors()[slot].name) + " changed at byte " +
                         std::to_string(changed) + " by a rejected call");
      }
    } else if (point.expected.ok()) {
      result.workspace_bytes = workspace_bytes;
      std::optional<GuardedBuffer> workspace;
      if (workspace_bytes > 0) workspace.emplace(provider, "workspace", workspace_bytes);
      SetPhase(context, CallPhase::kExecute);
      const aclnnStatus executed = symbols->execute(workspace ? workspace->payload() : nullptr,
                                                    workspace_bytes, executor, session.stream());
      result.execute_status = executed;
      SetPhase(context, CallPhase::kSynchronize);
      session.Synchronize();
      SetPhase(context, CallPhase::kCheck);
      if (workspace) {
        const auto violation = workspace->GuardViolation();
        outcome.Rule("harness.guard_bytes", !violation, violation.value_or(""));
        workspace.reset();  // its memory then serves the outputs' downloads
      }
      if (executed != 0) result.provider_message = provider.RecentError();
      outcome.Rule("harness.status", executed == 0,
                   "execute returned " + DescribeStatus(executed) +
                       (result.provider_message.empty() ? "" : " (provider: " + result.provider_message + ")"));

      // Every input's guards and bytes are compared with its host copy chunk by chunk, every
      // output is downloaded, and each device buffer is freed at once; the reference then takes
      // the memory they leave. An output's guards are judged with the output, as before.
      // Floating inputs, for the worst elements' input values (decoded one element each).
      std::vector<std::pair<std::string, TensorView>> input_views;
      std::vector<std::optional<GuardedBuffer::Contents>> downloads(op.tensors().size());
      for (size_t slot = 0; slot < op.tensors().size(); ++slot) {
        if (!buffers[slot]) continue;
        const TensorSlot& def = op.tensors()[slot];
        const HostTensor& host = *prepared.tensors[slot];
        if (def.role == SlotRole::kOutput) {
          downloads[slot] = buffers[slot]->Download();
          buffers[slot].reset();
          continue;
        }
        const std::optional<std::string> violation = buffers[slot]->GuardViolation();
        outcome.Rule("harness.guard_bytes", !violation, violation.value_or(""));
        const int64_t changed = buffers[slot]->FirstDifference(host);
        buffers[slot].reset();
        outcome.Rule("harness.inputs_unchanged", changed < 0,
                     std::string(def.name) + " changed at byte " + std::to_string(changed));
        if (IsFloating(host.view().dtype)) {
          input_views.emplace_back(std::string(def.name), host.view());
        }
      }
      std::optional<ReferenceResult> reference_here;
      if (!prepared.reference) reference_here = op.Reference(prepared.args);
      const ReferenceResult& reference = prepared.reference ? *prepared.reference : *reference_here;
      for (size_t slot = 0; slot < op.tensors().size(); ++slot) {
        if (!downloads[slot]) continue;
        const TensorSlot& def = op.tensors()[slot];
        const HostTensor& host = *prepared.tensors[slot];
        std::vector<std::byte> after = std::move(downloads[slot]->payload);
        const std::optional<std::string> violation = std::move(downloads[slot]->guard_violation);
        downloads[slot].reset();
        outcome.Rule("harness.guard_bytes", !violation, violation.value_or(""));
        const ReferenceOutput& expected = reference.outputs[slot];
        if (!expected.computed) {
          const int64_t changed = FirstChangeIn(host, after, 0, after.size());
          outcome.Rule("harness.untouched_output", changed < 0,
                       std::string(def.name) + " must be left untouched but changed at byte " +
                           std::to_string(changed));
          continue;
        }
        const int64_t outside = FirstChangeOutside(host, after);
        outcome.Rule("harness.writes_inside_view", outside < 0,
                     std::string(def.name) + " written outside its view at byte " +
                         std::to_string(outside));
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
        for (const auto& [input, input_view] : input_views) {
          if (input_view.numel() == view.numel() && check.metrics.worst.index >= 0) {
            const int64_t storage = StorageIndexOf(input_view, check.metrics.worst.index);
            output.worst_inputs[input] = DecodeElement(input_view.element_address(storage), input_view.dtype);
          }
        }
        int64_t rule_failures = 0;
        for (const auto& [rule_id, tally] : check.rules) {
          if (rule_id == "numerics.rounding_bias" || rule_id == "numerics.underflow") continue;
          rule_failures += tally.applied - tally.held;
          outcome.Rule(rule_id, tally.held == tally.applied,
                       std::string(def.name) + ": " + std::to_string(tally.applied - tally.held) +
                           " of " + std::to_string(tally.applied) + " elements differ, first at [" +
                           std::to_string(tally.first_failure) + "]",
                       tally.applied);
        }
        const int64_t plain_failures = check.metrics.failures - rule_failures;
        outcome.Rule("numerics.element_bound", plain_failures == 0,
                     std::string(def.name) + ": " + std::to_string(plain_failures) + " of " +
                         std::to_string(check.metrics.elements) + " elements outside the bound; " +
                         DescribeElement(check.metrics.worst),
                     check.metrics.elements);
        if (check.metrics.rounding_bias) {
          outcome.Rule("numerics.rounding_bias", check.metrics.rounding_bias_ok,
                       std::string(def.name) + ": mean signed error " +
                           std::to_string(*check.metrics.rounding_bias) +
                           " ulp; correctly rounded: " +
                           std::to_string(*check.metrics.correctly_rounded_bias) +
                           " ulp (limit 0.1 on either the error or its excess)");
        }
        if (check.metrics.underflow_accepted > 0) outcome.Rule("numerics.underflow", true);
        result.outputs.push_back(std::move(output));
        if (captured) Capture(view, std::move(after), std::string(def.name), captured);
      }
      for (const RuleDef* rule : call_rules) outcome.Rule(rule->id, outcome.failures().empty());
      if (captured && reference_here) captured->reference = std::move(reference_here);
    }
    // A waived call rule (a whole kind of call the driver is known to get wrong) waives every
    // finding of the points it applies to; they stay in the report as waived.
    if (call_rule_waived) outcome.WaiveAll();
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
