// Runs one test point on a device: lays the inputs out and uploads them, makes the two-phase call,
// and checks status, outputs, rules, untouched bytes and unchanged inputs
// (docs/contract/interface.md and docs/contract/numerics.md).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cases/test_point.h"
#include "check/output_check.h"
#include "core/host_tensor.h"
#include "device_access/device.h"
#include "results/profile.h"
#include "results/result.h"
#include "runner/contract.h"

namespace aclnn_check {

// Where a test point is in its call sequence; an isolated worker publishes it in shared memory
// so the harness can name the call a crashed or hung provider was in.
enum class CallPhase : int32_t { kPrepare, kUpload, kGetWorkspaceSize, kExecute, kSynchronize, kCheck };
std::string_view CallPhaseName(CallPhase phase);

class FailureArchive;
class PrecisionGate;

struct RunContext {
  const Provider* provider = nullptr;
  Product product = Product::kA2;
  const Profiles* profiles = nullptr;
  // The command that reruns exactly one test point, without the case path and --filter.
  std::string repro_prefix{};
  // The run's case paths (absolute, quoted): matrix checks have no file of their own.
  std::string run_cases{};
  volatile CallPhase* phase = nullptr;  // updated before each provider call, when set
  // --repeat: calls per point whose outputs must be bit-identical (rule harness.deterministic).
  int repeat = 1;
  // --save-failures: where failing points' data goes (nullptr: nowhere).
  const FailureArchive* failure_archive = nullptr;
  // CANN's precision standards (docs/contract/numerics.md): metrics and verdicts (nullptr: the
  // element check alone).
  const PrecisionGate* precision = nullptr;
  // --contract: the calling patterns run on each point after its default call
  // (runner/calling_patterns.h).
  std::vector<Contract> contracts{};
  // false with --contract none: the case files' "contract" keys are ignored too.
  bool case_file_contracts = true;
  // --devices: the devices contract.devices_agree runs each point on, the first the one the
  // others must agree with bit for bit.
  std::vector<int32_t> devices{};
};

// The host side of a test point: inputs generated and laid out, outputs described by their
// sentinel fill (HostTensor::Filled), and the float64 reference when the call must succeed and
// with_reference is set (benchmarks need only the inputs; ExecutePoint, preparing a point
// itself, computes the reference after the call).
struct PreparedPoint {
  std::vector<std::optional<HostTensor>> tensors;  // per TensorSlot
  OpArgs args;                                     // views into `tensors`
  std::optional<ReferenceResult> reference;
};
PreparedPoint PreparePoint(const TestPoint& point, bool with_reference = true);

// Bytes that fill output buffers before the call and input buffers outside the views.
constexpr std::byte kOutputSentinel{0xA5};
constexpr std::byte kInputGapFill{0xFF};

// The decoded device values of each computed output, by tensor name (logical order).
using DeviceOutputs = std::map<std::string, std::vector<double>>;

// What a call left in its computed outputs, by tensor name: the elements' bytes as the device
// wrote them (logical order, the dtype's encoding), for bit-exact comparison of repeated calls,
// the precision standards and saving failure data; read as doubles a block at a time, not decoded
// whole (8 bytes per element). And the reference the call was checked against when it was
// computed after the call (a PreparedPoint without one).
struct CapturedOutputs {
  std::map<std::string, std::vector<std::byte>> bytes;
  std::map<std::string, DType> dtypes;
  std::optional<ReferenceResult> reference;

  // An output's values; its bytes must outlive the result.
  BlockValues ValuesOf(const std::string& name) const;
  // Every output decoded whole.
  DeviceOutputs Decoded() const;
};

// Runs one test point: the host side given (nullptr: PreparePoint here, and the reference
// computed after the call in the memory the device buffers leave), so one PreparedPoint serves
// repeated calls and golden data brings its own inputs and expected outputs; captured, when set,
// receives the outputs (and the reference when it was computed here).
TestPointResult ExecutePoint(const TestPoint& point, const DeviceSession& session, const RunContext& context,
                             const PreparedPoint* prepared = nullptr, CapturedOutputs* captured = nullptr);

// A result naming the point (id, case, op, dtype, layout, axes, expectation, repro), no verdict.
TestPointResult ResultIdentity(const TestPoint& point, const RunContext& context);

// An output's element bound: the operator's documented ulp and c, with the case file's overrides.
Tolerance ToleranceOf(const TestPoint& point, std::string_view output);

// Element rules' expectations: a profile's override, else the documented one.
ExpectationLookup ExpectationsOf(const Profiles& profiles);

// What the runner does with a point beyond its first call, for the point's memory estimate.
enum class LaterCalls {
  kNone,                // one call; the reference is computed after it
  kBesideItsReference,  // --repeat, a benchmark provider: calls while the reference is held
  kOnFreshSeedPoints,   // --recheck: fresh-seed points run beside the first, each as above
};

// Bytes the harness and provider hold at most for a test point: the inputs' host copies, the
// device buffers, and after the call the downloads and the reference. What --max-memory is
// compared with.
uint64_t EstimatedBytes(const TestPoint& point, LaterCalls later = LaterCalls::kNone);

// text in single quotes for a POSIX shell.
std::string ShellQuote(const std::string& text);

// The repro command of a test point.
std::string ReproCommand(const TestPoint& point, const RunContext& context);

}  // namespace aclnn_check
