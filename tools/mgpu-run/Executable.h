//===- Executable.h - mgpu-run --emit-executable ----------------*- C++ -*-===//
//
// Links a lowered host program into a standalone executable (see
// Executable.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_TOOLS_MGPU_RUN_EXECUTABLE_H
#define MGPU_TOOLS_MGPU_RUN_EXECUTABLE_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::mgpu {

/// Writes to `output` an executable that runs `entry` of `module` (in the
/// LLVM dialect), linked against `libraries` found in `libraryDirs`.
/// On failure, `error` says why and no output file is left.
LogicalResult emitExecutable(ModuleOp module, StringRef entry, StringRef output,
                             ArrayRef<std::string> libraryDirs,
                             ArrayRef<std::string> libraries, unsigned optLevel,
                             std::string &error);

} // namespace mlir::mgpu

#endif // MGPU_TOOLS_MGPU_RUN_EXECUTABLE_H
