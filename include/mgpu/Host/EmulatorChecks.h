//===- EmulatorChecks.h - Which hazard checks the emulator runs -*- C++ -*-===//
//
// The --check option of mgpu-run --backend=emulate and the `checks` option
// of --mgpu-emulate-gpu name the checks of lib/Runtime/EmuChecks.cpp; this
// turns the text into the mask the runtime receives (the bits of
// lib/Runtime/EmuChecks.h).
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_HOST_EMULATORCHECKS_H
#define MGPU_HOST_EMULATORCHECKS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::mgpu {

/// `all`, `none`, or a comma-separated list of `races`, `async`,
/// `barriers`, `init`, `bounds`; nullopt (and `error`) otherwise.
std::optional<int64_t> parseEmulatorChecks(llvm::StringRef spec,
                                           std::string &error);

/// The `write` argument of the runtime's mgpuEmuCheckAccess and
/// mgpuEmuCheckPeerAccess: a lane's read or write, a tcgen05 MMA's write of
/// its accumulator (pending until a wait on its commit's barrier), or an
/// async-proxy write (async_store_smem into a peer, published by its
/// barrier).
enum class CheckedAccess : int64_t {
  Read = 0,
  Write = 1,
  MmaWrite = 2,
  AsyncWrite = 3
};

} // namespace mlir::mgpu

#endif // MGPU_HOST_EMULATORCHECKS_H
