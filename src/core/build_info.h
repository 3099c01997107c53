// What build of aclnn-check wrote a report, a recording or a benchmark. Defined in a file the
// build regenerates (cmake/WriteBuildInfo.cmake), so only that file changes with each commit.
#pragma once

namespace aclnn_check {

const char* HarnessVersion();  // the project version, e.g. "0.1.0"
const char* GitRevision();     // the commit, "-dirty" with uncommitted changes, or "unknown"

}  // namespace aclnn_check
