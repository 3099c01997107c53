// CANN's aclnn/aclnn_base.h (hicann/opbase include/nnopbase/aclnn/aclnn_base.h): what CANN's
// hand-written operator headers include.
#pragma once

#include <cstdint>
#include <cstdlib>

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char* configPath);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize();

#ifdef __cplusplus
}
#endif
