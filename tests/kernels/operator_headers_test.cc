// The prototype headers: each operator folder's kernels/<folder>/aclnn_<name>.h is the one edited,
// include/aclnnop/ holds byte-identical copies for CANN-style programs and the install
// (cmake/OperatorParts.cmake; regenerate with `cmake --build build --target aclnn_sync_headers`).
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "support/source_files.h"

namespace aclnn_check {
namespace {

namespace fs = std::filesystem;
using testing::kSourceDir;
using testing::ReadFile;

constexpr const char* kRegenerate = "regenerate: cmake --build build --target aclnn_sync_headers";

bool IsOperatorHeader(const fs::path& path) {
  const std::string name = path.filename().string();
  return name.rfind("aclnn_", 0) == 0 && path.extension() == ".h";
}

TEST(OperatorHeaders, EveryFolderHasOneAndIncludeHoldsItsCopy) {
  int folders = 0;
  for (const fs::directory_entry& folder : fs::directory_iterator(kSourceDir / "kernels")) {
    if (!fs::exists(folder.path() / "operator.json")) continue;
    ++folders;
    std::vector<fs::path> headers;
    for (const fs::directory_entry& file : fs::directory_iterator(folder.path())) {
      if (IsOperatorHeader(file.path())) headers.push_back(file.path());
    }
    ASSERT_EQ(headers.size(), 1u) << folder.path() << ": one aclnn_<name>.h expected";
    const fs::path copy = kSourceDir / "include/aclnnop" / headers[0].filename();
    const std::string text = ReadFile(headers[0]);
    ASSERT_FALSE(text.empty()) << headers[0];
    EXPECT_EQ(ReadFile(copy), text) << copy << " differs from " << headers[0] << "; " << kRegenerate;
  }
  EXPECT_GE(folders, 5);
}

TEST(OperatorHeaders, IncludeHoldsNoHeaderWithoutAFolder) {
  std::set<std::string> in_folders;
  for (const fs::directory_entry& folder : fs::directory_iterator(kSourceDir / "kernels")) {
    if (!folder.is_directory()) continue;
    for (const fs::directory_entry& file : fs::directory_iterator(folder.path())) {
      if (IsOperatorHeader(file.path())) in_folders.insert(file.path().filename().string());
    }
  }
  for (const fs::directory_entry& file : fs::directory_iterator(kSourceDir / "include/aclnnop")) {
    const std::string name = file.path().filename().string();
    if (name == "aclnn_util.h") continue;  // CANN's export macro, no operator's
    EXPECT_TRUE(in_folders.count(name)) << file.path() << " has no kernels/<folder>/" << name
                                        << " (the folder's header is the one to edit)";
  }
}

}  // namespace
}  // namespace aclnn_check
