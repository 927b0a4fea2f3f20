//===- CpAsyncOps.cpp - Pre-Hopper cp.async copies
//-------------------------===//
//
// The rules of JAX's pre-Hopper copies into shared memory: on a chip
// without TMA (sm_80) `copy_gmem_to_smem` without a barrier is a `cp.async`
// copy group of the issuing warpgroup, and `wait_gmem_to_smem(n)` waits
// until at most n groups are in flight. JAX takes both only below sm_90 and
// a barrier-less copy only of the whole warpgroup, in bounds; the messages
// are JAX's where it has one (jax-ml/jax cec06d1, cited at each), so that a
// kernel rejected there is rejected here in the same words.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::mgpu;

LogicalResult mlir::mgpu::verifyCpAsyncCopy(CopyGmemToSmemOp op) {
  // Both or neither (the custom syntax writes them together).
  if (op.getBarrier() || op.getBarrierIndex())
    return op.emitOpError() << "takes a barrier and its index together";
  // jax/_src/pallas/mosaic_gpu/primitives.py:1008-1012.
  if (!getTargetInfo(op).hasCpAsyncGroups())
    return op.emitOpError()
           << "copy_gmem_to_smem without a barrier is only supported on "
              "pre-Hopper GPUs, which use the cp.async implementation";
  // jax/experimental/mosaic/gpu/launch_context.py:1333-1337: every lane of
  // the warpgroup copies its share.
  if (op.getPredicate())
    return op.emitOpError()
           << "CP_ASYNC needs to be performed by the whole warpgroup and does "
              "not support the predicate argument";
  // jax/_src/pallas/mosaic_gpu/primitives.py:990-991.
  if (op.getCollectiveAxes())
    return op.emitOpError()
           << "Only the TMA implementation supports collective copies";
  if (op.getTransforms())
    return op.emitOpError()
           << "takes no transforms without a barrier: cp.async copies keep "
              "the buffer row-major";
  // cp.async moves 4, 8 or 16 bytes at a time; a piece never straddles two
  // rows of the window (launch_context.py:1403-1404 has the same floor).
  auto dst = cast<MemRefType>(op.getDst().getType());
  Type element = dst.getElementType();
  int64_t rowBytes =
      dst.getRank() == 0
          ? 0
          : dst.getShape().back() *
                (element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0) /
                8;
  if (rowBytes == 0 || rowBytes % 4)
    return op.emitOpError() << "CP_ASYNC requires at least 4 bytes per "
                               "transfer: the window's rows must be whole "
                               "4-byte pieces, got "
                            << dst;
  // The pieces are contiguous in global memory too.
  auto src = cast<MemRefType>(op.getSrc().getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (src.getRank() == 0 || failed(src.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1)
    return op.emitOpError() << "copies with cp.async only from a source "
                               "whose last dimension has unit stride, got "
                            << src;
  return success();
}

LogicalResult WaitGmemToSmemOp::verify() {
  // cp.async.wait_group takes a count; mgpu bounds it as the bulk groups'.
  if (failed(verifyGroupWait(*this, getPending(), 63, "copy groups")))
    return failure();
  // jax/_src/pallas/mosaic_gpu/primitives.py:1319-1322.
  if (!getTargetInfo(*this).hasCpAsyncGroups())
    return emitOpError() << "wait_gmem_to_smem is only supported on "
                            "pre-Hopper GPUs, which use cp.async for "
                            "GMEM->SMEM copies.";
  return success();
}
