// The journal's file format: whole lines read back, a torn last line dropped, another format
// version refused, a full disk named, and the first difference between two runs' identities.
#include "results/journal.h"

#include <gtest/gtest.h>

#include <fstream>

#include "json_input/input_error.h"
#include "support/source_files.h"
#include "support/temp_dir.h"

namespace aclnn_check {
namespace {

using testing::ReadFile;
using testing::TempDir;

TEST(Journal, LinesWrittenAreReadBackInOrder) {
  TempDir dir;
  const auto path = JournalPath(dir.path());
  {
    JournalWriter writer = JournalWriter::Start(path, {{"run", {{"soc", "Ascend910B3"}}}});
    writer.Append({{"id", "a"}});
    writer.Append({{"id", "b"}});
  }
  const JournalContents contents = ReadJournal(path);
  EXPECT_EQ(contents.header.at("run").at("soc"), "Ascend910B3");
  EXPECT_EQ(contents.header.at("journal_format"), kJournalFormatVersion);
  ASSERT_EQ(contents.entries.size(), 2u);
  EXPECT_EQ(contents.entries[0].at("id"), "a");
  EXPECT_EQ(contents.entries[1].at("id"), "b");
  EXPECT_EQ(contents.valid_bytes, std::filesystem::file_size(path));
}

// The run journals an isolated worker's result frame as it came (AppendLine), not serialized again.
TEST(Journal, AnEntryAlreadySerializedIsReadBackAsItsJson) {
  TempDir dir;
  const auto path = JournalPath(dir.path());
  {
    JournalWriter writer = JournalWriter::Start(path, {{"run", nullptr}});
    writer.AppendLine(R"({"id":"a","metrics":{"max_ulp":3}})");
    EXPECT_THROW(writer.AppendLine("{\"id\":\n\"b\"}"), std::invalid_argument);
    writer.Append({{"id", "c"}});
  }
  const JournalContents contents = ReadJournal(path);
  ASSERT_EQ(contents.entries.size(), 2u);
  EXPECT_EQ(contents.entries[0], nlohmann::json::parse(R"({"id":"a","metrics":{"max_ulp":3}})"));
  EXPECT_EQ(contents.entries[1].at("id"), "c");
}

TEST(Journal, ATornLastLineIsIgnoredAndCutBeforeTheNextAppend) {
  TempDir dir;
  const auto path = JournalPath(dir.path());
  {
    JournalWriter writer = JournalWriter::Start(path, {{"run", nullptr}});
    writer.Append({{"id", "a"}});
  }
  const uint64_t whole = std::filesystem::file_size(path);
  std::ofstream(path, std::ios::app) << R"({"id": "b", "verd)";
  JournalContents contents = ReadJournal(path);
  ASSERT_EQ(contents.entries.size(), 1u);
  EXPECT_EQ(contents.valid_bytes, whole);
  EXPECT_EQ(SummariseJournal(path).entries, 1u);
  {
    JournalWriter writer = JournalWriter::Continue(path, contents.valid_bytes);
    writer.Append({{"id", "c"}});
  }
  contents = ReadJournal(path);
  ASSERT_EQ(contents.entries.size(), 2u);
  EXPECT_EQ(contents.entries[1].at("id"), "c");
}

TEST(Journal, ABrokenLineBeforeTheLastIsAnErrorNamingItsLine) {
  TempDir dir;
  const auto path =
      dir.Write("journal.jsonl", "{\"journal_format\": 1, \"run\": {}}\n{\"id\n{\"id\": \"b\"}\n");
  try {
    ReadJournal(path);
    FAIL() << "a broken middle line was accepted";
  } catch (const InputError& error) {
    EXPECT_EQ(error.pointer(), "line 2");
  }
}

TEST(Journal, AnotherFormatVersionIsAClearError) {
  TempDir dir;
  const auto path = dir.Write("journal.jsonl", "{\"journal_format\": 99, \"run\": {}}\n");
  try {
    ReadJournal(path);
    FAIL() << "journal format 99 was accepted";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("this journal has 99"), std::string::npos)
        << error.what();
  }
}

TEST(Journal, AFullDiskIsNamedWhenTheHeaderIsWritten) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  // The new journal's header is written to journal.jsonl.new first: here that is /dev/full.
  TempDir dir;
  const auto path = JournalPath(dir.path());
  std::filesystem::create_symlink("/dev/full", dir.path() / "journal.jsonl.new");
  try {
    JournalWriter::Start(path, {{"run", nullptr}});
    FAIL() << "a write to /dev/full succeeded";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("No space left on device"), std::string::npos)
        << error.what();
  }
  EXPECT_FALSE(std::filesystem::exists(path)) << "a journal without its header was put in place";
}

TEST(Journal, FirstDifferenceNamesThePointerAndBothValues) {
  const nlohmann::json journal = {{"soc", "Ascend910B3"},
                                  {"options", {{"filter", "*"}, {"repeat", 1}}}};
  nlohmann::json current = journal;
  EXPECT_EQ(FirstDifference(journal, current), "");
  current["options"]["repeat"] = 3;
  EXPECT_EQ(FirstDifference(journal, current),
            "/options/repeat: the journal has 1, this run has 3");
}

}  // namespace
}  // namespace aclnn_check
