// `aclnn-check golden record`: runs case files (default: the default suite) on a provider and
// stores every computed output with its provenance (provider files and SHA-256, SoC, harness
// version), so two driver releases can be compared element by element (`golden diff`).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace aclnn_check {

struct GoldenRecordOptions {
  std::vector<std::string> cases = {"cases"};
  std::string filter = "*";
  std::string provider = "cpu";
  std::optional<std::string> soc;
  std::string output;  // the .h5 file
  // Store each point's inputs too, so the run can serve as the comparator of `run --comparator-run`
  // (which checks that the benchmark ran on the harness's inputs bit for bit).
  bool with_inputs = false;
  // Also each point's first N fresh-seed runs of `run --recheck` (under RecheckPointId, with
  // inputs), so the recorded run can serve the re-check as well.
  int recheck = 0;
};

// Exit code: 0 written (whatever the points' verdicts: they are stored with the outputs), 2 bad
// input or a provider that cannot be loaded.
int RecordGolden(const GoldenRecordOptions& options);

}  // namespace aclnn_check
