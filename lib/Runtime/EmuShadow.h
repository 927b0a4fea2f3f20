//===- EmuShadow.h - The emulator checks' shadow state ---------*- C++ -*-===//
//
// What the emulator's checks of shared memory share between their files
// (EmuChecks.cpp: launches, CTAs, barriers, the lanes' accesses;
// EmuAsyncChecks.cpp: async copies, wgmma and tcgen05 MMAs): the shadow
// state of each byte of the emulated shared memory, the vector clocks of
// the clusters' threads and barriers, and the helpers that read them. Internal
// to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_RUNTIME_EMUSHADOW_H
#define MGPU_RUNTIME_EMUSHADOW_H

#include "EmuChecks.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>
#include <vector>

namespace mgpu::emu::checks::shadow {

/// A write by the async proxy (TMA): no fence is needed before async reads.
constexpr uint32_t kAsyncWrite = UINT32_MAX;

struct ShadowByte {
  const char *writeWhere = nullptr, *readWhere = nullptr;
  /// The last wgmma or copy out that read the byte.
  const char *asyncWhere = nullptr;
  uint32_t writeClock = 0, readClock = 0;
  /// The writer's proxy-fence count at the write (kAsyncWrite for TMA).
  uint32_t writeFence = 0;
  /// wgmma group / bulk group that still reads the byte (0: none).
  uint32_t wgmmaSeq = 0, outSeq = 0;
  /// Threads + 1 (0: none); the warpgroup for wgmma.
  uint16_t writer = 0, reader = 0, wgmmaGroup = 0, outThread = 0;
  /// An earlier reader that the last one is not ordered after (0: none):
  /// a write must be ordered after both (noteRead).
  uint16_t reader2 = 0;
  uint32_t readClock2 = 0;
  const char *readWhere2 = nullptr;
  bool written = false;
  /// A copy in that has not landed will write the byte.
  bool inFlight = false;
  /// A tcgen05 MMA (at `mmaWhere`) writes the byte (tensor memory:
  /// `mmaPending`) or reads it (shared memory: `mmaReads`) until a thread
  /// waits on the barrier that a commit covering it arrives on.
  bool mmaPending = false, mmaReads = false;
  const char *mmaWhere = nullptr;
};

/// Vector clocks of one barrier: the joined clocks of a phase's (or a
/// generation's) arrivals, in a ring so that a slow waiter still finds its
/// phase while the next one fills.
struct SyncClocks {
  static constexpr int kRing = 4;
  std::vector<uint32_t> clocks[kRing];
  int64_t phaseOf[kRing] = {-1, -1, -1, -1};
};

/// A CTA barrier (__mgpu_emu_barrier slot): generation and arrivals, and
/// whether every thread of the CTA takes part (see mgpuEmuCheckSyncArrive).
struct CtaBarrier {
  int64_t generation = 0, arrived = 0;
  bool everyThread = false;
  SyncClocks clocks;
};

/// The barrier slots with a table entry of their own; others go to a map.
constexpr int64_t kDirectBarriers = 16;

/// The CTA barriers of one CTA of a cluster.
struct CtaBarriers {
  CtaBarrier direct[kDirectBarriers];
  std::unordered_map<int64_t, CtaBarrier> others;
  CtaBarrier &operator[](int64_t id) {
    return id >= 0 && id < kDirectBarriers ? direct[id] : others[id];
  }
};

/// The threads whose clocks are compared: the CTAs of a cluster (a CTA
/// outside clusters is a cluster of one), so that a peer CTA's multicast,
/// arrival on a cluster barrier or cluster_ref access is ordered against
/// this CTA's threads as on the GPU. A thread is numbered in its cluster
/// (its CTA's rank times the threads of a CTA, plus its thread in the CTA),
/// a warpgroup likewise (Lane::warpgroup).
struct Cluster {
  /// n x n clocks, thread-major (n: the cluster's threads). A thread's
  /// clock is the elementwise max of its row and of its base (below).
  /// Entries below `epoch` are left from an earlier cluster of the slots
  /// and mean 0: a cluster starts without clearing n^2 entries.
  std::vector<uint32_t> clocks;
  uint32_t epoch = 0, latest = 0;
  /// Per thread: the clocks of the last phase of a barrier of every thread
  /// of its CTA it left (null: none), and that barrier's id. Leaving such a
  /// barrier only moves this pointer: every thread's clock is then that
  /// phase's, but for the thread's own later events.
  std::vector<const uint32_t *> base;
  std::vector<int64_t> baseBarrier;
  std::vector<uint32_t> fences;
  std::vector<int64_t> pendingGeneration;
  /// Per warp (warpgroup * 4 + warp): the wgmma groups it committed and
  /// those its waits completed.
  std::vector<uint32_t> wgmmaCommitted, wgmmaCompleted;
  std::vector<uint32_t> outCommitted, outCompleted;
  /// The clock of the waiting thread (each warp's first lane: a warp's part
  /// of an MMA reads its operands until that warp's wait; the copying
  /// thread) at the wait that completed each wgmma group / bulk group: a
  /// later write must happen after it (after every warp's, for a wgmma).
  std::vector<std::vector<uint32_t>> wgmmaDone, outDone;
  /// Each thread's last copy out, and whether its bulk group is open.
  std::vector<const char *> outWhere;
  std::vector<bool> outOpen;
  /// Per thread: the tensor memory its MMAs have written and the shared
  /// memory they have read (a commit tracks every earlier MMA of the
  /// thread, completed or not).
  std::vector<std::set<std::pair<int64_t, int64_t>>> pendingMmas;
  /// Per CTA of the cluster.
  std::vector<CtaBarriers> barriers;
  /// Per buffer (the shadow offset of its first byte): the copies in that
  /// its CTA issued into it, and per issuing CTA's rank, the multicast
  /// shares its peers issued into it. They tell which fill a share belongs
  /// to (see mgpuEmuCheckMulticastShare).
  std::map<int64_t, uint32_t> copiesInto;
  std::map<std::pair<int64_t, int64_t>, uint32_t> sharesInto;
};

struct MBarrier {
  int64_t arrivals = 1;
  SyncClocks clocks;
  /// Tensor memory and shared memory (shadow offset, bytes) that the MMAs
  /// committed to this barrier write or read: a wait on it completes them
  /// for the checks.
  std::set<std::pair<int64_t, int64_t>> committedMmas;
};

struct Launch {
  /// The released clocks of semaphores, by CTA slot and semaphore word: a
  /// wait by a thread of the same CTA acquires them.
  std::map<std::pair<int64_t, const void *>, std::vector<uint32_t>>
      semaphoreClocks;
  int64_t flags = 0;
  char *smem = nullptr;
  int64_t total = 0, stride = 0, sliceBytes = 0, perCta = 0;
  /// The tensor memory at the end of each CTA's slot (Tcgen05Emulation.h).
  int64_t tmemBytes = 0;
  /// CTAs per cluster (their slots are consecutive, the cluster's first
  /// at a multiple of it), threads per cluster, warpgroups per CTA.
  int64_t clusterCtas = 1, threads = 0, warpgroupsPerCta = 1;
  std::vector<ShadowByte> shadow;
  /// In launches of clusters, per byte: its state when the last copy in
  /// was issued into it, whose issue forgets the byte's readers. A peer's
  /// share of the same multicast fill, issued after this CTA's own copy,
  /// must still be ordered after those readers.
  std::vector<ShadowByte> displaced;
  std::vector<Cluster> clusters;
  std::mutex mbarrierMutex;
  std::unordered_map<const int64_t *, MBarrier> mbarriers;
};

/// Accesses of mgpuEmuCheckAccess beyond a lane's read (0) or write (1)
/// (mlir::mgpu::CheckedAccess): a tcgen05 MMA's write of its accumulator,
/// an async-proxy write into a peer (async_store_smem).
constexpr int64_t kMmaWrite = 2, kAsyncStoreWrite = 3;

/// The launch being checked (none: checks off).
extern Launch *current;

struct Lane {
  /// The CTA's slot, the thread in its CTA, the CTA's rank in its cluster
  /// and the thread in the cluster.
  int64_t slot = -1, tid = -1, rank = 0, self = -1;
  Cluster *cluster = nullptr;
  uint32_t *clock = nullptr; // this thread's row of clocks
  const uint32_t *base = nullptr;
  /// The thread's warpgroup in the cluster.
  int64_t warpgroup() const;
  /// Component `thread` of this thread's vector clock.
  uint32_t at(int64_t thread) const {
    return base ? std::max(clock[thread], base[thread]) : clock[thread];
  }
};

const char *orUnknown(const char *where);
/// The calling lane's cluster and clocks (a null `cluster` where the
/// checks do not follow the caller).
Lane getLane();
/// A release by `lane`: later events of the thread are after it.
void tick(const Lane &lane);
void join(uint32_t *into, const uint32_t *from, int64_t n);
/// Joins `lane`'s whole vector clock into `into`.
void joinClock(uint32_t *into, const Lane &lane);
/// Joins thread `thread`'s whole vector clock (row and base) into `into`.
void joinThread(uint32_t *into, const Cluster &cluster, int64_t thread);
/// Whether thread `other` - 1's event at `clock` happens before what `lane`
/// does now (threads of one warp are ordered).
bool ordered(const Lane &lane, uint16_t other, uint32_t clock);
/// A read of `byte` by `lane` at `where`: it becomes the byte's last
/// reader; the previous one is kept as the earlier reader where this read
/// is not ordered after it (one of them where there are more).
void noteRead(ShadowByte &byte, const Lane &lane, const char *where);
/// Reports a data race at `where` unless the byte's readers are ordered
/// before `lane`'s `access`.
void checkReaders(const Lane &lane, const char *where, const char *access,
                  const ShadowByte &byte);
/// "tensor memory" or "shared memory": where `byte` lies.
const char *memoryOf(const ShadowByte &byte);
/// Reports a data race on `byte` at `where` unless thread `other` - 1's
/// access at `clock` (`otherAccess`: "reads", "writes", at `otherWhere`)
/// happens before `lane`'s `access` (a phrase: "writes",
/// "copy_gmem_to_smem overwrites").
void checkOrdered(const Lane &lane, const char *where, const char *access,
                  const ShadowByte &byte, uint16_t other, uint32_t clock,
                  const char *otherAccess, const char *otherWhere);
/// The shadow of [p, p + bytes) or null; reports an access outside the
/// calling CTA's shared memory (`peers`: outside its cluster's).
ShadowByte *shadowOf(const Lane &lane, const char *p, int64_t bytes,
                     const char *where, const char *what, bool peers = false);
/// The first thread (in its cluster) of warpgroup `group` of the cluster.
int64_t firstThreadOf(int64_t group);
/// The warps of a warpgroup: each completes its part of a wgmma at its own
/// wait.
constexpr int64_t kWarpsPerWarpgroup = 4;
/// How a report names thread `thread` of the cluster: "thread 5", or
/// "thread 5 of the cluster's CTA 1".
struct ThreadName {
  char text[64];
};
ThreadName nameOf(int64_t thread);
/// Whether a byte is still read by an async operation that has not
/// completed: reports it for a write of `what` at `where`.
void checkAsyncReaders(const ShadowByte &s, const Lane &lane, const char *where,
                       const char *what);
/// Checks a read by the async proxy (TMA copy out, wgmma) issued by `lane`;
/// `computes`: the read feeds a computation (never-written bytes matter).
void checkAsyncRead(ShadowByte &s, const Lane &lane, const char *where,
                    const char *what, bool computes);
int64_t completedPhases(int64_t *barrier);

} // namespace mgpu::emu::checks::shadow

#endif // MGPU_RUNTIME_EMUSHADOW_H
