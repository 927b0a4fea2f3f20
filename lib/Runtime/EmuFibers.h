//===- EmuFibers.h - The emulator's lanes as fibers (internal) --*- C++ -*-===//
//
// What HostRuntime.cpp needs from the emulator's scheduler (EmuScheduler.cpp)
// so that its waits work both on plain host threads (interpret mode) and on
// the fibers the emulator runs CUDA threads on: a wait must hand the host
// thread to the next fiber instead of spinning on it, or the fiber it waits
// for never runs.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_RUNTIME_EMUFIBERS_H
#define MGPU_RUNTIME_EMUFIBERS_H

namespace mgpu::emu {

/// Whether the caller runs on an emulator fiber.
bool inFiber();

/// Hands the host thread to the next fiber of its worker (on a fiber), or
/// to the OS scheduler (sched_yield) elsewhere.
void yieldLane();

/// Tells the lanes apart that issue bulk copies: the fiber on a fiber, the
/// host thread elsewhere (unique among the live ones).
const void *laneKey();

} // namespace mgpu::emu

#endif // MGPU_RUNTIME_EMUFIBERS_H
