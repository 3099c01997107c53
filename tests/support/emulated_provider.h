// The cpu provider dlopen'd once per test program, and ACL(name): the provider's own definition
// of a CANN function, typed by the declaration in include/, as a program linked against the
// provider would call it.
#pragma once

#include "device_access/loader.h"

namespace aclnn_check::testing {

inline const SharedLibraries& CpuProvider() {
  static const SharedLibraries libraries(ProviderPaths("cpu"));
  return libraries;
}

template <typename Function>
Function ResolveInCpuProvider(const char* name) {
  return reinterpret_cast<Function>(CpuProvider().Require(name));
}

}  // namespace aclnn_check::testing

#define ACL(name) ::aclnn_check::testing::ResolveInCpuProvider<decltype(&name)>(#name)
