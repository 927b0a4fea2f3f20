//===- LaunchForm.h - The launches a backend lowers -------------*- C++ -*-===//
//
// The backends (--mgpu-lower-to-gpu, --mgpu-lower-to-cpu) lower mgpu.launch
// ops only: --mgpu-form-launches makes them of every pallas_call and
// mpmd_map. A kernel op still there when a backend runs is an error in the
// pipeline, which the backend reports at the op instead of skipping it.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_KERNELFORM_LAUNCHFORM_H
#define MGPU_KERNELFORM_LAUNCHFORM_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"

namespace mlir::mgpu {

/// The mgpu.launch ops nested in `root`, in walk order. Fails with an error
/// at the first pallas_call or mpmd_map (`pass` names the pass that needs
/// the launch form, `run` what makes it), or where `check` fails (it reports
/// its own error).
FailureOr<SmallVector<LaunchOp>>
collectLaunches(Operation *root, StringRef pass, StringRef run,
                function_ref<LogicalResult(Operation *)> check = nullptr);

} // namespace mlir::mgpu

#endif // MGPU_KERNELFORM_LAUNCHFORM_H
