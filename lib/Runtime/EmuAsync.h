//===- EmuAsync.h - The emulator's deferred asynchrony (internal) -*- C++ -*-=//
//
// What the rest of libmgpu_host_runtime.so tells the emulator's schedule of
// async operations (EmuAsync.cpp): when a group of CTAs starts on a worker,
// every scheduling point (a lane that waits and lets the next one run), a
// lane that ends; and what the schedule asks HostRuntime.cpp to do at a
// scheduling point (land a copy in, read the shared memory of a copy out).
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_RUNTIME_EMUASYNC_H
#define MGPU_RUNTIME_EMUASYNC_H

#include <cstdint>

namespace mgpu::emu::async {

/// When an async operation does what it defers (a copy in lands, a copy out
/// reads shared memory): when it is issued, at a later scheduling point of
/// its group, or at the wait that needs it.
enum class When { Issue, Later, Wait };

/// A group of CTAs starts on the calling worker: the schedule of launch
/// `launch` (MGPU_EMULATE_SEED; none: the deterministic one) is seeded with
/// its seed xor `group`, so that it does not depend on host thread timing.
void startGroup(int64_t group);

/// The schedule's choice for a copy in (`copyIn`) or a copy out just
/// issued. The deterministic schedule lands copies in at the wait and reads
/// copies out at their issue.
When choose(bool copyIn);

/// A copy deferred to a later scheduling point: the copy in on `barrier`
/// (the oldest pending there lands), or copy out `id` of lane `lane`.
void deferCopyIn(int64_t *barrier);
void deferCopyOut(const void *lane, uint64_t id);

/// A scheduling point of the calling worker: a deferred copy may go now.
void atSchedulingPoint();

/// A seeded schedule's extra scheduling point (an arrival, a copy issued,
/// a wgmma wait): the calling lane may let the next lane run.
void maybePreempt();

/// The calling lane ended: its MMAs in flight are dropped.
void laneEnded();

/// Whether MGPU_EMULATE_EAGER asks for the emulator's old eager semantics:
/// MMAs computed when issued (copies keep the deterministic schedule).
bool eager();

/// What a CTA's shared and tensor memory hold when it starts (the GPU's are
/// undefined): every byte this value, 0xff in the deterministic schedule,
/// another with the top bit set in a seeded one.
unsigned char poisonByte();

} // namespace mgpu::emu::async

namespace mgpu::emu {
/// HostRuntime.cpp: lands the oldest copy in pending on `barrier` (one
/// arrival), and reads the shared memory of copy out `id` of `lane` if it
/// is still pending and unread.
void landCopyIn(int64_t *barrier);
void readCopyOut(const void *lane, uint64_t id);
/// Lands the copies out of thread `lane` that no wait landed, as its
/// thread ends: the hardware's bulk copies still land after the kernel
/// (the checks report one that may still read shared memory then).
void landCopiesOut(const void *lane);
/// EmuCpAsync.cpp: drops the cp.async groups the calling lane left in
/// flight.
void cpAsyncLaneEnded();
/// HostRuntime.cpp: whether `barrier` has completed its phase of `parity`
/// (its latest completed phase has the other parity).
bool phaseDone(int64_t *barrier, int64_t parity);
/// HostRuntime.cpp: how long a wait may block before it is reported as a
/// deadlock (MGPU_WAIT_TIMEOUT, 10 s by default).
double waitTimeoutSeconds();
} // namespace mgpu::emu

#endif // MGPU_RUNTIME_EMUASYNC_H
