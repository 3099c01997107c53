// Builds an operator call for tests: host tensors by slot name, parameters by name. The OpArgs
// it returns points into tensors the builder owns, so keep the builder alive while using them.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "catalogue/operator.h"
#include "core/host_tensor.h"

namespace aclnn_check::testing {

class CallBuilder {
 public:
  explicit CallBuilder(const Operator& op) : op_(op) {}
  const Operator& op() const { return op_; }

  CallBuilder& Tensor(std::string_view slot, HostTensor tensor) {
    tensors_.insert_or_assign(std::string(slot), std::move(tensor));
    return *this;
  }
  // A tensor of shape and dtype holding values (logical order), laid out as layout.
  CallBuilder& Tensor(std::string_view slot, DType dtype, Dims shape, std::span<const double> values,
                      Layout layout = {}) {
    return Tensor(slot, HostTensor::FromValues(dtype, std::move(shape), values, layout));
  }
  // An output (or an input whose values do not matter): zero-filled.
  CallBuilder& Zeros(std::string_view slot, DType dtype, Dims shape, Layout layout = {}) {
    return Tensor(slot, HostTensor(dtype, std::move(shape), layout));
  }
  CallBuilder& Null(std::string_view slot) {
    tensors_.erase(std::string(slot));
    return *this;
  }
  CallBuilder& Param(std::string_view name, ParamValue value) {
    params_.insert_or_assign(std::string(name), std::move(value));
    return *this;
  }
  CallBuilder& NullOutPointers(bool workspace_size, bool executor) {
    null_workspace_size_ = workspace_size;
    null_executor_ = executor;
    return *this;
  }

  OpArgs Args() {
    OpArgs args;
    for (const TensorSlot& slot : op_.tensors()) {
      auto it = tensors_.find(std::string(slot.name));
      args.tensors.push_back(it == tensors_.end() ? std::nullopt
                                                  : std::optional<TensorView>(it->second.view()));
    }
    for (const ParamSlot& slot : op_.params()) {
      auto it = params_.find(std::string(slot.name));
      args.params.push_back(it == params_.end() ? ParamValue{} : it->second);
    }
    args.workspace_size_null = null_workspace_size_;
    args.executor_null = null_executor_;
    return args;
  }

  HostTensor& tensor(std::string_view slot) { return tensors_.at(std::string(slot)); }

 private:
  const Operator& op_;
  std::map<std::string, HostTensor> tensors_;
  std::map<std::string, ParamValue> params_;
  bool null_workspace_size_ = false;
  bool null_executor_ = false;
};

}  // namespace aclnn_check::testing
