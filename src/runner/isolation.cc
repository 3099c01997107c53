#include "runner/isolation.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "check/rule_ids.h"
#include "results/test_point_json.h"
#include "runner/point_run.h"

namespace aclnn_check {
namespace {

using Clock = std::chrono::steady_clock;

// Written by a worker before each provider call, read by the harness when the worker dies.
struct SharedStatus {
  volatile int64_t point = -1;
  volatile CallPhase phase = CallPhase::kPrepare;
};

// Set from the signal handler; the self-pipe wakes the poll loop.
volatile sig_atomic_t interrupted = 0;
int wake_pipe[2] = {-1, -1};

void OnInterrupt(int) {
  interrupted = 1;
  const char byte = 1;
  if (wake_pipe[1] >= 0) [[maybe_unused]] auto ignored = ::write(wake_pipe[1], &byte, 1);
}

bool WriteAll(int fd, const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool ReadAll(int fd, void* data, size_t size) {
  char* p = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = ::read(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool WriteFrame(int fd, const std::string& text) {
  const uint64_t size = text.size();
  return WriteAll(fd, &size, sizeof size) && WriteAll(fd, text.data(), text.size());
}

std::optional<std::string> ReadFrame(int fd) {
  uint64_t size = 0;
  if (!ReadAll(fd, &size, sizeof size) || size > (uint64_t{1} << 32)) return std::nullopt;
  std::string text(size, '\0');
  if (!ReadAll(fd, text.data(), size)) return std::nullopt;
  return text;
}

// The worker: load the provider, then run the points the harness sends until the pipe closes.
[[noreturn]] void WorkerMain(const std::string& spec, RunContext context,
                             const std::vector<const TestPoint*>& points, int commands, int results,
                             SharedStatus* status) {
  signal(SIGINT, SIG_IGN);  // the harness decides what happens on Ctrl-C
  signal(SIGTERM, SIG_DFL);
  try {
    const std::unique_ptr<Provider> provider = Provider::Load(spec);
    const DeviceSession session(*provider);
    context.provider = provider.get();
    context.phase = &status->phase;
    uint64_t index = 0;
    while (ReadAll(commands, &index, sizeof index)) {
      status->point = static_cast<int64_t>(index);
      const TestPointResult result = RunTestPoint(*points[index], session, context);
      if (!WriteFrame(results, TestPointJson(result).dump())) break;
    }
  } catch (const std::exception& error) {
    WriteFrame(results, std::string("!") + error.what());
  }
  _exit(0);
}

struct Worker {
  pid_t pid = -1;
  int commands = -1;  // harness -> worker: point indices
  int results = -1;   // worker -> harness: result frames
  SharedStatus* status = nullptr;
  int64_t point = -1;  // the point it is running, -1 when idle
  Clock::time_point deadline;
};

// inherited: the harness's descriptors a worker must not keep (other workers' pipe ends, the wake
// pipe). Without exec, O_CLOEXEC does not close them, and a sibling holding a worker's command pipe
// open would keep that worker from ever seeing end-of-file.
Worker StartWorker(const std::string& spec, const RunContext& context,
                   const std::vector<const TestPoint*>& points, SharedStatus* status,
                   const std::vector<int>& inherited) {
  int to_worker[2], from_worker[2];
  if (pipe2(to_worker, O_CLOEXEC) != 0 || pipe2(from_worker, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  status->point = -1;
  status->phase = CallPhase::kPrepare;
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(to_worker[1]);
    ::close(from_worker[0]);
    for (int fd : inherited) ::close(fd);
    WorkerMain(spec, context, points, to_worker[0], from_worker[1], status);
  }
  ::close(to_worker[0]);
  ::close(from_worker[1]);
  return Worker{pid, to_worker[1], from_worker[0], status, -1, {}};
}

// Kills (if asked) and reaps a worker; returns its wait status.
int StopWorker(Worker& worker, bool kill_it) {
  if (worker.commands >= 0) ::close(worker.commands);
  if (worker.results >= 0) ::close(worker.results);
  worker.commands = worker.results = -1;
  if (kill_it) ::kill(worker.pid, SIGKILL);
  int wait_status = 0;
  while (waitpid(worker.pid, &wait_status, 0) < 0 && errno == EINTR) {
  }
  worker.pid = -1;
  return wait_status;
}

std::string HowItDied(int wait_status) {
  if (WIFSIGNALED(wait_status)) return "crashed with " + SignalName(WTERMSIG(wait_status));
  if (WIFEXITED(wait_status)) return "exited with status " + std::to_string(WEXITSTATUS(wait_status));
  return "stopped";
}

class SignalScope {
 public:
  SignalScope() {
    interrupted = 0;
    if (pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK) != 0) wake_pipe[0] = wake_pipe[1] = -1;
    struct sigaction action {};
    action.sa_handler = OnInterrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
  }
  ~SignalScope() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    for (int& fd : wake_pipe) {
      if (fd >= 0) ::close(fd);
      fd = -1;
    }
  }

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

}  // namespace

std::string SignalName(int signal_number) {
  const char* abbreviation = sigabbrev_np(signal_number);
  const char* description = strsignal(signal_number);
  return (abbreviation ? "SIG" + std::string(abbreviation) : "signal " + std::to_string(signal_number)) +
         (description ? " (" + std::string(description) + ")" : "");
}

TestPointResult AbortedResult(const TestPoint& point, const RunContext& context,
                              const std::string& rule, const std::string& message) {
  TestPointResult result = ResultIdentity(point, context);
  result.verdict = Verdict::kFailed;
  result.failures.push_back({rule, message});
  result.rules.push_back({rule, false, false, 0});
  return result;
}

namespace {

// Whether fd has something to read (or its writer is gone) before `seconds` have passed.
bool ReadableWithin(int fd, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd wait{fd, POLLIN, 0};
    const int ready = poll(&wait, 1, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
    if (ready > 0) return true;
    if (ready < 0 && errno != EINTR) return true;  // let the read report it
  }
}

}  // namespace

ProviderProbe ProbeProvider(const std::string& spec, double timeout_seconds) {
  int channel[2];
  if (pipe2(channel, O_CLOEXEC) != 0) return {std::string("pipe: ") + std::strerror(errno), {}, {}};
  const pid_t pid = fork();
  if (pid < 0) return {std::string("fork: ") + std::strerror(errno), {}, {}};
  if (pid == 0) {
    ::close(channel[0]);
    std::string answer;
    try {
      const std::unique_ptr<Provider> provider = Provider::Load(spec);
      const std::optional<std::string> soc = provider->SocName();
      const std::optional<uint32_t> devices = provider->DeviceCount();
      answer = (soc ? "+" + *soc : "-") + (devices ? "\n" + std::to_string(*devices) : "");
    } catch (const std::exception& error) {
      answer = std::string("!") + error.what();
    }
    WriteFrame(channel[1], answer);
    _exit(0);
  }
  ::close(channel[1]);
  if (!ReadableWithin(channel[0], timeout_seconds)) {
    // A provider that hangs while loading (a constructor, aclInit) gets the run's timeout, as a
    // hanging test point does.
    ::close(channel[0]);
    kill(pid, SIGKILL);
    while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    return {"loading the provider did not finish within " +
                std::to_string(timeout_seconds).substr(0, 6) + " s (--timeout; killed)",
            {},
            {}};
  }
  const std::optional<std::string> answer = ReadFrame(channel[0]);
  ::close(channel[0]);
  int wait_status = 0;
  while (waitpid(pid, &wait_status, 0) < 0 && errno == EINTR) {
  }
  if (!answer) return {"loading the provider " + HowItDied(wait_status), {}, {}};
  if ((*answer)[0] == '!') return {answer->substr(1), {}, {}};
  const size_t newline = answer->find('\n');
  ProviderProbe probe;
  if ((*answer)[0] == '+') probe.soc = answer->substr(1, newline - 1);
  if (newline != std::string::npos) probe.devices = std::stoul(answer->substr(newline + 1));
  return probe;
}

namespace {

// One shared status page per worker slot, mapped before any fork so parent and child see it.
class SharedStatusPages {
 public:
  explicit SharedStatusPages(size_t count) : count_(count) {
    void* pages = mmap(nullptr, Bytes(), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED) throw std::runtime_error(std::string("mmap: ") + std::strerror(errno));
    pages_ = static_cast<SharedStatus*>(pages);
  }
  ~SharedStatusPages() { munmap(pages_, Bytes()); }
  SharedStatusPages(const SharedStatusPages&) = delete;
  SharedStatusPages& operator=(const SharedStatusPages&) = delete;
  SharedStatus& operator[](size_t slot) { return pages_[slot]; }

 private:
  size_t Bytes() const { return sizeof(SharedStatus) * count_; }
  size_t count_;
  SharedStatus* pages_ = nullptr;
};

// The workers of one isolated run: each slot holds a worker that runs one point at a time; a
// worker that dies or overruns its point's time limit fails that point and is replaced.
class WorkerPool {
 public:
  WorkerPool(const std::string& provider_spec, const RunContext& context,
             const std::vector<const TestPoint*>& points, const IsolationOptions& options,
             const ResultSink& on_result)
      : provider_spec_(provider_spec), context_(context), points_(points), options_(options),
        on_result_(on_result), statuses_(SlotCount(options, points)), workers_(SlotCount(options, points)) {}

  // Runs every point; false when interrupted first.
  bool RunAll() {
    for (size_t slot = 0; slot < workers_.size(); ++slot) Start(slot);
    for (Worker& worker : workers_) Dispatch(worker);
    while (finished_ < points_.size()) {
      if (interrupted) return false;
      const std::vector<pollfd> fds = WaitForResults();
      for (size_t slot = 0; slot < workers_.size(); ++slot) {
        if (fds[slot + 1].revents & (POLLIN | POLLHUP | POLLERR)) {
          Collect(slot);
        } else if (workers_[slot].point >= 0 && Clock::now() >= workers_[slot].deadline) {
          TimeOut(slot);
        }
      }
    }
    return true;
  }

  void StopAll(bool kill_them) {
    for (Worker& worker : workers_) {
      if (worker.pid > 0) StopWorker(worker, kill_them);
    }
  }

 private:
  static size_t SlotCount(const IsolationOptions& options, const std::vector<const TestPoint*>& points) {
    return static_cast<size_t>(std::max(1, std::min<int>(options.workers, static_cast<int>(points.size()))));
  }

  void Start(size_t slot) {
    std::vector<int> inherited = {wake_pipe[0], wake_pipe[1]};
    for (const Worker& other : workers_) {
      if (other.commands >= 0) inherited.push_back(other.commands);
      if (other.results >= 0) inherited.push_back(other.results);
    }
    workers_[slot] = StartWorker(provider_spec_, context_, points_, &statuses_[slot], inherited);
  }

  void Dispatch(Worker& worker) {
    if (next_ >= points_.size()) return;
    const uint64_t index = next_++;
    worker.point = static_cast<int64_t>(index);
    worker.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                         std::chrono::duration<double>(options_.timeout_of(*points_[index])));
    if (!WriteAll(worker.commands, &index, sizeof index)) {
      // The worker died before taking work: reported when its result pipe closes.
    }
  }

  // Waits until a worker writes or closes its results, the wake pipe fires, or the earliest
  // deadline passes (at most a second); returns the polled descriptors, the wake pipe first.
  std::vector<pollfd> WaitForResults() const {
    std::vector<pollfd> fds;
    fds.push_back({wake_pipe[0], POLLIN, 0});
    for (const Worker& worker : workers_) fds.push_back({worker.results, POLLIN, 0});
    Clock::time_point earliest = Clock::time_point::max();
    for (const Worker& worker : workers_) {
      if (worker.point >= 0) earliest = std::min(earliest, worker.deadline);
    }
    const auto wait = earliest == Clock::time_point::max()
                          ? std::chrono::milliseconds(1000)
                          : std::chrono::duration_cast<std::chrono::milliseconds>(earliest - Clock::now());
    const int timeout_ms = static_cast<int>(std::clamp<int64_t>(wait.count() + 1, 0, 1000));
    if (poll(fds.data(), fds.size(), timeout_ms) < 0 && errno != EINTR) {
      throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    }
    return fds;
  }

  // A slot's result pipe is readable: a result, or the worker died or could not set up (then the
  // point it held fails and a new worker starts).
  void Collect(size_t slot) {
    Worker& worker = workers_[slot];
    const std::optional<std::string> frame = ReadFrame(worker.results);
    if (frame && !frame->empty() && (*frame)[0] != '!') {
      on_result_(static_cast<size_t>(worker.point), nlohmann::json::parse(*frame), *frame);
      ++finished_;
      worker.point = -1;
      Dispatch(worker);
      return;
    }
    const int wait_status = StopWorker(worker, true);
    const std::string how =
        frame && !frame->empty() ? "failed to start: " + frame->substr(1) : HowItDied(wait_status);
    if (worker.point >= 0) AbortPoint(slot, rule_ids::kCrash, how);
    if (frame && !frame->empty() && (*frame)[0] == '!') {
      throw std::runtime_error("a worker could not start: " + frame->substr(1));
    }
    Start(slot);
    Dispatch(workers_[slot]);
  }

  void TimeOut(size_t slot) {
    StopWorker(workers_[slot], true);
    const double limit = options_.timeout_of(*points_[static_cast<size_t>(workers_[slot].point)]);
    AbortPoint(slot, rule_ids::kTimeout,
               "did not finish within " + std::to_string(limit).substr(0, 6) + " s (killed)");
    Start(slot);
    Dispatch(workers_[slot]);
  }

  void AbortPoint(size_t slot, const std::string& rule, const std::string& how) {
    Worker& worker = workers_[slot];
    const size_t index = static_cast<size_t>(worker.point);
    const std::string phase(CallPhaseName(statuses_[slot].phase));
    on_result_(index, TestPointJson(AbortedResult(*points_[index], context_, rule,
                                                  "the provider " + how + " during " + phase)),
               {});
    ++finished_;
    worker.point = -1;
  }

  const std::string& provider_spec_;
  const RunContext& context_;
  const std::vector<const TestPoint*>& points_;
  const IsolationOptions& options_;
  const ResultSink& on_result_;
  SharedStatusPages statuses_;
  std::vector<Worker> workers_;
  size_t next_ = 0, finished_ = 0;
};

}  // namespace

bool RunIsolated(const std::string& provider_spec, const RunContext& context,
                 const std::vector<const TestPoint*>& points, const IsolationOptions& options,
                 const ResultSink& on_result) {
  const SignalScope signals;
  WorkerPool pool(provider_spec, context, points, options, on_result);
  bool ok = false;
  try {
    ok = pool.RunAll();
  } catch (...) {
    pool.StopAll(true);
    throw;
  }
  pool.StopAll(!ok);  // an interrupted run's workers are killed, a finished run's end on their own
  return ok;
}

}  // namespace aclnn_check
