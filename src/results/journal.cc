#include "results/journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "json_input/input_error.h"

namespace aclnn_check {
namespace {

std::runtime_error SystemError(const std::filesystem::path& path, const std::string& what) {
  return std::runtime_error(path.string() + ": " + what + ": " + std::strerror(errno));
}

std::string Shown(const nlohmann::json& value) {
  return value.is_null() ? "nothing" : value.dump();
}

}  // namespace

// Syncs the journal's lines on its own thread, at most once per kJournalSyncInterval, so that the
// run never waits for the disk.
struct JournalWriter::Flusher {
  Flusher(std::filesystem::path journal, int descriptor)
      : path(std::move(journal)), fd(descriptor) {
    thread = std::thread([this] { Loop(); });
  }
  ~Flusher() {
    {
      std::lock_guard lock(mutex);
      stop = true;
    }
    wake.notify_one();
    thread.join();
    fdatasync(fd);
    close(fd);
  }
  void Loop() {
    std::unique_lock lock(mutex);
    while (true) {
      wake.wait(lock, [&] { return dirty || stop; });
      if (stop) return;  // the destructor syncs what is left
      dirty = false;
      lock.unlock();
      const int result = fdatasync(fd);
      const int saved = errno;
      lock.lock();
      if (result != 0 && sync_error == 0) sync_error = saved;
      wake.wait_for(lock, kJournalSyncInterval, [&] { return stop; });
    }
  }

  std::filesystem::path path;
  int fd;
  std::mutex mutex;
  std::condition_variable wake;
  bool dirty = false, stop = false;
  int sync_error = 0;
  std::thread thread;
};

JournalWriter::JournalWriter(const std::filesystem::path& path, int fd)
    : flusher_(std::make_unique<Flusher>(path, fd)) {}
JournalWriter::JournalWriter(JournalWriter&& other) noexcept = default;
JournalWriter& JournalWriter::operator=(JournalWriter&& other) noexcept = default;
JournalWriter::~JournalWriter() = default;

// The header goes into a file of its own that is renamed over the journal once it is on the disk:
// a run killed while it starts leaves the folder's earlier journal (or none), never a journal
// without a header, which --resume could not read.
JournalWriter JournalWriter::Start(const std::filesystem::path& path, nlohmann::json header) {
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  std::filesystem::path starting = path;
  starting += ".new";
  const int fd = open(starting.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw SystemError(starting, "cannot create the journal");
  JournalWriter writer(path, fd);
  header["journal_format"] = kJournalFormatVersion;
  try {
    writer.AppendLine(header.dump());
    if (fdatasync(fd) != 0)
      throw SystemError(starting, "cannot flush the journal's header to the disk");
    if (rename(starting.c_str(), path.c_str()) != 0)
      throw SystemError(path, "cannot put the new journal in place");
    // The rename itself on the disk, or a power loss could bring the earlier journal back.
    const int folder = open(path.parent_path().empty() ? "." : path.parent_path().c_str(),
                            O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder >= 0) {
      fsync(folder);
      close(folder);
    }
  } catch (...) {
    std::filesystem::remove(starting, error);
    throw;
  }
  return writer;
}

JournalWriter JournalWriter::Continue(const std::filesystem::path& path, uint64_t valid_bytes) {
  const int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) throw SystemError(path, "cannot open the journal");
  if (ftruncate(fd, static_cast<off_t>(valid_bytes)) != 0) {
    const int saved = errno;
    close(fd);
    errno = saved;
    throw SystemError(path, "cannot cut its torn last line");
  }
  return JournalWriter(path, fd);
}

void JournalWriter::Append(const nlohmann::json& entry) { AppendLine(entry.dump()); }

void JournalWriter::AppendLine(std::string_view text) {
  if (text.find('\n') != std::string_view::npos) {
    throw std::invalid_argument("a journal entry must be one line; this one holds a newline");
  }
  Flusher& flusher = *flusher_;
  {
    std::lock_guard lock(flusher.mutex);
    if (flusher.sync_error != 0) {
      errno = flusher.sync_error;
      throw SystemError(flusher.path, "cannot flush the journal to the disk");
    }
  }
  std::string line(text);
  line += '\n';
  // One write(): with O_APPEND a line lands whole or (on a crash mid-write) as a torn tail that
  // the reader drops. A short write means the disk is full: the line is cut off again.
  const ssize_t written = write(flusher.fd, line.data(), line.size());
  if (written != static_cast<ssize_t>(line.size())) {
    if (written >= 0) errno = ENOSPC;
    const int saved = errno;
    const off_t end = lseek(flusher.fd, 0, SEEK_END);
    if (written > 0 && end >= written) (void)ftruncate(flusher.fd, end - written);
    errno = saved;
    throw SystemError(flusher.path, "cannot write the journal");
  }
  {
    std::lock_guard lock(flusher.mutex);
    flusher.dirty = true;
  }
  flusher.wake.notify_one();
}

JournalContents ReadJournal(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string(), "", "no journal here (run without --resume first)");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  JournalContents contents;
  size_t start = 0;
  int line_number = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    if (end == std::string::npos) break;  // torn last line: a write the run did not finish
    ++line_number;
    nlohmann::json line =
        nlohmann::json::parse(text.begin() + static_cast<std::ptrdiff_t>(start),
                              text.begin() + static_cast<std::ptrdiff_t>(end), nullptr, false);
    const bool last = end + 1 >= text.size();
    if (line.is_discarded() || !line.is_object()) {
      if (last && line_number > 1) break;
      throw InputError(path.string(), "line " + std::to_string(line_number), "a JSON object");
    }
    if (line_number == 1) {
      const nlohmann::json format = line.value("journal_format", nlohmann::json());
      if (format != kJournalFormatVersion) {
        throw InputError(path.string(), "line 1/journal_format",
                         "journal format " + std::to_string(kJournalFormatVersion) +
                             " (this journal has " + Shown(format) +
                             "; resume it with the harness that wrote it, or run again)");
      }
      contents.header = std::move(line);
    } else {
      contents.entries.push_back(std::move(line));
    }
    contents.valid_bytes = end + 1;
    start = end + 1;
  }
  if (line_number == 0) throw InputError(path.string(), "line 1", "the journal's header line");
  return contents;
}

JournalSummary SummariseJournal(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string(), "", "no journal here");
  std::string header_line;
  if (!std::getline(in, header_line) || in.eof())
    throw InputError(path.string(), "line 1", "the journal's header line");
  JournalSummary summary;
  summary.header = nlohmann::json::parse(header_line, nullptr, false);
  if (summary.header.is_discarded() || !summary.header.is_object() ||
      summary.header.value("journal_format", nlohmann::json()) != kJournalFormatVersion) {
    throw InputError(path.string(), "line 1",
                     "a header of journal format " + std::to_string(kJournalFormatVersion));
  }
  // Whole lines only: a torn last one has no newline.
  char block[1 << 16];
  while (in.read(block, sizeof block) || in.gcount() > 0) {
    summary.entries += static_cast<size_t>(std::count(block, block + in.gcount(), '\n'));
  }
  return summary;
}

std::string FirstDifference(const nlohmann::json& journal, const nlohmann::json& current) {
  // Not JSON Patch's order: object keys in sorted order, then array positions in order.
  const nlohmann::json diff = nlohmann::json::diff(journal, current);
  if (diff.empty()) return "";
  const std::string pointer = diff[0].at("path").get<std::string>();
  const nlohmann::json::json_pointer at(pointer);
  const nlohmann::json before = journal.contains(at) ? journal.at(at) : nlohmann::json();
  const nlohmann::json after = current.contains(at) ? current.at(at) : nlohmann::json();
  return pointer + ": the journal has " + Shown(before) + ", this run has " + Shown(after);
}

}  // namespace aclnn_check
