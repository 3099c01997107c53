#include "runner/point_run.h"

#include <chrono>

#include "core/status.h"
#include "runner/calling_patterns.h"
#include "runner/determinism.h"
#include "runner/failure_archive.h"
#include "runner/precision_gate.h"
#include "runner/stage_clock.h"

namespace aclnn_check {
namespace {

constexpr const char* kDeterministicRule = "harness.deterministic";

// Calls 2..repeat on the same host side; each makes new device buffers and a new executor.
void CheckRepeatedCalls(const TestPoint& point, const PreparedPoint& prepared, const CapturedOutputs& first,
                        const DeviceSession& session, const RunContext& context, TestPointResult* result) {
  std::map<std::string, DType> dtypes;
  for (const OutputResult& output : result->outputs) dtypes[output.name] = *ParseDType(output.dtype);
  DeterminismCheck check(first, dtypes);
  for (int call = 2; call <= context.repeat; ++call) {
    CapturedOutputs later;
    const TestPointResult again = ExecutePoint(point, session, context, &prepared, &later);
    if (again.status != 0 || again.execute_status != 0) {
      check.AddFailedCall(call, "GetWorkspaceSize returned " + DescribeStatus(again.status.value_or(-1)) +
                                    (again.execute_status ? ", execute " + DescribeStatus(*again.execute_status) : "") +
                                    " where call 1 succeeded");
    } else {
      check.Add(call, later);
    }
  }
  const RuleOverride* override = context.profiles->Find(kDeterministicRule);
  const bool waived = override && override->waive;
  const bool held = check.deterministic();
  result->rules.push_back({kDeterministicRule, held, waived, 0});
  if (held || waived) return;
  std::string message;
  for (const std::string& sentence : check.Differences()) message += (message.empty() ? "" : "; ") + sentence;
  result->failures.push_back({kDeterministicRule, message});
  if (result->verdict == Verdict::kPassed) result->verdict = Verdict::kFailed;
}

bool Failing(Verdict verdict) { return verdict == Verdict::kFailed || verdict == Verdict::kError; }

}  // namespace

// The point's whole wall time in `seconds`; ExecutePoint's stages plus those around it.
TestPointResult RunTestPoint(const TestPoint& point, const DeviceSession& session, const RunContext& context) {
  const bool repeat = context.repeat > 1 && point.expected.ok();
  const bool patterns = !PointContracts(point, context).empty() && point.expected.ok();
  if (!repeat && !patterns && !context.failure_archive && !context.precision) {
    return ExecutePoint(point, session, context);
  }
  if (!context.provider->Symbols(point.op())) return ExecutePoint(point, session, context);
  const auto start = std::chrono::steady_clock::now();
  std::optional<PreparedPoint> prepared;
  try {
    if (context.phase) *context.phase = CallPhase::kPrepare;
    // The reference comes after the first call, in the memory its device buffers leave.
    prepared = PreparePoint(point, /*with_reference=*/false);
  } catch (const std::exception&) {
    // The plain call reports the same error the usual way.
    return ExecutePoint(point, session, context);
  }
  const double prepare_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CapturedOutputs first;
  TestPointResult result = ExecutePoint(point, session, context, &*prepared, &first);
  PointStages& stages = result.stages;
  stages.prepare += prepare_seconds;
  StageClock clock;
  if (first.reference) prepared->reference = std::move(first.reference);
  const bool computed = result.status == 0 && result.execute_status == 0;
  if (context.precision && computed) context.precision->Apply(point, *prepared, first, session, context, &result);
  clock.Lap(&stages.precision);
  if (repeat && computed) {
    CheckRepeatedCalls(point, *prepared, first, session, context, &result);
    clock.Lap(&stages.repeat);
  }
  if (patterns && computed) {
    RunCallingPatterns(point, first, session, context, &result);
    clock.Lap(&stages.patterns);
  }
  if (context.failure_archive && Failing(result.verdict)) {
    result.failure_data = context.failure_archive->Save(point, *prepared, first, result);
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace aclnn_check
