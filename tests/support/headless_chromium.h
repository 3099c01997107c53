// Headless Chromium for tests of report.html: finds the browser, runs it on a local file with the
// network shut off, and never waits longer than a timeout.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "support/temp_dir.h"

namespace aclnn_check::testing {

// $ACLNN_CHECK_CHROMIUM, else the first of the usual names on PATH.
inline std::optional<std::string> FindChromium() {
  if (const char* named = std::getenv("ACLNN_CHECK_CHROMIUM"); named && *named) return std::string(named);
  const char* path = std::getenv("PATH");
  std::string folders = path ? path : "/usr/bin:/bin";
  for (const char* name : {"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}) {
    size_t start = 0;
    while (start <= folders.size()) {
      const size_t end = folders.find(':', start);
      const std::string folder = folders.substr(start, end == std::string::npos ? std::string::npos : end - start);
      const std::filesystem::path candidate = std::filesystem::path(folder.empty() ? "." : folder) / name;
      if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  return std::nullopt;
}

inline std::string ShellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

struct BrowserRun {
  int exit_code = -1;     // 124: killed by the timeout
  std::string output;     // stdout (--dump-dom writes the DOM there)
  double seconds = 0;     // wall time of the whole browser run
};

// Runs Chromium headless on `url` with `arguments` (e.g. "--dump-dom"). Every way a page could
// reach the network is closed: the flags stop Chromium's own traffic, a proxy that refuses every
// connection and a resolver that resolves nothing stop the page's (which, besides, loads nothing).
// `timeout` kills the browser with its helper processes after `timeout_seconds`. Chromium's own
// chatter on stderr goes to `log`.
inline BrowserRun RunChromium(const std::string& chromium, const std::string& url,
                              const std::vector<std::string>& arguments, const std::filesystem::path& log,
                              int timeout_seconds = 60) {
  TempDir profile;
  std::string command = "timeout -k 5 " + std::to_string(timeout_seconds) + " " + ShellQuote(chromium) +
                        " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
                        " --no-default-browser-check --disable-background-networking --disable-component-update"
                        " --disable-sync --disable-extensions --disable-default-apps --disable-breakpad"
                        " --proxy-server=127.0.0.1:9 --host-resolver-rules='MAP * ~NOTFOUND'"
                        " --user-data-dir=" + ShellQuote(profile.path().string());
  for (const std::string& argument : arguments) command += " " + ShellQuote(argument);
  command += " " + ShellQuote(url) + " 2>" + ShellQuote(log.string()) + " </dev/null";
  BrowserRun run;
  const auto start = std::chrono::steady_clock::now();
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return run;
  std::array<char, 65536> buffer;
  size_t read = 0;
  while ((read = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) run.output.append(buffer.data(), read);
  const int status = pclose(pipe);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

inline std::string FileUrl(const std::filesystem::path& path, const std::string& fragment = "") {
  return "file://" + std::filesystem::absolute(path).string() + (fragment.empty() ? "" : "#" + fragment);
}

}  // namespace aclnn_check::testing
