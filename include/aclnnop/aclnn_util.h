// CANN's aclnnop/aclnn_util.h (hicann/opbase include/aclnnop/aclnn_util.h): the export macro of
// the hand-written operator headers.
#pragma once

#define ACLNN_API __attribute__((visibility("default")))
