// The two phases of every operator in the bundled providers. Each operator's entry.cc turns its
// C prototype into these calls, so validation, executors and streams exist once.
#pragma once

#include <initializer_list>
#include <vector>

#include "aclnn/acl_meta.h"
#include "common/operator.h"
#include "providers/common/last_error.h"

namespace aclnn_check::provider {

// Validates the call for the emulated product and, on success, creates the executor and
// reports the workspace size. A rejected call writes nothing and returns the status.
aclnnStatus Prepare(const Operator& op, std::initializer_list<const aclTensor*> tensors,
                    std::vector<ParamValue> params, uint64_t* workspace_size,
                    aclOpExecutor** executor);
// Enqueues the executor's work on the stream (a null stream runs it at once).
aclnnStatus Launch(void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                   aclrtStream stream);

ParamValue FromIntArray(const aclIntArray* array);
ParamValue FromBoolArray(const aclBoolArray* array);
ParamValue FromString(const char* text);

}  // namespace aclnn_check::provider
