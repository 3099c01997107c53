#include "fuzz/fuzz_targets.h"
#include "golden/golden_verify.h"
#include "json_input/input_error.h"

namespace aclnn_check::fuzz {

namespace {
// Points larger than this are read but not computed, so one input cannot take seconds.
constexpr int64_t kMaxComputedElements = 1 << 14;
}  // namespace

std::optional<std::string> FuzzGoldenFile(std::string_view data) {
  try {
    const GoldenFile file = ReadGoldenImage(data, "fuzz.h5");
    for (const GoldenPoint& stored : file.points) {
      // What `golden verify` does before calling a provider: validate the stored call, lay out
      // the stored inputs, and compute the reference with the oracle's values merged in.
      const StoredTestPoint point = StoredTestPointOf(stored, file.path, kGoldenProduct);
      if (!point.point.expected.ok()) continue;
      int64_t elements = 0;
      for (const auto& plan : stored.plan.tensors) elements += plan ? NumElements(plan->shape) : 0;
      if (elements > kMaxComputedElements) continue;
      const PreparedPoint prepared = PrepareStoredPoint(stored, file.path);
      OracleReference(stored, prepared);
    }
  } catch (const InputError& error) {
    return error.what();
  }
  return std::nullopt;
}

}  // namespace aclnn_check::fuzz
