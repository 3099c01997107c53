#include "bench/device_events.h"

#include "device_access/device.h"

namespace aclnn_check {

bool HasEvents(const Provider& provider) {
  const RuntimeApi& api = provider.api();
  return api.create_event && api.destroy_event && api.record_event && api.synchronize_event &&
         api.event_elapsed_time;
}

DeviceEvent::DeviceEvent(const Provider& provider) : provider_(provider) {
  CheckAcl(provider_, provider_.api().create_event(&event_), "aclrtCreateEvent");
}

DeviceEvent::~DeviceEvent() {
  if (event_) provider_.api().destroy_event(event_);
}

void DeviceEvent::Record(aclrtStream stream) const {
  CheckAcl(provider_, provider_.api().record_event(event_, stream), "aclrtRecordEvent");
}

void DeviceEvent::Synchronize() const {
  CheckAcl(provider_, provider_.api().synchronize_event(event_), "aclrtSynchronizeEvent");
}

double DeviceEvent::SecondsUntil(const DeviceEvent& end) const {
  float ms = 0;
  CheckAcl(provider_, provider_.api().event_elapsed_time(&ms, event_, end.event_),
           "aclrtEventElapsedTime");
  return static_cast<double>(ms) * 1e-3;
}

}  // namespace aclnn_check
