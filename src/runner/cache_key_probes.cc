#include "runner/cache_key_probes.h"

#include <set>

#include "runner/pattern_steps.h"

namespace aclnn_check {
namespace {

// What differs between two calls of one operator, thing by thing; empty when they differ in a
// shape (a cache key always has the shapes) or in nothing.
std::vector<std::string> Differences(const TestPoint& a, const TestPoint& b) {
  const Operator& op = a.op();
  std::vector<std::string> differences;
  bool dtype = false;
  for (size_t slot = 0; slot < op.tensors().size(); ++slot) {
    const auto& ta = a.plan.tensors[slot];
    const auto& tb = b.plan.tensors[slot];
    if (ta.has_value() != tb.has_value()) {
      differences.push_back(std::string(op.tensors()[slot].name) + (tb ? " given" : " null"));
      continue;
    }
    if (!ta) continue;
    if (ta->shape != tb->shape) return {};
    dtype = dtype || ta->dtype != tb->dtype;
  }
  if (dtype) differences.push_back("dtype " + std::string(DTypeName(b.dtype)));
  for (size_t param = 0; param < op.params().size(); ++param) {
    if (a.plan.params[param] != b.plan.params[param])
      differences.push_back(std::string(op.params()[param].name));
  }
  if (a.layout.ToString() != b.layout.ToString())
    differences.push_back("layout " + b.layout.ToString());
  return differences;
}

}  // namespace

std::vector<CacheKeyProbe> CacheKeyProbes(const TestPoint& point, Product product) {
  std::vector<CacheKeyProbe> probes;
  std::set<std::string> found;
  for (const TestPoint* other : CaseCompanions(point, product, SIZE_MAX)) {
    const std::vector<std::string> differences = Differences(point, *other);
    if (differences.size() != 1 || !found.insert(differences[0]).second) continue;
    probes.push_back({differences[0], other});
  }
  return probes;
}

}  // namespace aclnn_check
