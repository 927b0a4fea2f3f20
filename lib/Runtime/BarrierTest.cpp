//===- BarrierTest.cpp - mgpu.barrier_test on the host --------------------===//
//
// The non-blocking barrier wait of both host backends (part of
// libmgpu_host_runtime.so). A test answers at once whether the barrier has
// completed the phase of a parity (HostRuntime.cpp's word format). In
// interpret mode copies are synchronous, so that is all. In the emulator a
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

#include <cstdint>
#include <thread>

#define MGPU_HOST_EXPORT __attribute__((visibility("default")))

extern "C" {

/// Interpret mode's barrier_test: 1 if the phase of `parity` completed.
/// A Pallas thread that polls in a loop gives the others (host threads)
/// the core when the answer is no.
MGPU_HOST_EXPORT int64_t mgpuHostBarrierTest(int64_t *barrier, int64_t parity) {
  if (mgpu::emu::phaseDone(barrier, parity))
    return 1;
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
