// aclnnStatus values by name, for case files and reports.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "aclnn/acl_meta.h"
#include "aclnn/opdev/op_errno.h"

namespace aclnn_check {

// "ACLNN_ERR_PARAM_NULLPTR" for 161001; "" for a code without a name.
std::string_view StatusName(aclnnStatus status);
// "161002 (ACLNN_ERR_PARAM_INVALID)".
std::string DescribeStatus(aclnnStatus status);
std::optional<aclnnStatus> ParseStatusName(std::string_view name);

}  // namespace aclnn_check
