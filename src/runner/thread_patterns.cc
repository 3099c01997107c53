#include "runner/thread_patterns.h"

#include <barrier>
#include <functional>
#include <optional>
#include <thread>

namespace aclnn_check {
namespace {

// Four threads, not two: a scratch buffer shared by every thread is overwritten only when two
// kernels overlap, which on a machine with two cores two threads rarely do.
constexpr int kConcurrentThreads = 4;
constexpr int kConcurrentRounds = 3;

// One call on an open session, checked, and compared bit for bit with `expected` when given;
// `ready` (when set) is called between GetWorkspaceSize and the launch, started or not.
void CallAndCompare(const DeviceSession& session, const RunContext& context, Contract rule,
                    const CapturedOutputs* expected, const std::string& whose, PatternStep* step,
                    CapturedOutputs* captured, const std::function<void()>& ready = {}) {
  bool started = false;
  try {
    started = StartStep(session, context, step);
  } catch (const std::exception& error) {
    step->failures.push_back(std::string("harness error: ") + error.what());
  }
  if (ready) ready();
  if (!started) return;
  try {
    LaunchStep(session, context, step);
    session.Synchronize();
    CheckStep(context, step, captured);
    if (!expected) return;
    const std::string difference = FirstDifference(*expected, *captured, whose);
    if (!difference.empty()) step->failures.push_back(ContractRule(rule) + ": " + difference);
  } catch (const std::exception& error) {
    step->failures.push_back(std::string("harness error: ") + error.what());
  }
}

// One thread of contract.concurrent: its own context and stream, one call per round, each round
// launched with the other threads'.
void ConcurrentThread(const CapturedOutputs* serial, const RunContext& context,
                      std::barrier<>* start, std::vector<PatternStep>* rounds) {
  std::optional<DeviceSession> session;
  try {
    session.emplace(*context.provider, 0, /*own_context=*/true);
  } catch (const std::exception& error) {
    rounds->front().failures.push_back(std::string("harness error: ") + error.what());
    start->arrive_and_drop();
    return;
  }
  for (PatternStep& round : *rounds) {
    CapturedOutputs mine;
    // Every thread prepares its call first and launches when all are ready, so that the launches,
    // not the preparations, overlap.
    CallAndCompare(*session, context, Contract::kConcurrent, serial, "the serial call's", &round,
                   &mine, [start] { start->arrive_and_wait(); });
  }
}

}  // namespace

int ConcurrentCalls() { return kConcurrentThreads * kConcurrentRounds; }

StepFailures Concurrent(const TestPoint& point, const CapturedOutputs& serial,
                        const RunContext& context) {
  // Thread 1 calls with the point's own inputs (its outputs must equal the serial call's bit for
  // bit), the others each with inputs of their own, so that a call that computes in another's
  // memory gets values its reference does not have.
  std::vector<std::vector<PatternStep>> steps(kConcurrentThreads);
  for (int t = 0; t < kConcurrentThreads; ++t) {
    for (int round = 1; round <= kConcurrentRounds; ++round) {
      const std::string name = "thread " + std::to_string(t + 1) + ", round " + std::to_string(round);
      steps[t].emplace_back(name, t == 0 ? point
                                         : WithNewInputs(point, "thread" + std::to_string(t + 1) +
                                                                    "round" + std::to_string(round)));
    }
  }
  std::barrier<> start(kConcurrentThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kConcurrentThreads; ++t) {
    threads.emplace_back(ConcurrentThread, t == 0 ? &serial : nullptr, std::cref(context), &start,
                         &steps[t]);
  }
  for (std::thread& thread : threads) thread.join();
  StepFailures failures;
  for (const auto& rounds : steps) {
    for (const PatternStep& step : rounds) Collect(step, &failures);
  }
  return failures;
}

StepFailures DevicesAgree(const TestPoint& point, const RunContext& context) {
  StepFailures failures;
  CapturedOutputs first;
  for (size_t i = 0; i < context.devices.size(); ++i) {
    const int32_t device = context.devices[i];
    PatternStep step("device " + std::to_string(device), point);
    CapturedOutputs mine;
    const std::string whose = "device " + std::to_string(context.devices[0]) + "'s";
    // A thread of its own, as a program drives each device: aclrtSetDevice makes the device's
    // context current on the calling thread only, and the worker's own thread stays on device 0.
    std::thread thread([&] {
      try {
        const DeviceSession session(*context.provider, device, /*own_context=*/false);
        CallAndCompare(session, context, Contract::kDevicesAgree, i == 0 ? nullptr : &first,
                       whose, &step, &mine);
      } catch (const std::exception& error) {
        step.failures.push_back(std::string("harness error: ") + error.what());
      }
    });
    thread.join();
    if (i == 0) first = std::move(mine);
    Collect(step, &failures);
  }
  return failures;
}

}  // namespace aclnn_check
