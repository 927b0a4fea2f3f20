//===- ExpandScheduling.h - Persistent loops as plain loops -----*- C++ -*-===//
//
// mgpu.nd_loop and mgpu.planar_snake as scf.for and index arithmetic
// (ExpandScheduling.cpp), done by --mgpu-expand-pipelines before the
// backends split so that every backend runs the same loops.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_KERNELFORM_EXPANDSCHEDULING_H
#define MGPU_KERNELFORM_EXPANDSCHEDULING_H

#include "mlir/IR/Operation.h"

namespace mlir::mgpu {

/// Rewrites every nd_loop and planar_snake under `root`.
LogicalResult expandSchedulingOps(Operation *root);

} // namespace mlir::mgpu

#endif // MGPU_KERNELFORM_EXPANDSCHEDULING_H
