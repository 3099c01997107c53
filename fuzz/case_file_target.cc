#include "cases/test_point.h"
#include "fuzz/fuzz_targets.h"
#include "runner/execute.h"
#include "validation/input_error.h"

namespace aclnn_check::fuzz {

void FuzzCaseFile(std::string_view data) {
  constexpr int kPointsPrepared = 4;
  constexpr uint64_t kMaxBytesPrepared = 1 << 20;
  try {
    const CaseFile c = ParseCaseFile(std::string(data), "fuzz.json");
    for (Product product : AllProducts()) {
      int prepared = 0;
      for (const TestPoint& point : ExpandCase(c, product)) {
        if (prepared == kPointsPrepared) break;
        if (EstimatedBytes(point) > kMaxBytesPrepared) continue;
        PreparePoint(point);
        ++prepared;
      }
    }
  } catch (const InputError&) {
  }
}

}  // namespace aclnn_check::fuzz
