// The bundled host runtime's events as CANN documents them (hicann/runtime docs/03_api_ref,
// Event management), called through the dlopen'd cpu provider: timestamps taken in stream order,
// aclrtEventElapsedTime's states, and the harness's DeviceEvent over them.
#include "bench/device_events.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "acl/acl_rt.h"
#include "device_access/device.h"
#include "device_access/loader.h"

namespace aclnn_check {
namespace {

const SharedLibraries& EventsCpuProvider() {
  static const SharedLibraries libraries(ProviderPaths("cpu"));
  return libraries;
}

template <typename Function>
Function ResolveEvent(const char* name) {
  return reinterpret_cast<Function>(EventsCpuProvider().Require(name));
}

#define ACL(name) ResolveEvent<decltype(&name)>(#name)

class HostEvents : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(ACL(aclrtSetDevice)(0), ACL_SUCCESS);
    ASSERT_EQ(ACL(aclrtCreateStream)(&stream_), ACL_SUCCESS);
    ASSERT_EQ(ACL(aclrtCreateEvent)(&start_), ACL_SUCCESS);
    ASSERT_EQ(ACL(aclrtCreateEvent)(&end_), ACL_SUCCESS);
  }
  void TearDown() override {
    ACL(aclrtDestroyEvent)(start_);
    ACL(aclrtDestroyEvent)(end_);
    ACL(aclrtDestroyStream)(stream_);
    ACL(aclrtResetDevice)(0);
  }
  aclrtStream stream_ = nullptr;
  aclrtEvent start_ = nullptr, end_ = nullptr;
};

TEST_F(HostEvents, ElapsedTimeIsBetweenTheStreamReachingEachEvent) {
  ASSERT_EQ(ACL(aclrtRecordEvent)(start_, stream_), ACL_SUCCESS);
  ASSERT_EQ(ACL(aclrtSynchronizeEvent)(start_), ACL_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(ACL(aclrtRecordEvent)(end_, stream_), ACL_SUCCESS);
  ASSERT_EQ(ACL(aclrtSynchronizeEvent)(end_), ACL_SUCCESS);
  float ms = -1;
  ASSERT_EQ(ACL(aclrtEventElapsedTime)(&ms, start_, end_), ACL_SUCCESS);
  EXPECT_GE(ms, 19.0f);
  EXPECT_EQ(ACL(aclrtEventElapsedTime)(&ms, end_, start_), ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL);
}

TEST_F(HostEvents, AnEventNeverRecordedHasNoTimestamp) {
  float ms = 0;
  // The context's default stream: asynchronous like any other, so the start is waited for first.
  ASSERT_EQ(ACL(aclrtRecordEvent)(start_, nullptr), ACL_SUCCESS);
  ASSERT_EQ(ACL(aclrtSynchronizeEvent)(start_), ACL_SUCCESS);
  EXPECT_EQ(ACL(aclrtEventElapsedTime)(&ms, start_, end_), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
  EXPECT_EQ(ACL(aclrtSynchronizeEvent)(end_), ACL_SUCCESS);  // nothing to wait for
  EXPECT_EQ(ACL(aclrtEventElapsedTime)(nullptr, start_, start_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(ACL(aclrtEventElapsedTime)(&ms, start_, start_), ACL_SUCCESS);
  EXPECT_EQ(ms, 0.0f);
}

TEST_F(HostEvents, HandlesThatAreNotLiveAreRejected) {
  EXPECT_EQ(ACL(aclrtCreateEvent)(nullptr), ACL_ERROR_INVALID_PARAM);
  int not_an_event = 0;
  EXPECT_EQ(ACL(aclrtRecordEvent)(&not_an_event, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(ACL(aclrtSynchronizeEvent)(&not_an_event), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(ACL(aclrtDestroyEvent)(&not_an_event), ACL_ERROR_INVALID_PARAM);
  int not_a_stream = 0;
  EXPECT_EQ(ACL(aclrtRecordEvent)(start_, &not_a_stream), ACL_ERROR_INVALID_PARAM);
}

// CANN: destroying an event before it completes does not wait; its resources go when it
// completes. The queued timestamp must not touch freed memory (ASan in CI).
TEST_F(HostEvents, AnEventDestroyedWhilePendingCompletesSafely) {
  aclrtEvent pending = nullptr;
  ASSERT_EQ(ACL(aclrtCreateEvent)(&pending), ACL_SUCCESS);
  ASSERT_EQ(ACL(aclrtRecordEvent)(pending, stream_), ACL_SUCCESS);
  EXPECT_EQ(ACL(aclrtDestroyEvent)(pending), ACL_SUCCESS);
  EXPECT_EQ(ACL(aclrtSynchronizeStream)(stream_), ACL_SUCCESS);
}

TEST(DeviceEvent, TheHarnessTimesTheCpuProvidersStream) {
  const auto provider = Provider::Load("cpu");
  ASSERT_TRUE(HasEvents(*provider));
  const DeviceSession session(*provider);
  const DeviceEvent start(*provider), end(*provider);
  start.Record(session.stream());
  end.Record(session.stream());
  end.Synchronize();
  const double seconds = start.SecondsUntil(end);
  EXPECT_GE(seconds, 0.0);
  EXPECT_LT(seconds, 1.0);
  const DeviceEvent unrecorded(*provider);
  EXPECT_THROW(start.SecondsUntil(unrecorded), ProviderError);
}

}  // namespace
}  // namespace aclnn_check

#undef ACL
