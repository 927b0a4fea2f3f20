//===- EmuChecks.h - The emulator's hazard checks (internal) ----*- C++ -*-===//
//
// What the rest of libmgpu_host_runtime.so (HostRuntime.cpp's mbarriers and
// async copies, EmuScheduler.cpp's fibers) tells the emulator's checker
// (EmuChecks.cpp), and what the checker asks the scheduler. Every hook
// returns at once when no checked launch runs.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_RUNTIME_EMUCHECKS_H
#define MGPU_RUNTIME_EMUCHECKS_H

#include <cstdint>

namespace mgpu::emu {

/// Reports an error of the running kernel at `where` (an op's location;
/// null where none is known) and ends the program with exit code 1, once
/// however many threads fail together: the one way the emulator's and
/// interpret mode's runtime stop a kernel.
[[noreturn]] void fail(const char *where, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/// The CTA slot and thread of the calling fiber; false off a fiber.
bool currentLane(int64_t &slot, int64_t &tid);
/// The calling lane's block ids (x, y, z) in the grid.
bool currentBlock(int64_t block[3]);
/// Whether `p` lies on the calling fiber's stack (a lane's private memory).
bool onLaneStack(const void *p);

namespace checks {

/// What --check selects (the mask mgpuEmuCheckLaunch receives).
enum Kind : int64_t {
  kRaces = 1,
  kAsync = 2,
  kBarriers = 4,
  kInit = 8,
  kBounds = 16,
};

/// Whether a checked launch runs with `kind` selected.
bool enabled(int64_t kind);

/// Reports the first hazard at `where` and ends the program.
[[noreturn]] void report(const char *where, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/// A new CTA starts in `slot`: its shadow state is cleared.
void startCta(int64_t slot);

/// Something changed that a waiting lane may wait for (an arrival, a copy,
/// a lane ending): deadlock detection starts counting again.
void noteProgress();

/// A lane waited and found nothing ready; true once every lane of the
/// group has waited in vain several rounds in a row (a deadlock).
bool noteIdleWait();

/// Semaphores are signalled by plain stores that the checker does not
/// see: a group that waits on one is not judged deadlocked.
void noteSemaphoreWait();

/// mbarrier events: initialised, one plain arrival (`arrivals` per phase,
/// `queued` copies pending on it; `peer`: on a peer CTA's barrier), a copy
/// issued on it (`arrivals` 0: a pair's peer part, which does not arrive;
/// the phase's waiters are after its issue all the same), a wait on the
/// phase of `parity` that returned.
void barrierInit(int64_t *barrier, int64_t count);
void barrierArrive(int64_t *barrier, int64_t arrivals, int64_t queued,
                   bool peer, const char *where);
void barrierCopyIssued(int64_t *barrier, int64_t arrivals, int64_t queued,
                       const char *where);
void barrierWaited(int64_t *barrier, int64_t parity);

/// An async copy into shared memory: issued (checks what it will
/// overwrite, marks the bytes in flight) and landed.
void copyInIssued(char *shared, int64_t bytes, const char *where);
void copyInLanded(char *shared, int64_t bytes);

/// A tcgen05 MMA of the calling lane writes `bytes` of tensor memory at `p`
/// (in its CTA's, or with `peers` in its cluster's): the lanes' accesses
/// are hazards until a thread waits on the barrier of a commit covering it.
void markMmaWrites(char *p, int64_t bytes, const char *where, bool peers);

/// An async copy out of shared memory issued by the calling lane (reads
/// the bytes now; they stay in use until its bulk group is waited for),
/// its bulk group committed, and a wait leaving `keep` groups pending.
void copyOutIssued(const char *shared, int64_t bytes, bool commit,
                   const char *where);
void copyOutWaited(int64_t keep);

/// The calling lane's open bulk group is closed without a copy (a bare
/// commit group).
void copyOutCommitted();

/// The calling lane's kernel body returned: its copies out must have been
/// waited for.
void laneEnded();

/// The calling lane's CTA slot, thread and own clock component (false on a
/// lane the checks do not follow); whether thread `thread` of CTA `slot`
/// at `clock` happens before what the calling lane does now, by the clocks
/// of its cluster (true for a CTA of another cluster, or where the CTAs of
/// a cluster keep their own clocks: EmuGlobalChecks.cpp orders clusters by
/// their own clocks).
bool laneClock(int64_t &slot, int64_t &thread, uint32_t &clock);
bool orderedInCluster(int64_t slot, int64_t thread, uint32_t clock);

/// A semaphore signal by the calling lane releases what it did to the
/// threads of its CTA that wait on the semaphore (whose waits acquire it).
void semaphoreReleased(const void *semaphore);
void semaphoreAcquired(const void *semaphore);

/// mgpu.cluster_sync on the word `barrier`: the calling lane arrived in
/// the phase that follows the completed ones, and left phase `phase` once
/// every thread of the cluster had arrived in it.
void clusterSyncArrived(int64_t *barrier);
void clusterSyncLeft(int64_t *barrier, int64_t phase);

/// EmuGlobalChecks.cpp: an access of `bytes` of global memory at `p` by the
/// calling lane's CTA (`write`), checked against the other CTAs' accesses
/// when the launch checks global memory (mgpuEmuCheckGlobalLaunch).
void globalAccess(const char *p, int64_t bytes, bool write, const char *where);

} // namespace checks
} // namespace mgpu::emu

#endif // MGPU_RUNTIME_EMUCHECKS_H
