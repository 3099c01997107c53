// aclnnStatus values. CANN's public aclnn headers do not define them (they live in an internal
// opdev header); the values are those of the CANN documentation (aclnn_return_code.md).
#pragma once

#include "aclnn/acl_meta.h"

constexpr aclnnStatus ACLNN_SUCCESS = 0;
constexpr aclnnStatus ACLNN_ERR_PARAM_NULLPTR = 161001;
constexpr aclnnStatus ACLNN_ERR_PARAM_INVALID = 161002;
constexpr aclnnStatus ACLNN_ERR_RUNTIME_ERROR = 361001;
constexpr aclnnStatus ACLNN_ERR_INNER = 561000;
constexpr aclnnStatus ACLNN_ERR_INNER_INFERSHAPE_ERROR = 561001;
constexpr aclnnStatus ACLNN_ERR_INNER_TILING_ERROR = 561002;
constexpr aclnnStatus ACLNN_ERR_INNER_FIND_KERNEL_ERROR = 561003;
constexpr aclnnStatus ACLNN_ERR_INNER_CREATE_EXECUTOR = 561101;
constexpr aclnnStatus ACLNN_ERR_INNER_NULLPTR = 561103;
