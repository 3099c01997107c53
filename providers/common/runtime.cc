// The ACL runtime calls every bundled provider shares: initialisation, the last error message,
// the emulated SoC (ACLNN_CPU_SOC) and dtype sizes. Device, memory and streams are the memory
// model's: host_runtime.cc (cpu, ref) or providers/cuda/runtime.cc.
#include <string>

#include "aclnn/acl_rt.h"
#include "core/dtype.h"
#include "core/product.h"
#include "providers/common/dispatch.h"

namespace aclnn_check::provider {
namespace {

thread_local std::string last_error;

}  // namespace

void SetLastError(std::string message) { last_error = std::move(message); }

}  // namespace aclnn_check::provider

extern "C" {

aclError aclInit(const char*) { return ACL_SUCCESS; }
aclError aclFinalize() { return ACL_SUCCESS; }
const char* aclGetRecentErrMsg() { return aclnn_check::provider::last_error.c_str(); }

const char* aclrtGetSocName() {
  // One string per thread, refreshed from ACLNN_CPU_SOC on every call.
  thread_local std::string soc;
  soc = aclnn_check::EmulatedSocName();
  return soc.c_str();
}

size_t aclDataTypeSize(aclDataType type) {
  const auto dtype = aclnn_check::FromAclDataType(type);
  return dtype ? aclnn_check::DTypeSize(*dtype) : 0;
}

}  // extern "C"
