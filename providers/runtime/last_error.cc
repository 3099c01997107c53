#include "providers/runtime/last_error.h"

namespace aclnn_check::provider {
namespace {

thread_local std::string last_error;

}  // namespace

void SetLastError(std::string message) { last_error = std::move(message); }
const std::string& LastError() { return last_error; }

}  // namespace aclnn_check::provider
