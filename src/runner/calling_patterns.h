// The calling patterns of production code (docs/contract/interface.md, calling patterns; the
// account in docs/calling-patterns.md): each a rule contract.<name> applied per point after its
// default call, built from the default call's phases (runner/call_phases.h) so that every call in
// a pattern is checked exactly as a default call is, against the reference of its own inputs.
#pragma once

#include "runner/execute.h"

namespace aclnn_check {

// Runs each chosen pattern on a point whose default call succeeded (first: that call's outputs,
// for contract.concurrent's bit-identical comparison) and adds its rule and findings to result.
void RunCallingPatterns(const TestPoint& point, const CapturedOutputs& first,
                        const DeviceSession& session, const RunContext& context,
                        TestPointResult* result);

// The patterns the point runs: the run's (--contract), then its case file's "contract" key not
// already among them; none when the run said --contract none.
std::vector<Contract> PointContracts(const TestPoint& point, const RunContext& context);

// How many calls the chosen patterns make on the point beyond its default call (each is timed
// like a default call: the worker's limit grows with them).
int CallingPatternCalls(const TestPoint& point, const RunContext& context);

}  // namespace aclnn_check
