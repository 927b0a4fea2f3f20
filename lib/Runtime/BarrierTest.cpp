//===- BarrierTest.cpp - mgpu.barrier_test on the host --------------------===//
//
// The non-blocking barrier wait of both host backends (part of
// libmgpu_host_runtime.so). A test answers at once whether the barrier has
// completed the phase of a parity (HostRuntime.cpp's word format). In
// interpret mode copies are synchronous, so that is all, but for a thread
// that keeps finding the same phase open for longer than a wait may block:
// that is a deadlock, reported as a wait's (a polling loop would spin
// forever, as on the GPU). In the emulator a
// copy in lands only when something lets it (EmuAsync.cpp): a test that
// finds its phase open is a moment of time passing on the GPU, so it lands
// the barrier's oldest pending copy, as one step of a wait would (lane 0
// of the warpgroup does, once per poll); a seeded schedule sometimes lands
// none, so that a polling loop also sees "not yet" while copies are in
// flight. The emulator then ORs the answers of the
// warpgroup's lanes (EmulateSync.cpp), as the GPU does with bar.red.or.
//
//===----------------------------------------------------------------------===//

#include "EmuAsync.h"
#include "EmuChecks.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>

#define MGPU_HOST_EXPORT __attribute__((visibility("default")))

extern "C" {

/// Interpret mode's barrier_test at `where`: 1 if the phase of `parity`
/// completed. A Pallas thread that polls in a loop gives the others (host
/// threads) the core when the answer is no.
MGPU_HOST_EXPORT int64_t mgpuHostBarrierTest(int64_t *barrier, int64_t parity,
                                             const char *where) {
  // The phase this thread has found open since `since`.
  thread_local int64_t *polled = nullptr;
  thread_local int64_t polledParity = 0;
  thread_local uint64_t polls = 0;
  thread_local std::chrono::steady_clock::time_point since;
  if (mgpu::emu::phaseDone(barrier, parity)) {
    polled = nullptr;
    return 1;
  }
  if (polled != barrier || polledParity != parity) {
    polled = barrier;
    polledParity = parity;
    polls = 0;
    since = std::chrono::steady_clock::now();
  }
  if (++polls % 1024 == 0) {
    double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - since)
            .count();
    if (waited > mgpu::emu::waitTimeoutSeconds()) {
      mgpu::emu::fail(where,
                      "mgpu.barrier_test has found its phase open for %g s; "
                      "the kernel deadlocks (nothing arrives on what it "
                      "polls). Set MGPU_WAIT_TIMEOUT to wait longer.",
                      waited);
    }
  }
  std::this_thread::yield();
  return 0;
}

/// The emulator's barrier_test on one lane: 1 if the phase of `parity`
/// completed. Lane 0 of the warpgroup (`first`) may land one pending copy
/// first, so that a seeded schedule decides once per poll of the warpgroup
/// whether time has passed.
MGPU_HOST_EXPORT int64_t mgpuEmuBarrierTest(int64_t *barrier, int64_t parity,
                                            int64_t first) {
  namespace async = mgpu::emu::async;
  if (first && !mgpu::emu::phaseDone(barrier, parity) &&
      async::choose(/*copyIn=*/true) != async::When::Later)
    mgpu::emu::landCopyIn(barrier);
  if (!mgpu::emu::phaseDone(barrier, parity))
    return 0;
  // A test that passes acquires what the phase released, as a wait does.
  mgpu::emu::checks::barrierWaited(barrier, parity);
  return 1;
}

} // extern "C"
