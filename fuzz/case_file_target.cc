#include "cases/test_point.h"
#include "fuzz/fuzz_targets.h"
#include "runner/execute.h"
#include "json_input/input_error.h"

namespace aclnn_check::fuzz {

std::optional<std::string> FuzzCaseFile(std::string_view data) {
  // Expansion runs on every product; input generation and the float64 reference only on a few
  // small points, so the fuzzer spends its time in the parser and expander (hundreds of
  // inputs a second), not in large reference computations.
  constexpr int kPointsPrepared = 2;
  constexpr uint64_t kMaxBytesPrepared = 64 << 10;
  try {
    const CaseFile c = ParseCaseFile(std::string(data), "fuzz.json");
    int prepared = 0;
    for (Product product : AllProducts()) {
      for (const TestPoint& point : ExpandCase(c, product)) {
        if (prepared == kPointsPrepared) break;
        if (EstimatedBytes(point) > kMaxBytesPrepared) continue;
        PreparePoint(point);
        ++prepared;
      }
    }
  } catch (const InputError& error) {
    return error.what();
  }
  return std::nullopt;
}

}  // namespace aclnn_check::fuzz
