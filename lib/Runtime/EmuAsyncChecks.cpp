//===- EmuAsyncChecks.cpp - The emulator's checks of async operations -----===//
//
// The checks (EmuChecks.cpp's header) of what the async proxy and the
// tensor cores do to shared and tensor memory: TMA copies in (their bytes
// in flight until they land), copies out (their reads until a wait covers
// their bulk group, and at the end of the kernel), wgmma reads (until the
// wgmma_wait that completes their group), tcgen05 MMAs (their operand
// reads and accumulator rows, a pair's in both CTAs, pending until a wait
// on the barrier of a commit that covers them), and a peer CTA's share of
// a multicast copy. Part of
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

/// Checks that a copy in issued by `lane` may overwrite `s`: no async
/// operation still reads it, no access is unordered with the issue. A
/// multicast share (`share`) is not checked against copies in: the CTAs of
/// the group issue theirs for the same fill unordered, into disjoint bytes
/// on the GPU, into the same ones in the emulator.
static void checkCopyInOverwrite(const ShadowByte &s, const Lane &lane,
                                 const char *where, bool share) {
  checkAsyncReaders(s, lane, where, "copy_gmem_to_smem overwrites");
  if (enabled(kAsync) && !share && s.inFlight)
    report(where, "copy_gmem_to_smem writes shared memory that another "
                  "async copy in is still writing");
  checkReaders(lane, where, "copy_gmem_to_smem overwrites", s);
  if (share && s.writeFence == kAsyncWrite)
    return;
  checkOrdered(lane, where, "copy_gmem_to_smem overwrites", s, s.writer,
               s.writeClock, "writes", s.writeWhere);
}

/// Marks `bytes` at `p` (in the calling lane's CTA or, with `peers`, its
/// cluster's) as written by a tcgen05 MMA of the lane until a wait on the
/// barrier of a commit that covers it.
void markMmaWrites(char *p, int64_t bytes, const char *where, bool peers) {
  Lane lane = getLane();
  if (!lane.cluster || !enabled(kAsync))
    return;
  ShadowByte *s = shadowOf(lane, p, bytes, where, "tcgen05_mma writes", peers);
  if (!s)
    return;
  for (int64_t i = 0; i < bytes; ++i) {
    s[i].mmaPending = true;
    s[i].mmaWhere = where;
  }
  lane.cluster->pendingMmas[lane.self].insert({p - current->smem, bytes});
}

void copyInIssued(char *shared, int64_t bytes, const char *where) {
  Lane lane = getLane();
  if (!lane.cluster)
    return;
  ShadowByte *s =
      shadowOf(lane, shared, bytes, where, "copy_gmem_to_smem writes");
  if (!s)
    return;
  int64_t offset = s - current->shadow.data();
  ++lane.cluster->copiesInto[offset];
  if (!current->displaced.empty())
    std::copy(s, s + bytes, current->displaced.begin() + offset);
  for (int64_t i = 0; i < bytes; ++i) {
    checkCopyInOverwrite(s[i], lane, where, /*share=*/false);
    s[i].inFlight = true;
    s[i].writer = uint16_t(lane.self + 1);
    s[i].writeClock = lane.clock[lane.self];
    s[i].writeWhere = where;
    s[i].writeFence = kAsyncWrite;
    s[i].reader = s[i].reader2 = 0;
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
  if (!lane.cluster)
    return;
  noteProgress();
  ShadowByte *s =
      shadowOf(lane, shared, bytes, where, "copy_smem_to_gmem reads");
  uint32_t seq = lane.cluster->outCommitted[lane.self] + 1;
  if (s)
    for (int64_t i = 0; i < bytes; ++i) {
      checkAsyncRead(s[i], lane, where, "copy_smem_to_gmem",
                     /*computes=*/false);
      s[i].outThread = uint16_t(lane.self + 1);
      s[i].outSeq = seq;
      s[i].asyncWhere = where;
      noteRead(s[i], lane, where);
    }
  lane.cluster->outWhere[lane.self] = where;
  lane.cluster->outOpen[lane.self] = !commit;
  if (commit)
    ++lane.cluster->outCommitted[lane.self];
}

void laneEnded() {
  Lane lane = getLane();
  if (!lane.cluster || !enabled(kAsync))
    return;
  Cluster &cluster = *lane.cluster;
  if (cluster.outOpen[lane.self] ||
      cluster.outCommitted[lane.self] > cluster.outCompleted[lane.self])
    report(cluster.outWhere[lane.self],
           "the kernel ends while this copy_smem_to_gmem may still read "
           "shared memory: no mgpu.wait_smem_to_gmem waits for it");
}

void copyOutCommitted() {
  Lane lane = getLane();
  if (!lane.cluster)
    return;
  lane.cluster->outOpen[lane.self] = false;
  ++lane.cluster->outCommitted[lane.self];
}

void copyOutWaited(int64_t keep) {
  Lane lane = getLane();
  if (!lane.cluster)
    return;
  noteProgress();
  int64_t done = int64_t(lane.cluster->outCommitted[lane.self]) - keep;
  uint32_t &completed = lane.cluster->outCompleted[lane.self];
  for (; int64_t(completed) < done; ++completed)
    lane.cluster->outDone[lane.self].push_back(lane.clock[lane.self]);
}

} // namespace mgpu::emu::checks

extern "C" {

/// The share of a multicast copy_gmem_to_smem that the calling lane's CTA
/// loads into a peer CTA's buffer: `bytes` at `p`, issued now. The
/// emulator lands the whole window by each CTA's own copy (at the peer's
/// issue), so only the overwrite is checked here: the peer must be done
/// with the bytes of the previous fill (a cluster barrier it arrived on
/// after its last read), as on the GPU, where this CTA's TMA writes them
/// now. Where the peer's own copy of this fill was issued first, the
/// peer's threads may already read the fill in the emulator (its own copy
/// completes its barrier); on the GPU they wait for this share's bytes.
/// The share is then checked against the readers that the peer's copy
/// displaced.
MGPU_HOST_EXPORT void mgpuEmuCheckMulticastShare(char *p, int64_t bytes,
                                                 const char *where) {
  Lane lane = getLane();
  if (!lane.cluster || current->clusterCtas == 1)
    return;
  ShadowByte *s = shadowOf(lane, p, bytes, where, "copy_gmem_to_smem writes",
                           /*peers=*/true);
  if (!s)
    return;
  int64_t offset = s - current->shadow.data();
  uint32_t fill = ++lane.cluster->sharesInto[{offset, lane.rank}];
  auto own = lane.cluster->copiesInto.find(offset);
  if (own != lane.cluster->copiesInto.end() && own->second >= fill &&
      !current->displaced.empty())
    s = current->displaced.data() + offset;
  for (int64_t i = 0; i < bytes; ++i)
    checkCopyInOverwrite(s[i], lane, where, /*share=*/true);
}

/// A tcgen05 MMA issued by the calling lane writes `bytes` of tensor memory
/// at `p` (after mgpuEmuCheckAccess with kMmaWrite): the lanes' accesses
/// are hazards until a thread waits on the barrier of its commit.
MGPU_HOST_EXPORT void mgpuEmuCheckMmaWrites(char *p, int64_t bytes,
                                            const char *where) {
  markMmaWrites(p, bytes, where, /*peers=*/false);
}

/// A tcgen05 MMA issued by the calling lane reads `bytes` at `p` (an
/// operand element in this CTA's shared memory or, for a pair's MMA
/// (`peer`), in the peer's): writes to it are hazards until a thread waits
/// on the barrier of a commit that covers the MMA (mgpuEmuCheckMmaSpan).
MGPU_HOST_EXPORT void mgpuEmuCheckMmaRead(char *p, int64_t bytes, int64_t peer,
                                          const char *where) {
  Lane lane = getLane();
  if (!lane.cluster || (peer && current->clusterCtas == 1))
    return;
  ShadowByte *s = shadowOf(lane, p, bytes, where, "tcgen05_mma reads", peer);
  if (!s)
    return;
  for (int64_t i = 0; i < bytes; ++i) {
    checkAsyncRead(s[i], lane, where, "tcgen05_mma", /*computes=*/true);
    s[i].mmaReads = true;
    s[i].mmaWhere = where;
    noteRead(s[i], lane, where);
  }
}

/// The shared memory [p, p + bytes) that a tcgen05 MMA of the calling lane
/// reads (its elements checked by mgpuEmuCheckMmaRead): its next commit
/// covers it.
MGPU_HOST_EXPORT void mgpuEmuCheckMmaSpan(char *p, int64_t bytes,
                                          int64_t peer) {
  Lane lane = getLane();
  if (!lane.cluster || (peer && current->clusterCtas == 1) || !enabled(kAsync))
    return;
  int64_t offset = p - current->smem;
  if (offset < 0 || offset + bytes > current->total)
    return;
  lane.cluster->pendingMmas[lane.self].insert({offset, bytes});
}

/// tcgen05_commit_arrive by the calling lane on `barrier`: its MMAs so far
/// (all of them, as tcgen05.commit tracks every earlier MMA of the thread)
/// complete for the checks when a thread waits on that barrier.
MGPU_HOST_EXPORT void mgpuEmuCheckMmaCommit(int64_t *barrier) {
  Lane lane = getLane();
  if (!lane.cluster || !enabled(kAsync))
    return;
  const auto &issued = lane.cluster->pendingMmas[lane.self];
  std::lock_guard<std::mutex> lock(current->mbarrierMutex);
  current->mbarriers[barrier].committedMmas.insert(issued.begin(),
                                                   issued.end());
}

/// A wgmma of the calling lane's warpgroup reads `bytes` at `p` (called by
/// the warpgroup's first lane for every operand element).
MGPU_HOST_EXPORT void mgpuEmuCheckWgmmaRead(char *p, int64_t bytes,
                                            const char *where) {
  Lane lane = getLane();
  if (!lane.cluster)
    return;
  ShadowByte *s = shadowOf(lane, p, bytes, where, "wgmma reads");
  if (!s)
    return;
  int64_t group = lane.warpgroup();
  uint32_t seq = lane.cluster->wgmmaCommitted[group * kWarpsPerWarpgroup] + 1;
  for (int64_t i = 0; i < bytes; ++i) {
    checkAsyncRead(s[i], lane, where, "wgmma", /*computes=*/true);
    s[i].wgmmaGroup = uint16_t(group + 1);
    s[i].wgmmaSeq = seq;
    s[i].asyncWhere = where;
    noteRead(s[i], lane, where);
  }
}

/// The calling lane's warp: its index among the cluster's warps of
/// warpgroups (warpgroup * 4 + warp).
static int64_t warpOf(const Lane &lane) {
  int64_t group = lane.warpgroup();
  return group * kWarpsPerWarpgroup +
         (lane.self - firstThreadOf(group)) / 32 % kWarpsPerWarpgroup;
}

/// wgmma commit_group / wait_group `pending` by the calling lane's warp
/// (called by the first lane of each warp).
MGPU_HOST_EXPORT void mgpuEmuCheckWgmmaCommit() {
  Lane lane = getLane();
  if (lane.cluster)
    ++lane.cluster->wgmmaCommitted[warpOf(lane)];
}

MGPU_HOST_EXPORT void mgpuEmuCheckWgmmaWait(int64_t pending) {
  Lane lane = getLane();
  if (!lane.cluster)
    return;
  int64_t at = warpOf(lane);
  int64_t done = int64_t(lane.cluster->wgmmaCommitted[at]) - pending;
  uint32_t &completed = lane.cluster->wgmmaCompleted[at];
  for (; int64_t(completed) < done; ++completed)
    lane.cluster->wgmmaDone[at].push_back(lane.clock[lane.self]);
}

} // extern "C"
