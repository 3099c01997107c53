#include "runner/calling_patterns.h"

#include <algorithm>

#include "core/status.h"
#include "runner/cache_key_probes.h"
#include "runner/pattern_steps.h"
#include "runner/thread_patterns.h"

namespace aclnn_check {
namespace {

constexpr int kReusedExecutions = 3;  // the first launch and two on moved buffers
constexpr size_t kQueuedCompanions = 3;

// --- contract.reused_executor --------------------------------------------------------------

// Moves every tensor of the first call's executor to the buffers of `later` (the index counted
// over the operator's input, resp. output, slots in prototype order).
std::string MoveTensors(const PatternApi& api, const DeviceCall& first, const Operator& op,
                        DeviceCall* later) {
  size_t inputs = 0, outputs = 0;
  for (size_t slot = 0; slot < op.tensors().size(); ++slot) {
    const bool input = op.tensors()[slot].role == SlotRole::kInput;
    const size_t index = input ? inputs++ : outputs++;
    if (!later->buffers[slot]) continue;
    const auto setter = input ? api.set_input_addr : api.set_output_addr;
    const aclnnStatus status =
        setter(first.executor, index, first.tensors[slot].get(), later->buffers[slot]->payload());
    if (status != 0) {
      return std::string(input ? "aclSetInputTensorAddr" : "aclSetOutputTensorAddr") + "(" +
             std::to_string(index) + ", " + std::string(op.tensors()[slot].name) + ") returned " +
             DescribeStatus(status);
    }
  }
  later->executor = first.executor;
  later->workspace_bytes = first.workspace_bytes;
  return {};
}

// Executions 2.. of the repeatable executor, each on new buffers moved in with the setters.
void LaterExecutions(const TestPoint& point, const DeviceSession& session,
                     const RunContext& context, const DeviceCall& first, StepFailures* failures) {
  const PatternApi& api = context.provider->patterns();
  for (int execution = 2; execution <= kReusedExecutions; ++execution) {
    const std::string name = "execution " + std::to_string(execution);
    PatternStep later(name, WithNewInputs(point, "execution" + std::to_string(execution)));
    later.result = ResultIdentity(later.point, context);
    later.prepared = PreparePoint(later.point, /*with_reference=*/true);
    later.accepted = AcceptedStatusesOf(later.point, later.prepared, *context.profiles);
    UploadCall(later.point, later.prepared, session, later.call.get());
    const std::string moved = MoveTensors(api, first, point.op(), later.call.get());
    if (!moved.empty()) {
      failures->push_back(name + ": " + moved);
      return;
    }
    LaunchStep(session, context, &later);
    session.Synchronize();
    CheckStep(context, &later);
    Collect(later, failures);
  }
}

StepFailures ReusedExecutor(const TestPoint& point, const DeviceSession& session,
                            const RunContext& context) {
  const PatternApi& api = context.provider->patterns();
  StepFailures failures;
  PatternStep first("execution 1", WithNewInputs(point, "execution1"));
  if (!StartStep(session, context, &first)) {
    Collect(first, &failures);
    return failures;
  }
  const aclnnStatus repeatable = api.set_repeatable(first.call->executor);
  if (repeatable != 0)
    return {"aclSetAclOpExecutorRepeatable returned " + DescribeStatus(repeatable)};
  LaunchStep(session, context, &first);
  session.Synchronize();
  // Execution 1's buffers stay allocated (checked only after the later executions, which must
  // not touch them), so that an executor still on its first addresses writes there and fails
  // this rule by the outputs it left unwritten, not the worker by a write to freed memory.
  LaterExecutions(point, session, context, *first.call, &failures);
  CheckStep(context, &first);
  Collect(first, &failures);
  const aclnnStatus destroyed = api.destroy_executor(first.call->executor);
  if (destroyed != 0)
    failures.push_back("aclDestroyAclOpExecutor returned " + DescribeStatus(destroyed));
  return failures;
}

// --- contract.queued ------------------------------------------------------------------------

// Each step started (GetWorkspaceSize) and launched in turn on one stream, one synchronisation,
// then every call checked.
void LaunchAllThenCheck(const DeviceSession& session, const RunContext& context,
                        std::vector<PatternStep>* steps, StepFailures* failures) {
  std::vector<PatternStep*> launched;
  for (PatternStep& step : *steps) {
    if (!StartStep(session, context, &step)) continue;
    LaunchStep(session, context, &step);
    launched.push_back(&step);
  }
  session.Synchronize();
  for (PatternStep* step : launched) CheckStep(context, step);
  for (const PatternStep& step : *steps) Collect(step, failures);
}

// As a graph runtime runs a model: every executor made first (GetWorkspaceSize), then every
// launch on one stream, one synchronisation, then every call checked.
StepFailures Queued(const TestPoint& point, const DeviceSession& session,
                    const RunContext& context) {
  std::vector<PatternStep> steps;
  steps.emplace_back("launch 1 (" + point.id + ")", WithNewInputs(point, "queued"));
  for (const TestPoint* companion : QueueCompanions(point, context.product, kQueuedCompanions)) {
    steps.emplace_back("launch " + std::to_string(steps.size() + 1) + " (" + companion->id + ")",
                       WithNewInputs(*companion, "queued"));
  }
  std::vector<PatternStep*> started;
  for (PatternStep& step : steps) {
    if (StartStep(session, context, &step)) started.push_back(&step);
  }
  for (PatternStep* step : started) LaunchStep(session, context, step);
  session.Synchronize();
  for (PatternStep* step : started) CheckStep(context, step);
  StepFailures failures;
  for (const PatternStep& step : steps) Collect(step, &failures);
  return failures;
}

// --- contract.cache_key ---------------------------------------------------------------------

// A, B, A, B with new inputs each: once launched without synchronising, once synchronising after
// each call.
void Alternate(const TestPoint& a, const CacheKeyProbe& probe, const DeviceSession& session,
               const RunContext& context, StepFailures* failures) {
  const std::string what = "probe " + probe.differs_in + " (B = " + probe.partner->id + ")";
  for (const bool synchronised : {false, true}) {
    std::vector<PatternStep> steps;
    for (int call = 1; call <= 4; ++call) {
      const TestPoint& which = call % 2 == 1 ? a : *probe.partner;
      const std::string tag = (synchronised ? "sync" : "nosync") + std::to_string(call);
      steps.emplace_back(
          what + ", alternation " + std::to_string(call) + (call % 2 == 1 ? " (A" : " (B") +
              (synchronised ? ", synchronised after each)" : ", no synchronisation)"),
          WithNewInputs(which, tag));
    }
    if (!synchronised) {
      LaunchAllThenCheck(session, context, &steps, failures);
      continue;
    }
    for (PatternStep& step : steps) {
      if (StartStep(session, context, &step)) {
        LaunchStep(session, context, &step);
        session.Synchronize();
        CheckStep(context, &step);
      }
      Collect(step, failures);
    }
  }
}

StepFailures CacheKey(const TestPoint& point, const DeviceSession& session,
                      const RunContext& context) {
  StepFailures failures;
  for (const CacheKeyProbe& probe : CacheKeyProbes(point, context.product)) {
    Alternate(point, probe, session, context, &failures);
  }
  return failures;
}

// --- the rule ---------------------------------------------------------------------------------

// Why the provider cannot run the pattern, or "".
std::string MissingFunctions(Contract contract, const Provider& provider) {
  if (contract == Contract::kReusedExecutor && !provider.patterns().repeatable()) {
    return "the provider has no aclSetAclOpExecutorRepeatable, aclSetInputTensorAddr, "
           "aclSetOutputTensorAddr and aclDestroyAclOpExecutor";
  }
  if (contract == Contract::kConcurrent && !provider.patterns().contexts()) {
    return "the provider has no aclrtCreateContext, aclrtSetCurrentContext and "
           "aclrtDestroyContext";
  }
  return {};
}

StepFailures RunPattern(Contract contract, const TestPoint& point, const CapturedOutputs& first,
                        const DeviceSession& session, const RunContext& context) {
  switch (contract) {
    case Contract::kReusedExecutor:
      return ReusedExecutor(point, session, context);
    case Contract::kCacheKey:
      return CacheKey(point, session, context);
    case Contract::kQueued:
      return Queued(point, session, context);
    case Contract::kConcurrent:
      return Concurrent(point, first, context);
    case Contract::kDevicesAgree:
      return DevicesAgree(point, context);
  }
  return {};
}

// The command that replays the pattern on the point.
std::string PatternRepro(Contract contract, const std::string& point_repro,
                         const RunContext& context) {
  std::string repro = point_repro + " --contract " + std::string(ContractName(contract));
  if (contract == Contract::kDevicesAgree) repro += " --devices " + FormatDeviceList(context.devices);
  return repro;
}

}  // namespace

std::vector<Contract> PointContracts(const TestPoint& point, const RunContext& context) {
  std::vector<Contract> contracts = context.contracts;
  if (!context.case_file_contracts) return contracts;
  for (const std::string& name : point.case_file->contracts) {
    const std::optional<Contract> contract = ParseContract(name);  // the schema checked the name
    if (contract && std::find(contracts.begin(), contracts.end(), *contract) == contracts.end())
      contracts.push_back(*contract);
  }
  return contracts;
}

int CallingPatternCalls(const TestPoint& point, const RunContext& context) {
  if (!point.expected.ok()) return 0;
  int calls = 0;
  for (const Contract contract : PointContracts(point, context)) {
    switch (contract) {
      case Contract::kReusedExecutor:
        calls += kReusedExecutions;
        break;
      case Contract::kCacheKey:
        calls += 8 * static_cast<int>(CacheKeyProbes(point, context.product).size());
        break;
      case Contract::kQueued:
        calls += 1 + static_cast<int>(kQueuedCompanions);
        break;
      case Contract::kConcurrent:
        calls += ConcurrentCalls();
        break;
      case Contract::kDevicesAgree:
        calls += static_cast<int>(context.devices.size());
        break;
    }
  }
  return calls;
}

void RunCallingPatterns(const TestPoint& point, const CapturedOutputs& first,
                        const DeviceSession& session, const RunContext& context,
                        TestPointResult* result) {
  for (const Contract contract : PointContracts(point, context)) {
    const std::string rule = ContractRule(contract);
    const std::string missing = MissingFunctions(contract, *context.provider);
    if (!missing.empty()) {
      result->advisory.push_back({rule, "not provided: " + missing});
      continue;
    }
    StepFailures failures;
    try {
      failures = RunPattern(contract, point, first, session, context);
    } catch (const std::exception& error) {
      failures.push_back(std::string("harness error: ") + error.what());
    }
    const RuleOverride* override = context.profiles->Find(rule);
    const bool waived = override && override->waive;
    result->rules.push_back({rule, failures.empty(), waived, 0});
    if (failures.empty() || waived) continue;
    std::string message = rule + " failed in " + std::to_string(failures.size()) + " call(s): ";
    for (size_t i = 0; i < failures.size() && i < 4; ++i) message += (i ? "; " : "") + failures[i];
    message += ". Repro: " + PatternRepro(contract, result->repro, context);
    result->failures.push_back({rule, message});
    if (result->verdict == Verdict::kPassed) result->verdict = Verdict::kFailed;
  }
}

}  // namespace aclnn_check
