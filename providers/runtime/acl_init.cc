// aclInit, aclFinalize and aclFinalizeReference with the reference count of CANN's runtime
// (hicann/runtime src/acl/aclrt_impl/acl.cpp): a repeated aclInit counts and answers
// ACL_ERROR_REPEAT_INITIALIZE, which callers may ignore; aclFinalize ends it whatever the count;
// a second aclFinalize answers ACL_ERROR_REPEAT_FINALIZE; aclInit after aclFinalize starts again.
// The emulator reads no configuration, but a named file must exist, as CANN reads it.
#include <fstream>
#include <mutex>
#include <string>

#include "acl/acl_rt.h"
#include "aclnn/aclnn_base.h"
#include "aclnn/opdev/op_errno.h"
#include "providers/runtime/last_error.h"

namespace {

struct InitState {
  std::mutex mutex;
  uint64_t references = 0;
  bool finalized = false;
};

InitState& State() {
  static InitState state;
  return state;
}

}  // namespace

extern "C" {

aclError aclInit(const char* configPath) {
  InitState& state = State();
  std::lock_guard lock(state.mutex);
  if (state.references > 0) {
    ++state.references;
    return ACL_ERROR_REPEAT_INITIALIZE;
  }
  if (configPath && !std::ifstream(configPath)) {
    aclnn_check::provider::SetLastError(std::string("aclInit: cannot read the configuration file '") +
                                        configPath + "'");
    return ACL_ERROR_INVALID_FILE;
  }
  state.references = 1;
  state.finalized = false;
  return ACL_SUCCESS;
}

aclError aclFinalize() {
  InitState& state = State();
  std::lock_guard lock(state.mutex);
  if (state.finalized) {
    aclnn_check::provider::SetLastError("aclFinalize: already finalized");
    return ACL_ERROR_REPEAT_FINALIZE;
  }
  state.references = 0;
  state.finalized = true;
  return ACL_SUCCESS;
}

aclError aclFinalizeReference(uint64_t* refCount) {
  InitState& state = State();
  std::lock_guard lock(state.mutex);
  if (state.references == 0) {
    if (refCount) *refCount = 0;
    aclnn_check::provider::SetLastError(
        "aclFinalizeReference: called again or without a matching aclInit");
    return ACL_ERROR_REPEAT_FINALIZE;
  }
  if (--state.references == 0) state.finalized = true;
  if (refCount) *refCount = state.references;
  return ACL_SUCCESS;
}

const char* aclGetRecentErrMsg() { return aclnn_check::provider::LastError().c_str(); }

// The operator library needs no set-up of its own beyond the runtime's.
aclnnStatus aclnnInit(const char*) { return ACLNN_SUCCESS; }
aclnnStatus aclnnFinalize() { return ACLNN_SUCCESS; }

}  // extern "C"
