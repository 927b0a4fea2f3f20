//===- EmuAsyncChecks.cpp - The emulator's checks of async operations -----===//
//
// The checks (EmuChecks.cpp's header) of what the async proxy and the
// tensor cores do to shared and tensor memory: TMA copies in (their bytes
// in flight until they land), copies out (their reads until a wait covers
// their bulk group, and at the end of the kernel), wgmma reads (until the
// wgmma_wait that completes their group), tcgen05 MMAs (their accumulator
// rows pending until a wait on the barrier of a commit that covers them),
// and a peer CTA's accesses through cluster_ref. Part of
// libmgpu_host_runtime.so.
//
//===----------------------------------------------------------------------===//

#include "EmuShadow.h"

#include <cinttypes>
#include <cstdint>

#define MGPU_HOST_EXPORT __attribute__((visibility("default")))

using namespace mgpu::emu::checks;
using namespace mgpu::emu::checks::shadow;

namespace mgpu::emu::checks {

void copyInIssued(char *shared, int64_t bytes, const char *where) {
  Lane lane = getLane();
  if (!lane.cta)
    return;
  ShadowByte *s =
      shadowOf(lane, shared, bytes, where, "copy_gmem_to_smem writes");
  if (!s)
    return;
  for (int64_t i = 0; i < bytes; ++i) {
    checkAsyncReaders(s[i], lane, where, "copy_gmem_to_smem overwrites");
    if (enabled(kAsync) && s[i].inFlight)
      report(where, "copy_gmem_to_smem writes shared memory that another "
                    "async copy in is still writing");
    if (enabled(kRaces) && !ordered(lane, s[i].reader, s[i].readClock))
      report(where,
             "data race: copy_gmem_to_smem overwrites shared memory that "
             "thread %d reads at %s with no barrier in between",
             s[i].reader - 1, orUnknown(s[i].readWhere));
    if (enabled(kRaces) && !ordered(lane, s[i].writer, s[i].writeClock))
      report(where,
             "data race: copy_gmem_to_smem overwrites shared memory that "
             "thread %d writes at %s with no barrier in between",
             s[i].writer - 1, orUnknown(s[i].writeWhere));
    s[i].inFlight = true;
    s[i].writer = uint16_t(lane.tid + 1);
    s[i].writeClock = lane.clock[lane.tid];
    s[i].writeWhere = where;
    s[i].writeFence = kAsyncWrite;
    s[i].reader = 0;
  }
}

void copyInLanded(char *shared, int64_t bytes) {
  if (!current)
    return;
  noteProgress();
  int64_t offset = shared - current->smem;
  if (offset < 0 || offset + bytes > current->total)
    return;
  for (int64_t i = 0; i < bytes; ++i) {
    ShadowByte &s = current->shadow[offset + i];
    s.inFlight = false;
    s.written = true;
  }
}

void copyOutIssued(const char *shared, int64_t bytes, bool commit,
                   const char *where) {
  Lane lane = getLane();
  if (!lane.cta)
    return;
  noteProgress();
  ShadowByte *s =
      shadowOf(lane, shared, bytes, where, "copy_smem_to_gmem reads");
  uint32_t seq = lane.cta->outCommitted[lane.tid] + 1;
  if (s)
    for (int64_t i = 0; i < bytes; ++i) {
      checkAsyncRead(s[i], lane, where, "copy_smem_to_gmem",
                     /*computes=*/false);
      s[i].outThread = uint16_t(lane.tid + 1);
      s[i].outSeq = seq;
      s[i].asyncWhere = where;
      s[i].reader = uint16_t(lane.tid + 1);
      s[i].readClock = lane.clock[lane.tid];
      s[i].readWhere = where;
    }
  lane.cta->outWhere[lane.tid] = where;
  lane.cta->outOpen[lane.tid] = !commit;
  if (commit)
    ++lane.cta->outCommitted[lane.tid];
}

void laneEnded() {
  Lane lane = getLane();
  if (!lane.cta || !enabled(kAsync))
    return;
  Cta &cta = *lane.cta;
  if (cta.outOpen[lane.tid] ||
      cta.outCommitted[lane.tid] > cta.outCompleted[lane.tid])
    report(cta.outWhere[lane.tid],
           "the kernel ends while this copy_smem_to_gmem may still read "
           "shared memory: no mgpu.wait_smem_to_gmem waits for it");
}

void copyOutCommitted() {
  Lane lane = getLane();
  if (!lane.cta)
    return;
  lane.cta->outOpen[lane.tid] = false;
  ++lane.cta->outCommitted[lane.tid];
}

void copyOutWaited(int64_t keep) {
  Lane lane = getLane();
  if (!lane.cta)
    return;
  noteProgress();
  int64_t done = int64_t(lane.cta->outCommitted[lane.tid]) - keep;
  uint32_t &completed = lane.cta->outCompleted[lane.tid];
  for (; int64_t(completed) < done; ++completed)
    lane.cta->outDone[lane.tid].push_back(lane.clock[lane.tid]);
}

} // namespace mgpu::emu::checks

extern "C" {

/// A generic load (`write` 0) or store of `bytes` at `p` in shared memory
/// by the calling lane, at `where`.
/// A load or store through a view of a peer CTA's shared memory
/// (mgpu.cluster_ref): the peer's bytes are written, or must have been;
/// races between the CTAs of a cluster are not checked (the threads' clocks
/// are per CTA).
MGPU_HOST_EXPORT void mgpuEmuCheckPeerAccess(char *p, int64_t bytes,
                                             int64_t write, const char *where) {
  Lane lane = getLane();
  if (!lane.cta)
    return;
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

/// A tcgen05 MMA issued by the calling lane writes `bytes` of tensor memory
/// at `p` (after mgpuEmuCheckAccess with kMmaWrite): the lanes' accesses
/// are hazards until a thread waits on the barrier of its commit.
MGPU_HOST_EXPORT void mgpuEmuCheckMmaWrites(char *p, int64_t bytes,
                                            const char *where) {
  Lane lane = getLane();
  if (!lane.cta || !enabled(kAsync))
    return;
  ShadowByte *s = shadowOf(lane, p, bytes, where, "tcgen05_mma writes");
  if (!s)
    return;
  for (int64_t i = 0; i < bytes; ++i) {
    s[i].mmaPending = true;
    s[i].mmaWhere = where;
  }
  lane.cta->pendingMmas[lane.tid].insert({p - current->smem, bytes});
}

/// tcgen05_commit_arrive by the calling lane on `barrier`: its MMAs so far
/// (all of them, as tcgen05.commit tracks every earlier MMA of the thread)
/// complete for the checks when a thread waits on that barrier.
MGPU_HOST_EXPORT void mgpuEmuCheckMmaCommit(int64_t *barrier) {
  Lane lane = getLane();
  if (!lane.cta || !enabled(kAsync))
    return;
  const auto &issued = lane.cta->pendingMmas[lane.tid];
  std::lock_guard<std::mutex> lock(current->mbarrierMutex);
  current->mbarriers[barrier].committedMmas.insert(issued.begin(),
                                                   issued.end());
}

/// A wgmma of the calling lane's warpgroup reads `bytes` at `p` (called by
/// the warpgroup's first lane for every operand element).
MGPU_HOST_EXPORT void mgpuEmuCheckWgmmaRead(char *p, int64_t bytes,
                                            const char *where) {
  Lane lane = getLane();
  if (!lane.cta)
    return;
  ShadowByte *s = shadowOf(lane, p, bytes, where, "wgmma reads");
  if (!s)
    return;
  int64_t group = lane.tid / 128;
  uint32_t seq = lane.cta->wgmmaCommitted[group] + 1;
  for (int64_t i = 0; i < bytes; ++i) {
    checkAsyncRead(s[i], lane, where, "wgmma", /*computes=*/true);
    s[i].wgmmaGroup = uint16_t(group + 1);
    s[i].wgmmaSeq = seq;
    s[i].asyncWhere = where;
    s[i].reader = uint16_t(lane.tid + 1);
    s[i].readClock = lane.clock[lane.tid];
    s[i].readWhere = where;
  }
}

/// wgmma commit_group / wait_group `pending` by the calling lane's
/// warpgroup (called by its first lane).
MGPU_HOST_EXPORT void mgpuEmuCheckWgmmaCommit() {
  Lane lane = getLane();
  if (lane.cta)
    ++lane.cta->wgmmaCommitted[lane.tid / 128];
}

MGPU_HOST_EXPORT void mgpuEmuCheckWgmmaWait(int64_t pending) {
  Lane lane = getLane();
  if (!lane.cta)
    return;
  int64_t group = lane.tid / 128;
  int64_t done = int64_t(lane.cta->wgmmaCommitted[group]) - pending;
  uint32_t &completed = lane.cta->wgmmaCompleted[group];
  for (; int64_t(completed) < done; ++completed)
    lane.cta->wgmmaDone[group].push_back(lane.clock[lane.tid]);
}

} // extern "C"
