// The message aclGetRecentErrMsg returns: the last failure of a runtime, object or operator call
// on the calling thread.
#pragma once

#include <string>

namespace aclnn_check::provider {

void SetLastError(std::string message);
const std::string& LastError();

}  // namespace aclnn_check::provider
