// Opens a provider's shared libraries with dlopen and resolves symbols across them in order, as a
// real CANN installation splits the interface over libascendcl, libnnopbase and libopapi*.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace aclnn_check {

// A provider that cannot be used: a library that does not open, a required symbol missing.
class ProviderError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class SharedLibraries {
 public:
  // Opens every path with RTLD_NOW | RTLD_LOCAL; throws ProviderError naming the library.
  explicit SharedLibraries(std::vector<std::string> paths);
  ~SharedLibraries();
  SharedLibraries(const SharedLibraries&) = delete;
  SharedLibraries& operator=(const SharedLibraries&) = delete;

  // The symbol from the first library that exports it, or nullptr.
  void* Find(std::string_view symbol) const;
  // Like Find, but throws ProviderError naming the symbol and every library searched.
  void* Require(std::string_view symbol) const;
  const std::vector<std::string>& paths() const { return paths_; }

 private:
  std::vector<std::string> paths_;
  std::vector<void*> handles_;
};

// "cpu", "ref" and "cuda" name the bundled providers (libaclnn_<name>.so in BundledProviderDir;
// all three emulate the product of ACLNN_CPU_SOC); anything else is PATH[:PATH...].
bool IsBundledProvider(std::string_view spec);
std::vector<std::string> ProviderPaths(std::string_view spec);
// Folder holding the bundled provider libraries: $ACLNN_CHECK_PROVIDER_DIR, else the folder of
// the running executable, else its ../lib/aclnn-check.
std::string BundledProviderDir();

}  // namespace aclnn_check
