#include "device_access/loader.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace aclnn_check {
namespace {

std::string JoinPaths(const std::vector<std::string>& paths) {
  std::string text;
  for (const std::string& path : paths) text += (text.empty() ? "" : ", ") + path;
  return text;
}

std::filesystem::path ExecutableDir() {
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::current_path() : exe.parent_path();
}

}  // namespace

SharedLibraries::SharedLibraries(std::vector<std::string> paths) : paths_(std::move(paths)) {
  if (paths_.empty()) throw ProviderError("no provider library given");
  for (const std::string& path : paths_) {
    dlerror();
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* reason = dlerror();
      for (void* opened : handles_) dlclose(opened);
      handles_.clear();
      throw ProviderError("cannot load provider library " + path + ": " +
                          (reason ? reason : "unknown dlopen error"));
    }
    handles_.push_back(handle);
  }
}

SharedLibraries::~SharedLibraries() {
  for (auto it = handles_.rbegin(); it != handles_.rend(); ++it) dlclose(*it);
}

void* SharedLibraries::Find(std::string_view symbol) const {
  const std::string name(symbol);
  for (void* handle : handles_) {
    if (void* address = dlsym(handle, name.c_str())) return address;
  }
  return nullptr;
}

void* SharedLibraries::Require(std::string_view symbol) const {
  if (void* address = Find(symbol)) return address;
  throw ProviderError("provider symbol " + std::string(symbol) + " not found in any of: " +
                      JoinPaths(paths_));
}

bool IsBundledProvider(std::string_view spec) {
  return spec == "cpu" || spec == "ref" || spec == "cuda";
}

std::string BundledProviderDir() {
  if (const char* dir = std::getenv("ACLNN_CHECK_PROVIDER_DIR"); dir && *dir) return dir;
  const std::filesystem::path exe_dir = ExecutableDir();
  if (std::filesystem::exists(exe_dir / "libaclnn_cpu.so")) return exe_dir.string();
  return (exe_dir.parent_path() / "lib" / "aclnn-check").string();
}

std::vector<std::string> ProviderPaths(std::string_view spec) {
  if (IsBundledProvider(spec)) {
    return {(std::filesystem::path(BundledProviderDir()) /
             ("libaclnn_" + std::string(spec) + ".so"))
                .string()};
  }
  std::vector<std::string> paths;
  size_t start = 0;
  while (start <= spec.size()) {
    const size_t end = std::min(spec.find(':', start), spec.size());
    if (end > start) paths.emplace_back(spec.substr(start, end - start));
    start = end + 1;
  }
  return paths;
}

}  // namespace aclnn_check
