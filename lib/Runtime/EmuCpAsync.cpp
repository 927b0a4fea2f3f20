//===- EmuCpAsync.cpp - The emulator's pre-Hopper cp.async groups ---------===//
//
// On sm_80 a copy_gmem_to_smem without a barrier is a cp.async copy group of
// the issuing Pallas thread, and wait_gmem_to_smem(n) waits until at most n
// of its groups are in flight. The emulator (part of
// libmgpu_host_runtime.so) gives each group a private one-arrival barrier
// word and queues the copy on it as HostRuntime.cpp queues a TMA copy on an
// mbarrier: the schedule lands it at its issue, at a later scheduling point
// or at the wait (EmuAsync.cpp), and the checker sees its bytes in flight
// until then. The wait lands the lane's oldest groups, as the barrier wait
// of each word.
//
//===----------------------------------------------------------------------===//

#include "EmuAsync.h"
#include "EmuFibers.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <unordered_map>

#define MGPU_HOST_EXPORT __attribute__((visibility("default")))

extern "C" {
void mgpuHostBarrierInit(int64_t *barriers, int64_t count);
void mgpuEmuCopyToShared(int64_t *barrier, int64_t arrivals, void *global,
                         void *shared, const int64_t *desc, const char *where);
void mgpuEmuBarrierWait(int64_t *barrier, int64_t parity, const char *where);
}

namespace {

/// Each lane's groups in flight, oldest first: the barrier word each one
/// arrives on. Only the lane touches its own queue; the map's lock guards
/// the map (references to its elements stay valid).
struct CpAsyncGroups {
  std::mutex mutex;
  std::unordered_map<const void *, std::deque<std::unique_ptr<int64_t>>> byLane;

  std::deque<std::unique_ptr<int64_t>> &of(const void *lane) {
    std::lock_guard<std::mutex> lock(mutex);
    return byLane[lane];
  }
};

CpAsyncGroups &getGroups() {
  static CpAsyncGroups groups;
  return groups;
}

} // namespace

void mgpu::emu::cpAsyncLaneEnded() {
  CpAsyncGroups &groups = getGroups();
  std::lock_guard<std::mutex> lock(groups.mutex);
  groups.byLane.erase(laneKey());
}

extern "C" {

/// The emulator's copy_gmem_to_smem without a barrier: a new copy group of
/// the calling lane (desc as mgpuEmuCopyToShared's).
MGPU_HOST_EXPORT void mgpuEmuCpAsyncCopy(void *global, void *shared,
                                         const int64_t *desc,
                                         const char *where) {
  auto word = std::make_unique<int64_t>(0);
  mgpuHostBarrierInit(word.get(), 1);
  mgpuEmuCopyToShared(word.get(), 1, global, shared, desc, where);
  getGroups().of(mgpu::emu::laneKey()).push_back(std::move(word));
}

/// The emulator's wait_gmem_to_smem: lands the calling lane's oldest
/// groups until at most `keep` are in flight.
MGPU_HOST_EXPORT void mgpuEmuCpAsyncWait(int64_t keep, const char *where) {
  std::deque<std::unique_ptr<int64_t>> &queue =
      getGroups().of(mgpu::emu::laneKey());
  while (static_cast<int64_t>(queue.size()) > keep) {
    std::unique_ptr<int64_t> word = std::move(queue.front());
    queue.pop_front();
    mgpuEmuBarrierWait(word.get(), 0, where);
  }
}

} // extern "C"
