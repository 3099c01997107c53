// The runtime's own error codes that the bundled providers return (CANN's
// acl/error_codes/rt_error_codes.h, hicann/runtime include/external/acl/error_codes/).
#pragma once

#define ACL_ERROR_RT_PARAM_INVALID 107000
#define ACL_ERROR_RT_INVALID_DEVICEID 107001
#define ACL_ERROR_RT_CONTEXT_NULL 107002
#define ACL_ERROR_RT_STREAM_CONTEXT 107003
#define ACL_ERROR_RT_INVALID_HANDLE 107017
#define ACL_ERROR_RT_FEATURE_NOT_SUPPORT 207000
#define ACL_ERROR_RT_MEMORY_ALLOCATION 207001
#define ACL_ERROR_RT_NO_DEVICE 207004
