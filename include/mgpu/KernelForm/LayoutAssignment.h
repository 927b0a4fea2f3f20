//===- LayoutAssignment.h - Which lanes hold which elements -----*- C++ -*-===//
//
// The decisions the kernel form makes for the GPU backends before any code
// is distributed: which mgpu.wgmma ops run on the tensor cores, and the lane
// layout (#mgpu.layout) of every vector value of a kernel body
// (--mgpu-assign-layouts). The warpgroup distribution reads both.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_KERNELFORM_LAYOUTASSIGNMENT_H
#define MGPU_KERNELFORM_LAYOUTASSIGNMENT_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"

namespace mlir::mgpu {

/// Whether a wgmma can run on the tensor cores: f16 or bf16 a and b (a in
/// shared memory or registers), or f8 ones (e4m3, e5m2, mixed) both read
/// K-major from shared memory (b a transposed view), with an f32
/// accumulator of at most 64 KiB; other wgmma ops run on ordinary
/// instructions.
bool canRunOnTensorCores(WgmmaOp op);

/// Why `op` cannot run on the tensor cores (for a remark), or nothing when
/// it can.
std::optional<std::string> whyNotOnTensorCores(WgmmaOp op);

/// The transforms JAX's warpgroup semantics infers for a shared buffer of
/// `type` that the tensor cores read and no op lays out: the largest
/// swizzle S of 128, 64, 32 bytes that divides its rows, in tiles of 8 rows
/// of S bytes (TilingTransform((8, S / element bytes)), SwizzleTransform(S));
/// null when its rows take none (or it is not a static 2-d or higher
/// buffer of whole bytes).
ArrayAttr inferMmaTransforms(MemRefType type);

/// Whether --mgpu-select-tensor-cores chose the tensor cores for `op` (its
/// `mgpu.tensor_cores` attribute): what every later pass asks.
bool isOnTensorCores(WgmmaOp op);

/// Gives the vector values of the ops nested in `body` that have no
/// `mgpu.out_layouts` yet a lane layout (the rules of
/// --mgpu-assign-layouts).
void assignLayouts(Region &body);

/// The layout in which `use` takes its value, given the layouts of values
/// (a fragment layout, or strided if the use converts from any).
LayoutKind getUseLayout(OpOperand &use,
                        function_ref<LayoutKind(Value)> layoutOf);

/// Whether the lanes can make a vector transfer directly in the fragment
/// layouts: f32, a minor identity, in bounds, unit-stride rows.
bool canAccessInFragments(Operation *op);

} // namespace mlir::mgpu

#endif // MGPU_KERNELFORM_LAYOUTASSIGNMENT_H
