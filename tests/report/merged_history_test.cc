// The conformance history of a sharded run: the shards append no line, `report merge` appends one
// for the whole run, with the merged totals.
#include <gtest/gtest.h>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "report/run_history.h"
#include "support/source_files.h"
#include "support/temp_dir.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

int Shell(const std::string& command) {
  const int status = std::system((command + " > /dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(RunHistory, ShardsAppendNoneTheMergeAppendsOne) {
  testing::TempDir dir;
  dir.Write("cases/logit.json", R"({"name": "history", "op": "LogitGrad",
    "axes": {"dtype": ["float16", "float32"], "shape": [[64], [7]], "eps": [0.1]}, "seed": 2})");
  const std::string cli = ACLNN_CHECK_CLI;
  const std::string history = (dir.path() / "runs.jsonl").string();
  for (const char* shard : {"1", "2"}) {
    ASSERT_EQ(Shell(cli + " run '" + (dir.path() / "cases").string() + "' --shard " + shard + "/2 --report-dir '" +
                    (dir.path() / "shard" / shard).string() + "' --run-history '" + history + "'"),
              0);
  }
  EXPECT_FALSE(std::filesystem::exists(history)) << "a shard appended a line";
  ASSERT_EQ(Shell(cli + " report merge '" + (dir.path() / "shard/1/report.json").string() + "' '" +
                  (dir.path() / "shard/2/report.json").string() + "' -o '" + (dir.path() / "merged").string() +
                  "' --run-history '" + history + "'"),
            0);
  const std::vector<json> lines = ReadJsonLines(history, "conformance history");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].at("shard"), "merged");
  EXPECT_EQ(lines[0].at("totals").at("test_points"), 4);
  EXPECT_EQ(lines[0].at("totals").at("passed"), 4);
}

}  // namespace
}  // namespace aclnn_check
