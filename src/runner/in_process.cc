#include "runner/in_process.h"

#include <signal.h>

#include <atomic>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "results/test_point_json.h"
#include "runner/point_run.h"

namespace aclnn_check {
namespace {

volatile sig_atomic_t stop_requested = 0;
void OnInterrupt(int) { stop_requested = 1; }

}  // namespace

bool RunInProcess(const Provider& provider, const RunContext& context,
                  const std::vector<const TestPoint*>& points, int jobs,
                  const ResultSink& on_result) {
  stop_requested = 0;
  struct sigaction action {}, old_int {}, old_term {};
  action.sa_handler = OnInterrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &old_int);
  sigaction(SIGTERM, &action, &old_term);

  std::atomic<size_t> next{0};
  std::mutex error_mutex;
  std::string setup_error;
  auto worker = [&] {
    std::unique_ptr<DeviceSession> session;
    try {
      session = std::make_unique<DeviceSession>(provider);
    } catch (const ProviderError& error) {
      std::lock_guard lock(error_mutex);
      setup_error = error.what();
      return;
    }
    for (size_t i = next++; i < points.size() && !stop_requested; i = next++) {
      on_result(i, TestPointJson(RunTestPoint(*points[i], *session, context)), {});
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < jobs; ++j) threads.emplace_back(worker);
  for (std::thread& thread : threads) thread.join();
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  if (!setup_error.empty()) throw ProviderError(setup_error);
  return !stop_requested;
}

}  // namespace aclnn_check
