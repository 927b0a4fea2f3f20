//===- HostRuntime.cpp - Barriers and waits of kernels run on the host ----===//
//
// libmgpu_host_runtime.so: what kernels need on the host (interpret mode and
// the GPU emulator) beyond plain loads and stores. A barrier is one 64-bit
// word, like an mbarrier: the low half counts the arrivals of the current
// phase, the high half the phases completed, and a wait for the phase of
// parity p returns once the completed count's parity differs from p (the
// mbarrier try_wait.parity rule). Waits spin, then sleep, and give up with a
// diagnostic naming the op after MGPU_WAIT_TIMEOUT seconds (default 10), so
// a kernel that deadlocks fails instead of hanging.
//
// The emulator's async copies (mgpuEmu*) are queued on the barrier they
// arrive on and land when a thread waits for it, so that a kernel reading a
// buffer before waiting reads stale data, as it would on a GPU; with a
// seeded schedule (EmuAsync.cpp) some land at their issue or at a later
// scheduling point instead, and copies out read shared memory at their
// issue, later, or at their wait.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sched.h>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "EmuAsync.h"
#include "EmuChecks.h"
#include "EmuFibers.h"
#include "EmuFloats.h"
#include "EmuReductions.h"
#include "mgpu/Target/SwizzleFormula.h"

#define MGPU_HOST_EXPORT __attribute__((visibility("default")))

namespace {

using mgpu::emu::bf16ToFloat;
using mgpu::emu::halfToFloat;

/// Spins until `ready()` holds; reports a deadlock after the timeout. On
/// an emulator fiber every step lets the next fiber run, and never sleeps:
/// what it waits for can only come from the fibers of its own host thread
/// (a group of CTAs that wait on each other shares one), which a sleep
/// would stop too.
template <typename Ready>
void waitUntil(Ready ready, const char *what, const char *where) {
  namespace checks = mgpu::emu::checks;
  // The clock is read from the 64th step on: most waits end before, and
  // the lanes of a large grid wait millions of times.
  std::chrono::steady_clock::time_point start;
  bool fiber = mgpu::emu::inFiber();
  for (unsigned spins = 0;; ++spins) {
    if (ready()) {
      checks::noteProgress();
      return;
    }
    // With the emulator's checks, a wait that no lane of the group can
    // ever satisfy is reported at once instead of after the timeout.
    if (fiber && checks::noteIdleWait())
      checks::report(where,
                     "%s waits for a phase that can never complete: every "
                     "thread of the CTA waits and nothing is left to arrive "
                     "(a skipped phase, a wrong parity or too few arrivals)",
                     what);
    if (spins == 64)
      start = std::chrono::steady_clock::now();
    if (fiber) {
      mgpu::emu::yieldLane();
    } else if (spins < 64) {
      continue;
    } else if (spins < 1024) {
      sched_yield();
      continue;
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
    if (spins > 64 && (spins & 63) == 0) {
      double waited = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count();
      if (waited > mgpu::emu::waitTimeoutSeconds()) {
        mgpu::emu::fail(where,
                        "%s did not complete within %g s; the kernel "
                        "deadlocks (nothing arrives on or signals what it "
                        "waits for). Set MGPU_WAIT_TIMEOUT to wait longer.",
                        what, waited);
      }
    }
  }
}

std::atomic<int64_t> *asAtomic(int64_t *word) {
  static_assert(sizeof(std::atomic<int64_t>) == sizeof(int64_t));
  return reinterpret_cast<std::atomic<int64_t> *>(word);
}

constexpr int64_t kPhase = int64_t(1) << 32;

/// One arrival on `barrier`, whose phases complete after `arrivals`.
void arrive(int64_t *barrier, int64_t arrivals) {
  std::atomic<int64_t> *word = asAtomic(barrier);
  int64_t old = word->load(std::memory_order_relaxed);
  for (;;) {
    int64_t arrived = (old & (kPhase - 1)) + 1;
    int64_t next =
        arrived >= arrivals ? (old & ~(kPhase - 1)) + kPhase : old + 1;
    if (word->compare_exchange_weak(old, next, std::memory_order_acq_rel))
      return;
  }
}

} // namespace

double mgpu::emu::waitTimeoutSeconds() {
  static const double timeout = [] {
    const char *text = std::getenv("MGPU_WAIT_TIMEOUT");
    double value = text ? std::atof(text) : 0.0;
    return value > 0 ? value : 10.0;
  }();
  return timeout;
}

bool mgpu::emu::phaseDone(int64_t *barrier, int64_t parity) {
  int64_t completed = asAtomic(barrier)->load(std::memory_order_acquire) >> 32;
  return (completed & 1) != (parity & 1);
}

namespace {

using mgpu::emu::phaseDone;

//===----------------------------------------------------------------------===//
// The emulator's pending async copies
//===----------------------------------------------------------------------===//

/// A strided box copy with clipping: `rank` dimensions (outermost first),
/// box `sizes`; the global side at element `offsets` of an array of
/// `extents` and `strides` (elements); elements of the box outside the
/// array are zero when read and skipped when written.
struct BoxCopy {
  char *global;
  char *shared;
  /// A copy out reads shared memory when the schedule says (at its issue
  /// by default, the earliest a TMA store may, so that a missing commit
  /// shows) into `snapshot` (`read`); it writes global memory when waited
  /// for. `id` names it for a read deferred to a scheduling point.
  std::vector<char> snapshot;
  bool read = false;
  uint64_t id = 0;
  int64_t elementBytes;
  std::vector<int64_t> sizes, offsets, extents, strides;
  bool toShared;
  /// A 2-d copy into or out of a buffer of tileRows x tileCols tiles with
  /// swizzled rows (0: row-major), as TMA moves them with the swizzle that
  /// a tile row spans (32, 64 or 128 bytes).
  int64_t tileRows = 0, tileCols = 0;
  /// A reduce-store (copy_smem_to_gmem with `reduction`): the kind (the
  /// mgpu::TmaReduction value; -1: a plain copy) and the element type
  /// (0 f16, 1 bf16, 2 f32, 3 i32, 4 i64).
  int64_t reduction = -1, elementType = 0;
  /// The op that issued the copy (its global accesses are checked there).
  const char *where = nullptr;
  /// What landing does to its barrier: an arrival, or, for the parts of a
  /// pair's partitioned copy (both on the pair's first CTA's barrier), the
  /// first CTA's part arrives once the peer's part of the same fill has
  /// landed too, as the GPU's byte count has it.
  enum class Landing {
    Arrives,
    PairFirst,
    PairPeer
  } landing = Landing::Arrives;
  bool arrives() const { return landing != Landing::PairPeer; }
};

int64_t arrivingCopies(const std::vector<BoxCopy> &queue) {
  return std::count_if(queue.begin(), queue.end(),
                       [](const BoxCopy &copy) { return copy.arrives(); });
}

int64_t boxBytes(const BoxCopy &copy) {
  int64_t bytes = copy.elementBytes;
  for (int64_t size : copy.sizes)
    bytes *= size;
  return bytes;
}

/// The byte offset of element `flat` (row-major in the box) in the shared
/// buffer of `copy`.
int64_t sharedByteOffset(const BoxCopy &copy, int64_t flat) {
  if (!copy.tileRows)
    return flat * copy.elementBytes;
  int64_t width = copy.sizes[1];
  return mgpu::swizzledByteOffset(copy.tileRows, copy.tileCols,
                                  copy.elementBytes, width, flat / width,
                                  flat % width);
}

void runBoxCopy(const BoxCopy &copy) {
  size_t rank = copy.sizes.size();
  std::vector<int64_t> index(rank, 0);
  int64_t total = 1;
  for (int64_t size : copy.sizes)
    total *= size;
  for (int64_t flat = 0; flat < total; ++flat) {
    int64_t rest = flat;
    for (size_t d = rank; d-- > 0;) {
      index[d] = rest % copy.sizes[d];
      rest /= copy.sizes[d];
    }
    bool inside = true;
    int64_t globalOffset = 0;
    for (size_t d = 0; d < rank; ++d) {
      int64_t g = copy.offsets[d] + index[d];
      inside &= g >= 0 && g < copy.extents[d];
      globalOffset += g * copy.strides[d];
    }
    const char *shared = (!copy.read ? copy.shared : copy.snapshot.data()) +
                         sharedByteOffset(copy, flat);
    char *global = copy.global + globalOffset * copy.elementBytes;
    // A reduce-store is atomic per element, as the checks of global
    // memory take atomics.
    if (inside && copy.reduction < 0)
      mgpu::emu::checks::globalAccess(global, copy.elementBytes,
                                      /*write=*/!copy.toShared, copy.where);
    if (copy.toShared) {
      char *target = copy.shared + sharedByteOffset(copy, flat);
      if (inside)
        std::memcpy(target, global, copy.elementBytes);
      else
        std::memset(target, 0, copy.elementBytes);
    } else if (inside && copy.reduction >= 0) {
      mgpu::emu::combineElement(copy.elementType, copy.reduction, global,
                                shared);
    } else if (inside) {
      std::memcpy(global, shared, copy.elementBytes);
    }
  }
}

/// A copy out reads shared memory (once: its snapshot holds what it read).
void readShared(BoxCopy &copy) {
  if (copy.read)
    return;
  copy.snapshot.assign(copy.shared, copy.shared + boxBytes(copy));
  copy.read = true;
}

/// Copies waiting for a wait: GMEM->SMEM ones by barrier, SMEM->GMEM ones
/// by issuing lane (their bulk groups; mgpu::emu::laneKey).
struct PendingCopies {
  std::mutex mutex;
  std::unordered_map<int64_t *, std::vector<BoxCopy>> byBarrier;
  std::unordered_map<int64_t *, int64_t> arrivalsOf;
  /// Per barrier of a pair's first CTA: the parts landed before their
  /// partner, the peer's and the first CTA's (whose arrivals are owed).
  std::unordered_map<int64_t *, std::pair<int64_t, int64_t>> pairParts;
  std::unordered_map<const void *, std::vector<std::vector<BoxCopy>>> groups;
  std::unordered_map<const void *, std::vector<BoxCopy>> open;
};

PendingCopies &getPending() {
  static PendingCopies pending;
  return pending;
}

BoxCopy decode(void *global, void *shared, const int64_t *desc, bool toShared) {
  // desc: rank, element bytes, then sizes, offsets, extents, strides.
  BoxCopy copy;
  int64_t rank = desc[0];
  copy.global = static_cast<char *>(global);
  copy.shared = static_cast<char *>(shared);
  copy.elementBytes = desc[1];
  copy.sizes.assign(desc + 2, desc + 2 + rank);
  copy.offsets.assign(desc + 2 + rank, desc + 2 + 2 * rank);
  copy.extents.assign(desc + 2 + 2 * rank, desc + 2 + 3 * rank);
  copy.strides.assign(desc + 2 + 3 * rank, desc + 2 + 4 * rank);
  copy.toShared = toShared;
  return copy;
}

/// Lands `copy`, which arrives on `barrier` (under the pending lock).
void landCopy(int64_t *barrier, const BoxCopy &copy) {
  runBoxCopy(copy);
  mgpu::emu::checks::copyInLanded(copy.shared, boxBytes(copy));
  PendingCopies &pending = getPending();
  if (copy.landing != BoxCopy::Landing::Arrives) {
    auto &[peerLanded, owed] = pending.pairParts[barrier];
    bool first = copy.landing == BoxCopy::Landing::PairFirst;
    int64_t &other = first ? peerLanded : owed;
    if (other == 0) {
      ++(first ? owed : peerLanded);
      return;
    }
    --other;
  }
  arrive(barrier, pending.arrivalsOf[barrier]);
}

/// Queues a copy in on `barrier`, one of its `arrivals`; for a pair's
/// partitioned copy, -`arrivals` for the first CTA's part and 0 for the
/// peer's (queued on the first CTA's barrier). The checker sees it first,
/// before the issuing lane's clock moves. The schedule may land it at once
/// or at a later scheduling point.
void queueCopyIn(int64_t *barrier, int64_t arrivals, BoxCopy copy,
                 const char *where) {
  namespace async = mgpu::emu::async;
  PendingCopies &pending = getPending();
  std::lock_guard<std::mutex> lock(pending.mutex);
  std::vector<BoxCopy> &queue = pending.byBarrier[barrier];
  copy.landing = arrivals > 0   ? BoxCopy::Landing::Arrives
                 : arrivals < 0 ? BoxCopy::Landing::PairFirst
                                : BoxCopy::Landing::PairPeer;
  arrivals = std::abs(arrivals);
  copy.where = where;
  if (mgpu::emu::checks::enabled(~int64_t(0))) {
    mgpu::emu::checks::copyInIssued(copy.shared, boxBytes(copy), where);
    mgpu::emu::checks::barrierCopyIssued(barrier, copy.arrives() ? arrivals : 0,
                                         arrivingCopies(queue), where);
  }
  if (copy.arrives())
    pending.arrivalsOf[barrier] = arrivals;
  async::When when = async::choose(/*copyIn=*/true);
  // Landing at issue keeps the barrier's copies in order: only when none
  // is queued before this one.
  if (when == async::When::Issue && queue.empty()) {
    landCopy(barrier, copy);
    return;
  }
  queue.push_back(std::move(copy));
  if (when == async::When::Later)
    async::deferCopyIn(barrier);
}

} // namespace

void mgpu::emu::landCopyIn(int64_t *barrier) {
  PendingCopies &pending = getPending();
  std::lock_guard<std::mutex> lock(pending.mutex);
  auto it = pending.byBarrier.find(barrier);
  if (it == pending.byBarrier.end() || it->second.empty())
    return;
  BoxCopy copy = std::move(it->second.front());
  it->second.erase(it->second.begin());
  landCopy(barrier, copy);
}

void mgpu::emu::readCopyOut(const void *lane, uint64_t id) {
  PendingCopies &pending = getPending();
  std::lock_guard<std::mutex> lock(pending.mutex);
  auto read = [&](std::vector<BoxCopy> &copies) {
    for (BoxCopy &copy : copies)
      if (copy.id == id)
        readShared(copy);
  };
  read(pending.open[lane]);
  for (std::vector<BoxCopy> &group : pending.groups[lane])
    read(group);
}

void mgpu::emu::landCopiesOut(const void *lane) {
  PendingCopies &pending = getPending();
  std::lock_guard<std::mutex> lock(pending.mutex);
  auto land = [&](std::vector<BoxCopy> &copies) {
    for (BoxCopy &copy : copies) {
      readShared(copy);
      runBoxCopy(copy);
    }
    copies.clear();
  };
  for (std::vector<BoxCopy> &group : pending.groups[lane])
    land(group);
  pending.groups.erase(lane);
  land(pending.open[lane]);
  pending.open.erase(lane);
}

extern "C" {

/// Resets `count` barriers to phase 0 with no arrivals.
MGPU_HOST_EXPORT void mgpuHostBarrierInit(int64_t *barriers, int64_t count) {
  mgpu::emu::checks::barrierInit(barriers, count);
  PendingCopies &pending = getPending();
  std::lock_guard<std::mutex> lock(pending.mutex);
  for (int64_t i = 0; i < count; ++i) {
    asAtomic(barriers + i)->store(0, std::memory_order_release);
    pending.pairParts.erase(barriers + i);
  }
}

MGPU_HOST_EXPORT void mgpuHostBarrierArrive(int64_t *barrier,
                                            int64_t arrivals) {
  arrive(barrier, arrivals);
}

/// The emulator's barrier_arrive: checks that no copy still pending on the
/// barrier needs the arrival, then arrives.
static void arriveChecked(int64_t *barrier, int64_t arrivals, bool peer,
                          const char *where) {
  if (mgpu::emu::checks::enabled(~int64_t(0))) {
    PendingCopies &pending = getPending();
    int64_t queued;
    {
      std::lock_guard<std::mutex> lock(pending.mutex);
      auto it = pending.byBarrier.find(barrier);
      queued = it == pending.byBarrier.end() ? 0 : arrivingCopies(it->second);
    }
    mgpu::emu::checks::barrierArrive(barrier, arrivals, queued, peer, where);
  }
  arrive(barrier, arrivals);
  mgpu::emu::async::maybePreempt();
}

MGPU_HOST_EXPORT void mgpuEmuBarrierArrive(int64_t *barrier, int64_t arrivals,
                                           const char *where) {
  arriveChecked(barrier, arrivals, /*peer=*/false, where);
}

/// An arrival on a peer CTA's barrier (a cluster barrier's).
MGPU_HOST_EXPORT void mgpuEmuPeerBarrierArrive(int64_t *barrier,
                                               int64_t arrivals,
                                               const char *where) {
  arriveChecked(barrier, arrivals, /*peer=*/true, where);
}

MGPU_HOST_EXPORT void mgpuHostBarrierWait(int64_t *barrier, int64_t parity,
                                          const char *where) {
  waitUntil([&] { return phaseDone(barrier, parity); }, "mgpu.barrier_wait",
            where);
}

/// mgpu.cluster_sync on both host backends: one arrival on the cluster's
/// word `barrier` (a barrier whose phases complete after `count` arrivals,
/// every Pallas thread or CUDA thread of the cluster), then a wait until
/// the phase it arrived in completes. The phase is read before arriving, so
/// a thread that passes and arrives again cannot complete the next phase
/// without the slower ones.
MGPU_HOST_EXPORT void mgpuHostClusterSync(int64_t *barrier, int64_t count,
                                          const char *where) {
  int64_t phase = asAtomic(barrier)->load(std::memory_order_acquire) >> 32;
  mgpu::emu::checks::clusterSyncArrived(barrier);
  arrive(barrier, count);
  // An arrival is progress for the deadlock check: the cluster's other
  // CTAs' threads are still on their way.
  mgpu::emu::checks::noteProgress();
  waitUntil(
      [&] {
        return (asAtomic(barrier)->load(std::memory_order_acquire) >> 32) !=
               phase;
      },
      "mgpu.cluster_sync", where);
  mgpu::emu::checks::clusterSyncLeft(barrier, phase);
}

/// Stops the program when a kernel-level op names barrier `index` of an
/// array of `count`, which does not exist.
MGPU_HOST_EXPORT void mgpuHostCheckBarrierIndex(int64_t index, int64_t count,
                                                const char *where) {
  if (index >= 0 && index < count)
    return;
  mgpu::emu::fail(where,
                  "barrier index %" PRId64 " is out of range: the barrier "
                  "array has %" PRId64 " barrier%s",
                  index, count, count == 1 ? "" : "s");
}

/// A runtime check of interpret mode or the emulator failed (see
/// --mgpu-report-failed-checks): report it at the checked op and stop.
MGPU_HOST_EXPORT void mgpuHostCheckFailed(const char *where, const char *what) {
  mgpu::emu::fail(where, "%s (a runtime check of the host backends)",
                  what ? what : "check failed");
}

/// Waits until the i32 semaphore is at least `value`, then subtracts it.
MGPU_HOST_EXPORT void mgpuHostSemaphoreWait(int32_t *semaphore, int32_t value,
                                            const char *where) {
  auto *word = reinterpret_cast<std::atomic<int32_t> *>(semaphore);
  mgpu::emu::checks::noteSemaphoreWait();
  waitUntil(
      [&] {
        int32_t current = word->load(std::memory_order_acquire);
        return current >= value &&
               word->compare_exchange_strong(current, current - value,
                                             std::memory_order_acq_rel);
      },
      "mgpu.semaphore_wait", where);
}

/// Waits until the i32 semaphore is at least `value`, leaving it as it is
/// (semaphore_wait with decrement = false).
MGPU_HOST_EXPORT void mgpuHostSemaphoreWaitNoDecrement(int32_t *semaphore,
                                                       int32_t value,
                                                       const char *where) {
  auto *word = reinterpret_cast<std::atomic<int32_t> *>(semaphore);
  waitUntil([&] { return word->load(std::memory_order_acquire) >= value; },
            "mgpu.semaphore_wait", where);
}

/// The emulator's copy_gmem_to_smem into a tiled buffer whose rows are
/// swizzled (transforms [#mgpu.tile<[rows, cols]>, #mgpu.swizzle<S>]; 0
/// rows: row-major): queued on `barrier` (whose phases complete after
/// `arrivals`), it lands when a thread waits there.
MGPU_HOST_EXPORT void
mgpuEmuCopyToSharedSwizzled(int64_t *barrier, int64_t arrivals, void *global,
                            void *shared, const int64_t *desc, int64_t tileRows,
                            int64_t tileCols, const char *where) {
  BoxCopy copy = decode(global, shared, desc, true);
  copy.tileRows = tileRows;
  copy.tileCols = tileCols;
  queueCopyIn(barrier, arrivals, std::move(copy), where);
  mgpu::emu::async::maybePreempt();
}

MGPU_HOST_EXPORT void mgpuEmuCopyToShared(int64_t *barrier, int64_t arrivals,
                                          void *global, void *shared,
                                          const int64_t *desc,
                                          const char *where) {
  mgpuEmuCopyToSharedSwizzled(barrier, arrivals, global, shared, desc, 0, 0,
                              where);
}

/// The emulator's barrier_wait: lands the copies queued on the barrier, one
/// at a time (each is one arrival), until the phase of `parity` completes.
/// Copies queued for a later phase stay queued.
MGPU_HOST_EXPORT void mgpuEmuBarrierWait(int64_t *barrier, int64_t parity,
                                         const char *where) {
  PendingCopies &pending = getPending();
  waitUntil(
      [&] {
        if (phaseDone(barrier, parity))
          return true;
        std::lock_guard<std::mutex> lock(pending.mutex);
        auto it = pending.byBarrier.find(barrier);
        if (it == pending.byBarrier.end() || it->second.empty())
          return false;
        BoxCopy copy = std::move(it->second.front());
        it->second.erase(it->second.begin());
        landCopy(barrier, copy);
        return phaseDone(barrier, parity);
      },
      "mgpu.barrier_wait", where);
  mgpu::emu::checks::barrierWaited(barrier, parity);
}

MGPU_HOST_EXPORT void
mgpuEmuCopyToGlobalTiled(void *global, void *shared, const int64_t *desc,
                         int64_t commit, int64_t kind, int64_t elementType,
                         int64_t tileRows, int64_t tileCols, const char *where);

/// The emulator's copy_smem_to_gmem: joins the issuing thread's open bulk
/// group, closed by `commit`.
MGPU_HOST_EXPORT void mgpuEmuCopyToGlobal(void *global, void *shared,
                                          const int64_t *desc, int64_t commit,
                                          const char *where) {
  mgpuEmuCopyToGlobalTiled(global, shared, desc, commit, -1, 0, 0, 0, where);
}

/// The emulator's copy_smem_to_gmem with a reduction (kind -1: none): as
/// mgpuEmuCopyToGlobal, and when it lands each element is combined into
/// global memory (see combineElement).
/// A lane of a warpgroup whose first lane waited for the phase of `parity`
/// on its behalf (a Pallas thread's barrier_wait): the checks order the
/// lane after the phase's arrivals, as its own wait would.
MGPU_HOST_EXPORT void mgpuEmuBarrierObserved(int64_t *barrier, int64_t parity) {
  mgpu::emu::checks::barrierWaited(barrier, parity);
}

MGPU_HOST_EXPORT void mgpuEmuReduceToGlobal(void *global, void *shared,
                                            const int64_t *desc, int64_t commit,
                                            int64_t kind, int64_t elementType,
                                            const char *where) {
  mgpuEmuCopyToGlobalTiled(global, shared, desc, commit, kind, elementType, 0,
                           0, where);
}

/// The emulator's copy_smem_to_gmem of a buffer of tileRows x tileCols
/// tiles with 128-byte swizzled rows (0, 0: row-major), as TMA reads it
/// through a map with the 128-byte swizzle; with a reduction (kind -1:
/// none) as mgpuEmuReduceToGlobal.
MGPU_HOST_EXPORT void
mgpuEmuCopyToGlobalTiled(void *global, void *shared, const int64_t *desc,
                         int64_t commit, int64_t kind, int64_t elementType,
                         int64_t tileRows, int64_t tileCols,
                         const char *where) {
  PendingCopies &pending = getPending();
  std::lock_guard<std::mutex> lock(pending.mutex);
  const void *self = mgpu::emu::laneKey();
  BoxCopy copy = decode(global, shared, desc, false);
  copy.reduction = kind;
  copy.elementType = elementType;
  copy.tileRows = tileRows;
  copy.tileCols = tileCols;
  copy.where = where;
  int64_t bytes = boxBytes(copy);
  mgpu::emu::checks::copyOutIssued(copy.shared, bytes, commit, where);
  namespace async = mgpu::emu::async;
  static std::atomic<uint64_t> nextId{1};
  copy.id = nextId.fetch_add(1, std::memory_order_relaxed);
  switch (async::choose(/*copyIn=*/false)) {
  case async::When::Issue:
    readShared(copy);
    break;
  case async::When::Later:
    async::deferCopyOut(self, copy.id);
    break;
  case async::When::Wait:
    break; // runBoxCopy reads shared memory at the wait
  }
  pending.open[self].push_back(std::move(copy));
  if (commit) {
    pending.groups[self].push_back(std::move(pending.open[self]));
    pending.open[self].clear();
  }
}

/// The emulator's commit_smem_to_gmem_group: closes the issuing thread's
/// open bulk group (an empty one too, as cp.async.bulk.commit_group does).
MGPU_HOST_EXPORT void mgpuEmuCommitCopiesToGlobal() {
  PendingCopies &pending = getPending();
  std::lock_guard<std::mutex> lock(pending.mutex);
  const void *self = mgpu::emu::laneKey();
  pending.groups[self].push_back(std::move(pending.open[self]));
  pending.open[self].clear();
  mgpu::emu::checks::copyOutCommitted();
}

/// The emulator's wait_smem_to_gmem: lands the issuing thread's oldest bulk
/// groups until at most `keep` are pending. With `readOnly`
/// (cp.async.bulk.wait_group.read) only their reads of shared memory are
/// waited for: the oldest groups still reading read it now, until at most
/// `keep` are still reading, and write global memory at a later full wait
/// or when the thread ends, as the hardware's writes land after the kernel.
MGPU_HOST_EXPORT void mgpuEmuWaitCopiesToGlobal(int64_t keep,
                                                int64_t readOnly) {
  mgpu::emu::checks::copyOutWaited(keep);
  PendingCopies &pending = getPending();
  std::lock_guard<std::mutex> lock(pending.mutex);
  std::vector<std::vector<BoxCopy>> &groups =
      pending.groups[mgpu::emu::laneKey()];
  if (readOnly) {
    // Groups complete their reads in order: the unread ones are the newest.
    auto unread = std::find_if(
        groups.begin(), groups.end(), [](const std::vector<BoxCopy> &group) {
          return std::any_of(group.begin(), group.end(),
                             [](const BoxCopy &copy) { return !copy.read; });
        });
    int64_t reading = groups.end() - unread;
    for (; reading > keep; ++unread, --reading)
      for (BoxCopy &copy : *unread)
        readShared(copy);
    return;
  }
  while (static_cast<int64_t>(groups.size()) > keep) {
    for (const BoxCopy &copy : groups.front())
      runBoxCopy(copy);
    groups.erase(groups.begin());
  }
}

/// The timing entry points of libmgpu_cuda_runtime.so, for programs run on
/// the CPU: benchmarks (bench/programs) then run unchanged and check their
/// numbers; there are no launches to time.
MGPU_HOST_EXPORT void mgpuTimingStart() {}

MGPU_HOST_EXPORT void mgpuTimingReport(const char *label, double, double,
                                       int64_t) {
  std::printf("%s: not timed (no GPU launches on the CPU backend)\n", label);
  std::fflush(stdout);
}

} // extern "C"
