// A test-only provider that computes like the cpu provider except for one planted fault in
// HardswishBackward, chosen at build time (ACLNN_FAULT). The fault-detection tests run the default
// suite on each variant and assert that the harness names the rule or metric that catches it; the
// reliability tests use the variants that crash, hang or write out of bounds on some points only.
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string_view>

#include "cpu/cpu_kernel.h"
#include "core/tensor_view.h"
#include "providers/runtime/backend.h"

#ifndef ACLNN_FAULT
#error "ACLNN_FAULT must name the planted fault"
#endif

namespace aclnn_check::provider {
namespace {

enum class Fault {
  kNone,
  kWrongBoundary,    // the interval is open at +3: factor 1 instead of 1.5
  kWrongRuleResult,  // NaN self gives 0 (neither NaN nor gradOutput)
  kSwappedOperand,   // gradOutput and self swap places
  kBiasedRounding,   // 16-bit outputs truncated toward zero instead of rounded to nearest even
  kMissingCheck,     // the shape check is skipped
  kWrongStatus,      // null pointers give 161002 instead of 161001
  kModifiedInput,    // the kernel writes into self
  kIgnoredLayout,    // views read and written as if contiguous at offset 0
  // Reliability faults, on tensors of exactly 21 elements only (other points stay healthy):
  kCrashSegv,          // an invalid memory write in execute
  kCrashAbort,         // abort() in execute
  kHang,               // never returns from execute
  kOutputOverflow,     // writes one element past the end of out's buffer
  kWorkspaceOverflow,  // asks for 64 bytes of workspace and writes 65
  // Not a fault: LogitGrad computed the way the real CANN kernel does (kernels/logit_grad/README.md
  // (where real CANN differs)), to prove that cases/profiles/cann-kernel.json admits it and the
  // documents alone do not.
  kCannLogitKernel,
  // Accurate but not deterministic: HardswishBackward's multiply-add is associated in one of three
  // ways chosen by a call counter, as a kernel whose reduction order depends on scheduling would.
  // Every result stays within the element bound, so only --repeat (harness.deterministic) sees it.
  kCallCountedOrder,
};
constexpr Fault kFault = Fault::ACLNN_FAULT;

float Factor(float x) {
  if (x < -3.0f) return 0.0f;
  if (kFault == Fault::kWrongBoundary ? x >= 3.0f : x > 3.0f) return 1.0f;
  return x / 3.0f + 0.5f;
}

// Truncation toward zero: round to nearest, then step back if that moved away from zero.
double Truncate(double value, DType dtype) {
  const double rounded = RoundTo(value, dtype);
  if (!std::isfinite(rounded) || std::fabs(rounded) <= std::fabs(value)) return rounded;
  return rounded > 0 ? NextDown(rounded, dtype) : NextUp(rounded, dtype);
}

TensorView AsContiguous(TensorView view) {
  view.strides = ContiguousStrides(view.shape);
  view.offset = 0;
  return view;
}

constexpr int64_t kTriggerElements = 21;  // 84 bytes of float32: more than the 64-byte minimum buffer

// Faults that strike the whole process or memory outside the views.
void Misbehave(const OpArgs& args, void* workspace) {
  const TensorView& out = *args.tensor(2);
  if (out.numel() != kTriggerElements) return;
  switch (kFault) {
    case Fault::kCrashSegv: {
      // A real invalid access (a write to a page with no access rights), not undefined behaviour
      // the compiler could turn into something else.
      void* page = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      *static_cast<volatile int*>(page) = 0;
      break;
    }
    case Fault::kCrashAbort:
      std::abort();
    case Fault::kHang:
      while (true) pause();
    case Fault::kOutputOverflow: {
      // One element past the last byte of the buffer the view may use.
      char* end = out.element_address(out.storage_elements());
      std::memset(end, 0x42, DTypeSize(out.dtype));
      break;
    }
    case Fault::kWorkspaceOverflow:
      static_cast<char*>(workspace)[64] = 0x42;
      break;
    default:
      break;
  }
}

std::atomic<unsigned> hardswish_calls{0};

// gradOutput * (self / 3 + 0.5), associated as the call counter says; each way rounds a few times
// in float32, well inside the documented c = 4.
float CallCountedProduct(float grad, float x, unsigned call) {
  switch (call % 3) {
    case 1:
      return grad * x / 3.0f + grad * 0.5f;
    case 2:
      return (grad * (x + 1.5f)) / 3.0f;
    default:
      return grad * (x / 3.0f + 0.5f);
  }
}

void HardswishBackward(const OpArgs& args) {
  const unsigned call = hardswish_calls++;
  TensorView grad_view = *args.tensor(0), self_view = *args.tensor(1), out_view = *args.tensor(2);
  if (kFault == Fault::kIgnoredLayout) {
    grad_view = AsContiguous(grad_view);
    self_view = AsContiguous(self_view);
    out_view = AsContiguous(out_view);
  }
  if (kFault == Fault::kSwappedOperand) std::swap(grad_view, self_view);
  const std::vector<float> grad = ReadAsFloat(grad_view);
  const std::vector<float> self = ReadAsFloat(self_view);
  if (grad.size() != self.size() || self.size() != static_cast<size_t>(out_view.numel())) return;
  std::vector<double> out(self.size());
  for (size_t i = 0; i < self.size(); ++i) {
    const float x = self[i];
    float value = x < -3.0f ? 0.0f : grad[i] * Factor(x);
    if (kFault == Fault::kWrongRuleResult && std::isnan(x)) value = 0.0f;
    if (kFault == Fault::kCallCountedOrder && std::isfinite(grad[i]) && x > -3.0f && x < 3.0f) {
      value = CallCountedProduct(grad[i], x, call);
    }
    out[i] = value;
    if (kFault == Fault::kBiasedRounding) out[i] = Truncate(value, out_view.dtype);
  }
  WriteFromDouble(out_view, out);
  if (kFault == Fault::kModifiedInput && self_view.numel() > 0) {
    EncodeElement(self_view.element_address(self_view.offset), self_view.dtype, 0.0);
  }
}

bool IsHardswish(const Operator& op) { return op.name() == "HardswishBackward"; }

// logit_grad.h: eps rounded to float32; lo/hi/fill chosen by e >= 0 (false for NaN); a select.
void CannLogitGrad(const OpArgs& args) {
  const double* eps = args.param<double>(0);
  const float e = static_cast<float>(eps ? *eps : -1.0);
  const bool clamp = e >= 0.0f;
  const float lo = clamp ? e : 0.0f;
  const float hi = clamp ? 1.0f - e : 1.0f;
  const float fill = clamp ? 0.0f : std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = ReadAsFloat(*args.tensor(0));
  const std::vector<float> dy = ReadAsFloat(*args.tensor(1));
  std::vector<float> out(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const float q = dy[i] / (x[i] * ((-x[i]) + 1.0f));
    out[i] = (x[i] >= lo && x[i] <= hi) ? q : fill;
  }
  WriteFromFloat(*args.tensor(2), out);
}

uint64_t WorkspaceBytes(const Operator& op, const OpArgs& args) {
  if (kFault == Fault::kWorkspaceOverflow && IsHardswish(op)) return 64;
  return FindCpuKernel(op.folder())->workspace_bytes(args);
}

void Run(const Operator& op, const OpArgs& args, void* workspace) {
  if (IsHardswish(op)) {
    HardswishBackward(args);
    Misbehave(args, workspace);
  } else if (kFault == Fault::kCannLogitKernel && op.name() == "LogitGrad") {
    CannLogitGrad(args);
  } else {
    FindCpuKernel(op.folder())->compute(args, workspace);
  }
}

CheckOutcome Validate(const Operator& op, const OpArgs& args, Product product) {
  CheckOutcome outcome = op.Validate(args, product);
  if (!IsHardswish(op)) return outcome;
  if (kFault == Fault::kMissingCheck && outcome.rule == "hardswish.check.shape") return {};
  if (kFault == Fault::kWrongStatus && outcome.status == ACLNN_ERR_PARAM_NULLPTR) {
    outcome.status = ACLNN_ERR_PARAM_INVALID;
  }
  return outcome;
}

}  // namespace

const ComputeBackend& ActiveBackend() {
  static const ComputeBackend backend{"faulty", WorkspaceBytes, Run, Validate};
  return backend;
}

}  // namespace aclnn_check::provider
