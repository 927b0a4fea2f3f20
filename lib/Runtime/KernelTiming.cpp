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
};

Timing &getTiming() {
  static Timing timing;
  return timing;
}

CUevent recordEvent(CUstream stream, const char *entryPoint) {
  const DriverApi &api = getDriver(entryPoint);
  CUevent event = nullptr;
  checkResult(api.cuEventCreate(&event, CU_EVENT_DEFAULT), "cuEventCreate",
              entryPoint);
  checkResult(api.cuEventRecord(event, stream), "cuEventRecord", entryPoint);
  return event;
}
} // namespace

void mgpu::runtime::beforeLaunch(CUstream stream) {
  Timing &timing = getTiming();
  std::lock_guard<std::mutex> lock(timing.mutex);
  if (timing.active)
    timing.pendingStart = recordEvent(stream, "mgpuLaunchKernel");
}

void mgpu::runtime::afterLaunch(CUstream stream) {
  Timing &timing = getTiming();
  std::lock_guard<std::mutex> lock(timing.mutex);
  if (!timing.active || !timing.pendingStart)
    return;
  timing.launches.emplace_back(timing.pendingStart,
                               recordEvent(stream, "mgpuLaunchKernel"));
  timing.pendingStart = nullptr;
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
