// The operator folders' validation tests: a call their operator must reject, with the status and
// the rule of the check that rejects it first.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "support/call_builder.h"

namespace aclnn_check::testing {

// Whether `call` is rejected with `status` by the check `rule`, with a message; for
// EXPECT_TRUE(Rejected(...)) in a test body. `what` names the case in a failure's message.
inline ::testing::AssertionResult Rejected(CallBuilder& call, aclnnStatus status,
                                           const std::string& rule, const std::string& what,
                                           Product product = Product::kA2) {
  const CheckOutcome outcome = call.op().Validate(call.Args(), product);
  if (outcome.status == status && outcome.rule == rule && !outcome.message.empty()) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << what << ": status " << outcome.status << " (expected " << status << "), rule '"
         << outcome.rule << "' (expected '" << rule << "'): " << outcome.message;
}

inline ::testing::AssertionResult Rejected(CallBuilder& call, aclnnStatus status,
                                           const std::string& rule,
                                           Product product = Product::kA2) {
  return Rejected(call, status, rule, rule, product);
}

inline void ExpectRejected(CallBuilder& call, aclnnStatus status, const std::string& rule,
                           const std::string& what, Product product = Product::kA2) {
  EXPECT_TRUE(Rejected(call, status, rule, what, product));
}

inline void ExpectRejected(CallBuilder& call, aclnnStatus status, const std::string& rule,
                           Product product = Product::kA2) {
  EXPECT_TRUE(Rejected(call, status, rule, rule, product));
}

}  // namespace aclnn_check::testing
