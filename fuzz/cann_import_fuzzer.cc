// libFuzzer entry point; the work is in fuzz/cann_import_target.cc.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  aclnn_check::fuzz::FuzzCannImport({reinterpret_cast<const char*>(data), size});
  return 0;
}
