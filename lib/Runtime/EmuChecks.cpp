//===- EmuChecks.cpp - Hazards the GPU emulator reports -------------------===//
//
// The emulator (--mgpu-emulate-gpu) runs kernels with real barrier and async
// copy semantics, but a kernel that is wrong only on some schedules can pass
// by luck. With checks on (mgpu-run --check, all by default), the lane
// functions call this checker at every shared-memory load and store, proxy
// fence, CTA barrier and wgmma, and the runtime's mbarriers and async copies
// (HostRuntime.cpp) tell it what they do; the first hazard is reported as
// `file:line:col: error: ...` at the op and the program exits with status 1.
//
// Shadow state per byte of the emulator's shared-memory buffer: whether it
// was written, its last writer and last reader (thread and the thread's
// clock), the writer's proxy-fence count at the write, and which async
// operation still uses it (a copy in that has not landed, a wgmma group not
// waited for, a copy out whose bulk group is not waited for). Happens-before
// is a vector clock per CUDA thread (FastTrack-style epochs per byte): a
// thread's clock moves at each release (barrier arrival, mbarrier arrival,
// copy issue); a CTA barrier joins the clocks of its arrivals, an mbarrier
// phase those of the arrivals and copies of that phase, and a wait acquires
// them. Two accesses of threads of different warps race when neither
// happens before the other and one writes.
//
// Barriers of every thread of the CTA (the common case) cost O(1) per
// thread, not O(threads): the join of all arrivals' clocks is each thread's
// own entry, and a thread leaving takes the phase's clocks as its base
// instead of copying them; the emulator's barrier helper has its last
// arrival do this once for all (mgpuEmuCheckSyncComplete), so the other
// threads make no call at all. A CTA slot
// starts a new CTA by raising an epoch rather than clearing threads^2
// entries. (A 2^20-program grid spent 3/4 of its time in those joins.)
//
// All threads of a CTA run on one host thread (EmuScheduler.cpp) and CTAs in
// different slots touch disjoint shadow bytes, so the per-CTA state needs no
// lock; the mbarrier table, shared by a group's CTAs, has one.
//
//===----------------------------------------------------------------------===//

#include "EmuShadow.h"

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>
#include <vector>

#define MGPU_HOST_EXPORT __attribute__((visibility("default")))

namespace mgpu::emu::checks::shadow {

Launch *current = nullptr;

const char *orUnknown(const char *where) { return where ? where : "<unknown>"; }

Lane getLane() {
  Lane lane;
  if (!mgpu::emu::currentLane(lane.slot, lane.tid) || !current ||
      lane.slot < 0 || lane.slot >= int64_t(current->ctas.size()))
    return Lane();
  lane.cta = &current->ctas[lane.slot];
  lane.clock = lane.cta->clocks.data() + lane.tid * current->perCta;
  lane.base = lane.cta->base[lane.tid];
  return lane;
}

/// A release by `lane`: later events of the thread are after it. (A
/// thread's own entry is never below its base's.)
void tick(const Lane &lane) {
  uint32_t now = ++lane.clock[lane.tid];
  lane.cta->latest = std::max(lane.cta->latest, now);
}

void join(uint32_t *into, const uint32_t *from, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    into[i] = std::max(into[i], from[i]);
}

/// Joins `lane`'s whole vector clock into `into`.
void joinClock(uint32_t *into, const Lane &lane) {
  join(into, lane.clock, current->perCta);
  if (lane.base)
    join(into, lane.base, current->perCta);
}

/// The clocks of phase `phase` in `ring`, cleared when first used for it.
std::vector<uint32_t> &phaseClocks(SyncClocks &ring, int64_t phase) {
  int at = int(phase % SyncClocks::kRing);
  std::vector<uint32_t> &clocks = ring.clocks[at];
  if (ring.phaseOf[at] != phase) {
    clocks.assign(size_t(current->perCta), 0);
    ring.phaseOf[at] = phase;
  }
  return clocks;
}

/// A phase's clocks are reused four phases later: threads still based on
/// them (only possible where the barrier's count changed) keep them.
void releaseReusedPhase(Cta &cta, CtaBarrier &barrier) {
  int at = int(barrier.generation % SyncClocks::kRing);
  if (barrier.clocks.phaseOf[at] == barrier.generation ||
      barrier.clocks.phaseOf[at] < 0)
    return;
  const uint32_t *old = barrier.clocks.clocks[at].data();
  for (int64_t t = 0; t < current->perCta; ++t)
    if (cta.base[t] == old) {
      join(cta.clocks.data() + t * current->perCta, old, current->perCta);
      cta.base[t] = nullptr;
      cta.baseBarrier[t] = -1;
    }
}

/// Whether access (thread `other`, clock `clock`) happens before `lane`'s
/// present, or is of the same warp (warps are not checked against
/// themselves).
bool ordered(const Lane &lane, uint16_t other, uint32_t clock) {
  if (!other)
    return true;
  int64_t thread = other - 1;
  if (thread / 32 == lane.tid / 32)
    return true;
  return clock <= lane.at(thread);
}

/// The shadow of [p, p + bytes) or null where checks are off; reports an
/// access outside the calling CTA's shared memory.
ShadowByte *shadowOf(const Lane &lane, const char *p, int64_t bytes,
                     const char *where, const char *what) {
  int64_t offset = p - current->smem;
  int64_t low = lane.slot * current->stride;
  if (offset < low || offset + bytes > low + current->sliceBytes) {
    if (enabled(kBounds))
      report(where,
             "%s %" PRId64 " bytes at offset %" PRId64
             " of shared memory, outside the CTA's %" PRId64 " bytes",
             what, bytes, offset - low, current->sliceBytes);
    return nullptr;
  }
  return current->shadow.data() + offset;
}

/// Whether a byte is still read by an async operation that has not
/// completed: reports it for a write of `what` at `where`.
void checkAsyncReaders(const ShadowByte &s, const Lane &lane, const char *where,
                       const char *what) {
  if (!enabled(kAsync))
    return;
  Cta &cta = *lane.cta;
  if (s.wgmmaGroup) {
    int64_t group = s.wgmmaGroup - 1, first = group * 128;
    if (s.wgmmaSeq > cta.wgmmaCompleted[group] ||
        !ordered(lane, uint16_t(first + 1),
                 cta.wgmmaDone[group][s.wgmmaSeq - 1]))
      report(where,
             "%s shared memory that a wgmma of warpgroup %" PRId64
             " (at %s) may still read: no mgpu.wgmma_wait that completes it "
             "happens before this write",
             what, group, orUnknown(s.asyncWhere));
  }
  if (s.outThread) {
    int64_t thread = s.outThread - 1;
    if (s.outSeq > cta.outCompleted[thread] ||
        !ordered(lane, s.outThread, cta.outDone[thread][s.outSeq - 1]))
      report(where,
             "%s shared memory that a copy_smem_to_gmem of thread %" PRId64
             " (at %s) may still read: no mgpu.wait_smem_to_gmem that "
             "completes it happens before this write",
             what, thread, orUnknown(s.asyncWhere));
  }
}

/// Checks a read by the async proxy (TMA copy out, wgmma) issued by `lane`.
/// A copy out may read bytes that nothing wrote: they land in global memory
/// as undefined as they were (JAX's output block that a kernel leaves
/// unwritten); the tensor cores compute with what they read.
void checkAsyncRead(ShadowByte &s, const Lane &lane, const char *where,
                    const char *what, bool computes) {
  if (enabled(kInit) && !s.written && computes)
    report(where, "%s reads shared memory that nothing wrote", what);
  if (enabled(kAsync) && s.inFlight)
    report(where,
           "%s reads shared memory that an async copy in is still writing "
           "(wait on its barrier first)",
           what);
  if (enabled(kAsync) && s.writer && s.writeFence != kAsyncWrite &&
      lane.cta->fences[s.writer - 1] == s.writeFence)
    report(where,
           "%s reads shared memory that thread %d wrote at %s with no "
           "mgpu.commit_smem (proxy fence) since",
           what, s.writer - 1, orUnknown(s.writeWhere));
  if (enabled(kRaces) && !ordered(lane, s.writer, s.writeClock))
    report(where,
           "data race: %s reads shared memory that thread %d wrote at %s with "
           "no barrier in between",
           what, s.writer - 1, orUnknown(s.writeWhere));
}

} // namespace mgpu::emu::checks::shadow

using namespace mgpu::emu::checks;
using namespace mgpu::emu::checks::shadow;

namespace mgpu::emu::checks {

void report(const char *where, const char *format, ...) {
  static std::mutex reporting;
  reporting.lock();
  std::fprintf(stderr, "%s: error: ", where ? where : "<unknown>");
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fprintf(stderr, " (an emulator check; --check=none turns them off)\n");
  std::fflush(stderr);
  std::_Exit(1);
}

bool enabled(int64_t kind) { return current && (current->flags & kind); }

void startCta(int64_t slot) {
  Launch *launch = current;
  if (!launch || slot < 0 || slot >= int64_t(launch->ctas.size()))
    return;
  int64_t low = slot * launch->stride;
  std::fill(launch->shadow.begin() + low,
            launch->shadow.begin() + low + launch->sliceBytes, ShadowByte());
  Cta &cta = launch->ctas[slot];
  int64_t n = launch->perCta, groups = (n + 127) / 128;
  // Entries of earlier CTAs stay, below the new epoch; all are cleared
  // once the clocks near their range's end.
  if (cta.clocks.size() != size_t(n * n) || cta.latest > (1u << 30)) {
    cta.clocks.assign(size_t(n * n), 0);
    cta.latest = 0;
  }
  cta.epoch = cta.latest + 1;
  cta.latest = cta.epoch;
  for (int64_t t = 0; t < n; ++t)
    cta.clocks[t * n + t] = cta.epoch;
  cta.base.assign(n, nullptr);
  cta.baseBarrier.assign(n, -1);
  cta.fences.assign(n, 0);
  cta.pendingGeneration.assign(n, 0);
  cta.wgmmaCommitted.assign(groups, 0);
  cta.wgmmaCompleted.assign(groups, 0);
  cta.outCommitted.assign(n, 0);
  cta.outCompleted.assign(n, 0);
  cta.wgmmaDone.assign(groups, {});
  cta.outDone.assign(n, {});
  cta.outWhere.assign(n, nullptr);
  cta.outOpen.assign(n, false);
  cta.pendingMmas.assign(n, {});
  for (CtaBarrier &barrier : cta.direct) {
    barrier.generation = barrier.arrived = 0;
    std::fill(std::begin(barrier.clocks.phaseOf),
              std::end(barrier.clocks.phaseOf), -1);
  }
  cta.barriers.clear();
}

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
                   const char *where) {
  Lane lane = getLane();
  if (!lane.cta)
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
  // The arrival that completes a phase belongs to it; later ones to the
  // next.
  arriveOn(lane, barrier, arrivals,
           completedPhases(barrier) + (arrived + queued) / arrivals);
  tick(lane);
}

void barrierCopyIssued(int64_t *barrier, int64_t arrivals, int64_t queued,
                       const char *where) {
  Lane lane = getLane();
  if (!lane.cta)
    return;
  noteProgress();
  int64_t arrived = arrivedInPhase(barrier);
  if (enabled(kBarriers) && arrived + queued + 1 > arrivals)
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
  if (!lane.cta)
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
      current->shadow[offset + i].mmaPending = false;
  it->second.committedMmas.clear();
  SyncClocks &ring = it->second.clocks;
  int at = int(phase % SyncClocks::kRing);
  if (ring.phaseOf[at] == phase)
    join(lane.clock, ring.clocks[at].data(), current->perCta);
}

bool orderedInCta(int64_t slot, int64_t thread, uint32_t clock) {
  Lane lane = getLane();
  if (!lane.cta || lane.slot != slot)
    return true;
  return ordered(lane, uint16_t(thread + 1), clock);
}

bool laneClock(int64_t &slot, int64_t &thread, uint32_t &clock) {
  Lane lane = getLane();
  if (!lane.cta)
    return false;
  slot = lane.slot;
  thread = lane.tid;
  clock = lane.clock[lane.tid];
  return true;
}

void semaphoreReleased(const void *semaphore) {
  Lane lane = getLane();
  if (!lane.cta)
    return;
  std::lock_guard<std::mutex> lock(current->mbarrierMutex);
  std::vector<uint32_t> &clock =
      current->semaphoreClocks[{lane.slot, semaphore}];
  clock.resize(size_t(current->perCta), 0);
  joinClock(clock.data(), lane);
  tick(lane);
}

void semaphoreAcquired(const void *semaphore) {
  Lane lane = getLane();
  if (!lane.cta)
    return;
  std::lock_guard<std::mutex> lock(current->mbarrierMutex);
  auto it = current->semaphoreClocks.find({lane.slot, semaphore});
  if (it != current->semaphoreClocks.end())
    join(lane.clock, it->second.data(), current->perCta);
}

} // namespace mgpu::emu::checks

extern "C" {

/// Starts checking a launch: `smem` (`total` bytes) holds CTA slots
/// `stride` bytes apart, of which a CTA uses `sliceBytes`; `perCta`
/// threads a CTA; `flags` the checks (EmuChecks.h).
MGPU_HOST_EXPORT void mgpuEmuCheckLaunch(char *smem, int64_t total,
                                         int64_t stride, int64_t sliceBytes,
                                         int64_t perCta, int64_t flags) {
  delete current;
  current = nullptr;
  if (!flags || perCta <= 0)
    return;
  auto *launch = new Launch;
  launch->flags = flags;
  launch->smem = smem;
  launch->total = total;
  launch->stride = stride;
  launch->sliceBytes = std::min(sliceBytes, stride ? stride : sliceBytes);
  launch->perCta = perCta;
  launch->shadow.resize(size_t(total));
  int64_t slots = stride ? total / stride : 1;
  launch->ctas.resize(size_t(std::max<int64_t>(slots, 1)));
  current = launch;
}

/// The launch ended.
MGPU_HOST_EXPORT void mgpuEmuCheckLaunchEnd() {
  delete current;
  current = nullptr;
}

/// A write of `bytes` at `p` by another CTA's thread (a pair's MMA into
/// the peer's accumulator): the bytes are written, and no thread of this
/// CTA is ordered after it, so it is not a race party.
MGPU_HOST_EXPORT void mgpuEmuCheckPeerWrite(char *p, int64_t bytes) {
  mgpu::emu::checks::copyInLanded(p, bytes);
}

MGPU_HOST_EXPORT void mgpuEmuCheckAccess(char *p, int64_t bytes, int64_t write,
                                         const char *where) {
  Lane lane = getLane();
  if (!lane.cta)
    return;
  ShadowByte *s = shadowOf(lane, p, bytes, where, write ? "writes" : "reads");
  if (!s)
    return;
  uint16_t self = uint16_t(lane.tid + 1);
  uint32_t now = lane.clock[lane.tid];
  for (int64_t i = 0; i < bytes; ++i) {
    ShadowByte &b = s[i];
    if (enabled(kAsync) && b.inFlight)
      report(where,
             "%s shared memory that an async copy in (copy_gmem_to_smem at "
             "%s) is still writing: wait on its barrier first",
             write ? "writes" : "reads", orUnknown(b.writeWhere));
    // The tensor cores keep their MMAs in issue order: only the lanes'
    // accesses wait for the commit's barrier.
    if (enabled(kAsync) && b.mmaPending && write != kMmaWrite)
      report(where,
             "%s tensor memory that a tcgen05_mma (at %s) may still write: "
             "wait on the barrier its tcgen05_commit_arrive signals first",
             write ? "writes" : "reads", orUnknown(b.mmaWhere));
    if (!write) {
      if (enabled(kInit) && !b.written)
        report(where, "reads shared memory that nothing wrote");
      if (enabled(kRaces) && !ordered(lane, b.writer, b.writeClock))
        report(where,
               "data race: reads shared memory that thread %d writes at %s "
               "with no barrier in between",
               b.writer - 1, orUnknown(b.writeWhere));
      b.reader = self;
      b.readClock = now;
      b.readWhere = where;
      continue;
    }
    checkAsyncReaders(b, lane, where, "writes");
    if (enabled(kRaces) && !ordered(lane, b.writer, b.writeClock))
      report(where,
             "data race: writes shared memory that thread %d writes at %s "
             "with no barrier in between",
             b.writer - 1, orUnknown(b.writeWhere));
    if (enabled(kRaces) && !ordered(lane, b.reader, b.readClock))
      report(where,
             "data race: writes shared memory that thread %d reads at %s "
             "with no barrier in between",
             b.reader - 1, orUnknown(b.readWhere));
    b.written = true;
    b.writer = self;
    b.writeClock = now;
    b.writeWhere = where;
    b.writeFence = lane.cta->fences[lane.tid];
    b.reader = 0;
  }
}

/// commit_smem / fence.proxy.async by the calling lane: its earlier
/// writes are visible to the async proxy.
MGPU_HOST_EXPORT void mgpuEmuCheckFence() {
  Lane lane = getLane();
  if (lane.cta)
    ++lane.cta->fences[lane.tid];
}

/// The calling lane arrives on CTA barrier `id` (a __mgpu_emu_barrier
/// slot) of `count` threads / leaves it.
MGPU_HOST_EXPORT void mgpuEmuCheckSyncArrive(int64_t id, int64_t count) {
  Lane lane = getLane();
  if (!lane.cta)
    return;
  noteProgress();
  Cta &cta = *lane.cta;
  CtaBarrier &barrier = cta.barrier(id);
  releaseReusedPhase(cta, barrier);
  uint32_t *phase = phaseClocks(barrier.clocks, barrier.generation).data();
  // Where every thread arrives, the join of their clocks is each thread's
  // own entry (only thread t advances entry t; the others' copies of it
  // are older): one entry per arrival instead of the whole vector.
  barrier.everyThread = count >= current->perCta;
  if (barrier.everyThread)
    phase[lane.tid] = std::max(phase[lane.tid], lane.clock[lane.tid]);
  else
    joinClock(phase, lane);
  cta.pendingGeneration[lane.tid] = barrier.generation;
  if (++barrier.arrived >= count) {
    barrier.arrived = 0;
    ++barrier.generation;
  }
  tick(lane);
}
MGPU_HOST_EXPORT void mgpuEmuCheckSyncLeave(int64_t id) {
  Lane lane = getLane();
  if (!lane.cta)
    return;
  Cta &cta = *lane.cta;
  CtaBarrier &barrier = cta.barrier(id);
  int64_t generation = cta.pendingGeneration[lane.tid];
  int at = int(generation % SyncClocks::kRing);
  if (barrier.clocks.phaseOf[at] != generation)
    return;
  const uint32_t *phase = barrier.clocks.clocks[at].data();
  if (!barrier.everyThread) {
    join(lane.clock, phase, current->perCta);
    return;
  }
  // The phase becomes the thread's base. The one it replaces, an earlier
  // phase of a barrier of every thread, is below it: every thread arrived
  // there before arriving here (a thread arriving here first would wait
  // for threads that wait for it there).
  lane.clock[lane.tid] = std::max(lane.clock[lane.tid], phase[lane.tid]);
  cta.base[lane.tid] = phase;
  cta.baseBarrier[lane.tid] = id;
}

/// The last thread to arrive on CTA barrier `id`, one of every thread of
/// the CTA (the others wait in it): does for all of them what
/// mgpuEmuCheckSyncArrive and mgpuEmuCheckSyncLeave do for each, the phase
/// of the barrier made of every thread's own entry at its arrival, each
/// thread ticked and based on it. One call per barrier instead of two per
/// thread.
MGPU_HOST_EXPORT void mgpuEmuCheckSyncComplete(int64_t id) {
  Lane lane = getLane();
  if (!lane.cta)
    return;
  noteProgress();
  Cta &cta = *lane.cta;
  int64_t n = current->perCta;
  CtaBarrier &barrier = cta.barrier(id);
  releaseReusedPhase(cta, barrier);
  uint32_t *phase = phaseClocks(barrier.clocks, barrier.generation).data();
  barrier.everyThread = true;
  for (int64_t t = 0; t < n; ++t) {
    uint32_t &own = cta.clocks[t * n + t];
    phase[t] = std::max(phase[t], own);
    cta.latest = std::max(cta.latest, ++own);
    cta.base[t] = phase;
    cta.baseBarrier[t] = id;
  }
  barrier.arrived = 0;
  ++barrier.generation;
}

} // extern "C"
