#include "runner/pattern_steps.h"

#include <algorithm>
#include <map>
#include <mutex>

#include "core/status.h"

namespace aclnn_check {
namespace {

void RecordFailures(Outcome& outcome, PatternStep* step) {
  for (const Finding& finding : outcome.failures())
    step->failures.push_back(finding.rule + ": " + finding.message);
}

}  // namespace

void Collect(const PatternStep& step, StepFailures* failures) {
  for (const std::string& failure : step.failures) failures->push_back(step.name + ": " + failure);
}

std::string FirstDifference(const CapturedOutputs& expected, const CapturedOutputs& actual,
                            const std::string& whose) {
  for (const auto& [name, bytes] : expected.bytes) {
    const auto it = actual.bytes.find(name);
    if (it == actual.bytes.end()) return name + " was not computed";
    const auto [mine, theirs] =
        std::mismatch(bytes.begin(), bytes.end(), it->second.begin(), it->second.end());
    if (mine != bytes.end() || theirs != it->second.end()) {
      return name + " differs from " + whose + " at byte " + std::to_string(mine - bytes.begin());
    }
  }
  return {};
}

TestPoint WithNewInputs(const TestPoint& point, const std::string& tag) {
  TestPoint fresh = point;
  fresh.id = point.id + "#" + tag;
  return fresh;
}

bool StartStep(const DeviceSession& session, const RunContext& context, PatternStep* step) {
  const Operator& op = step->point.op();
  step->result = ResultIdentity(step->point, context);
  step->prepared = PreparePoint(step->point, /*with_reference=*/true);
  step->accepted = AcceptedStatusesOf(step->point, step->prepared, *context.profiles);
  UploadCall(step->point, step->prepared, session, step->call.get());
  const aclnnStatus status = GetWorkspace(op, *context.provider->Symbols(op), step->call.get());
  Outcome outcome(*context.profiles);
  JudgeWorkspaceStatus(step->point, step->accepted, status, *context.provider, &outcome,
                       &step->result);
  if (status != 0 && outcome.failures().empty()) {
    outcome.Rule("harness.status", false, "GetWorkspaceSize returned " + DescribeStatus(status));
  }
  RecordFailures(outcome, step);
  return status == 0;
}

void LaunchStep(const DeviceSession& session, const RunContext& context, PatternStep* step) {
  step->executed = Launch(*context.provider->Symbols(step->point.op()), session, step->call.get());
}

void CheckStep(const RunContext& context, PatternStep* step, CapturedOutputs* captured) {
  Outcome outcome(*context.profiles);
  JudgeLaunch(step->executed, *context.provider, step->call.get(), &outcome, &step->result);
  CallDownloads downloads =
      CheckInputsAndDownload(step->point.op(), step->prepared, step->call.get(), &outcome);
  CheckOutputs(step->point, step->prepared, *step->prepared.reference, step->accepted,
               std::move(downloads), context, &outcome, &step->result, captured);
  if (step->accepted.call_rule_waived) outcome.WaiveAll();
  RecordFailures(outcome, step);
}

const std::vector<TestPoint>& CasePoints(const CaseFile& case_file, Product product) {
  static std::mutex mutex;
  static std::map<std::pair<const CaseFile*, Product>, std::vector<TestPoint>> expanded;
  const std::lock_guard lock(mutex);
  auto [it, inserted] = expanded.try_emplace({&case_file, product});
  if (inserted) it->second = ExpandCase(case_file, product);
  return it->second;
}

std::vector<const TestPoint*> CaseCompanions(const TestPoint& point, Product product, size_t most) {
  const std::vector<TestPoint>* all = &CasePoints(*point.case_file, product);
  size_t at = 0;
  while (at < all->size() && (*all)[at].id != point.id) ++at;
  std::vector<const TestPoint*> companions;
  for (size_t k = 1; k < all->size() && companions.size() < most; ++k) {
    const TestPoint& other = (*all)[(at + k) % all->size()];
    if (other.expected.ok() && !other.null_executor && !other.null_workspace_size)
      companions.push_back(&other);
  }
  return companions;
}

std::vector<const TestPoint*> QueueCompanions(const TestPoint& point, Product product, size_t most) {
  const auto shapes_of = [](const TestPoint& p) {
    std::vector<std::vector<int64_t>> shapes;
    for (const auto& tensor : p.plan.tensors) shapes.push_back(tensor ? tensor->shape : std::vector<int64_t>{});
    return shapes;
  };
  std::vector<std::vector<std::vector<int64_t>>> seen = {shapes_of(point)};
  std::vector<const TestPoint*> companions;
  for (const TestPoint* other : CaseCompanions(point, product, SIZE_MAX)) {
    if (companions.size() == most) break;
    auto shapes = shapes_of(*other);
    if (std::find(seen.begin(), seen.end(), shapes) != seen.end()) continue;
    seen.push_back(std::move(shapes));
    companions.push_back(other);
  }
  return companions;
}

}  // namespace aclnn_check
