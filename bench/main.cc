// aclnn_bench: every workload of kernels/*/bench through the cpu provider's aclnn interface, a
// STREAM triad, and (when built with peers) PyTorch ATen and oneDNN doing the same work, all at one
// thread count per process:
//   aclnn_bench --threads=N [--cases=DIR] [--provider=cpu|ref|PATH] [--simd=TARGET]
//               [--stages=0|1] [--benchmark_* flags]
// --simd caps the Highway target of the cpu provider's kernels (src/bench/simd_target.h).
// The cpu provider's kernels size their thread pool from ACLNN_CPU_THREADS on first use and keep
// it (the single-threaded kernels before the SIMD work ignore it), so one process measures one
// thread count: tools/bench-peers runs one process per count and joins their JSON.
// Benchmark names: <workload>/<dtype>/<impl>/threads:<n>, impl cpu (or ref, aclnn for a PATH
// provider), triad, torch or onednn, and the harness's own stages (bench/check_stages.h):
// stage_generate, stage_reference, stage_check.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/build_info.h"
#include "core/heap.h"
#include "bench/operator_workloads.h"
#include "bench/point_benchmark.h"
#include "bench/simd_target.h"
#include "core/product.h"
#include "device_access/device.h"
#include "device_access/provider.h"
#include "report/bench_history.h"
#include "check_stages.h"
#include "hunt_candidates.h"
#include "triad.h"
#include "workload.h"
#ifdef ACLNN_BENCH_TORCH
#include "torch_peers.h"
#endif
#ifdef ACLNN_BENCH_ONEDNN
#include "onednn_peers.h"
#endif

namespace {

using namespace aclnn_check;
using namespace aclnn_check::bench;

struct BenchArguments {
  int threads = 1;
  std::string cases;  // empty: every operator's workloads (kernels/<folder>/bench, source tree)
  std::string provider = "cpu";
  std::string simd;  // empty: the best target the CPU runs
  bool stages = true;
};

// Takes this program's own flags out of argv, leaving Google Benchmark's. Throws
// std::invalid_argument on a bad value.
BenchArguments TakeArguments(int& argc, char** argv) {
  BenchArguments arguments;
  if (const char* threads = std::getenv("ACLNN_CPU_THREADS"))
    arguments.threads = std::stoi(threads);
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&](const std::string& flag) { return arg.substr(flag.size()); };
    if (arg.rfind("--threads=", 0) == 0) {
      const std::string text = value("--threads=");
      arguments.threads =
          text == "all" ? static_cast<int>(std::thread::hardware_concurrency()) : std::stoi(text);
    } else if (arg.rfind("--cases=", 0) == 0) {
      arguments.cases = value("--cases=");
    } else if (arg.rfind("--provider=", 0) == 0) {
      arguments.provider = value("--provider=");
    } else if (arg.rfind("--stages=", 0) == 0) {
      arguments.stages = value("--stages=") != "0";
    } else if (arg.rfind("--simd=", 0) == 0) {
      arguments.simd = value("--simd=");
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  if (arguments.threads < 1) throw std::invalid_argument("--threads must be at least 1 (or 'all')");
  return arguments;
}

}  // namespace

int main(int argc, char** argv) {
  // Peers that return their outputs (torch's functional ops) and the check stages free and
  // allocate blocks of tens of MB per iteration; glibc would hand those back to the system and
  // fault them in again on every iteration (its 1 GiB mmap threshold here was ignored: above
  // 32 MiB it takes no value). Kept in the heap, as in aclnn-check, the next allocation reuses the
  // same pages.
  KeepFreedMemoryInTheHeap();
  BenchArguments arguments;
  try {
    arguments = TakeArguments(argc, argv);
    if (!arguments.simd.empty()) CapSimdTarget(arguments.simd);
  } catch (const std::exception& error) {
    std::cerr << "aclnn_bench: " << error.what() << "\n";
    return 2;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

  // Before the provider's first call, which sizes its thread pool from it.
  setenv("ACLNN_CPU_THREADS", std::to_string(arguments.threads).c_str(), 1);
  std::unique_ptr<Provider> provider;
  std::unique_ptr<DeviceSession> session;
  std::unique_ptr<WorkloadSet> workloads;
  std::string soc;
  try {
    provider = Provider::Load(arguments.provider);
    soc = provider->SocName().value_or(EmulatedSocName());
    const std::optional<Product> product = ProductOfSoc(soc);
    if (!product) throw std::invalid_argument("SoC '" + soc + "' is not a known Ascend product");
    const std::vector<std::string> folders = arguments.cases.empty()
                                                 ? OperatorWorkloadFolders(ACLNN_BENCH_KERNELS)
                                                 : std::vector<std::string>{arguments.cases};
    workloads = std::make_unique<WorkloadSet>(folders, *product);
    session = std::make_unique<DeviceSession>(*provider);
  } catch (const std::exception& error) {
    std::cerr << "aclnn_bench: " << error.what() << "\n";
    return 2;
  }

  RegisterTriad(arguments.threads);
  const std::string impl =
      arguments.provider == "cpu" || arguments.provider == "ref" ? arguments.provider : "aclnn";
  for (const Workload& workload : workloads->workloads()) {
    RegisterPointBenchmark(BenchmarkName(workload.name, workload.dtype(), impl, arguments.threads),
                           *workload.point, *session);
  }
  // The harness's generate, reference and check stages of the same workloads (--stages=0: none).
  if (arguments.stages) RegisterCheckStages(workloads->workloads(), arguments.threads);
  // Candidates a hunt judges per second beside the default suite's elements per second.
  if (arguments.stages) RegisterHuntCandidates(arguments.provider, *ProductOfSoc(soc), ACLNN_BENCH_KERNELS "/../cases");
#ifdef ACLNN_BENCH_TORCH
  RegisterTorchPeers(workloads->workloads(), arguments.threads);
#endif
#ifdef ACLNN_BENCH_ONEDNN
  RegisterOneDnnPeers(workloads->workloads(), arguments.threads);
#endif

  benchmark::AddCustomContext(kContextGitRevision, GitRevision());
  benchmark::AddCustomContext(kContextProvider, arguments.provider);
  benchmark::AddCustomContext(kContextSoc, soc);
  benchmark::AddCustomContext("aclnn_bench_threads", std::to_string(arguments.threads));
  benchmark::AddCustomContext("aclnn_bench_simd_target", BestSimdTarget());
  // The peers' own instruction-set caps, when tools/bench-peers sets them (SIMD=avx2).
  for (const char* cap : {"ATEN_CPU_CAPABILITY", "ONEDNN_MAX_CPU_ISA"}) {
    if (const char* value = std::getenv(cap)) benchmark::AddCustomContext(cap, value);
  }
  benchmark::RunSpecifiedBenchmarks();
  ReleasePointBenchmarks();
  benchmark::Shutdown();
  return 0;
}
