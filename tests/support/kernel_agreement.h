// Runs one of an operator's float32 kernels and its float64 reference on the same call and checks
// every computed output with the operator's tolerance and rules. The kernel is named by the
// caller: the portable one (`Compute`, kernel.cc) takes every view, while the cpu provider's
// (`SimdCompute`) hands non-contiguous views to `Compute`, so testing it there tests kernel.cc.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <map>
#include <string>
#include <vector>

#include "check/output_check.h"
#include "cpu/cpu_kernel.h"
#include "support/call_builder.h"

namespace aclnn_check::testing {

struct KernelAgreement {
  std::map<std::string, OutputCheck> outputs;  // by output slot name

  bool passed() const {
    for (const auto& [name, check] : outputs) {
      if (!check.passed()) return false;
    }
    return true;
  }
  double max_ulp() const {
    double worst = 0;
    for (const auto& [name, check] : outputs) worst = std::max(worst, check.metrics.max_ulp);
    return worst;
  }
  std::string Describe() const {
    std::string text;
    for (const auto& [name, check] : outputs) {
      const ElementReport& w = check.metrics.worst;
      text += name + ": " + std::to_string(check.metrics.failures) + " failures, max ulp " +
              std::to_string(check.metrics.max_ulp) + ", worst [" + std::to_string(w.index) +
              "] device " + std::to_string(w.device) + " ref " + std::to_string(w.reference) +
              (w.rule.empty() ? "" : " rule " + w.rule) + "; ";
    }
    return text;
  }
};

using KernelFunction = void (*)(const OpArgs& args, void* workspace);

inline KernelAgreement RunKernelAgainstReference(const Operator& op, CallBuilder& call,
                                                 KernelFunction kernel) {
  const OpArgs args = call.Args();
  const ReferenceResult reference = op.Reference(args);
  // 64-byte aligned, as aclrtMalloc's memory is.
  // The cpu provider's workspace, which covers the portable and the SIMD kernel.
  const size_t bytes = (FindCpuKernel(op.folder())->workspace_bytes(args) + 64) / 64 * 64;
  std::unique_ptr<std::byte, decltype(&std::free)> workspace(
      static_cast<std::byte*>(std::aligned_alloc(64, bytes)), &std::free);
  // NaN bytes: a kernel that forgets to initialise its scratch shows up.
  std::memset(workspace.get(), 0xFF, bytes);
  kernel(args, workspace.get());
  KernelAgreement agreement;
  for (size_t slot = 0; slot < reference.outputs.size(); ++slot) {
    const ReferenceOutput& expected = reference.outputs[slot];
    if (!expected.computed || !args.tensor(slot)) continue;
    const TensorView& view = *args.tensor(slot);
    const OutputTolerance& tol = op.Tolerance(op.tensors()[slot].name);
    const std::vector<double> device = ReadAsDouble(view);
    agreement.outputs.emplace(std::string(op.tensors()[slot].name),
                              CheckOutput(op, expected, device, view.dtype,
                                          Tolerance{tol.ulp, tol.c, DType::kFloat32}));
  }
  return agreement;
}

}  // namespace aclnn_check::testing
