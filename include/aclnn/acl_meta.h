// The aclnn object API: opaque handles and their constructors, the subset of CANN's
// aclnn/acl_meta.h (hicann/opbase include/nnopbase/aclnn/acl_meta.h) that the bundled providers
// implement. Like CANN's, this header is C++ only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "acl/acl_base.h"

extern "C" {

typedef struct aclOpExecutor aclOpExecutor;
typedef struct aclTensor aclTensor;
typedef struct aclScalar aclScalar;
typedef struct aclIntArray aclIntArray;
typedef struct aclFloatArray aclFloatArray;
typedef struct aclBoolArray aclBoolArray;
typedef struct aclTensorList aclTensorList;
typedef struct aclScalarList aclScalarList;
typedef int32_t aclnnStatus;

ACL_FUNC_VISIBILITY aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum,
                                               aclDataType dataType, const int64_t* stride,
                                               int64_t offset, aclFormat format,
                                               const int64_t* storageDims, uint64_t storageDimsNum,
                                               void* tensorData);
ACL_FUNC_VISIBILITY aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size);
ACL_FUNC_VISIBILITY aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensor(const aclTensor* tensor);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyIntArray(const aclIntArray* array);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyBoolArray(const aclBoolArray* array);

// Executor reuse (hicann/opbase docs/en/api/nnopbase/aclnn/aclSetAclOpExecutorRepeatable.md and
// its neighbours): a repeatable executor survives its execute calls until aclDestroyAclOpExecutor;
// the setters move the index-th input (resp. output) tensor, counted in prototype order, to addr.
ACL_FUNC_VISIBILITY aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor);
ACL_FUNC_VISIBILITY aclnnStatus aclSetInputTensorAddr(aclOpExecutor* executor, const size_t index,
                                                      aclTensor* tensor, void* addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index,
                                                       aclTensor* tensor, void* addr);

}  // extern "C"
