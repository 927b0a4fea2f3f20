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
// clock) and one earlier reader that the last one is not ordered after (a
// write must come after both: two warpgroups reading a buffer, and a writer
// waiting for only the later one, is a race), the writer's proxy-fence
// count at the write, and which async
// operation still uses it (a copy in that has not landed, a wgmma group not
// waited for, a copy out whose bulk group is not waited for). Happens-before
// is a vector clock per CUDA thread of a cluster (FastTrack-style epochs
// per byte; a CTA outside clusters is a cluster of one): a thread's clock
// moves at each release (barrier arrival, mbarrier arrival, copy issue),
// and barriers, mbarriers, cluster_sync and semaphores carry clocks from
// releases to acquires (EmuSyncChecks.cpp). Two accesses of threads of
// different warps race when neither happens before the other and one
// writes; so do a peer CTA's multicast share, cluster_ref access or
// async_store_smem and this CTA's threads.
//
// A CTA slot starts a new CTA, and a cluster's first slot a new cluster, by
// raising an epoch rather than clearing threads^2 entries. All threads of a
// cluster run on one host thread (EmuScheduler.cpp) and clusters touch
// disjoint shadow bytes, so the per-cluster state needs no lock; the
// mbarrier table, shared by a group's CTAs, has one.
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
      lane.slot < 0 ||
      lane.slot / current->clusterCtas >= int64_t(current->clusters.size()))
    return Lane();
  lane.rank = lane.slot % current->clusterCtas;
  lane.self = lane.rank * current->perCta + lane.tid;
  lane.cluster = &current->clusters[lane.slot / current->clusterCtas];
  lane.clock = lane.cluster->clocks.data() + lane.self * current->threads;
  lane.base = lane.cluster->base[lane.self];
  return lane;
}

int64_t Lane::warpgroup() const {
  return rank * current->warpgroupsPerCta + tid / 128;
}

int64_t firstThreadOf(int64_t group) {
  return group / current->warpgroupsPerCta * current->perCta +
         group % current->warpgroupsPerCta * 128;
}

ThreadName nameOf(int64_t thread) {
  ThreadName name;
  if (current->clusterCtas == 1)
    std::snprintf(name.text, sizeof(name.text), "thread %" PRId64, thread);
  else
    std::snprintf(name.text, sizeof(name.text),
                  "thread %" PRId64 " of the cluster's CTA %" PRId64,
                  thread % current->perCta, thread / current->perCta);
  return name;
}

/// A release by `lane`: later events of the thread are after it. (A
/// thread's own entry is never below its base's.)
void tick(const Lane &lane) {
  uint32_t now = ++lane.clock[lane.self];
  lane.cluster->latest = std::max(lane.cluster->latest, now);
}

void join(uint32_t *into, const uint32_t *from, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    into[i] = std::max(into[i], from[i]);
}

/// Joins `lane`'s whole vector clock into `into`.
void joinClock(uint32_t *into, const Lane &lane) {
  join(into, lane.clock, current->threads);
  if (lane.base)
    join(into, lane.base, current->threads);
}

void joinThread(uint32_t *into, const Cluster &cluster, int64_t thread) {
  int64_t n = current->threads;
  join(into, cluster.clocks.data() + thread * n, n);
  if (cluster.base[thread])
    join(into, cluster.base[thread], n);
}

/// Whether access (thread `other`, clock `clock`) happens before `lane`'s
/// present, or is of the same warp (warps are not checked against
/// themselves).
bool ordered(const Lane &lane, uint16_t other, uint32_t clock) {
  if (!other)
    return true;
  int64_t thread = other - 1, perCta = current->perCta;
  if (thread / perCta == lane.rank && thread % perCta / 32 == lane.tid / 32)
    return true;
  return clock <= lane.at(thread);
}

void noteRead(ShadowByte &byte, const Lane &lane, const char *where) {
  uint16_t self = uint16_t(lane.self + 1);
  if (byte.reader && byte.reader != self &&
      !ordered(lane, byte.reader, byte.readClock)) {
    byte.reader2 = byte.reader;
    byte.readClock2 = byte.readClock;
    byte.readWhere2 = byte.readWhere;
  } else if (byte.reader2 && ordered(lane, byte.reader2, byte.readClock2)) {
    byte.reader2 = 0;
  }
  byte.reader = self;
  byte.readClock = lane.clock[lane.self];
  byte.readWhere = where;
}

void checkReaders(const Lane &lane, const char *where, const char *access,
                  const ShadowByte &byte) {
  checkOrdered(lane, where, access, byte, byte.reader, byte.readClock, "reads",
               byte.readWhere);
  checkOrdered(lane, where, access, byte, byte.reader2, byte.readClock2,
               "reads", byte.readWhere2);
}

const char *memoryOf(const ShadowByte &byte) {
  int64_t offset = &byte - current->shadow.data();
  bool tensor =
      current->tmemBytes && current->stride &&
      offset % current->stride >= current->stride - current->tmemBytes;
  return tensor ? "tensor memory" : "shared memory";
}

void checkOrdered(const Lane &lane, const char *where, const char *access,
                  const ShadowByte &byte, uint16_t other, uint32_t clock,
                  const char *otherAccess, const char *otherWhere) {
  if (enabled(kRaces) && !ordered(lane, other, clock))
    report(where,
           "data race: %s %s that %s %s at %s with no barrier in between",
           access, memoryOf(byte), nameOf(other - 1).text, otherAccess,
           orUnknown(otherWhere));
}

/// The shadow of [p, p + bytes) or null where checks are off; reports an
/// access outside the calling CTA's shared memory.
ShadowByte *shadowOf(const Lane &lane, const char *p, int64_t bytes,
                     const char *where, const char *what, bool peers) {
  int64_t offset = p - current->smem;
  int64_t slot = lane.slot;
  if (peers && current->stride) {
    // The CTA of the cluster whose slice holds the first byte.
    int64_t first = lane.slot - lane.rank;
    int64_t at = offset >= 0 ? offset / current->stride : -1;
    if (at >= first && at < first + current->clusterCtas)
      slot = at;
  }
  int64_t low = slot * current->stride;
  if (offset < low || offset + bytes > low + current->sliceBytes) {
    if (enabled(kBounds)) {
      if (peers)
        report(where,
               "%s %" PRId64 " bytes outside the shared memory of the cluster",
               what, bytes);
      report(where,
             "%s %" PRId64 " bytes at offset %" PRId64
             " of shared memory, outside the CTA's %" PRId64 " bytes",
             what, bytes, offset - low, current->sliceBytes);
    }
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
  Cluster &cluster = *lane.cluster;
  if (s.wgmmaGroup) {
    int64_t group = s.wgmmaGroup - 1, first = firstThreadOf(group);
    // Every warp's wait must happen before the write.
    bool completed = true;
    for (int64_t warp = 0; warp < kWarpsPerWarpgroup; ++warp) {
      int64_t at = group * kWarpsPerWarpgroup + warp;
      completed = completed && s.wgmmaSeq <= cluster.wgmmaCompleted[at] &&
                  ordered(lane, uint16_t(first + 32 * warp + 1),
                          cluster.wgmmaDone[at][s.wgmmaSeq - 1]);
    }
    if (!completed) {
      int64_t perCta = current->warpgroupsPerCta;
      if (current->clusterCtas == 1)
        report(where,
               "%s shared memory that a wgmma of warpgroup %" PRId64
               " (at %s) may still read: no mgpu.wgmma_wait that completes "
               "it happens before this write",
               what, group, orUnknown(s.asyncWhere));
      report(where,
             "%s shared memory that a wgmma of warpgroup %" PRId64
             " of the cluster's CTA %" PRId64
             " (at %s) may still read: no mgpu.wgmma_wait that completes it "
             "happens before this write",
             what, group % perCta, group / perCta, orUnknown(s.asyncWhere));
    }
  }
  if (s.mmaReads)
    report(where,
           "%s shared memory that a tcgen05_mma (at %s) may still read: wait "
           "on the barrier its tcgen05_commit_arrive signals first",
           what, orUnknown(s.mmaWhere));
  if (s.outThread) {
    int64_t thread = s.outThread - 1;
    if (s.outSeq > cluster.outCompleted[thread] ||
        !ordered(lane, s.outThread, cluster.outDone[thread][s.outSeq - 1]))
      report(where,
             "%s shared memory that a copy_smem_to_gmem of %s (at %s) may "
             "still read: no mgpu.wait_smem_to_gmem that completes it "
             "happens before this write",
             what, nameOf(thread).text, orUnknown(s.asyncWhere));
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
      lane.cluster->fences[s.writer - 1] == s.writeFence)
    report(where,
           "%s reads shared memory that %s wrote at %s with no "
           "mgpu.commit_smem (proxy fence) since",
           what, nameOf(s.writer - 1).text, orUnknown(s.writeWhere));
  if (enabled(kRaces) && !ordered(lane, s.writer, s.writeClock))
    report(where,
           "data race: %s reads shared memory that %s wrote at %s with "
           "no barrier in between",
           what, nameOf(s.writer - 1).text, orUnknown(s.writeWhere));
}

} // namespace mgpu::emu::checks::shadow

using namespace mgpu::emu::checks;
using namespace mgpu::emu::checks::shadow;

namespace {
/// `fail` with its arguments in `args` and `note`, if any, after the
/// message.
[[noreturn]] void failWith(const char *where, const char *note,
                           const char *format, va_list args) {
  // The first thread reports and ends the program while holding the lock.
  static std::mutex reporting;
  reporting.lock();
  if (where)
    std::fprintf(stderr, "%s: ", where);
  std::fprintf(stderr, "error: ");
  std::vfprintf(stderr, format, args);
  std::fprintf(stderr, "%s\n", note ? note : "");
  std::fflush(stderr);
  std::_Exit(1);
}
} // namespace

void mgpu::emu::fail(const char *where, const char *format, ...) {
  va_list args;
  va_start(args, format);
  failWith(where, nullptr, format, args);
}

namespace mgpu::emu::checks {

void report(const char *where, const char *format, ...) {
  va_list args;
  va_start(args, format);
  failWith(where, " (an emulator check; --check=none turns them off)", format,
           args);
}

bool enabled(int64_t kind) { return current && (current->flags & kind); }

void startCta(int64_t slot) {
  Launch *launch = current;
  if (!launch || slot < 0 ||
      slot / launch->clusterCtas >= int64_t(launch->clusters.size()))
    return;
  int64_t low = slot * launch->stride;
  std::fill(launch->shadow.begin() + low,
            launch->shadow.begin() + low + launch->sliceBytes, ShadowByte());
  if (!launch->displaced.empty())
    std::fill(launch->displaced.begin() + low,
              launch->displaced.begin() + low + launch->sliceBytes,
              ShadowByte());
  Cluster &cluster = launch->clusters[slot / launch->clusterCtas];
  int64_t rank = slot % launch->clusterCtas, n = launch->threads;
  int64_t groups = launch->clusterCtas * launch->warpgroupsPerCta;
  // The cluster's first CTA starts it (the scheduler starts a cluster's
  // CTAs in rank order before any of its threads runs). Entries of earlier
  // clusters stay, below the new epoch; all are cleared once the clocks
  // near their range's end.
  if (rank == 0) {
    if (cluster.clocks.size() != size_t(n * n) || cluster.latest > (1u << 30)) {
      cluster.clocks.assign(size_t(n * n), 0);
      cluster.latest = 0;
    }
    cluster.epoch = cluster.latest + 1;
    cluster.latest = cluster.epoch;
    cluster.base.assign(n, nullptr);
    cluster.baseBarrier.assign(n, -1);
    cluster.fences.assign(n, 0);
    cluster.pendingGeneration.assign(n, 0);
    cluster.wgmmaCommitted.assign(groups * kWarpsPerWarpgroup, 0);
    cluster.wgmmaCompleted.assign(groups * kWarpsPerWarpgroup, 0);
    cluster.outCommitted.assign(n, 0);
    cluster.outCompleted.assign(n, 0);
    cluster.wgmmaDone.assign(groups * kWarpsPerWarpgroup, {});
    cluster.outDone.assign(n, {});
    cluster.outWhere.assign(n, nullptr);
    cluster.outOpen.assign(n, false);
    cluster.pendingMmas.assign(n, {});
    cluster.barriers.resize(size_t(launch->clusterCtas));
    cluster.copiesInto.clear();
    cluster.sharesInto.clear();
  }
  for (int64_t t = rank * launch->perCta; t < (rank + 1) * launch->perCta; ++t)
    cluster.clocks[t * n + t] = cluster.epoch;
  CtaBarriers &barriers = cluster.barriers[rank];
  for (CtaBarrier &barrier : barriers.direct) {
    barrier.generation = barrier.arrived = 0;
    std::fill(std::begin(barrier.clocks.phaseOf),
              std::end(barrier.clocks.phaseOf), -1);
  }
  barriers.others.clear();
}

bool orderedInCluster(int64_t slot, int64_t thread, uint32_t clock) {
  Lane lane = getLane();
  if (!lane.cluster || slot < 0 ||
      slot / current->clusterCtas != lane.slot / current->clusterCtas)
    return true;
  return ordered(
      lane,
      uint16_t(slot % current->clusterCtas * current->perCta + thread + 1),
      clock);
}

bool laneClock(int64_t &slot, int64_t &thread, uint32_t &clock) {
  Lane lane = getLane();
  if (!lane.cluster)
    return false;
  slot = lane.slot;
  thread = lane.tid;
  clock = lane.clock[lane.self];
  return true;
}

} // namespace mgpu::emu::checks

extern "C" {

/// Starts checking a launch: `smem` (`total` bytes) holds `slots` CTA
/// slots `stride` bytes apart, of which a CTA uses `sliceBytes`, the last
/// `tmemBytes` of each slot its tensor memory; `perCta`
/// threads a CTA; `clusterCtas` CTAs a cluster whose slots are consecutive
/// (1: the CTAs' threads are not ordered against each other's); `flags`
/// the checks (EmuChecks.h).
MGPU_HOST_EXPORT void mgpuEmuCheckLaunch(char *smem, int64_t total,
                                         int64_t slots, int64_t stride,
                                         int64_t sliceBytes, int64_t tmemBytes,
                                         int64_t perCta, int64_t clusterCtas,
                                         int64_t flags) {
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
  launch->tmemBytes = tmemBytes;
  launch->perCta = perCta;
  launch->warpgroupsPerCta = (perCta + 127) / 128;
  // A cluster's clocks take (its threads)^2 words: past 4096 threads the
  // CTAs keep their own clocks (peer accesses are then not race-checked).
  // (A kernel without shared memory still has its slots: its threads'
  // clocks order its global memory accesses.)
  slots = std::max<int64_t>(slots, 1);
  if (clusterCtas < 1 || clusterCtas * perCta > 4096 || slots % clusterCtas)
    clusterCtas = 1;
  // Clocks for at most 2^28 words (1 GiB): past that only the first group of
  // CTAs is followed, as in a kernel whose checks see one slot.
  if (slots * clusterCtas * perCta * perCta > (int64_t(1) << 28))
    slots = clusterCtas;
  launch->clusterCtas = clusterCtas;
  launch->threads = clusterCtas * perCta;
  launch->shadow.resize(size_t(total));
  if (clusterCtas > 1)
    launch->displaced.resize(size_t(total));
  launch->clusters.resize(size_t(slots / clusterCtas));
  current = launch;
}

/// The launch ended.
MGPU_HOST_EXPORT void mgpuEmuCheckLaunchEnd() {
  delete current;
  current = nullptr;
}

/// A peer access where the CTAs keep their own clocks (too many threads in
/// a cluster, or CTAs run in a group other than their cluster's): the
/// bytes are written, or must have been; no race is checked.
static void checkUnorderedPeerAccess(char *p, int64_t bytes, int64_t write,
                                     const char *where) {
  int64_t offset = p - current->smem;
  if (offset < 0 || offset + bytes > current->total) {
    if (enabled(kBounds))
      report(where,
             "%s %" PRId64 " bytes outside the shared memory of the cluster",
             write ? "writes" : "reads", bytes);
    return;
  }
  for (int64_t i = 0; i < bytes; ++i) {
    ShadowByte &b = current->shadow[offset + i];
    if (write)
      b.written = true;
    else if (enabled(kInit) && !b.written)
      report(where, "reads shared memory of a peer CTA that nothing wrote");
  }
}

/// A load or store (`write`) of `bytes` at `p` by the calling lane, in its
/// CTA's shared memory or (`peers`, through mgpu.cluster_ref) in that of
/// a CTA of its cluster.
static void checkAccess(char *p, int64_t bytes, int64_t write,
                        const char *where, bool peers) {
  Lane lane = getLane();
  if (!lane.cluster)
    return;
  if (peers && current->clusterCtas == 1) {
    // Clocks per CTA: the peer's bytes are written, or must have been.
    checkUnorderedPeerAccess(p, bytes, write, where);
    return;
  }
  ShadowByte *s =
      shadowOf(lane, p, bytes, where, write ? "writes" : "reads", peers);
  if (!s)
    return;
  uint16_t self = uint16_t(lane.self + 1);
  uint32_t now = lane.clock[lane.self];
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
        report(where, peers ? "reads shared memory of a peer CTA that "
                              "nothing wrote"
                            : "reads shared memory that nothing wrote");
      checkOrdered(lane, where, "reads", b, b.writer, b.writeClock, "writes",
                   b.writeWhere);
      noteRead(b, lane, where);
      continue;
    }
    checkAsyncReaders(b, lane, where, "writes");
    checkOrdered(lane, where, "writes", b, b.writer, b.writeClock, "writes",
                 b.writeWhere);
    checkReaders(lane, where, "writes", b);
    b.reader = b.reader2 = 0;
    b.written = true;
    b.writer = self;
    b.writeClock = now;
    b.writeWhere = where;
    b.writeFence = write == kAsyncStoreWrite ? kAsyncWrite
                                             : lane.cluster->fences[lane.self];
  }
}

MGPU_HOST_EXPORT void mgpuEmuCheckAccess(char *p, int64_t bytes, int64_t write,
                                         const char *where) {
  checkAccess(p, bytes, write, where, /*peers=*/false);
}

/// A pair's MMA, issued by the calling lane of the pair's first CTA, writes
/// `bytes` of the peer's accumulator at `p`: checked as the issuing
/// thread's MMA write into a peer (mgpuEmuCheckMmaWrites). Where the CTAs
/// keep their own clocks, the bytes are only marked written.
MGPU_HOST_EXPORT void mgpuEmuCheckPeerMmaWrite(char *p, int64_t bytes,
                                               const char *where) {
  if (current && current->clusterCtas == 1) {
    mgpu::emu::checks::copyInLanded(p, bytes);
    return;
  }
  checkAccess(p, bytes, kMmaWrite, where, /*peers=*/true);
  markMmaWrites(p, bytes, where, /*peers=*/true);
}

/// A load or store through a view of a peer CTA's shared memory
/// (mgpu.cluster_ref), checked as the CTA's own.
MGPU_HOST_EXPORT void mgpuEmuCheckPeerAccess(char *p, int64_t bytes,
                                             int64_t write, const char *where) {
  checkAccess(p, bytes, write, where, /*peers=*/true);
}

/// commit_smem / fence.proxy.async by the calling lane: its earlier
/// writes are visible to the async proxy.
MGPU_HOST_EXPORT void mgpuEmuCheckFence() {
  Lane lane = getLane();
  if (lane.cluster)
    ++lane.cluster->fences[lane.self];
}

} // extern "C"
