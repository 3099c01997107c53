// The operator folders' validation tests: a call their operator must reject, with the status and
// the rule of the check that rejects it first.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "support/call_builder.h"

namespace aclnn_check::testing {

// `what` names the case in a failure's message.
inline void ExpectRejected(CallBuilder& call, aclnnStatus status, const std::string& rule,
                           const std::string& what, Product product = Product::kA2) {
  const CheckOutcome outcome = call.op().Validate(call.Args(), product);
  EXPECT_EQ(outcome.status, status) << what << ": " << outcome.message;
  EXPECT_EQ(outcome.rule, rule) << what << ": " << outcome.message;
  EXPECT_FALSE(outcome.message.empty()) << what;
}

inline void ExpectRejected(CallBuilder& call, aclnnStatus status, const std::string& rule,
                           Product product = Product::kA2) {
  ExpectRejected(call, status, rule, rule, product);
}

}  // namespace aclnn_check::testing
