#include "runner/calling_patterns.h"

#include <algorithm>
#include <thread>

#include "core/status.h"
#include "runner/cache_key_probes.h"
#include "runner/pattern_steps.h"

namespace aclnn_check {
namespace {

constexpr int kReusedExecutions = 3;  // the first launch and two on moved buffers
constexpr size_t kQueuedCompanions = 3;
constexpr int kConcurrentThreads = 2;

// What a pattern found: one line per failing call, "<step>: <rule>: <message>".
using StepFailures = std::vector<std::string>;

void Collect(const PatternStep& step, StepFailures* failures) {
  for (const std::string& failure : step.failures) failures->push_back(step.name + ": " + failure);
}

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
  CheckStep(context, &first);
  Collect(first, &failures);
  for (int execution = 2; execution <= kReusedExecutions; ++execution) {
    const std::string name = "execution " + std::to_string(execution);
    PatternStep later(name, WithNewInputs(point, "execution" + std::to_string(execution)));
    later.result = ResultIdentity(later.point, context);
    later.prepared = PreparePoint(later.point, /*with_reference=*/true);
    later.accepted = AcceptedStatusesOf(later.point, later.prepared, *context.profiles);
    UploadCall(later.point, later.prepared, session, later.call.get());
    const std::string moved = MoveTensors(api, *first.call, point.op(), later.call.get());
    if (!moved.empty()) {
      failures.push_back(name + ": " + moved);
      break;
    }
    LaunchStep(session, context, &later);
    session.Synchronize();
    CheckStep(context, &later);
    Collect(later, &failures);
  }
  const aclnnStatus destroyed = api.destroy_executor(first.call->executor);
  if (destroyed != 0)
    failures.push_back("aclDestroyAclOpExecutor returned " + DescribeStatus(destroyed));
  return failures;
}  // namespace

// --- contract.queued ------------------------------------------------------------------------

// Starts and launches each step on one stream, synchronises once, then checks every call.
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

StepFailures Queued(const TestPoint& point, const DeviceSession& session,
                    const RunContext& context) {
  std::vector<PatternStep> steps;
  steps.emplace_back("launch 1 (" + point.id + ")", WithNewInputs(point, "queued"));
  for (const TestPoint* companion : CaseCompanions(point, context.product, kQueuedCompanions)) {
    steps.emplace_back("launch " + std::to_string(steps.size() + 1) + " (" + companion->id + ")",
                       WithNewInputs(*companion, "queued"));
  }
  StepFailures failures;
  LaunchAllThenCheck(session, context, &steps, &failures);
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

// --- contract.concurrent --------------------------------------------------------------------

// The first difference between a thread's outputs and the serial call's, or "".
std::string FirstDifference(const CapturedOutputs& serial, const CapturedOutputs& thread) {
  for (const auto& [name, bytes] : serial.bytes) {
    const auto it = thread.bytes.find(name);
    if (it == thread.bytes.end()) return name + " was not computed";
    const auto [mine, theirs] =
        std::mismatch(bytes.begin(), bytes.end(), it->second.begin(), it->second.end());
    if (mine != bytes.end() || theirs != it->second.end()) {
      return name + " differs from the serial call's at byte " +
             std::to_string(mine - bytes.begin());
    }
  }
  return {};
  }

  // One worker thread: its own context and stream on device 0, the point's own inputs, checked
  // against the reference and compared bit for bit with the serial call.
  void ConcurrentWorker(const TestPoint& point, const CapturedOutputs& serial,
                        const RunContext& context, PatternStep* step) {
    try {
      const DeviceSession session(*context.provider, 0, /*own_context=*/true);
      if (!StartStep(session, context, step)) return;
      LaunchStep(session, context, step);
      session.Synchronize();
      CapturedOutputs mine;
      CheckStep(context, step, &mine);
      const std::string difference = FirstDifference(serial, mine);
      if (!difference.empty())
        step->failures.push_back(ContractRule(Contract::kConcurrent) + ": " + difference);
    } catch (const std::exception& error) {
      step->failures.push_back(std::string("harness error: ") + error.what());
    }
    (void)point;
  }

  StepFailures Concurrent(const TestPoint& point, const CapturedOutputs& first,
                          const RunContext& context) {
    std::vector<PatternStep> steps(kConcurrentThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kConcurrentThreads; ++t) {
      steps[t].name = "thread " + std::to_string(t + 1);
      steps[t].point = point;
    }
    for (int t = 0; t < kConcurrentThreads; ++t) {
      threads.emplace_back(ConcurrentWorker, std::cref(point), std::cref(first), std::cref(context),
                           &steps[t]);
    }
    for (std::thread& thread : threads) thread.join();
    StepFailures failures;
    for (const PatternStep& step : steps) Collect(step, &failures);
    return failures;
  }

  // --- the rule ---------------------------------------------------------------------------------

  // Why the provider cannot run the pattern, or "".
  std::string MissingFunctions(Contract contract, const Provider& provider) {
    if (contract == Contract::kReusedExecutor && !provider.patterns().repeatable()) {
      return "the provider has no aclSetAclOpExecutorRepeatable, aclSetInputTensorAddr, "
             "aclSetOutputTensorAddr "
             "and aclDestroyAclOpExecutor";
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
    }
    return {};
  }

}  // namespace

void RunCallingPatterns(const TestPoint& point, const CapturedOutputs& first,
                        const DeviceSession& session, const RunContext& context,
                        TestPointResult* result) {
  for (const Contract contract : context.contracts) {
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
    message += ". Repro: " + result->repro + " --contract " + std::string(ContractName(contract));
    result->failures.push_back({rule, message});
    if (result->verdict == Verdict::kPassed) result->verdict = Verdict::kFailed;
  }
}

}  // namespace aclnn_check
