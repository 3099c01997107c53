// The event calls of acl_rt.h on the host runtime (cpu, ref): recording an event enqueues a
// timestamp on the stream (Stream::Enqueue), so it is taken in order with the launches, when the
// stream reaches it; a record on the default stream (null), which runs its work at once, takes it
// at once. aclrtSynchronizeEvent waits for the stream the event was last recorded on.
// Destroying an event that is still pending is allowed, as CANN documents: the queued timestamp
// keeps the event alive until it has run.
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "acl/acl_rt.h"
#include "providers/runtime/device_runtime.h"
#include "providers/runtime/last_error.h"

namespace aclnn_check::provider {
namespace {

using Clock = std::chrono::steady_clock;

struct HostEvent {
  std::mutex mutex;
  std::condition_variable reached;
  uint64_t records = 0;         // aclrtRecordEvent calls so far
  uint64_t reached_record = 0;  // the latest record whose timestamp the stream has taken
  Clock::time_point stamp;
  aclrtStream stream = nullptr;  // of the latest record

  bool Complete() const { return reached_record == records; }
  // Runs on the stream (or at once for the default stream).
  void Reach(uint64_t record) {
    std::lock_guard lock(mutex);
    stamp = Clock::now();
    if (record > reached_record) reached_record = record;
    reached.notify_all();
  }
};

struct EventTable {
  std::mutex mutex;
  std::unordered_map<void*, std::shared_ptr<HostEvent>> events;
};

EventTable& Events() {
  static EventTable table;
  return table;
}

aclError Fail(aclError status, std::string message) {
  SetLastError(std::move(message));
  return status;
}

std::shared_ptr<HostEvent> FindEvent(aclrtEvent event) {
  EventTable& table = Events();
  std::lock_guard lock(table.mutex);
  const auto found = table.events.find(event);
  return found == table.events.end() ? nullptr : found->second;
}

aclError NotAnEvent(const char* function) {
  return Fail(ACL_ERROR_INVALID_PARAM,
              std::string(function) + ": not a live event from aclrtCreateEvent");
}

// The event's timestamp once its latest record has been reached; an error when it was never
// recorded or is still pending.
aclError ReachedStamp(const char* function, const char* which, HostEvent& event,
                      Clock::time_point* stamp) {
  std::lock_guard lock(event.mutex);
  if (event.records == 0) {
    return Fail(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
                std::string(function) + ": " + which + " was never recorded");
  }
  if (!event.Complete()) {
    return Fail(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                std::string(function) + ": " + which +
                    " is not complete (synchronize its stream or the event first)");
  }
  *stamp = event.stamp;
  return ACL_SUCCESS;
}

}  // namespace
}  // namespace aclnn_check::provider

namespace provider = aclnn_check::provider;

extern "C" {

aclError aclrtCreateEvent(aclrtEvent* event) {
  if (!event) return provider::Fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateEvent: event is null");
  auto created = std::make_shared<provider::HostEvent>();
  provider::EventTable& table = provider::Events();
  std::lock_guard lock(table.mutex);
  *event = created.get();
  table.events.emplace(created.get(), std::move(created));
  return ACL_SUCCESS;
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  provider::EventTable& table = provider::Events();
  std::lock_guard lock(table.mutex);
  if (table.events.erase(event) == 0) return provider::NotAnEvent("aclrtDestroyEvent");
  return ACL_SUCCESS;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  const std::shared_ptr<provider::HostEvent> recorded = provider::FindEvent(event);
  if (!recorded) return provider::NotAnEvent("aclrtRecordEvent");
  // A null stream is the current context's default stream, as for launches.
  const std::shared_ptr<provider::Stream> queue = provider::FindStream(stream).queue;
  if (!queue) {
    return provider::Fail(ACL_ERROR_INVALID_PARAM,
                          "aclrtRecordEvent: stream is not a live stream from aclrtCreateStream (or "
                          "null with no current context)");
  }
  uint64_t record = 0;
  {
    std::lock_guard lock(recorded->mutex);
    record = ++recorded->records;
    recorded->stream = stream;
  }
  queue->Enqueue([recorded, record] { recorded->Reach(record); });
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  const std::shared_ptr<provider::HostEvent> waited = provider::FindEvent(event);
  if (!waited) return provider::NotAnEvent("aclrtSynchronizeEvent");
  uint64_t record = 0;
  aclrtStream stream = nullptr;
  {
    std::lock_guard lock(waited->mutex);
    if (waited->Complete()) return ACL_SUCCESS;  // never recorded counts as complete, as in CANN
    record = waited->records;
    stream = waited->stream;
  }
  // A stream destroyed meanwhile has run its queue already.
  if (provider::FindStream(stream).queue) {
    if (const aclError error = provider::SynchronizeStream(stream)) return error;
  }
  std::unique_lock lock(waited->mutex);
  waited->reached.wait(lock, [&] { return waited->reached_record >= record; });
  return ACL_SUCCESS;
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  constexpr const char* kFunction = "aclrtEventElapsedTime";
  if (!ms) return provider::Fail(ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime: ms is null");
  const std::shared_ptr<provider::HostEvent> start = provider::FindEvent(startEvent);
  const std::shared_ptr<provider::HostEvent> end = provider::FindEvent(endEvent);
  if (!start || !end) return provider::NotAnEvent(kFunction);
  provider::Clock::time_point from, to;
  if (const aclError error = provider::ReachedStamp(kFunction, "startEvent", *start, &from))
    return error;
  if (const aclError error = provider::ReachedStamp(kFunction, "endEvent", *end, &to)) return error;
  if (to < from) {
    return provider::Fail(ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL,
                          "aclrtEventElapsedTime: endEvent was reached before startEvent");
  }
  *ms = std::chrono::duration<float, std::milli>(to - from).count();
  return ACL_SUCCESS;
}

}  // extern "C"
