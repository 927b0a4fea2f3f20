//===- EmuShadow.h - The emulator checks' shadow state (internal) -*- C++
//-*-===//
//
// What the emulator's checks of shared memory share between their files
// (EmuChecks.cpp: launches, CTAs, barriers, the lanes' accesses;
// EmuAsyncChecks.cpp: async copies, wgmma and tcgen05 MMAs): the shadow
// state of each byte of the emulated shared memory, the vector clocks of
// the CTAs' threads and barriers, and the helpers that read them. Internal
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
  bool written = false;
  /// A copy in that has not landed will write the byte.
  bool inFlight = false;
  /// A tcgen05 MMA (at `mmaWhere`) writes the byte (tensor memory) until a
  /// thread waits on the barrier that its commit arrives on.
  bool mmaPending = false;
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

struct Cta {
  /// perCta x perCta clocks, thread-major. A thread's clock is the
  /// elementwise max of its row and of its base (below). Entries below
  /// `epoch` are left from an earlier CTA of the slot and mean 0: a CTA
  /// starts without clearing n^2 entries.
  std::vector<uint32_t> clocks;
  uint32_t epoch = 0, latest = 0;
  /// Per thread: the clocks of the last phase of a barrier of every thread
  /// it left (null: none), and that barrier's slot. Leaving such a barrier
  /// only moves this pointer: every thread's clock is then that phase's,
  /// but for the thread's own later events.
  std::vector<const uint32_t *> base;
  std::vector<int64_t> baseBarrier;
  std::vector<uint32_t> fences;
  std::vector<int64_t> pendingGeneration;
  std::vector<uint32_t> wgmmaCommitted, wgmmaCompleted;
  std::vector<uint32_t> outCommitted, outCompleted;
  /// The clock of the waiting thread (a warpgroup's first lane; the copying
  /// thread) at the wait that completed each wgmma group / bulk group: a
  /// later write must happen after it.
  std::vector<std::vector<uint32_t>> wgmmaDone, outDone;
  /// Each thread's last copy out, and whether its bulk group is open.
  std::vector<const char *> outWhere;
  std::vector<bool> outOpen;
  /// Per thread: the tensor memory its MMAs have written (a commit tracks
  /// every earlier MMA of its thread, completed or not).
  std::vector<std::set<std::pair<int64_t, int64_t>>> pendingMmas;
  CtaBarrier direct[kDirectBarriers];
  std::unordered_map<int64_t, CtaBarrier> barriers;
  CtaBarrier &barrier(int64_t id) {
    return id >= 0 && id < kDirectBarriers ? direct[id] : barriers[id];
  }
};

struct MBarrier {
  int64_t arrivals = 1;
  SyncClocks clocks;
  /// Tensor memory (shadow offset, bytes) that the MMAs committed to this
  /// barrier write: a wait on it completes them for the checks.
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
  std::vector<ShadowByte> shadow;
  std::vector<Cta> ctas;
  std::mutex mbarrierMutex;
  std::unordered_map<const int64_t *, MBarrier> mbarriers;
};

/// An access of mgpuEmuCheckAccess by a tcgen05 MMA (its accumulator).
constexpr int64_t kMmaWrite = 2;

/// The launch being checked (none: checks off).
extern Launch *current;

struct Lane {
  int64_t slot = -1, tid = -1;
  Cta *cta = nullptr;
  uint32_t *clock = nullptr; // this thread's row of clocks
  const uint32_t *base = nullptr;
  /// Component `thread` of this thread's vector clock.
  uint32_t at(int64_t thread) const {
    return base ? std::max(clock[thread], base[thread]) : clock[thread];
  }
};

const char *orUnknown(const char *where);
/// The calling lane's CTA and clocks (a null `cta` where the checks do not
/// follow the caller).
Lane getLane();
/// A release by `lane`: later events of the thread are after it.
void tick(const Lane &lane);
void join(uint32_t *into, const uint32_t *from, int64_t n);
/// Joins `lane`'s whole vector clock into `into`.
void joinClock(uint32_t *into, const Lane &lane);
/// Whether thread `other` - 1's event at `clock` happens before what `lane`
/// does now (threads of one warp are ordered).
bool ordered(const Lane &lane, uint16_t other, uint32_t clock);
/// The shadow of [p, p + bytes) or null; reports an access outside the
/// calling CTA's shared memory.
ShadowByte *shadowOf(const Lane &lane, const char *p, int64_t bytes,
                     const char *where, const char *what);
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
