//===- EmuSyncChecks.cpp - The emulator checks' barriers and semaphores ---===//
//
// How the emulator's checks (EmuChecks.cpp's header) order threads: the
// vector clocks that CTA barriers, mbarriers (arrivals, copies counted on
// them, waits), cluster_sync and semaphores carry from their releases to
// their acquires, and the checks of mbarrier counts. A barrier of every
// thread of a lone CTA costs O(1) per thread (the phase is made of the
// threads' own entries and becomes each thread's base); in a cluster the
// phase joins the arrivals' whole clocks, whose entries for the peers' threads
// the CTA's threads may know of. Part of libmgpu_host_runtime.so.
//
//===----------------------------------------------------------------------===//

#include "EmuShadow.h"

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <mutex>
#include <vector>

#define MGPU_HOST_EXPORT __attribute__((visibility("default")))

using namespace mgpu::emu::checks;
using namespace mgpu::emu::checks::shadow;

namespace {

/// The clocks of phase `phase` in `ring`, cleared when first used for it.
std::vector<uint32_t> &phaseClocks(SyncClocks &ring, int64_t phase) {
  int at = int(phase % SyncClocks::kRing);
  std::vector<uint32_t> &clocks = ring.clocks[at];
  if (ring.phaseOf[at] != phase) {
    clocks.assign(size_t(current->threads), 0);
    ring.phaseOf[at] = phase;
  }
  return clocks;
}

/// A phase's clocks are reused four phases later: threads still based on
/// them (only possible where the barrier's count changed) keep them.
void releaseReusedPhase(Cluster &cluster, CtaBarrier &barrier) {
  int at = int(barrier.generation % SyncClocks::kRing);
  if (barrier.clocks.phaseOf[at] == barrier.generation ||
      barrier.clocks.phaseOf[at] < 0)
    return;
  const uint32_t *old = barrier.clocks.clocks[at].data();
  int64_t n = current->threads;
  for (int64_t t = 0; t < n; ++t)
    if (cluster.base[t] == old) {
      join(cluster.clocks.data() + t * n, old, n);
      cluster.base[t] = nullptr;
      cluster.baseBarrier[t] = -1;
    }
}

} // namespace

namespace mgpu::emu::checks {

void barrierInit(int64_t *barrier, int64_t count) {
  if (!current)
    return;
  std::lock_guard<std::mutex> lock(current->mbarrierMutex);
  for (int64_t i = 0; i < count; ++i)
    current->mbarriers.erase(barrier + i);
}

/// One arrival of `lane` on phase `phase` of `barrier`.
static void arriveOn(const Lane &lane, int64_t *barrier, int64_t arrivals,
                     int64_t phase) {
  std::lock_guard<std::mutex> lock(current->mbarrierMutex);
  MBarrier &state = current->mbarriers[barrier];
  if (arrivals)
    state.arrivals = arrivals;
  joinClock(phaseClocks(state.clocks, phase).data(), lane);
}

int64_t shadow::completedPhases(int64_t *barrier) {
  return __atomic_load_n(barrier, __ATOMIC_ACQUIRE) >> 32;
}
static int64_t arrivedInPhase(int64_t *barrier) {
  return __atomic_load_n(barrier, __ATOMIC_ACQUIRE) & 0xffffffff;
}

void barrierArrive(int64_t *barrier, int64_t arrivals, int64_t queued,
                   bool peer, const char *where) {
  Lane lane = getLane();
  if (!lane.cluster)
    return;
  noteProgress();
  int64_t arrived = arrivedInPhase(barrier);
  if (enabled(kBarriers) && queued > 0 && arrived + queued + 1 > arrivals)
    report(where,
           "more arrivals than the barrier's count: its phase has its %" PRId64
           " arrival%s already while %" PRId64
           " async cop%s on it %s not landed",
           arrivals, arrivals == 1 ? "" : "s", queued,
           queued == 1 ? "y" : "ies", queued == 1 ? "has" : "have");
  // A peer's waiters acquire the arrival's clock only where the cluster's
  // threads share clocks.
  if (peer && current->clusterCtas == 1)
    return;
  // The arrival that completes a phase belongs to it; later ones to the
  // next.
  arriveOn(lane, barrier, arrivals,
           completedPhases(barrier) + (arrived + queued) / arrivals);
  tick(lane);
}

void barrierCopyIssued(int64_t *barrier, int64_t arrivals, int64_t queued,
                       const char *where) {
  Lane lane = getLane();
  if (!lane.cluster)
    return;
  noteProgress();
  int64_t arrived = arrivedInPhase(barrier);
  if (enabled(kBarriers) && arrivals && arrived + queued + 1 > arrivals)
    report(where,
           "more arrivals than the barrier's count: this copy arrives on a "
           "phase that already has its %" PRId64 " arrival%s (%" PRId64
           " async cop%s pending on it); its bytes "
           "would not be waited for",
           arrivals, arrivals == 1 ? "" : "s", queued,
           queued == 1 ? "y" : "ies");
  arriveOn(lane, barrier, arrivals, completedPhases(barrier));
  tick(lane);
}

void barrierWaited(int64_t *barrier, int64_t parity) {
  Lane lane = getLane();
  if (!lane.cluster)
    return;
  noteProgress();
  // The latest completed phase of that parity.
  int64_t completed = completedPhases(barrier);
  int64_t phase = completed - 1;
  if (phase >= 0 && (phase & 1) != (parity & 1))
    --phase;
  if (phase < 0)
    return;
  std::lock_guard<std::mutex> lock(current->mbarrierMutex);
  auto it = current->mbarriers.find(barrier);
  if (it == current->mbarriers.end())
    return;
  for (auto [offset, bytes] : it->second.committedMmas)
    for (int64_t i = 0; i < bytes; ++i)
      current->shadow[offset + i].mmaPending =
          current->shadow[offset + i].mmaReads = false;
  it->second.committedMmas.clear();
  SyncClocks &ring = it->second.clocks;
  int at = int(phase % SyncClocks::kRing);
  if (ring.phaseOf[at] == phase)
    join(lane.clock, ring.clocks[at].data(), current->threads);
}

void semaphoreReleased(const void *semaphore) {
  Lane lane = getLane();
  if (!lane.cluster)
    return;
  std::lock_guard<std::mutex> lock(current->mbarrierMutex);
  std::vector<uint32_t> &clock =
      current->semaphoreClocks[{lane.slot, semaphore}];
  clock.resize(size_t(current->threads), 0);
  joinClock(clock.data(), lane);
  tick(lane);
}

void semaphoreAcquired(const void *semaphore) {
  Lane lane = getLane();
  if (!lane.cluster)
    return;
  std::lock_guard<std::mutex> lock(current->mbarrierMutex);
  auto it = current->semaphoreClocks.find({lane.slot, semaphore});
  if (it != current->semaphoreClocks.end())
    join(lane.clock, it->second.data(), current->threads);
}

void clusterSyncArrived(int64_t *barrier) {
  Lane lane = getLane();
  if (!lane.cluster)
    return;
  std::lock_guard<std::mutex> lock(current->mbarrierMutex);
  MBarrier &state = current->mbarriers[barrier];
  joinClock(phaseClocks(state.clocks, completedPhases(barrier)).data(), lane);
  tick(lane);
}

void clusterSyncLeft(int64_t *barrier, int64_t phase) {
  Lane lane = getLane();
  if (!lane.cluster)
    return;
  std::lock_guard<std::mutex> lock(current->mbarrierMutex);
  auto it = current->mbarriers.find(barrier);
  if (it == current->mbarriers.end())
    return;
  SyncClocks &ring = it->second.clocks;
  int at = int(phase % SyncClocks::kRing);
  if (ring.phaseOf[at] == phase)
    join(lane.clock, ring.clocks[at].data(), current->threads);
}

} // namespace mgpu::emu::checks

extern "C" {

/// The calling lane arrives on CTA barrier `id` (a __mgpu_emu_barrier
/// slot) of `count` threads / leaves it.
MGPU_HOST_EXPORT void mgpuEmuCheckSyncArrive(int64_t id, int64_t count) {
  Lane lane = getLane();
  if (!lane.cluster)
    return;
  noteProgress();
  Cluster &cluster = *lane.cluster;
  CtaBarrier &barrier = cluster.barriers[lane.rank][id];
  releaseReusedPhase(cluster, barrier);
  uint32_t *phase = phaseClocks(barrier.clocks, barrier.generation).data();
  // Where every thread of a lone CTA arrives, the join of their clocks is
  // each thread's own entry (only thread t advances entry t; the others'
  // copies of it are older): one entry per arrival instead of the whole
  // vector. In a cluster the peers' entries are joined too.
  barrier.everyThread = count >= current->perCta;
  if (barrier.everyThread && current->clusterCtas == 1)
    phase[lane.self] = std::max(phase[lane.self], lane.clock[lane.self]);
  else
    joinClock(phase, lane);
  cluster.pendingGeneration[lane.self] = barrier.generation;
  if (++barrier.arrived >= count) {
    barrier.arrived = 0;
    ++barrier.generation;
  }
  tick(lane);
}
MGPU_HOST_EXPORT void mgpuEmuCheckSyncLeave(int64_t id) {
  Lane lane = getLane();
  if (!lane.cluster)
    return;
  Cluster &cluster = *lane.cluster;
  CtaBarrier &barrier = cluster.barriers[lane.rank][id];
  int64_t generation = cluster.pendingGeneration[lane.self];
  int at = int(generation % SyncClocks::kRing);
  if (barrier.clocks.phaseOf[at] != generation)
    return;
  const uint32_t *phase = barrier.clocks.clocks[at].data();
  if (!barrier.everyThread) {
    join(lane.clock, phase, current->threads);
    return;
  }
  // The phase becomes the thread's base. The one it replaces, an earlier
  // phase of a barrier of every thread, is below it: every thread arrived
  // there before arriving here (a thread arriving here first would wait
  // for threads that wait for it there); in a cluster the phase holds the
  // arrivals' whole clocks.
  lane.clock[lane.self] = std::max(lane.clock[lane.self], phase[lane.self]);
  cluster.base[lane.self] = phase;
  cluster.baseBarrier[lane.self] = id;
}

/// The last thread to arrive on CTA barrier `id`, one of every thread of
/// the CTA (the others wait in it): does for all of them what
/// mgpuEmuCheckSyncArrive and mgpuEmuCheckSyncLeave do for each, the phase
/// of the barrier made of every thread's own entry at its arrival (in a
/// cluster, of their whole clocks), each thread ticked and based on it. One
/// call per barrier instead of two per thread.
MGPU_HOST_EXPORT void mgpuEmuCheckSyncComplete(int64_t id) {
  Lane lane = getLane();
  if (!lane.cluster)
    return;
  noteProgress();
  Cluster &cluster = *lane.cluster;
  int64_t n = current->threads, first = lane.rank * current->perCta;
  int64_t last = first + current->perCta;
  CtaBarrier &barrier = cluster.barriers[lane.rank][id];
  releaseReusedPhase(cluster, barrier);
  uint32_t *phase = phaseClocks(barrier.clocks, barrier.generation).data();
  barrier.everyThread = true;
  if (current->clusterCtas > 1)
    for (int64_t t = first; t < last; ++t)
      joinThread(phase, cluster, t);
  for (int64_t t = first; t < last; ++t) {
    uint32_t &own = cluster.clocks[t * n + t];
    phase[t] = std::max(phase[t], own);
    cluster.latest = std::max(cluster.latest, ++own);
    cluster.base[t] = phase;
    cluster.baseBarrier[t] = id;
  }
  barrier.arrived = 0;
  ++barrier.generation;
}

} // extern "C"
