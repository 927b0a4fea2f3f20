//===- EmuScheduler.cpp - The emulator's CTAs on a pool, lanes as fibers --===//
//
// How --mgpu-emulate-gpu runs a grid (part of libmgpu_host_runtime.so). The
// CTAs go to a pool of host threads, one per core (MGPU_EMULATE_THREADS
// overrides), each taking the next group of CTAs that must run together (a
// cluster, or the whole grid when the kernel waits on semaphores) until none
// is left, as an SM takes the next CTA when one ends. Inside a group, every
// CUDA thread is a fiber: its own stack on the host thread of its group,
// switched to and from in user space. Fibers are needed because the lanes of
// a CTA meet at barriers, mbarriers and shuffles anywhere in structured
// control flow, so a lane must be able to stop mid-body and resume; host
// threads did that too, but one per CUDA thread cost a kernel-level switch
// at every barrier and made large grids take minutes. A fiber runs until it
// waits (the emulator's barrier helper and the runtime's waits call
// yieldLane), then the next fiber of the group runs, round robin, so every
// waiting lane lets the others progress and a deadlock still ends in the
// runtime's timeout diagnostic. Groups on different host threads only meet
// through global memory and semaphores, whose waits also yield.
//
//===----------------------------------------------------------------------===//

#include "EmuAsync.h"
#include "EmuChecks.h"
#include "EmuFibers.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sched.h>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>
#include <vector>

// MGPU_EMU_UCONTEXT picks the portable switch on x86-64 too (to test it).
#if defined(__x86_64__) && defined(__ELF__) && !defined(MGPU_EMU_UCONTEXT)
#define MGPU_EMU_ASM_SWITCH 1
#else
#include <ucontext.h>
#endif

#define MGPU_HOST_EXPORT __attribute__((visibility("default")))

namespace {

/// The lane function the emulator outlines from a kernel: its captures,
/// then the CTA's slot (its shared memory and barrier words), the thread
/// in the CTA and the CTA's block ids.
using LaneFn = void (*)(void *captures, int64_t slot, int64_t tid, int64_t bx,
                        int64_t by, int64_t bz);

/// A fiber's stack: reserved, not committed, so that deep lanes do not
/// overflow (an OpenMP thread had 4 MiB) while a shallow one costs a few
/// pages. Below it a guard page turns an overflow into a crash.
constexpr size_t kStackBytes = size_t(2) << 20;

struct Fiber;
void runFiber(Fiber *fiber);

#ifdef MGPU_EMU_ASM_SWITCH
// A switch saves the callee-saved registers of the System V ABI on the old
// stack and pops them from the new one; no signal mask is saved (the
// syscall that makes swapcontext ten times slower), nor MXCSR or the x87
// control word, which emulated kernels never change.
extern "C" void mgpu_emu_switch(void **save, void *load);
extern "C" void mgpu_emu_fiber_start();
asm(R"(
  .text
  .p2align 4
  .globl mgpu_emu_switch
  .hidden mgpu_emu_switch
  .type mgpu_emu_switch,@function
mgpu_emu_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size mgpu_emu_switch, .-mgpu_emu_switch

  .p2align 4
  .globl mgpu_emu_fiber_start
  .hidden mgpu_emu_fiber_start
  .type mgpu_emu_fiber_start,@function
mgpu_emu_fiber_start:
  movq %r12, %rdi
  callq *%r13
  ud2
  .size mgpu_emu_fiber_start, .-mgpu_emu_fiber_start
)");

struct Context {
  void *sp = nullptr;
};

void jump(Context &from, Context &to) { mgpu_emu_switch(&from.sp, to.sp); }

/// A context that starts runFiber(fiber) on the stack ending at `top`: the
/// frame mgpu_emu_switch pops (r15, r14, r13 = runFiber, r12 = fiber, rbx,
/// rbp = 0) and its return address, placed so that the call in
/// mgpu_emu_fiber_start sees a 16-byte aligned stack.
void makeContext(Context &context, char *bottom, size_t bytes, Fiber *fiber) {
  auto top = reinterpret_cast<uintptr_t>(bottom + bytes) & ~uintptr_t(15);
  auto *slots = reinterpret_cast<void **>(top - 72);
  slots[0] = nullptr;                             // r15
  slots[1] = nullptr;                             // r14
  slots[2] = reinterpret_cast<void *>(&runFiber); // r13
  slots[3] = fiber;                               // r12
  slots[4] = nullptr;                             // rbx
  slots[5] = nullptr;                             // rbp
  slots[6] = reinterpret_cast<void *>(&mgpu_emu_fiber_start);
  context.sp = slots;
}
#else
// Elsewhere the C library's contexts: slower, but the same semantics.
struct Context {
  ucontext_t uc;
};

void jump(Context &from, Context &to) { swapcontext(&from.uc, &to.uc); }

void startFromHalves(unsigned high, unsigned low) {
  runFiber(reinterpret_cast<Fiber *>((uintptr_t(high) << 32) | low));
}

void makeContext(Context &context, char *bottom, size_t bytes, Fiber *fiber) {
  getcontext(&context.uc);
  context.uc.uc_stack.ss_sp = bottom;
  context.uc.uc_stack.ss_size = bytes;
  context.uc.uc_link = nullptr;
  auto bits = reinterpret_cast<uintptr_t>(fiber);
  makecontext(&context.uc, reinterpret_cast<void (*)()>(&startFromHalves), 2,
              unsigned(bits >> 32), unsigned(bits & 0xffffffffu));
}
#endif

/// A launch as mgpuEmuRunGrid describes it.
struct Grid {
  LaneFn lane;
  void *captures;
  int64_t grid[3];
  /// The CTAs that run together, x fastest: a cluster, or the grid.
  int64_t group[3];
  int64_t groupsPer[3];
  int64_t groups;
  int64_t perCta;
  int64_t *sync;
  int64_t syncWords;
  /// The CTA slots' shared (then tensor) memory, `smemStride` bytes each.
  char *smem;
  int64_t smemStride;
  std::atomic<int64_t> next{0};
};

struct Worker;

struct Fiber {
  Context context;
  char *mapping = nullptr;
  Worker *worker = nullptr;
  size_t stagger = 0;
  int64_t slot = 0, tid = 0, block[3] = {0, 0, 0};
  bool done = false;
};

struct Worker {
  const Grid *grid = nullptr;
  Context scheduler;
  Fiber *current = nullptr;
  /// Finished fibers, whose stacks the next group reuses.
  std::vector<Fiber *> idle;
  /// The group's unfinished fibers, and the one that runs (`current`).
  std::vector<Fiber *> running;
  size_t at = 0;
  /// Fibers ever made, which staggers their stacks (see takeFiber).
  size_t made = 0;
  /// Deadlock detection (with the emulator's checks): waits that found
  /// nothing ready since the last progress, and whether the group waits on
  /// semaphores (signalled by stores the checker does not see).
  size_t idleWaits = 0;
  bool semaphores = false;

  ~Worker() {
    for (Fiber *fiber : idle) {
      munmap(fiber->mapping, kStackBytes + pageBytes());
      delete fiber;
    }
  }
  static size_t pageBytes() {
    static const size_t bytes = size_t(sysconf(_SC_PAGESIZE));
    return bytes;
  }
};

/// The worker of this host thread (none outside mgpuEmuRunGrid). Every
/// step of every waiting lane reads it, so it is initial-exec: no
/// __tls_get_addr call (6% of a large grid), at the price of 8 bytes of the
/// static TLS that the C library keeps for libraries loaded later.
__attribute__((tls_model("initial-exec"))) thread_local Worker *currentWorker =
    nullptr;

/// Switches from the current fiber straight to the next one of the group
/// (round robin), or back to the worker's loop once all have finished; a
/// finished fiber leaves the group, its place taken by the last one.
void switchFromCurrent(Worker &worker) {
  Fiber *from = worker.current;
  std::vector<Fiber *> &running = worker.running;
  if (from->done) {
    worker.idleWaits = 0;
    worker.idle.push_back(from);
    running[worker.at] = running.back();
    running.pop_back();
    if (running.empty()) {
      worker.current = nullptr;
      jump(from->context, worker.scheduler);
      return;
    }
    if (worker.at == running.size())
      worker.at = 0;
  } else if (++worker.at == running.size()) {
    worker.at = 0;
  }
  Fiber *to = running[worker.at];
  if (to == from)
    return;
  worker.current = to;
  jump(from->context, to->context);
}

void runFiber(Fiber *fiber) {
  const Grid &grid = *fiber->worker->grid;
  grid.lane(grid.captures, fiber->slot, fiber->tid, fiber->block[0],
            fiber->block[1], fiber->block[2]);
  mgpu::emu::checks::laneEnded();
  mgpu::emu::landCopiesOut(mgpu::emu::laneKey());
  mgpu::emu::async::laneEnded();
  fiber->done = true;
  switchFromCurrent(*fiber->worker);
  std::abort(); // a finished fiber is never resumed
}

Fiber *takeFiber(Worker &worker) {
  if (!worker.idle.empty()) {
    Fiber *fiber = worker.idle.back();
    worker.idle.pop_back();
    return fiber;
  }
  size_t guard = Worker::pageBytes();
  void *mapping = mmap(nullptr, kStackBytes + guard, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapping == MAP_FAILED || mprotect(mapping, guard, PROT_NONE) != 0) {
    mgpu::emu::fail(nullptr,
                    "the GPU emulator cannot map the stack of one more "
                    "CUDA thread (%s)",
                    std::strerror(errno));
  }
  auto *fiber = new Fiber;
  fiber->mapping = static_cast<char *>(mapping);
  // Stacks 2 MiB apart would have their tops in the same cache sets, and
  // the lanes of a CTA take turns on them: start each at its own cache
  // line of a 64 KiB span (7 is prime to the 1024 lines).
  fiber->stagger = (worker.made++ * 7 % 1024) * 64;
  fiber->worker = &worker;
  return fiber;
}

/// Starts a fiber for every thread of every CTA of group `g`, in slots
/// from `firstSlot`, each CTA's barrier words cleared.
void startGroup(Worker &worker, const Grid &grid, int64_t g,
                int64_t firstSlot) {
  mgpu::emu::async::startGroup(g);
  int64_t origin[3];
  for (int d = 0; d < 3; ++d) {
    origin[d] = (g % grid.groupsPer[d]) * grid.group[d];
    g /= grid.groupsPer[d];
  }
  int64_t inGroup = grid.group[0] * grid.group[1] * grid.group[2];
  for (int64_t i = 0; i < inGroup; ++i) {
    int64_t block[3], rest = i;
    bool inside = true;
    for (int d = 0; d < 3; ++d) {
      block[d] = origin[d] + rest % grid.group[d];
      rest /= grid.group[d];
      inside &= block[d] < grid.grid[d];
    }
    if (!inside)
      continue;
    int64_t slot = firstSlot + i;
    mgpu::emu::checks::startCta(slot);
    std::memset(grid.sync + slot * grid.syncWords, 0,
                size_t(grid.syncWords) * sizeof(int64_t));
    // Fresh shared memory holds what the previous CTA left, or anything:
    // poison, so that a read of bytes no one wrote gives wrong numbers.
    std::memset(grid.smem + slot * grid.smemStride,
                mgpu::emu::async::poisonByte(), size_t(grid.smemStride));
    for (int64_t tid = 0; tid < grid.perCta; ++tid) {
      Fiber *fiber = takeFiber(worker);
      fiber->slot = slot;
      fiber->tid = tid;
      std::copy(block, block + 3, fiber->block);
      fiber->done = false;
      makeContext(fiber->context, fiber->mapping + Worker::pageBytes(),
                  kStackBytes - fiber->stagger, fiber);
      worker.running.push_back(fiber);
    }
  }
}

/// Runs the started fibers round robin until all have finished.
void runFibers(Worker &worker) {
  if (worker.running.empty())
    return;
  worker.idleWaits = 0;
  worker.semaphores = false;
  worker.at = 0;
  worker.current = worker.running.front();
  jump(worker.scheduler, worker.current->context);
}

void runWorker(Grid &grid, int64_t index) {
  Worker worker;
  worker.grid = &grid;
  currentWorker = &worker;
  int64_t inGroup = grid.group[0] * grid.group[1] * grid.group[2];
  for (;;) {
    int64_t g = grid.next.fetch_add(1, std::memory_order_relaxed);
    if (g >= grid.groups)
      break;
    startGroup(worker, grid, g, index * inGroup);
    runFibers(worker);
  }
  currentWorker = nullptr;
}

int64_t getPoolThreads() {
  static const int64_t threads = [] {
    const char *text = std::getenv("MGPU_EMULATE_THREADS");
    int64_t value = text ? std::atoll(text) : 0;
    if (value <= 0)
      value = std::thread::hardware_concurrency();
    return std::max<int64_t>(value, 1);
  }();
  return threads;
}

/// How many groups of `group` CTAs a grid of `grid` CTAs has (a ragged
/// edge makes groups of its own), and per dimension in `groupsPer`.
int64_t countGroups(const int64_t grid[3], const int64_t group[3],
                    int64_t groupsPer[3]) {
  int64_t groups = 1;
  for (int d = 0; d < 3; ++d) {
    groupsPer[d] = (grid[d] + group[d] - 1) / group[d];
    groups *= groupsPer[d];
  }
  return groups;
}

} // namespace

namespace mgpu::emu {

bool inFiber() { return currentWorker && currentWorker->current; }

void yieldLane() {
  Worker *worker = currentWorker;
  if (!worker || !worker->current) {
    sched_yield();
    return;
  }
  // A scheduling point: a deferred async copy may go now.
  mgpu::emu::async::atSchedulingPoint();
  switchFromCurrent(*worker);
}

bool onLaneStack(const void *p) {
  if (!inFiber())
    return false;
  const char *bytes = static_cast<const char *>(p);
  const char *low = currentWorker->current->mapping;
  return bytes >= low && bytes < low + Worker::pageBytes() + kStackBytes;
}

bool currentBlock(int64_t block[3]) {
  if (!inFiber())
    return false;
  std::copy(currentWorker->current->block, currentWorker->current->block + 3,
            block);
  return true;
}

bool currentLane(int64_t &slot, int64_t &tid) {
  if (!inFiber())
    return false;
  slot = currentWorker->current->slot;
  tid = currentWorker->current->tid;
  return true;
}

namespace checks {

void noteProgress() {
  if (Worker *worker = currentWorker)
    worker->idleWaits = 0;
}

bool noteIdleWait() {
  Worker *worker = currentWorker;
  if (!worker || !worker->current || worker->semaphores || !enabled(kBarriers))
    return false;
  // Every lane of the group has had several turns with nothing changing.
  return ++worker->idleWaits > 4 * worker->running.size() + 64;
}

void noteSemaphoreWait() {
  if (Worker *worker = currentWorker)
    worker->semaphores = true;
}

} // namespace checks

const void *laneKey() {
  thread_local char self;
  return inFiber() ? static_cast<const void *>(currentWorker->current) : &self;
}

} // namespace mgpu::emu

extern "C" {

/// The CTA slots (shared memory and barrier words) the emulator allocates
/// for a grid of gx x gy x gz CTAs run in groups of cx x cy x cz: one group
/// per host thread of the pool that has work.
MGPU_HOST_EXPORT int64_t mgpuEmuCtaSlots(int64_t gx, int64_t gy, int64_t gz,
                                         int64_t cx, int64_t cy, int64_t cz) {
  int64_t grid[3] = {gx, gy, gz}, group[3] = {cx, cy, cz}, groupsPer[3];
  int64_t groups = countGroups(grid, group, groupsPer);
  return std::min(groups, getPoolThreads()) * cx * cy * cz;
}

/// Runs `lane` for every thread of every CTA of the grid, the CTAs in
/// groups of cx x cy x cz that run together (see the file comment); each
/// CTA's `syncWords` barrier words at `sync` are cleared before it starts.
MGPU_HOST_EXPORT void mgpuEmuRunGrid(LaneFn lane, void *captures, int64_t gx,
                                     int64_t gy, int64_t gz, int64_t cx,
                                     int64_t cy, int64_t cz, int64_t perCta,
                                     int64_t *sync, int64_t syncWords,
                                     char *smem, int64_t smemStride) {
  if (gx <= 0 || gy <= 0 || gz <= 0 || perCta <= 0)
    return;
  Grid grid;
  grid.lane = lane;
  grid.captures = captures;
  int64_t dims[3] = {gx, gy, gz}, group[3] = {cx, cy, cz};
  for (int d = 0; d < 3; ++d) {
    grid.grid[d] = dims[d];
    grid.group[d] = std::max<int64_t>(group[d], 1);
  }
  grid.groups = countGroups(grid.grid, grid.group, grid.groupsPer);
  grid.perCta = perCta;
  grid.sync = sync;
  grid.syncWords = syncWords;
  grid.smem = smem;
  grid.smemStride = smemStride;
  int64_t threads = std::min(grid.groups, getPoolThreads());
  std::vector<std::thread> pool;
  for (int64_t t = 1; t < threads; ++t)
    pool.emplace_back(runWorker, std::ref(grid), t);
  runWorker(grid, 0);
  for (std::thread &thread : pool)
    thread.join();
}

/// The emulator's spin-wait step (its barrier helper, nanosleep): the next
/// fiber runs.
MGPU_HOST_EXPORT void mgpuEmuYield() { mgpu::emu::yieldLane(); }

/// A CTA barrier of the emulated kernel opened: progress for the checks'
/// deadlock detection.
MGPU_HOST_EXPORT void mgpuEmuNoteProgress() {
  mgpu::emu::checks::noteProgress();
}

} // extern "C"
