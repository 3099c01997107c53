// Profiles (docs/contract/runner.md): per-rule overrides of the documented expectation, each with a
// reason and a source: `expect` (another element expectation), `status` (other accepted status
// codes) or `waive` (not checked, still reported).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "check/expectation.h"

namespace aclnn_check {

struct RuleOverride {
  std::string rule;
  std::string reason;
  std::string source;
  std::string profile;                 // the file it came from
  std::optional<Expectation> expect;
  std::vector<int> status;
  bool waive = false;
};

class Profiles {
 public:
  // Loads and merges profile files (later files win per rule). Throws InputError naming the file,
  // pointer and problem, including rule ids that no operator or numerics rule has.
  static Profiles Load(const std::vector<std::string>& paths);

  const RuleOverride* Find(const std::string& rule) const;
  const std::map<std::string, RuleOverride>& overrides() const { return overrides_; }

 private:
  std::map<std::string, RuleOverride> overrides_;
};

// Every rule id the harness knows: the operators' rules (with the matrix rules) and the generic
// numerics.* and harness.* rules.
std::vector<std::string> KnownRuleIds();
// The generic rules with their descriptions.
const std::map<std::string, std::string>& GenericRules();

}  // namespace aclnn_check
