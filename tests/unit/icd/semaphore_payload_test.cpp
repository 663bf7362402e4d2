// Semaphores' and fences' payloads (icd/semaphore_payload.h, icd/sync.h) as
// VK_KHR_external_semaphore_fd and VK_KHR_external_fence_fd use them: an opaque fd names one shared state that every importer signals and waits on, in
// this process or another ("Importing Semaphore Payloads": permanent imports replace the
// payload, temporary imports of binary semaphores last until the next wait), and an fd that is
// not a semaphore payload is refused.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "sync.h"

namespace tessera {
namespace {

using namespace std::chrono_literals;

std::chrono::steady_clock::time_point in(std::chrono::milliseconds ms) { return std::chrono::steady_clock::now() + ms; }

TEST(SemaphorePayload, ImportersShareTheExportersState) {
  Semaphore exporter, importer;
  exporter.type = importer.type = VK_SEMAPHORE_TYPE_TIMELINE;
  exporter.permanent = createSharedPayload(3);
  ASSERT_NE(exporter.permanent.payload, nullptr);
  importer.permanent = importSharedPayload(dup(exporter.permanent.fd));
  ASSERT_NE(importer.permanent.payload, nullptr);
  EXPECT_EQ(importer.current(), 3u);
  // A waiter on the importer sleeps until the exporter signals.
  std::thread signaller([&] {
    std::this_thread::sleep_for(20ms);
    exporter.signal(9);
  });
  EXPECT_TRUE(importer.wait(9, std::chrono::steady_clock::time_point::max()));
  signaller.join();
  EXPECT_EQ(importer.current(), 9u);
  EXPECT_FALSE(importer.wait(10, in(10ms)));  // not yet reached: times out
}

TEST(SemaphorePayload, BinaryWaitsConsumeTheSharedSignal) {
  Semaphore a, b;
  a.permanent = createSharedPayload(0);
  b.permanent = importSharedPayload(dup(a.permanent.fd));
  ASSERT_NE(b.permanent.payload, nullptr);
  b.signal(1);
  EXPECT_TRUE(a.wait(1, in(100ms)));   // a sees b's signal ...
  EXPECT_FALSE(b.wait(1, in(10ms)));   // ... and consumed it for both
}

TEST(SemaphorePayload, TemporaryImportsLastUntilTheNextWait) {
  Semaphore exporter, importer;
  exporter.permanent = createSharedPayload(0);
  importer.temporary = importSharedPayload(dup(exporter.permanent.fd));
  ASSERT_NE(importer.temporary.payload, nullptr);
  exporter.signal(1);
  EXPECT_TRUE(importer.wait(1, in(100ms)));
  EXPECT_EQ(importer.temporary.payload, nullptr);  // released by the wait
  // The importer's own payload again: its signals no longer reach the exporter.
  importer.signal(1);
  EXPECT_FALSE(exporter.wait(1, in(10ms)));
  EXPECT_TRUE(importer.wait(1, in(10ms)));
}

TEST(SemaphorePayload, AnotherProcessSignalsThroughTheFd) {
  Semaphore parent;
  parent.type = VK_SEMAPHORE_TYPE_TIMELINE;
  parent.permanent = createSharedPayload(0);
  ASSERT_NE(parent.permanent.payload, nullptr);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    SharedPayload shared = importSharedPayload(dup(parent.permanent.fd));
    if (!shared.payload) _exit(1);
    shared.payload->value.store(7);
    wakeWaiters(*shared.payload);
    _exit(0);
  }
  EXPECT_TRUE(parent.wait(7, in(5000ms)));
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(SemaphorePayload, FencesShareTheirPayloadAndTemporaryImportsEndAtTheReset) {
  // "Importing Fence Payloads": a temporary import lasts until the fence is reset.
  Fence exporter, importer;
  exporter.permanent = createSharedPayload(0);
  importer.temporary = importSharedPayload(dup(exporter.permanent.fd));
  ASSERT_NE(importer.temporary.payload, nullptr);
  std::thread signaller([&] {
    std::this_thread::sleep_for(20ms);
    exporter.signal();
  });
  EXPECT_TRUE(importer.wait(std::chrono::steady_clock::time_point::max()));
  signaller.join();
  EXPECT_TRUE(importer.wait(in(1ms)));  // a fence stays signaled after a wait
  importer.reset();
  EXPECT_EQ(importer.temporary.payload, nullptr);
  EXPECT_TRUE(exporter.signaled());  // the reset was of the importer's own payload
  EXPECT_FALSE(importer.signaled());
}

TEST(SemaphorePayload, FdsThatAreNotSemaphorePayloadsAreRefused) {
  EXPECT_EQ(importSharedPayload(-1).payload, nullptr);
  // A pipe, a memfd of another size, an unsealed memfd of the right size, a sealed one without
  // the payload's mark (what a memory payload or a stranger's memfd would be).
  int pipeFds[2];
  ASSERT_EQ(pipe(pipeFds), 0);
  EXPECT_EQ(importSharedPayload(pipeFds[0]).payload, nullptr);
  close(pipeFds[0]), close(pipeFds[1]);
  const int small = memfd_create("small", MFD_ALLOW_SEALING);
  ASSERT_EQ(ftruncate(small, 64), 0);
  EXPECT_EQ(importSharedPayload(small).payload, nullptr);
  close(small);
  const int unsealed = memfd_create("unsealed", 0);
  ASSERT_EQ(ftruncate(unsealed, 4096), 0);
  EXPECT_EQ(importSharedPayload(unsealed).payload, nullptr);
  close(unsealed);
  const int unmarked = memfd_create("unmarked", MFD_ALLOW_SEALING);
  ASSERT_EQ(ftruncate(unmarked, 4096), 0);
  ASSERT_EQ(fcntl(unmarked, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL), 0);
  EXPECT_EQ(importSharedPayload(unmarked).payload, nullptr);
  close(unmarked);
}

}  // namespace
}  // namespace tessera
