#include "runner/outcome.h"

#include <algorithm>

namespace aclnn_check {

void Outcome::Rule(const std::string& id, bool held, const std::string& failure_message,
                   int64_t elements) {
  auto it =
      std::find_if(rules_.begin(), rules_.end(), [&](const RuleOutcome& r) { return r.id == id; });
  if (it == rules_.end()) {
    rules_.push_back({id, true, false, 0});
    it = rules_.end() - 1;
  }
  const RuleOverride* override = profiles_.Find(id);
  it->waived = override && override->waive;
  it->elements += elements;
  if (!held) {
    it->held = false;
    if (!it->waived) failures_.push_back({id, failure_message});
  }
}

void Outcome::WaiveAll() {
  for (RuleOutcome& rule : rules_) {
    if (!rule.held) rule.waived = true;
  }
  failures_.clear();
}

}  // namespace aclnn_check
