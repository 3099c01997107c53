// The harness binary (ACLNN_CHECK_CLI) as a child process, for tests that kill it, limit it or
// read what it printed.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <string>
#include <vector>

namespace aclnn_check::testing {

// Starts the harness with `arguments`, its output in `log`; `limit_file_bytes` > 0 runs it under
// RLIMIT_FSIZE with SIGXFSZ ignored, so that writes past the limit fail with EFBIG like a full
// disk.
inline pid_t StartHarness(const std::vector<std::string>& arguments,
                          const std::filesystem::path& log, rlim_t limit_file_bytes = 0) {
  const pid_t pid = fork();
  if (pid != 0) return pid;
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  dup2(fd, STDOUT_FILENO);
  dup2(fd, STDERR_FILENO);
  if (limit_file_bytes > 0) {
    signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{limit_file_bytes, limit_file_bytes};
    setrlimit(RLIMIT_FSIZE, &limit);
  }
  std::vector<char*> argv{const_cast<char*>(ACLNN_CHECK_CLI)};
  for (const std::string& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  execv(ACLNN_CHECK_CLI, argv.data());
  _exit(127);
}

inline int WaitStatus(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// The exit code, or 128 + the signal that ended it.
inline int ExitCode(pid_t pid) {
  const int status = WaitStatus(pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace aclnn_check::testing
