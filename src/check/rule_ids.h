// The ids of the rules every operator shares (numerics.* and harness.*). Their descriptions are
// the table of src/results/profile.cc (GenericRules); code names a rule through these constants,
// so a mistyped id does not compile instead of silently never matching.
#pragma once

namespace aclnn_check::rule_ids {

// docs/contract/numerics.md
inline constexpr char kElementBound[] = "numerics.element_bound";
inline constexpr char kSpecialValues[] = "numerics.special_values";
inline constexpr char kOverflowBound[] = "numerics.overflow_bound";
inline constexpr char kRoundingBias[] = "numerics.rounding_bias";
inline constexpr char kUnderflow[] = "numerics.underflow";

// docs/contract/runner.md: the call, the buffers and the process around it
inline constexpr char kStatus[] = "harness.status";
inline constexpr char kRejectWritesNothing[] = "harness.reject_writes_nothing";
inline constexpr char kInputsUnchanged[] = "harness.inputs_unchanged";
inline constexpr char kWritesInsideView[] = "harness.writes_inside_view";
inline constexpr char kUntouchedOutput[] = "harness.untouched_output";
inline constexpr char kGuardBytes[] = "harness.guard_bytes";
inline constexpr char kCrash[] = "harness.crash";
inline constexpr char kTimeout[] = "harness.timeout";
inline constexpr char kMemory[] = "harness.memory";
inline constexpr char kDeterministic[] = "harness.deterministic";

}  // namespace aclnn_check::rule_ids
