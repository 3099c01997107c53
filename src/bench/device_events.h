// A provider's events (aclrtCreateEvent ... aclrtEventElapsedTime, docs/contract/interface.md),
// for timing device work on a stream: what `aclnn-check bench` reports as device time.
#pragma once

#include "device_access/provider.h"

namespace aclnn_check {

// Whether the provider exports all five event calls; without them bench falls back to the
// host's wall time to synchronisation.
bool HasEvents(const Provider& provider);

class DeviceEvent {
 public:
  // aclrtCreateEvent; throws ProviderError (the provider must have events).
  explicit DeviceEvent(const Provider& provider);
  ~DeviceEvent();
  DeviceEvent(const DeviceEvent&) = delete;
  DeviceEvent& operator=(const DeviceEvent&) = delete;

  void Record(aclrtStream stream) const;
  void Synchronize() const;
  // aclrtEventElapsedTime(this, end) in seconds; both recorded and complete.
  double SecondsUntil(const DeviceEvent& end) const;

 private:
  const Provider& provider_;
  aclrtEvent event_ = nullptr;
};

}  // namespace aclnn_check
