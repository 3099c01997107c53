// aclCreateTensor and friends for the bundled providers (behaviour of CANN's nnopbase:
// null dims with a non-zero count give nullptr; destroying nullptr is OK).
#include "providers/runtime/objects.h"

#include <new>

#include "aclnn/opdev/op_errno.h"
#include "providers/runtime/backend.h"
#include "providers/runtime/dispatch.h"

extern "C" {

aclTensor* aclCreateTensor(const int64_t* view_dims, uint64_t view_dims_num, aclDataType data_type,
                           const int64_t* stride, int64_t offset, aclFormat format,
                           const int64_t* storage_dims, uint64_t storage_dims_num,
                           void* tensor_data) {
  using aclnn_check::provider::SetLastError;
  if ((!view_dims && view_dims_num > 0) || (!storage_dims && storage_dims_num > 0)) {
    SetLastError("aclCreateTensor: null dims with a non-zero count");
    return nullptr;
  }
  const auto dtype = aclnn_check::FromAclDataType(data_type);
  if (!dtype || offset < 0) {
    SetLastError("aclCreateTensor: unknown data type or negative offset");
    return nullptr;
  }
  auto* tensor = new (std::nothrow) aclTensor();
  if (!tensor) return nullptr;
  tensor->view.dtype = *dtype;
  tensor->view.shape.assign(view_dims, view_dims + view_dims_num);
  tensor->view.strides = stride ? aclnn_check::Dims(stride, stride + view_dims_num)
                                : aclnn_check::ContiguousStrides(tensor->view.shape);
  tensor->view.offset = offset;
  tensor->view.data = tensor_data;
  tensor->format = format;
  tensor->storage_dims.assign(storage_dims, storage_dims + storage_dims_num);
  return tensor;
}

aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
  if (!value && size > 0) return nullptr;
  auto* array = new (std::nothrow) aclIntArray();
  if (array && size > 0) array->values.assign(value, value + size);
  return array;
}

aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) {
  if (!value && size > 0) return nullptr;
  auto* array = new (std::nothrow) aclBoolArray();
  if (array && size > 0) array->values.assign(value, value + size);
  return array;
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
  const auto destroyed = aclnn_check::provider::ActiveBackend().tensor_destroyed;
  if (tensor && destroyed) destroyed(tensor->view.data);
  delete tensor;
  return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyIntArray(const aclIntArray* array) {
  delete array;
  return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyBoolArray(const aclBoolArray* array) {
  delete array;
  return ACLNN_SUCCESS;
}

}  // extern "C"
