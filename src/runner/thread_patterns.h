// The calling patterns that run a point on threads of their own (docs/calling-patterns.md):
// contract.concurrent (threads with their own contexts and streams, at once) and
// contract.devices_agree (one thread per device, one after the other).
#pragma once

#include "runner/pattern_steps.h"

namespace aclnn_check {

// kConcurrentThreads threads, each with its own context and stream on device 0, released together
// by a barrier in each of kConcurrentRounds rounds; every output checked against its reference,
// thread 1's (the point's own inputs) also bit-identical to `serial` (the default call's).
StepFailures Concurrent(const TestPoint& point, const CapturedOutputs& serial,
                        const RunContext& context);

// The calls Concurrent makes (threads x rounds).
int ConcurrentCalls();

// The point on each of context.devices in turn, each on a thread of its own that sets the device
// (its default context) and makes a stream; every output checked and bit-identical to the first
// device's.
StepFailures DevicesAgree(const TestPoint& point, const RunContext& context);

}  // namespace aclnn_check
