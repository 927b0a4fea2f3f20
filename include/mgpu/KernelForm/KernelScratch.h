//===- KernelScratch.h - Scratch a pass adds to a kernel --------*- C++ -*-===//
//
// Passes that need memory of their own inside a kernel (pipeline slots and
// barriers, run_scoped allocations) add it as scratch entries of the
// enclosing pallas_call or mpmd_map, counted as internal scratch so the
// rule on scratch written by the user (S5) does not see them.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_KERNELFORM_KERNELSCRATCH_H
#define MGPU_KERNELFORM_KERNELSCRATCH_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"

namespace mlir::mgpu {

/// The pallas_call or mpmd_map `op` is in, and the mesh of its region.
struct KernelRegion {
  Operation *kernel;
  MeshAttr mesh;
};

/// The kernel region around `op`, or an error at `op` outside one.
FailureOr<KernelRegion> getKernelRegion(Operation *op);

/// Appends scratch operands of `types` to `kernel` (a region argument each
/// in every region), counted as internal scratch; returns the new
/// arguments of `region`.
SmallVector<Value> addInternalScratch(Operation *kernel, ArrayRef<Type> types,
                                      Region *region);

} // namespace mlir::mgpu

#endif // MGPU_KERNELFORM_KERNELSCRATCH_H
