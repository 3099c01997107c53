// `aclnn-check golden verify`: runs a provider on the inputs stored in golden files and checks its
// outputs against the oracle's expected outputs with the element bound of
// docs/contract/numerics.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "check/output_check.h"
#include "golden/golden_file.h"
#include "golden/stored_point.h"

namespace aclnn_check {

struct GoldenVerifyOptions {
  std::vector<std::string> paths = {"golden"};  // golden files or folders of *.h5
  std::string provider = "cpu";
  std::optional<std::string> soc;
  std::vector<std::string> profiles;
  std::string report_dir = "reports/golden";
};

// Exit code like `run`: 0 all passed, 1 a point failed, 2 bad input.
int VerifyGolden(const GoldenVerifyOptions& options);

// The *.h5 files under the paths (folders: not recursive), sorted; InputError for a missing path.
std::vector<std::string> FindGoldenFiles(const std::vector<std::string>& paths);

// The harness's float64 reference on the stored inputs, with the oracle's value in place of the
// reference's on every element the plain formula decides (no element rule of the harness, no
// documented rule that the oracle differs from). Elements a rule decides keep the documented
// value: the rule, not the oracle, is the standard there. mag always comes from the reference.
ReferenceResult OracleReference(const GoldenPoint& stored, const PreparedPoint& prepared);

// Elements where the oracle and a documented rule differ: which one the device followed.
struct RuleFollowing {
  int64_t followed_oracle = 0;
  int64_t followed_rule = 0;
  int64_t followed_neither = 0;
};
// Per rule id, over the point's outputs.
std::map<std::string, RuleFollowing> WhichWasFollowed(const GoldenPoint& stored,
                                                      const ReferenceResult& reference,
                                                      const DeviceOutputs& device);

}  // namespace aclnn_check
