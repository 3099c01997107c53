// The rules a call applied and the findings it made, with the run's profiles in force: a waived
// rule is recorded as applied but its failure is no finding.
#pragma once

#include <string>
#include <vector>

#include "results/profile.h"
#include "results/result.h"

namespace aclnn_check {

class Outcome {
 public:
  explicit Outcome(const Profiles& profiles) : profiles_(profiles) {}

  // Records that a rule applied; a failure (held = false) becomes a finding unless waived.
  void Rule(const std::string& id, bool held, const std::string& failure_message = "",
            int64_t elements = 0);
  // Every finding so far becomes waived (a waived call rule covers the whole call).
  void WaiveAll();
  std::vector<RuleOutcome>& rules() { return rules_; }
  std::vector<Finding>& failures() { return failures_; }

 private:
  const Profiles& profiles_;
  std::vector<RuleOutcome> rules_;
  std::vector<Finding> failures_;
};

}  // namespace aclnn_check
