// The bundled providers' definitions of CANN's opaque handles. Device memory is host memory,
// so a tensor is a TensorView over it.
#pragma once

#include <vector>

#include "acl/acl_base.h"
#include "catalogue/operator.h"
#include "core/tensor_view.h"

struct aclTensor {
  aclnn_check::TensorView view;
  aclFormat format = ACL_FORMAT_ND;
  aclnn_check::Dims storage_dims;
};

struct aclIntArray {
  std::vector<int64_t> values;
};

struct aclBoolArray {
  std::vector<bool> values;
};

// Created by GetWorkspaceSize and consumed by one execute call, or, once made repeatable, kept
// for any number of them until aclDestroyAclOpExecutor (providers/runtime/executors.h).
struct aclOpExecutor {
  const aclnn_check::Operator* op = nullptr;
  aclnn_check::OpArgs args;
  uint64_t workspace_bytes = 0;
  bool repeatable = false;
  uint64_t serial = 0;  // 1, 2, ... in the order of creation: an identity no later one reuses
  // The tensors of the GetWorkspaceSize call, one per TensorSlot (null where the caller passed
  // null): the address setters accept only the tensor the call gave at that position.
  std::vector<const aclTensor*> handles;
};
