// One call inside a calling pattern, as the default call makes it but in steps a pattern orders
// itself (start: prepare, upload, GetWorkspaceSize; launch; check after the pattern's
// synchronisation), with the point's companions that patterns call beside it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runner/call_phases.h"

namespace aclnn_check {

struct PatternStep {
  PatternStep() = default;
  PatternStep(std::string step_name, TestPoint step_point)
      : name(std::move(step_name)), point(std::move(step_point)) {}

  std::string name;  // "execution 2", "thread 1", ... : where in the pattern a failure was
  TestPoint point;
  PreparedPoint prepared;  // with its reference
  AcceptedStatuses accepted;
  std::unique_ptr<DeviceCall> call = std::make_unique<DeviceCall>();
  TestPointResult result;
  std::vector<std::string> failures;  // "<rule>: <message>" of this call
  aclnnStatus executed = 0;
};

// What a pattern found: one line per failing call, "<step>: <rule>: <message>".
using StepFailures = std::vector<std::string>;

// Adds the step's failures, each prefixed with the step's name.
void Collect(const PatternStep& step, StepFailures* failures);

// The point with new inputs of the same shapes: the generator is keyed by the point's id, so a
// tagged id draws other data.
TestPoint WithNewInputs(const TestPoint& point, const std::string& tag);

// Prepares the step's point (with its reference), uploads it and calls GetWorkspaceSize; false
// (with the failure recorded) when the call was not accepted with status 0.
bool StartStep(const DeviceSession& session, const RunContext& context, PatternStep* step);
// Launches the step's executor on the session's stream (no synchronisation).
void LaunchStep(const DeviceSession& session, const RunContext& context, PatternStep* step);
// After the pattern's synchronisation: the default call's checks of this call; captured, when
// set, receives the outputs.
void CheckStep(const RunContext& context, PatternStep* step, CapturedOutputs* captured = nullptr);

// The first difference between two calls' outputs, "" when they are bit-identical;
// `whose` names the other call ("the serial call's", "device 0's").
std::string FirstDifference(const CapturedOutputs& expected, const CapturedOutputs& actual,
                            const std::string& whose);

// Every point of the case on the product, expanded once (the points live as long as the process).
const std::vector<TestPoint>& CasePoints(const CaseFile& case_file, Product product);

// Up to `most` other points of the point's case that must succeed, in the case's order after the
// point (each case expanded once per product; the points live as long as the process).
std::vector<const TestPoint*> CaseCompanions(const TestPoint& point, Product product, size_t most);

// contract.queued's companions: up to `most` points of the case, as CaseCompanions, each with
// tensor shapes unlike the point's and the other companions' (two calls of one shape alive together
// are what contract.cache_key probes; docs/calling-patterns.md).
std::vector<const TestPoint*> QueueCompanions(const TestPoint& point, Product product, size_t most);

}  // namespace aclnn_check
