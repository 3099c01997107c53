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

// Created by GetWorkspaceSize, consumed by exactly one execute call.
struct aclOpExecutor {
  const aclnn_check::Operator* op = nullptr;
  aclnn_check::OpArgs args;
  uint64_t workspace_bytes = 0;
};
