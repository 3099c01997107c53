#include "results/profile.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "json_input/json_schema.h"
#include "check/rule_ids.h"
#include "catalogue/operator.h"

namespace aclnn_check {

// Keyed by the constants of check/rule_ids.h: a rule added there needs its description here.
const std::map<std::string, std::string>& GenericRules() {
  static const std::map<std::string, std::string> rules = {
      {rule_ids::kElementBound,
       "every finite element within ulp_tol * ulp(ref) + c * u * mag (docs/contract/numerics.md)"},
      {rule_ids::kSpecialValues,
       "NaN is NaN, +-inf is +-inf with the right sign, finite is finite (classified on ref rounded "
       "to the output dtype)"},
      {rule_ids::kOverflowBound,
       "where ref overflows the output dtype but |ref| - bound <= its largest finite value, a "
       "finite value within the bound or inf is accepted (NaN too where mag overflows the compute "
       "dtype)"},
      {rule_ids::kRoundingBias,
       "fp16/bf16 outputs with >= 1000 finite non-zero reference elements: |mean signed error in "
       "ULPs| <= 0.1"},
      {rule_ids::kUnderflow,
       "an element whose ref or mag is below the compute dtype's smallest normal is also accepted "
       "within that absolute error"},
      {rule_ids::kStatus, "GetWorkspaceSize and execute return the expected status"},
      {rule_ids::kRejectWritesNothing, "a rejected call leaves every output buffer unchanged"},
      {rule_ids::kInputsUnchanged, "input buffers are unchanged after the call"},
      {rule_ids::kWritesInsideView,
       "output bytes outside the output's view (offsets, stride gaps) are unchanged"},
      {rule_ids::kUntouchedOutput, "outputs the operator must not compute are left unchanged"},
      {rule_ids::kGuardBytes,
       "nothing is written into the guard regions before and after every device buffer (inputs, "
       "outputs, workspace)"},
      {rule_ids::kCrash, "the provider does not crash the process running the test point"},
      {rule_ids::kTimeout, "the test point finishes within --timeout (or the case's timeout)"},
      {rule_ids::kMemory, "the test point's buffers fit in --max-memory"},
      {rule_ids::kDeterministic,
       "--repeat N: N calls on the same inputs, each with a new executor, give bit-identical outputs "
       "(docs/contract/numerics.md repeat runs; all six operators are documented deterministic)"},
  };
  return rules;
}

std::vector<std::string> KnownRuleIds() {
  std::vector<std::string> ids;
  for (const Operator& op : Catalogue()) {
    for (const RuleDef& rule : op.rules()) ids.push_back(rule.id);
  }
  for (const auto& [id, description] : GenericRules()) ids.push_back(id);
  return ids;
}

const RuleOverride* Profiles::Find(const std::string& rule) const {
  auto it = overrides_.find(rule);
  return it == overrides_.end() ? nullptr : &it->second;
}

Profiles Profiles::Load(const std::vector<std::string>& paths) {
  Profiles profiles;
  const std::vector<std::string> known = KnownRuleIds();
  for (const std::string& path : paths) {
    const nlohmann::json document = ParseJsonText(ReadTextFile(path, "profile"), path);
    if (!document.is_object()) throw InputError(path, "/", "expected an object keyed by rule id");
    for (const auto& [rule, entry] : document.items()) {
      const std::string pointer = "/" + rule;
      if (rule == "$comment" || rule == "description") continue;
      if (std::find(known.begin(), known.end(), rule) == known.end()) {
        throw InputError(path, pointer, "no rule has the id " + rule +
                                            " (see `aclnn-check explain OP` for rule ids)");
      }
      if (!entry.is_object()) throw InputError(path, pointer, "expected an object");
      RuleOverride o;
      o.rule = rule;
      o.profile = path;
      for (const auto& [key, value] : entry.items()) {
        if (key != "reason" && key != "source" && key != "expect" && key != "status" &&
            key != "waive") {
          throw InputError(path, pointer + "/" + key,
                           "unknown key (expected reason, source and one of expect, status, waive)");
        }
      }
      for (const char* key : {"reason", "source"}) {
        if (!entry.contains(key) || !entry.at(key).is_string() ||
            entry.at(key).get<std::string>().empty()) {
          throw InputError(path, pointer + "/" + key, "every override needs a non-empty string");
        }
      }
      o.reason = entry.at("reason").get<std::string>();
      o.source = entry.at("source").get<std::string>();
      const int kinds = entry.contains("expect") + entry.contains("status") + entry.contains("waive");
      if (kinds != 1) {
        throw InputError(path, pointer, "needs exactly one of expect, status, waive");
      }
      if (entry.contains("expect")) {
        if (!entry.at("expect").is_string()) {
          throw InputError(path, pointer + "/expect", "expected a string such as \"0\" or \"ref|alt\"");
        }
        std::string error;
        o.expect = Expectation::Parse(entry.at("expect").get<std::string>(), &error);
        if (!o.expect) throw InputError(path, pointer + "/expect", error);
      }
      if (entry.contains("status")) {
        const auto& status = entry.at("status");
        if (!status.is_array() || status.empty() ||
            !std::all_of(status.begin(), status.end(), [](const auto& s) { return s.is_number_integer(); })) {
          throw InputError(path, pointer + "/status", "expected a non-empty array of status codes");
        }
        o.status = status.get<std::vector<int>>();
      }
      if (entry.contains("waive")) {
        if (!entry.at("waive").is_boolean() || !entry.at("waive").get<bool>()) {
          throw InputError(path, pointer + "/waive", "expected true");
        }
        o.waive = true;
      }
      profiles.overrides_[rule] = std::move(o);
    }
  }
  return profiles;
}

}  // namespace aclnn_check
