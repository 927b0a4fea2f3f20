//===- PrimitivesToCPU.h - Kernel-level ops on the host ---------*- C++ -*-===//
//
// The interpret-mode (CPU) implementation of the kernel-level ops and
// semaphores, as conversion patterns: copies are synchronous (clipped to
// the array, zero-filled when read past it) and arrive on their barrier at
// once; barriers are 64-bit words in host memory driven by the host runtime
// (libmgpu_host_runtime.so), whose waits give up with a diagnostic instead
// of hanging; bulk-group waits have nothing left to wait for.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_HOST_PRIMITIVESTOCPU_H
#define MGPU_HOST_PRIMITIVESTOCPU_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::mgpu {

/// `!mgpu.barrier<count = K>` is `memref<K x i64>` on the host (and on the
/// GPU: one 64-bit word per barrier); other types are unchanged.
void populateBarrierTypeConversion(TypeConverter &converter);

/// Patterns lowering copy_gmem_to_smem, copy_smem_to_gmem, commit_smem,
/// wait_smem_to_gmem, barrier_arrive, barrier_wait (with an explicit
/// parity), semaphore_signal, semaphore_wait and atomic_store to host code.
/// With `smemLayouts`, shared buffers whose copies name transforms are
/// stored in the GPU's tiled, swizzled layout (HostSmemLayouts.cpp).
void populatePrimitivesToCPUPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     bool smemLayouts);

/// A row-major heap copy (free it with memref.dealloc) of `view`, a 2-d view
/// of a shared buffer stored in the tiled, swizzled layout `transforms`
/// (which `op` names and has verified).
Value readThroughLayout(OpBuilder &b, Operation *op, Value view,
                        ArrayAttr transforms);
/// Writes the row-major `rowMajor` into `view` in the layout `transforms`.
void writeThroughLayout(OpBuilder &b, Operation *op, Value view, Value rowMajor,
                        ArrayAttr transforms);

/// Makes the element accesses that --mgpu-propagate-transforms marked
/// (`mgpu.transforms`) in `host` go through their buffer's layout: a
/// row-major copy of the view read or written whole. Without `smemLayouts`
/// buffers are row-major and the marks are dropped.
void accessThroughLayouts(Operation *host, bool smemLayouts);

/// Marks the ops those patterns lower illegal.
void configurePrimitivesToCPULegality(ConversionTarget &target);

/// The Blackwell ops in interpret mode (Tcgen05ToCPU.cpp); a TMEM buffer is
/// a row-major host memref (populateBarrierTypeConversion says so).
void populateTcgen05ToCPUPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  bool smemLayouts);

/// The profiler's profile_event and global_timer in interpret mode
/// (ProfileToCPU.cpp), marked illegal in `target`.
void populateProfileToCPUPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  ConversionTarget &target);

/// Copies the window of `global` at element `offsets` (shape of `shared`;
/// none: the whole of `global`) to or from `shared`, clipped to `global`:
/// elements past it read as zero and are not written.
void copyWindow(OpBuilder &b, Location loc, Value global,
                ArrayRef<OpFoldResult> offsets, Value shared, bool toShared);

} // namespace mlir::mgpu

#endif // MGPU_HOST_PRIMITIVESTOCPU_H
