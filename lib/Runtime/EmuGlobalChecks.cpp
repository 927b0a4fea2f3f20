//===- EmuGlobalChecks.cpp - The emulator's checks of global memory -------===//
//
// Races between the CTAs of a launch on global memory (part of
// libmgpu_host_runtime.so). CTAs order their accesses only through
// semaphores: a signal releases what its CTA did before it, a wait acquires
// what the signals it consumed released. Judged as the hardware may run it:
// a wait that completed late acquires only the signals up to the first at
// which the count could have let it through (the earlier waits' decrements
// counted), since on the GPU it may complete right then; the signals after
// that one do not order the waiter. Each cluster keeps a vector clock
// over the clusters of the launch, each semaphore the join of the clocks
// its signals released; within a CTA the threads' clocks of the shared-
// memory checks order the accesses (a semaphore orders its signaller's
// thread before its waiter's there too); every 4-byte word of global
// memory records its last writing and reading thread and their clocks. An
// access by another CTA that the word's last conflicting one does not happen
// before is a data race, reported at the op that meets it. The CTAs of a
// cluster order themselves through cluster_sync and cluster barriers: their
// threads share the clocks of the shared-memory checks, which order them.
// Only launches that use semaphores or cluster_sync (of at most 2048
// clusters) are checked: in the others no CTA can order itself after
// another, and a grid of a million CTAs would fill the shadow. Launches that
// only signal run their groups on several host threads: the state is behind a
// lock. Accesses to a lane's own stack and atomics are not checked here.
//
//===----------------------------------------------------------------------===//

#include "EmuChecks.h"

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#define MGPU_HOST_EXPORT __attribute__((visibility("default")))

namespace {

/// The last write and read of a word: the cluster (-1: none) and its own
/// clock component then, the CTA slot, thread and its clock, and where.
struct WordAccess {
  int64_t cta = -1;
  uint32_t clock = 0;
  /// The CTA (x fastest), its slot and thread, and the thread's clock.
  int64_t block = -1, slot = -1, thread = -1;
  uint32_t threadClock = 0;
  const char *where = nullptr;
};

struct Word {
  WordAccess write, read;
};

/// A semaphore's signals in the order they happened: those that every
/// later wait acquires (joined in `base`) and those some wait may still
/// complete before (`pending`, with the running sum of the amounts). With
/// an amount or a wait value that is not positive, waits acquire every
/// signal (`all`).
struct SemaphoreClocks {
  struct Signal {
    int64_t upTo;
    std::vector<uint32_t> clock;
  };
  std::vector<uint32_t> base, all;
  std::vector<Signal> pending;
  int64_t signaled = 0, consumed = 0;
  bool exact = true;
};

struct GlobalChecks {
  /// The units that order themselves: clusters (a cluster's CTAs order
  /// their accesses through its barriers, which these checks do not
  /// follow), numbered like the CTAs' slots, x fastest.
  int64_t ctas = 0;
  int64_t grid[3] = {1, 1, 1}, cluster[3] = {1, 1, 1};
  /// ctas x ctas clocks, CTA-major.
  std::vector<uint32_t> clocks;
  std::unordered_map<const void *, SemaphoreClocks> semaphores;
  std::unordered_map<uintptr_t, Word> words;
  uint32_t *clockOf(int64_t cta) { return clocks.data() + cta * ctas; }
};

GlobalChecks *active = nullptr;

/// `into` = max(`into`, `from`), element by element, over `n` clocks.
void join(uint32_t *into, const uint32_t *from, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    into[i] = std::max(into[i], from[i]);
}
/// CTAs that only signal semaphores may run on several host threads.
std::mutex checking;

/// Launches of more clusters are not checked (their clocks would take
/// clusters^2 words).
constexpr int64_t kMaxClusters = 2048;

/// The calling lane's cluster in the active launch (-1: none), and its CTA
/// (x fastest).
int64_t currentCta(int64_t *ctaOut = nullptr) {
  int64_t block[3];
  if (!active || !mgpu::emu::currentBlock(block))
    return -1;
  int64_t unit = 0, stride = 1, cta = 0, ctaStride = 1;
  for (int d = 0; d < 3; ++d) {
    unit += (block[d] / active->cluster[d]) * stride;
    stride *= active->grid[d] / active->cluster[d];
    cta += block[d] * ctaStride;
    ctaStride *= active->grid[d];
  }
  if (ctaOut)
    *ctaOut = cta;
  return unit < active->ctas ? unit : -1;
}

const char *orUnknown(const char *where) { return where ? where : "<unknown>"; }

/// Whether `access` happens before what the calling lane of cluster `cta`
/// does now: by the clusters' clocks between clusters, by the threads'
/// clocks of the shared-memory checks within a cluster.
bool ordered(int64_t cta, const WordAccess &access) {
  if (access.cta < 0)
    return true;
  if (access.cta != cta)
    return active->clockOf(cta)[access.cta] >= access.clock;
  return mgpu::emu::checks::orderedInCluster(access.slot, access.thread,
                                             access.threadClock);
}

/// Who made `access`, seen from CTA `block` of cluster `cta`.
std::string who(int64_t cta, int64_t block, const WordAccess &access) {
  if (access.cta != cta)
    return "CTA " + std::to_string(access.block) + " (cluster " +
           std::to_string(access.cta) + ")";
  if (access.block != block)
    return "thread " + std::to_string(access.thread) + " of CTA " +
           std::to_string(access.block) + " of this cluster";
  return "thread " + std::to_string(access.thread) + " of this CTA";
}

} // namespace

void mgpu::emu::checks::globalAccess(const char *p, int64_t bytes, bool write,
                                     const char *where) {
  if (!active || onLaneStack(p))
    return;
  std::lock_guard<std::mutex> lock(checking);
  int64_t block;
  int64_t cta = currentCta(&block);
  if (cta < 0 || !enabled(kRaces))
    return;
  uint32_t now = active->clockOf(cta)[cta];
  WordAccess self{cta, now, block, -1, -1, 0, where};
  mgpu::emu::checks::laneClock(self.slot, self.thread, self.threadClock);
  uintptr_t first = reinterpret_cast<uintptr_t>(p) / 4;
  uintptr_t last = (reinterpret_cast<uintptr_t>(p) + bytes - 1) / 4;
  for (uintptr_t key = first; key <= last; ++key) {
    Word &word = active->words[key];
    if (!ordered(cta, word.write)) {
      report(where,
             "data race on global memory: %s what %s writes at %s with "
             "no semaphore or barrier between them",
             write ? "writes" : "reads", who(cta, block, word.write).c_str(),
             orUnknown(word.write.where));
    }
    if (write && !ordered(cta, word.read)) {
      report(where,
             "data race on global memory: writes what %s reads at %s "
             "with no semaphore or barrier between them",
             who(cta, block, word.read).c_str(), orUnknown(word.read.where));
    }
    (write ? word.write : word.read) = self;
  }
}

extern "C" {

/// Starts checking the global memory of a launch whose grid of CTAs
/// (`gx` x `gy` x `gz`, in clusters of `cx` x `cy` x `cz`) runs at once
/// (EmuGlobalChecks.cpp's header).
MGPU_HOST_EXPORT void mgpuEmuCheckGlobalLaunch(int64_t gx, int64_t gy,
                                               int64_t gz, int64_t cx,
                                               int64_t cy, int64_t cz) {
  delete active;
  active = nullptr;
  int64_t grid[3] = {gx, gy, gz}, cluster[3] = {cx, cy, cz};
  int64_t ctas = 1;
  for (int d = 0; d < 3; ++d) {
    if (grid[d] <= 0 || cluster[d] <= 0 || grid[d] % cluster[d])
      return;
    ctas *= grid[d] / cluster[d];
  }
  if (ctas > kMaxClusters ||
      !mgpu::emu::checks::enabled(mgpu::emu::checks::kRaces))
    return;
  active = new GlobalChecks;
  std::copy(grid, grid + 3, active->grid);
  std::copy(cluster, cluster + 3, active->cluster);
  active->ctas = ctas;
  active->clocks.assign(size_t(ctas * ctas), 0);
  for (int64_t c = 0; c < ctas; ++c)
    active->clockOf(c)[c] = 1;
}

MGPU_HOST_EXPORT void mgpuEmuCheckGlobalLaunchEnd() {
  delete active;
  active = nullptr;
}

/// A load or store of global memory by the calling lane (`write`: 1 for a
/// store).
MGPU_HOST_EXPORT void mgpuEmuCheckGlobalAccess(char *p, int64_t bytes,
                                               int64_t write,
                                               const char *where) {
  mgpu::emu::checks::globalAccess(p, bytes, write != 0, where);
}

/// A semaphore signal of `amount` by the calling lane: it releases what
/// its CTA did.
MGPU_HOST_EXPORT void mgpuEmuCheckSemaphoreSignal(int32_t *semaphore,
                                                  int32_t amount) {
  std::lock_guard<std::mutex> lock(checking);
  mgpu::emu::checks::semaphoreReleased(semaphore);
  int64_t cta = currentCta();
  if (cta < 0)
    return;
  SemaphoreClocks &sem = active->semaphores[semaphore];
  size_t n = size_t(active->ctas);
  sem.base.resize(n, 0);
  sem.all.resize(n, 0);
  uint32_t *own = active->clockOf(cta);
  join(sem.all.data(), own, active->ctas);
  sem.exact = sem.exact && amount > 0;
  sem.signaled += amount;
  sem.pending.push_back({sem.signaled, std::vector<uint32_t>(own, own + n)});
  ++own[cta];
}

/// A semaphore wait for `value` (decrementing it unless `keep`) of the
/// calling lane completed: its CTA acquires the signals up to the first
/// that let it through.
MGPU_HOST_EXPORT void mgpuEmuCheckSemaphoreWaited(int32_t *semaphore,
                                                  int32_t value, int64_t keep) {
  std::lock_guard<std::mutex> lock(checking);
  mgpu::emu::checks::semaphoreAcquired(semaphore);
  int64_t cta = currentCta();
  if (cta < 0)
    return;
  auto it = active->semaphores.find(semaphore);
  if (it == active->semaphores.end())
    return;
  SemaphoreClocks &sem = it->second;
  uint32_t *own = active->clockOf(cta);
  int64_t need = sem.consumed + value;
  sem.exact = sem.exact && value > 0;
  if (!sem.exact || need > sem.signaled) {
    // Not a count these checks follow: every signal orders the waiter.
    join(own, sem.all.data(), active->ctas);
    return;
  }
  join(own, sem.base.data(), active->ctas);
  for (const SemaphoreClocks::Signal &signal : sem.pending) {
    join(own, signal.clock.data(), active->ctas);
    if (signal.upTo >= need)
      break;
  }
  if (keep)
    return;
  sem.consumed = need;
  // Signals that every later wait needs to get through join the base.
  size_t done = 0;
  while (done < sem.pending.size() && sem.pending[done].upTo <= need)
    join(sem.base.data(), sem.pending[done++].clock.data(), active->ctas);
  sem.pending.erase(sem.pending.begin(), sem.pending.begin() + done);
}

} // extern "C"
