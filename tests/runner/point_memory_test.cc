// A large point's peak memory, measured on the real command: what a point holds at once must fit
// in the memory warmed for it, and the reference must wait for the device buffers to be freed.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <fstream>
#include <string>
#include <vector>

#include "cases/case_file.h"
#include "cases/test_point.h"
#include "runner/execute.h"
#include "support/temp_dir.h"

extern char** environ;

namespace aclnn_check {
namespace {

using testing::TempDir;

// The largest resident set of `aclnn-check run` on one case, in bytes.
long PeakOfRun(const TempDir& dir, const std::string& name, const std::string& shape) {
  const std::string file = (dir.path() / (name + ".json")).string();
  std::ofstream(file) << R"({"name": ")" << name
                      << R"(", "op": "HardswishBackward", "description": "peak memory",)"
                      << R"( "axes": {"dtype": ["float32"], "shape": [)" << shape << R"(]},)"
                      << R"( "inputs": {"self": {"dist": "uniform", "low": -4, "high": 4}}})";
  std::vector<std::string> arguments = {
      ACLNN_CHECK_CLI, "run",           file, "--jobs",       "1",
      "--no-isolate",  "--run-history", "",   "--report-dir", (dir.path() / name).string()};
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  pid_t child = 0;
  const int spawned = posix_spawn(&child, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  int status = 0;
  rusage usage{};
  wait4(child, &status, 0, &usage);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  return usage.ru_maxrss * 1024;
}

TEST(PointMemory, AFloat32ElementwisePointPeaksAtMost34BytesPerElement) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "a sanitizer's allocator does not keep freed memory in the heap";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  GTEST_SKIP() << "a sanitizer's allocator does not keep freed memory in the heap";
#endif
#endif
  TempDir dir;
  const long small = PeakOfRun(dir, "small", "[4, 4]");
  const long large = PeakOfRun(dir, "large", "[2048, 4096]");
  ASSERT_GT(small, 0) << "aclnn-check failed on the small point";
  ASSERT_GT(large, 0) << "aclnn-check failed on the large point";
  const double per_element = static_cast<double>(large - small) / (2048.0 * 4096.0);
  // While the call runs: the inputs' host copies 8 and the device buffers 12 (an output's host
  // side is only its fill). After it: the inputs 8, the output's download 4, checked a block at a
  // time, and the reference 18, computed once the device buffers are freed. The issue's target is
  // 40; this measures 30.3 here, 40.0 with the reference computed before the call and 42.1 with a
  // host copy of the output besides.
  EXPECT_LE(per_element, 34) << "peak " << large << " bytes, " << small << " for a tiny point";
  // --max-memory's estimate of the point is what the run holds (the run's fixed part aside).
  const CaseFile c = LoadCaseFile(dir.path() / "large.json");
  const std::vector<TestPoint> points = ExpandCase(c, Product::kA2);
  ASSERT_EQ(points.size(), 1u);
  const double estimate = static_cast<double>(EstimatedBytes(points[0]));
  const double measured = static_cast<double>(large - small);
  EXPECT_NEAR(estimate / measured, 1.0, 0.1)
      << "estimate " << estimate << ", measured " << measured;
  // Calls beside the first one's reference add one set of device buffers, 12 bytes per element.
  EXPECT_EQ(EstimatedBytes(points[0], LaterCalls::kBesideItsReference) - EstimatedBytes(points[0]),
            uint64_t{8 + 4} * 2048 * 4096);
}

}  // namespace
}  // namespace aclnn_check
