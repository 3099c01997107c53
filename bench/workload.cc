#include "workload.h"

#include <set>

#include "json_input/input_error.h"

namespace aclnn_check::bench {
namespace {

std::vector<int64_t> MainInputShape(const TestPoint& point) {
  const Operator& op = point.op();
  const OpArgs args = DescriptorArgs(point);
  for (const char* name : {"self", "x", "input"}) {
    if (const std::optional<size_t> slot = op.TensorIndex(name)) {
      if (const TensorView* view = args.tensor(*slot))
        return {view->shape.begin(), view->shape.end()};
    }
  }
  return {};
}

}  // namespace

WorkloadSet::WorkloadSet(const std::vector<std::string>& folders, Product product) {
  for (const auto& path : FindCaseFiles(folders)) {
    cases_.push_back(std::make_unique<CaseFile>(LoadCaseFile(path)));
    const CaseFile& c = *cases_.back();
    std::set<DType> seen;
    for (TestPoint& point : ExpandCase(c, product)) {
      if (!point.expected.ok()) {
        throw InputError(c.path, "/axes",
                         point.id + " is a rejected call; a workload must succeed");
      }
      if (!seen.insert(point.dtype).second) {
        throw InputError(c.path, "/axes",
                         "more than one point of dtype " + std::string(DTypeName(point.dtype)) +
                             ": a workload case has one point per dtype");
      }
      points_.push_back(std::make_unique<TestPoint>(std::move(point)));
      const TestPoint& kept = *points_.back();
      workloads_.push_back({c.name, &kept, MinimumTrafficOf(kept.op(), DescriptorArgs(kept)),
                            MainInputShape(kept), EpsParameter(kept)});
    }
  }
}

std::string BenchmarkName(const std::string& workload, DType dtype, const std::string& impl,
                          int threads) {
  return workload + "/" + std::string(DTypeName(dtype)) + "/" + impl +
         "/threads:" + std::to_string(threads);
}

}  // namespace aclnn_check::bench
