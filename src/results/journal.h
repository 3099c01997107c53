// The run journal (docs/contract/runner.md, docs/journal-and-resume.md):
// <report-dir>/journal.jsonl, a header line naming the journal format and the run's identity, then
// one line per finished test point (its report entry), each written with one write() as the point
// finishes, so that a run ended by SIGKILL or the OOM killer keeps every point it finished; a
// flusher thread puts the lines on the disk within kJournalSyncInterval of their write, so a power
// loss keeps all but the last interval's (fdatasync per line cost 20 % of the default suite:
// docs/journal-and-resume.md).
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace aclnn_check {

// In the header line; a journal of another version is refused on --resume rather than misread.
constexpr int kJournalFormatVersion = 1;

constexpr std::chrono::milliseconds kJournalSyncInterval{50};

inline std::filesystem::path JournalPath(const std::filesystem::path& report_dir) {
  return report_dir / "journal.jsonl";
}

class JournalWriter {
 public:
  // A new journal (an earlier one at the path is replaced) whose first line is `header` with the
  // format version added.
  // Throws std::runtime_error naming the path and the system's reason.
  static JournalWriter Start(const std::filesystem::path& path, nlohmann::json header);
  // Appends to an existing journal, first cutting it to `valid_bytes` (a torn last line goes).
  static JournalWriter Continue(const std::filesystem::path& path, uint64_t valid_bytes);

  JournalWriter(JournalWriter&& other) noexcept;
  JournalWriter& operator=(JournalWriter&& other) noexcept;
  JournalWriter(const JournalWriter&) = delete;
  JournalWriter& operator=(const JournalWriter&) = delete;
  ~JournalWriter();

  // One line, one write(); the flusher syncs it. Throws std::runtime_error naming the path, also
  // when an earlier sync failed.
  void Append(const nlohmann::json& entry);
  // The same for an entry already serialized as compact JSON, one line without its newline (an
  // isolated worker's result frame): the run need not serialize it again. A newline inside it
  // would split the entry: std::invalid_argument, and nothing is written.
  void AppendLine(std::string_view entry);

 private:
  struct Flusher;
  JournalWriter(const std::filesystem::path& path, int fd);

  std::unique_ptr<Flusher> flusher_;
};

struct JournalContents {
  nlohmann::json header;                // the first line, its format version checked
  std::vector<nlohmann::json> entries;  // in the order they were written
  uint64_t valid_bytes = 0;             // the length up to the end of the last whole line
};

// Throws InputError naming the journal, the line and what was expected: a missing file, a header
// of another format version, or a broken line that is not the last. A last line without its
// newline or that does not parse is a write the run did not finish, and is ignored.
JournalContents ReadJournal(const std::filesystem::path& path);

struct JournalSummary {
  nlohmann::json header;  // the first line, its format version checked
  size_t entries = 0;     // whole lines after it, not parsed
};

// What a new run needs to know of a folder's journal without reading every line (the default
// suite's runs to megabytes). Throws InputError like ReadJournal for a missing file or another
// header.
JournalSummary SummariseJournal(const std::filesystem::path& path);

// The first place where two identities differ, as "/pointer: journal has X, this run has Y",
// or "" when they are equal.
std::string FirstDifference(const nlohmann::json& journal, const nlohmann::json& current);

}  // namespace aclnn_check
