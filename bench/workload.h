// The benchmark workloads of aclnn_bench: the test points of kernels/*/bench/*.json (one per case
// and dtype), with what peers need to build the same call themselves.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/minimum_traffic.h"
#include "cases/case_file.h"
#include "cases/test_point.h"
#include "core/product.h"

namespace aclnn_check::bench {

struct Workload {
  std::string name;  // the case's name: "HardswishBackward", "LayerNormBackward_8192x4096", ...
  const TestPoint* point = nullptr;
  MinimumTraffic traffic;      // credited to every implementation of this workload
  std::vector<int64_t> shape;  // of the call's main input: self, x or input
  std::optional<double> eps;   // LogitGrad's eps

  const std::string& op() const { return point->op().name(); }
  DType dtype() const { return point->dtype; }
};

class WorkloadSet {
 public:
  // Every case file under `folders`, expanded for `product`. Throws InputError for a bad case
  // file or one with more than one point per dtype (the benchmark names could not tell them apart).
  WorkloadSet(const std::vector<std::string>& folders, Product product);
  const std::vector<Workload>& workloads() const { return workloads_; }

 private:
  std::vector<std::unique_ptr<CaseFile>> cases_;
  std::vector<std::unique_ptr<TestPoint>> points_;
  std::vector<Workload> workloads_;
};

// "<workload>/<dtype>/<impl>/threads:<n>", the name every benchmark of aclnn_bench has.
std::string BenchmarkName(const std::string& workload, DType dtype, const std::string& impl,
                          int threads);

}  // namespace aclnn_check::bench
