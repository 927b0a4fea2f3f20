//===- EmuAsync.cpp - The emulator's deferred, reordered asynchrony -------===//
//
// On a GPU an async operation does its work some time between its issue and
// the wait that needs it: a TMA copy in lands, a copy out reads shared
// memory, a wgmma reads its operands and writes its accumulator. A kernel
// that releases a buffer too early is only wrong on the schedules where that
// time falls after the release. The emulator (part of
// libmgpu_host_runtime.so) therefore defers that work:
//
//  - wgmma (mgpuEmuWgmmaIssue, mgpuEmuWgmmaIssueRegisterA) computes nothing
//    when issued: each lane keeps a record of its MMA (descriptors, or b's
//    and the a values its quad traded; its accumulator registers) and gets
//    placeholders for its result registers, signalling NaNs whose payload
//    names the register. wgmma.wait_group N computes the lane's committed
//    groups older than the last N, reading shared memory then, in issue
//    order. The emulator makes every op that reads a value derived from an
//    MMA result other than by moving it (WgmmaDeferral.cpp) call
//    mgpuEmuWgmmaResolve first, which swaps completed placeholders for their
//    values and reports a register read before its wait.
//  - Copies in and copies out (HostRuntime.cpp) ask the schedule when to
//    land / to read shared memory: at issue, at a later scheduling point of
//    the group (any lane's wait, where the next lane runs), or at the wait.
//
// The schedule is per worker (the host thread a group of CTAs runs on) and
// seeded by MGPU_EMULATE_SEED xor the group's index, so a seed gives the
// same schedule whatever the host threads do (mgpu-run --emulate-seed,
// --emulate-schedules). A seeded schedule also reorders the lanes: at an
// mbarrier arrival, an async copy's issue and a wgmma wait the lane may let
// the next one run, so that a lane that frees a buffer does not always
// reach its next wait before the others (round robin alone would hide a
// release that comes before the MMAs reading the buffer complete). Without a
// seed the schedule is deterministic: copies in land at the wait, copies out
// read at their issue, MMAs complete at their wait. MGPU_EMULATE_EAGER=1
// computes MMAs when they are issued instead (the emulator before deferral), to
// show what deferral catches.
//
//===----------------------------------------------------------------------===//

#include "EmuAsync.h"
#include "EmuChecks.h"
#include "EmuFibers.h"
#include "EmuFloats.h"
#include "mgpu/Target/SmemDescriptor.h"
#include "mgpu/Target/SwizzleFormula.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#define MGPU_HOST_EXPORT __attribute__((visibility("default")))

namespace {

using namespace mgpu::emu;

//===----------------------------------------------------------------------===//
// The schedule
//===----------------------------------------------------------------------===//

struct Settings {
  bool seeded = false;
  uint64_t seed = 0;
  bool eager = false;
};

const Settings &getSettings() {
  static const Settings settings = [] {
    Settings s;
    if (const char *text = std::getenv("MGPU_EMULATE_SEED"); text && *text) {
      s.seeded = true;
      s.seed = std::strtoull(text, nullptr, 10);
    }
    const char *eager = std::getenv("MGPU_EMULATE_EAGER");
    s.eager = eager && *eager && *eager != '0';
    return s;
  }();
  return settings;
}

/// A worker's schedule: its random numbers (splitmix64) and the copies
/// deferred to one of its later scheduling points.
struct WorkerSchedule {
  uint64_t state = 0;
  struct Deferred {
    int64_t *barrier; // a copy in; null for a copy out
    const void *lane;
    uint64_t id;
  };
  std::vector<Deferred> deferred;

  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

//===----------------------------------------------------------------------===//
// Deferred MMAs
//===----------------------------------------------------------------------===//

/// Placeholders: signalling NaNs 0x7f800000 | id, id in [1, 2^22).
constexpr uint32_t kPlaceholderMask = 0xffc00000u, kPlaceholder = 0x7f800000u;
constexpr uint32_t kMaxId = 0x3fffffu;

uint32_t bitsOf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}
float fromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
uint32_t placeholderId(float f) {
  uint32_t bits = bitsOf(f);
  return (bits & kPlaceholderMask) == kPlaceholder ? bits & kMaxId : 0;
}

/// One lane's wgmma.mma_async (m64nNk16, f32 accumulator).
struct MmaRecord {
  int64_t n, descA, descB, flags, lane;
  const char *slice;
  int64_t sliceBytes;
  const char *where;
  std::vector<float> in;
  uint32_t firstId;
  /// a from registers (mgpuEmuWgmmaIssueRegisterA): the lane's rows g and
  /// g + 8 of its warp's 16, K 0..15 each; empty: a from its descriptor.
  std::vector<float> aRows;
};

/// A lane's MMAs in flight and the registers they produce (by id - 1).
struct LaneMmas {
  std::vector<MmaRecord> open;
  std::deque<std::vector<MmaRecord>> groups;
  std::vector<float> values;
  std::vector<const char *> pendingAt; // the MMA's op until it completes
};

/// A host thread's state: its schedule, and its lanes' MMAs by lane
/// (mgpu::emu::laneKey: a fiber runs on one host thread only).
struct ThreadState {
  WorkerSchedule schedule;
  std::unordered_map<const void *, LaneMmas> laneMmas;
};

/// The calling thread's state, made on first use. Every lane that ends and
/// every scheduling point look for it, so the pointer is initial-exec TLS
/// (as EmuScheduler.cpp's worker: no __tls_get_addr call) and trivial; the
/// owner, touched once per thread, frees it when the thread exits.
__attribute__((tls_model("initial-exec"))) thread_local ThreadState *fast =
    nullptr;
thread_local std::unique_ptr<ThreadState> owner;

ThreadState &getThreadState() {
  if (ThreadState *state = fast)
    return *state;
  owner = std::make_unique<ThreadState>();
  fast = owner.get();
  return *fast;
}

/// An operand's place in the CTA's slice, from its descriptor (see
/// lib/Host/WgmmaEmulation.cpp, which builds the same in IR).
struct Decoded {
  int64_t start, leading, stride;
  /// The swizzle span in bytes (0: none).
  int64_t swizzleBytes;
};

Decoded decode(int64_t desc, uint64_t sliceLow18) {
  uint64_t bits = uint64_t(desc);
  Decoded d;
  d.start = int64_t((uint64_t(mgpu::decodeDescriptorField(
                         bits, mgpu::kDescriptorStartShift)) -
                     sliceLow18) &
                    mgpu::kDescriptorAddressMask);
  d.leading = mgpu::decodeDescriptorField(bits, mgpu::kDescriptorLeadingShift);
  d.stride = mgpu::decodeDescriptorField(bits, mgpu::kDescriptorStrideShift);
  d.swizzleBytes = mgpu::wgmmaDescriptorSwizzleBytes(bits);
  return d;
}

/// The type code of an MMA's a (`b` false) or b input from its flags (see
/// mgpuEmuWgmmaIssue): 0 f16, 1 bf16, 2 e4m3, 3 e5m2, 4 tf32.
constexpr int64_t kTf32 = 4;
int64_t inputCode(int64_t flags, bool b) {
  if (flags & (1 << 7))
    return kTf32;
  int64_t code = (flags >> (b ? 5 : 3)) & 3;
  return code == 0 && (flags & 1) ? 1 : code;
}

/// The byte offset of element (row, col) (M or N, K) of a decoded operand
/// of `size`-byte elements (a core row and a K step are 16 and 32 bytes).
int64_t elementBytes(const Decoded &d, int64_t row, int64_t col, bool mnMajor,
                     int64_t size) {
  int64_t perCoreRow = 16 / size;
  if (int64_t span = d.swizzleBytes) {
    // Rows of `span` bytes: an MN-major atom holds span / size elements
    // of M or N per K row.
    int64_t perRow = span / size;
    int64_t bytes =
        mnMajor
            ? d.start + (col / 8) * d.stride + (col % 8) * span +
                  (row / perRow) * d.leading + (row % perRow) * size
            : d.start + (row / 8) * d.stride + (row % 8) * span + col * size;
    return mgpu::swizzle(mgpu::IntArith(), span, bytes) & ~(size - 1);
  }
  int64_t coreRow = mnMajor ? col : row, inRow = mnMajor ? row : col;
  return (d.start + (row / 8) * d.stride + (col / perCoreRow) * d.leading +
          (coreRow % 8) * 16 + (inRow % perCoreRow) * size) &
         ~(size - 1);
}

float readInput(const MmaRecord &r, const Decoded &d, int64_t row, int64_t col,
                bool mnMajor, int64_t code) {
  int64_t size = code == kTf32 ? 4 : code < 2 ? 2 : 1;
  int64_t at = elementBytes(d, row, col, mnMajor, size);
  if (at < 0 || at + size > r.sliceBytes)
    checks::report(r.where,
                   "wgmma reads an operand outside the CTA's shared memory");
  if (size == 4) {
    // tf32: the tensor cores ignore the 13 low mantissa bits.
    uint32_t bits;
    std::memcpy(&bits, r.slice + at, 4);
    bits &= ~uint32_t(0x1fff);
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  if (size == 1) {
    uint8_t v = uint8_t(r.slice[at]);
    return code == 2 ? e4m3ToFloat(v) : e5m2ToFloat(v);
  }
  uint16_t h;
  std::memcpy(&h, r.slice + at, 2);
  return code == 1 ? bf16ToFloat(h) : halfToFloat(h);
}

/// The value of input register `f` of an MMA of `lane`: a placeholder of an
/// MMA completed before it is replaced.
float inputValue(LaneMmas &lane, float f) {
  uint32_t id = placeholderId(f);
  if (!id || id > lane.values.size())
    return f;
  return lane.values[id - 1];
}

/// Computes `r` for its lane into `out` (n / 2 registers), reading shared
/// memory now, adding the products in k order in f32 as every backend does.
void compute(LaneMmas &lane, const MmaRecord &r, float *out) {
  uint64_t low18 = uint64_t(reinterpret_cast<uintptr_t>(r.slice)) & 0x3ffff;
  Decoded a = decode(r.descA, low18), b = decode(r.descB, low18);
  bool bMnMajor = r.flags & 2, aMnMajor = r.flags & 4;
  int64_t aCode = inputCode(r.flags, false), bCode = inputCode(r.flags, true);
  // 32 bytes of K per MMA.
  int64_t kSteps = aCode == kTf32 ? 8 : aCode < 2 ? 16 : 32;
  int64_t warp = r.lane / 32, inWarp = r.lane % 32;
  for (int64_t reg = 0; reg < r.n / 2; ++reg) {
    // The wgmma fragment layout (buildFragmentPosition).
    int64_t row = warp * 16 + inWarp / 4 + ((reg / 2) % 2) * 8;
    int64_t col = (inWarp % 4) * 2 + (reg / 4) * 8 + reg % 2;
    float acc = inputValue(lane, r.in[reg]);
    for (int64_t k = 0; k < kSteps; ++k) {
      float x = r.aRows.empty() ? readInput(r, a, row, k, aMnMajor, aCode)
                                : r.aRows[((reg / 2) % 2) * 16 + k];
      float y = readInput(r, b, col, k, bMnMajor, bCode);
      float product = x * y;
      acc = acc + product;
    }
    out[reg] = acc;
  }
}

void completeGroup(LaneMmas &lane, std::vector<MmaRecord> &group) {
  for (const MmaRecord &r : group) {
    compute(lane, r, lane.values.data() + (r.firstId - 1));
    for (int64_t reg = 0; reg < r.n / 2; ++reg)
      lane.pendingAt[r.firstId - 1 + reg] = nullptr;
  }
}

/// The calling lane's MMAs (null: it issued none).
LaneMmas *issuedMmas() {
  ThreadState *thread = fast;
  if (!thread)
    return nullptr;
  auto it = thread->laneMmas.find(laneKey());
  return it == thread->laneMmas.end() ? nullptr : &it->second;
}

} // namespace

namespace mgpu::emu::async {

void startGroup(int64_t group) {
  if (!getSettings().seeded)
    return;
  WorkerSchedule &schedule = getThreadState().schedule;
  schedule.deferred.clear();
  schedule.state = getSettings().seed ^ uint64_t(group);
  schedule.next();
}

When choose(bool copyIn) {
  if (!getSettings().seeded)
    return copyIn ? When::Wait : When::Issue;
  switch (getThreadState().schedule.next() % 3) {
  case 0:
    return When::Issue;
  case 1:
    return When::Later;
  default:
    return When::Wait;
  }
}

void deferCopyIn(int64_t *barrier) {
  getThreadState().schedule.deferred.push_back({barrier, nullptr, 0});
}

void deferCopyOut(const void *lane, uint64_t id) {
  getThreadState().schedule.deferred.push_back({nullptr, lane, id});
}

void atSchedulingPoint() {
  // Only seeded schedules defer copies to a scheduling point.
  ThreadState *state = fast;
  if (!state || state->schedule.deferred.empty())
    return;
  WorkerSchedule &schedule = state->schedule;
  if (schedule.next() % 4 != 0)
    return;
  size_t at = schedule.next() % schedule.deferred.size();
  WorkerSchedule::Deferred item = schedule.deferred[at];
  schedule.deferred[at] = schedule.deferred.back();
  schedule.deferred.pop_back();
  if (item.barrier)
    landCopyIn(item.barrier);
  else
    readCopyOut(item.lane, item.id);
}

void maybePreempt() {
  if (getSettings().seeded && inFiber() &&
      getThreadState().schedule.next() % 2 == 0)
    yieldLane();
}

void laneEnded() {
  cpAsyncLaneEnded();
  ThreadState *state = fast;
  if (state && !state->laneMmas.empty())
    state->laneMmas.erase(laneKey());
}

bool eager() { return getSettings().eager; }

unsigned char poisonByte() {
  const Settings &settings = getSettings();
  // A byte with its top bit set: negative integers, and NaN or large
  // negative floats of every width.
  return settings.seeded ? static_cast<unsigned char>(
                               0x80 | ((settings.seed * 0x9d) & 0x7f))
                         : 0xff;
}

} // namespace mgpu::emu::async

extern "C" {

/// Keeps `r` until its group is waited for (or computes it now, eagerly)
/// and makes its n / 2 registers in `regs` placeholders of its results.
static void issue(MmaRecord r, float *regs) {
  LaneMmas &state = getThreadState().laneMmas[laneKey()];
  int64_t n = r.n;
  const char *where = r.where;
  if (mgpu::emu::async::eager()) {
    compute(state, r, regs);
    return;
  }
  if (state.values.size() + n / 2 >= kMaxId) {
    if (!state.open.empty() || !state.groups.empty())
      checks::report(where, "the emulator cannot keep more wgmma registers "
                            "in flight in one thread");
    state.values.clear();
    state.pendingAt.clear();
  }
  r.firstId = uint32_t(state.values.size() + 1);
  for (int64_t reg = 0; reg < n / 2; ++reg) {
    state.values.push_back(0.0f);
    state.pendingAt.push_back(where);
    regs[reg] = fromBits(kPlaceholder | (r.firstId + uint32_t(reg)));
  }
  state.open.push_back(std::move(r));
}

/// The emulator's wgmma.mma_async for thread `lane` (0..127) of its
/// warpgroup: `regs` holds its n / 2 accumulator registers; `flags` bit 0:
/// bf16 inputs (else f16), bit 1: b N-major, bit 2: a M-major, bits 3-4
/// and 5-6: a's and b's types where they are not 16-bit (2 e4m3, 3 e5m2;
/// K 32 per MMA), bit 7: tf32 inputs (K 8 per MMA); `slice` is
/// the CTA's shared
/// memory (`sliceBytes`). The registers become placeholders of the MMA's
/// results, computed at the wait that completes its group.
MGPU_HOST_EXPORT void mgpuEmuWgmmaIssue(float *regs, int64_t n, int64_t descA,
                                        int64_t descB, int64_t flags,
                                        const char *slice, int64_t sliceBytes,
                                        int64_t lane, const char *where) {
  issue(MmaRecord{n,
                  descA,
                  descB,
                  flags,
                  lane % 128,
                  slice,
                  sliceBytes,
                  where,
                  std::vector<float>(regs, regs + n / 2),
                  0,
                  {}},
        regs);
}

/// The same with a from registers: `aRows` holds the lane's rows g and
/// g + 8 of a (32 values, K 0..15 of each, gathered from its quad's
/// fragments by the issuing code); b from `descB` as above.
MGPU_HOST_EXPORT void mgpuEmuWgmmaIssueRegisterA(
    float *regs, int64_t n, const float *aRows, int64_t descB, int64_t flags,
    const char *slice, int64_t sliceBytes, int64_t lane, const char *where) {
  issue(MmaRecord{n, 0, descB, flags, lane % 128, slice, sliceBytes, where,
                  std::vector<float>(regs, regs + n / 2), 0,
                  std::vector<float>(aRows, aRows + 32)},
        regs);
}

/// wgmma.commit_group by the calling thread.
MGPU_HOST_EXPORT void mgpuEmuWgmmaCommit() {
  if (mgpu::emu::async::eager())
    return;
  LaneMmas &state = getThreadState().laneMmas[laneKey()];
  state.groups.push_back(std::move(state.open));
  state.open.clear();
}

/// wgmma.wait_group `pending` by the calling thread: its groups but the
/// `pending` latest complete now, oldest first.
MGPU_HOST_EXPORT void mgpuEmuWgmmaWait(int64_t pending) {
  mgpu::emu::async::maybePreempt();
  LaneMmas *lane = issuedMmas();
  if (!lane)
    return;
  LaneMmas &state = *lane;
  while (int64_t(state.groups.size()) > pending) {
    completeGroup(state, state.groups.front());
    state.groups.pop_front();
  }
}

/// Before an op reads `count` f32 values derived from MMA results: the
/// placeholders of completed MMAs become their values; one of an MMA not
/// yet waited for is reported at `where` (with the checks off it reads as
/// NaN, as undefined as the GPU's register).
MGPU_HOST_EXPORT void mgpuEmuWgmmaResolve(float *values, int64_t count,
                                          const char *where) {
  LaneMmas *lane = issuedMmas();
  if (!lane)
    return;
  LaneMmas &state = *lane;
  for (int64_t i = 0; i < count; ++i) {
    uint32_t id = placeholderId(values[i]);
    if (!id || id > state.values.size())
      continue;
    if (const char *issued = state.pendingAt[id - 1]) {
      if (mgpu::emu::checks::enabled(mgpu::emu::checks::kAsync))
        checks::report(where,
                       "reads a wgmma accumulator register before the "
                       "mgpu.wgmma_wait that completes its MMA (at %s)",
                       issued);
      values[i] = fromBits(0x7fc00000u);
      continue;
    }
    values[i] = state.values[id - 1];
  }
}

} // extern "C"
