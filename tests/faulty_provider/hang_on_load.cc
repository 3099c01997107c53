// A provider library that never finishes loading: its constructor waits forever, as one stuck in
// its driver's start-up would (tests/runner/provider_probe_test.cc).
#include <unistd.h>

namespace {

[[gnu::constructor]] void NeverFinishLoading() {
  while (true) pause();
}

}  // namespace
