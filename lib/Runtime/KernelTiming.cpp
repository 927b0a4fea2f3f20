//===- KernelTiming.cpp - CUDA events around launches ---------------------===//
//
// See KernelTiming.h. The C entry points are for host programs (benchmarks
// call them around a loop of kernel calls):
//
//   mgpuTimingStart()
//   mgpuTimingReport(label, flops, bytes, warmup)
//
// The report prints one line:
//   `label: median 1.234 ms over 10 launches (2 warm-up), 12.3 TFLOP/s,
//    456.7 GB/s`
// (TFLOP/s and GB/s only when flops and bytes are positive).
//
// Each launch is timed on its own (a benchmark's call copies its operands
// between launches, which a pair of events around all of them would time
// too). So that the pair brackets the kernel's execution and not the host's
// launch latency, a short spinning kernel goes ahead of the start event
// while timing: the stream is busy while the host records the start event,
// launches and records the end event (bench/bundle/peers.py keeps torch's
// stream busy the same way, with torch.cuda._sleep). Where the spinning
// kernel cannot be loaded, launches are timed without it.
//
//===----------------------------------------------------------------------===//

#include "KernelTiming.h"
#include "CudaDriver.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <mutex>
#include <vector>

#define MGPU_RUNTIME_EXPORT __attribute__((visibility("default")))

using namespace mgpu::runtime;

namespace {
struct Timing {
  std::mutex mutex;
  bool active = false;
  std::vector<std::pair<CUevent, CUevent>> launches;
  CUevent pendingStart = nullptr;
  CUevent pendingEnd = nullptr;
  // The spinning kernel, loaded at the first timed launch; unavailable
  // after a failure to load or launch it.
  CUfunction spin = nullptr;
  bool spinUnavailable = false;
};

/// Spins its one thread for `cycles` SM clock cycles.
constexpr const char *kSpinPtx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry mgpu_timing_spin(.param .u64 cycles) {
  .reg .pred %p;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [cycles];
  mov.u64 %rd2, %clock64;
SPIN:
  mov.u64 %rd3, %clock64;
  sub.s64 %rd4, %rd3, %rd2;
  setp.lt.s64 %p, %rd4, %rd1;
  @%p bra SPIN;
  ret;
}
)";
// About 100 us at an H100's or H200's clock: far more than the host needs
// to record an event, launch and record another.
constexpr uint64_t kSpinCycles = 200000;

Timing &getTiming() {
  static Timing timing;
  return timing;
}

CUevent createEvent(const char *entryPoint) {
  CUevent event = nullptr;
  checkResult(getDriver(entryPoint).cuEventCreate(&event, CU_EVENT_DEFAULT),
              "cuEventCreate", entryPoint);
  return event;
}

void recordEvent(CUevent event, CUstream stream, const char *entryPoint) {
  checkResult(getDriver(entryPoint).cuEventRecord(event, stream),
              "cuEventRecord", entryPoint);
}

/// Queues the spinning kernel on `stream`, loading it the first time; on
/// any failure, gives it up for the rest of the program.
void launchSpin(Timing &timing, CUstream stream) {
  if (timing.spinUnavailable)
    return;
  const DriverApi &api = getDriver("mgpuLaunchKernel");
  if (!timing.spin) {
    CUmodule module = nullptr;
    if (api.cuModuleLoadDataEx(&module, kSpinPtx, 0, nullptr, nullptr) !=
            CUDA_SUCCESS ||
        api.cuModuleGetFunction(&timing.spin, module, "mgpu_timing_spin") !=
            CUDA_SUCCESS) {
      timing.spinUnavailable = true;
      return;
    }
  }
  uint64_t cycles = kSpinCycles;
  void *params[] = {&cycles};
  if (api.cuLaunchKernel(timing.spin, 1, 1, 1, 1, 1, 1, 0, stream, params,
                         nullptr) != CUDA_SUCCESS)
    timing.spinUnavailable = true;
}
} // namespace

void mgpu::runtime::beforeLaunch(CUstream stream) {
  Timing &timing = getTiming();
  std::lock_guard<std::mutex> lock(timing.mutex);
  if (!timing.active)
    return;
  // Both events exist before the launch, so nothing but the launch call
  // separates their records.
  timing.pendingStart = createEvent("mgpuLaunchKernel");
  timing.pendingEnd = createEvent("mgpuLaunchKernel");
  launchSpin(timing, stream);
  recordEvent(timing.pendingStart, stream, "mgpuLaunchKernel");
}

void mgpu::runtime::afterLaunch(CUstream stream) {
  Timing &timing = getTiming();
  std::lock_guard<std::mutex> lock(timing.mutex);
  if (!timing.active || !timing.pendingStart)
    return;
  recordEvent(timing.pendingEnd, stream, "mgpuLaunchKernel");
  timing.launches.emplace_back(timing.pendingStart, timing.pendingEnd);
  timing.pendingStart = timing.pendingEnd = nullptr;
}

extern "C" MGPU_RUNTIME_EXPORT void mgpuTimingStart() {
  Timing &timing = getTiming();
  std::lock_guard<std::mutex> lock(timing.mutex);
  timing.active = true;
}

extern "C" MGPU_RUNTIME_EXPORT void mgpuTimingReport(const char *label,
                                                     double flops, double bytes,
                                                     int64_t warmup) {
  Timing &timing = getTiming();
  std::lock_guard<std::mutex> lock(timing.mutex);
  timing.active = false;
  const DriverApi &api = getDriver(__func__);
  std::vector<double> times;
  if (!api.cuEventElapsedTime)
    fatalError("%s: the CUDA driver has no cuEventElapsedTime", __func__);
  for (size_t i = 0; i < timing.launches.size(); ++i) {
    auto [start, end] = timing.launches[i];
    checkResult(api.cuEventSynchronize(end), "cuEventSynchronize", __func__);
    float ms = 0;
    checkResult(api.cuEventElapsedTime(&ms, start, end), "cuEventElapsedTime",
                __func__);
    if (static_cast<int64_t>(i) >= warmup)
      times.push_back(ms);
    api.cuEventDestroy(start);
    api.cuEventDestroy(end);
  }
  timing.launches.clear();
  if (times.empty()) {
    std::printf("%s: no launch timed (%" PRId64 " warm-up)\n", label, warmup);
    return;
  }
  std::sort(times.begin(), times.end());
  double median = times[times.size() / 2];
  if (times.size() % 2 == 0)
    median = (times[times.size() / 2 - 1] + median) / 2;
  std::printf("%s: median %.4f ms over %zu launches (%" PRId64 " warm-up)",
              label, median, times.size(), warmup);
  if (flops > 0)
    std::printf(", %.2f TFLOP/s", flops / (median * 1e-3) / 1e12);
  if (bytes > 0)
    std::printf(", %.1f GB/s", bytes / (median * 1e-3) / 1e9);
  std::printf("\n");
  std::fflush(stdout);
}
