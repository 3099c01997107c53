// The harness's heap keeps what a point freed and faults in a point's memory over the harness's
// threads: a buffer a worker thread allocates after WarmHeap must find its pages already there.
// Heap settings are per process, so each check runs in a forked child.
#include "core/heap.h"

#include <gtest/gtest.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace aclnn_check {
namespace {

long MinorFaults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// Page faults taken while a worker thread allocates and writes 128 MiB.
long FaultsOfABufferOnAWorkerThread() {
  long faults = 0;
  std::thread([&] {
    constexpr size_t kBytes = size_t{128} << 20;
    const long before = MinorFaults();
    char* buffer = static_cast<char*>(std::malloc(kBytes));
    std::memset(buffer, 1, kBytes);
    __asm__ volatile("" : : "r"(buffer) : "memory");  // the writes must happen
    faults = MinorFaults() - before;
    std::free(buffer);
  }).join();
  return faults;
}

// Runs body in a forked child; its return value is the child's exit status.
// Arenas glibc's malloc has made so far: one until a second thread allocates.
int Arenas() {
  char* text = nullptr;
  size_t size = 0;
  FILE* stream = open_memstream(&text, &size);
  malloc_info(0, stream);
  std::fclose(stream);
  int arenas = 0;
  for (const char* at = text; (at = std::strstr(at, "<heap nr=")) != nullptr; ++at) ++arenas;
  std::free(text);
  return arenas;
}

int InChild(int (*body)()) {
  const pid_t child = fork();
  if (child == 0) _exit(body());
  int status = 0;
  waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

TEST(Heap, ABufferAfterWarmHeapTakesFewPageFaults) {
  // 128 MiB is 32768 pages: a fresh buffer faults in every one.
  EXPECT_EQ(InChild([] { return FaultsOfABufferOnAWorkerThread() > 20000 ? 0 : 1; }), 0)
      << "a fresh buffer should fault its pages in (the test's premise)";
  const int warmed = InChild([] {
    // KeepFreedMemoryInTheHeap is for start-up: arenas that other threads made before it keep
    // serving their threads. CTest runs each test in a process of its own.
    if (Arenas() > 1) return 3;
    if (!KeepFreedMemoryInTheHeap()) return 2;
    WarmHeap(uint64_t{256} << 20);
    return FaultsOfABufferOnAWorkerThread() < 2000 ? 0 : 1;
  });
  if (warmed == 2) GTEST_SKIP() << "the allocator is not glibc's (a sanitizer's): nothing to warm";
  if (warmed == 3) GTEST_SKIP() << "earlier tests' threads made arenas: run this test on its own";
  EXPECT_EQ(warmed, 0) << "after WarmHeap a worker thread's buffer should reuse warmed pages";
}

}  // namespace
}  // namespace aclnn_check
