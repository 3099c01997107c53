// Test-only providers that compute like the cpu provider but got slower in one place, chosen at
// build time (ACLNN_BENCH_FAULT): GetWorkspaceSize (host work: shape checks, tiling), the execute
// call (host work before the enqueue), or the kernel (the work the stream runs). Each adds a
// delay far above the noise of a loaded machine, so that tests/bench/bench_faults_test.cc can
// require `bench compare` to flag the slower figure and no other.
#include <chrono>
#include <thread>

#include "cpu/cpu_kernel.h"
#include "providers/runtime/backend.h"

#ifndef ACLNN_BENCH_FAULT
#error "ACLNN_BENCH_FAULT must name the slower step"
#endif

namespace aclnn_check::provider {
namespace {

enum class BenchFault { kSlowGetWorkspace, kSlowLaunch, kSlowKernel };
constexpr BenchFault kFault = BenchFault::ACLNN_BENCH_FAULT;

// 10^4 to 10^5 times a small point's figures on the cpu provider (about a microsecond each).
constexpr std::chrono::milliseconds kDelay{50};

void DelayIf(BenchFault step) {
  if (kFault == step) std::this_thread::sleep_for(kDelay);
}

uint64_t WorkspaceBytes(const Operator& op, const OpArgs& args) {
  DelayIf(BenchFault::kSlowGetWorkspace);
  return FindCpuKernel(op.folder())->workspace_bytes(args);
}

void Run(const Operator& op, const OpArgs& args, void* workspace) {
  DelayIf(BenchFault::kSlowKernel);
  FindCpuKernel(op.folder())->compute(args, workspace);
}

void BeforeLaunch(const Operator&) { DelayIf(BenchFault::kSlowLaunch); }

}  // namespace

const ComputeBackend& ActiveBackend() {
  static const ComputeBackend backend{"bench-fault", WorkspaceBytes, Run, nullptr, nullptr, nullptr,
                                       BeforeLaunch};
  return backend;
}

}  // namespace aclnn_check::provider
