#include "golden/stored_point.h"

#include <fnmatch.h>

#include <algorithm>

#include "import/case_import.h"
#include "runner/precision_gate.h"

namespace aclnn_check {

bool WorthAnOracle(const TestPoint& point, const PreparedPoint& prepared) {
  if (!point.expected.ok() || !prepared.reference) return false;
  return std::any_of(prepared.reference->outputs.begin(), prepared.reference->outputs.end(),
                     [](const ReferenceOutput& output) { return output.computed && !output.value.empty(); });
}

GoldenPoint GoldenInputsOf(const TestPoint& point, const PreparedPoint& prepared) {
  GoldenPoint golden;
  golden.id = point.id;
  golden.op = &point.op();
  golden.case_path = point.case_file->path;
  golden.dtype = point.dtype;
  golden.plan = point.plan;
  for (size_t slot = 0; slot < golden.op->tensors().size(); ++slot) {
    const TensorSlot& def = golden.op->tensors()[slot];
    if (def.role != SlotRole::kInput || !prepared.tensors[slot]) continue;
    golden.inputs[std::string(def.name)] = prepared.tensors[slot]->Values();
  }
  return golden;
}

void ForEachGoldenInput(const std::vector<std::string>& cases, const std::string& filter, int recheck_runs,
                        const std::function<void(const GoldenPoint&)>& sink) {
  for (const auto& path : FindCaseFiles(cases)) {
    // CANN's case files too (as `run` reads them), so a benchmark run can cover imported cases.
    std::vector<SkippedCase> skipped;
    for (const CaseFile& case_file : LoadCaseSource(path, &skipped)) {
      for (const TestPoint& point : ExpandCase(case_file, kGoldenProduct)) {
        if (fnmatch(filter.c_str(), point.id.c_str(), 0) != 0) continue;
        const PreparedPoint prepared = PreparePoint(point);
        if (!WorthAnOracle(point, prepared)) continue;
        sink(GoldenInputsOf(point, prepared));
        for (int run = 0; run < recheck_runs; ++run) {
          const FreshSeedPoint fresh = FreshSeedPointOf(point, run);
          GoldenPoint inputs = GoldenInputsOf(fresh.point, PreparePoint(fresh.point));
          inputs.id = RecheckPointId(point.id, run);
          sink(inputs);
        }
      }
    }
  }
}

std::vector<GoldenPoint> GenerateGoldenInputs(const std::vector<std::string>& cases,
                                              const std::string& filter, int recheck_runs) {
  std::vector<GoldenPoint> golden;
  ForEachGoldenInput(cases, filter, recheck_runs, [&](const GoldenPoint& point) { golden.push_back(point); });
  return golden;
}

StoredTestPoint StoredTestPointOf(const GoldenPoint& stored, const std::string& golden_path,
                                  Product product) {
  StoredTestPoint result;
  result.case_file = std::make_unique<CaseFile>();
  CaseFile& c = *result.case_file;
  c.path = golden_path;
  c.name = "golden";
  c.op = stored.op;
  c.layouts = {Layout{}};
  TestPoint& point = result.point;
  point.case_file = result.case_file.get();
  point.id = stored.id;
  point.axis_values = {{"dtype", DTypeName(stored.dtype)}, {"golden", golden_path}};
  point.dtype = stored.dtype;
  point.plan = stored.plan;
  point.expected = stored.op->Validate(DescriptorArgs(point), product);
  return result;
}

PreparedPoint PrepareStoredPoint(const GoldenPoint& stored, const std::string& golden_path) {
  const Operator& op = *stored.op;
  PreparedPoint prepared;
  prepared.tensors.resize(op.tensors().size());
  for (size_t slot = 0; slot < op.tensors().size(); ++slot) {
    const auto& plan = stored.plan.tensors[slot];
    if (!plan) continue;
    const TensorSlot& def = op.tensors()[slot];
    const bool input = def.role == SlotRole::kInput;
    prepared.tensors[slot].emplace(plan->dtype, plan->shape, Layout{},
                                   input ? kInputGapFill : kOutputSentinel);
    if (!input || NumElements(plan->shape) == 0) continue;
    const auto values = stored.inputs.find(std::string(def.name));
    if (values == stored.inputs.end()) {
      throw InputError(golden_path, "/" + GoldenGroupName(stored.id) + "/inputs/" + std::string(def.name),
                       "the values of input " + std::string(def.name));
    }
    prepared.tensors[slot]->Assign(values->second);
  }
  for (const auto& tensor : prepared.tensors) {
    prepared.args.tensors.push_back(tensor ? std::optional<TensorView>(tensor->view()) : std::nullopt);
  }
  prepared.args.params = stored.plan.params;
  return prepared;
}

}  // namespace aclnn_check
