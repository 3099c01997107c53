// A test point's host parameters in ABI form, together with the provider arrays and C strings the
// pointers point to: the conformance run and the benchmarks build a call's parameters the same way.
#pragma once

#include <span>
#include <vector>

#include "catalogue/abi_call.h"
#include "catalogue/operator.h"
#include "device_access/device.h"

namespace aclnn_check {

class AbiParams {
 public:
  // One AbiParam per value, in the operator's ParamSlot order; a null value (monostate) becomes a
  // null pointer of the parameter's own kind. Arrays are created by the session's provider.
  AbiParams(const Operator& op, const DeviceSession& session, std::span<const ParamValue> values);

  // Valid while this object lives (moving it keeps them valid: the storage moves with it).
  const std::vector<AbiParam>& values() const { return values_; }

 private:
  std::vector<ProviderHandle<aclIntArray>> int_arrays_;
  std::vector<ProviderHandle<aclBoolArray>> bool_arrays_;
  std::vector<std::vector<char>> strings_;
  std::vector<AbiParam> values_;
};

}  // namespace aclnn_check
