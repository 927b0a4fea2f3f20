//===- SharedMemoryBudget.cpp - Rule S25: a CTA's shared memory -----------===//
//
// The static shared memory of a CTA (staged blocks times their buffers,
// and shared scratch: buffers, barriers, TMEM address slots) against the
// chip's limit, counted in saturating byte arithmetic so that absurd shapes
// still exceed it; JAX's message.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Dialect/MGPU/TensorMemory.h"

#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::mgpu;

int64_t mlir::mgpu::addBytes(int64_t a, int64_t b, int64_t c) {
  int64_t product, sum;
  if (llvm::MulOverflow(b, c, product) || llvm::AddOverflow(a, product, sum))
    return std::numeric_limits<int64_t>::max();
  return sum;
}

int64_t mlir::mgpu::getWorkgroupScratchBytes(std::optional<ArrayAttr> scratch) {
  int64_t bytes = 0;
  if (!scratch)
    return bytes;
  for (Attribute attr : *scratch) {
    Type type = cast<TypeAttr>(attr).getValue();
    if (auto barrier = dyn_cast<BarrierLikeType>(type)) {
      bytes = addBytes(bytes, barrier.getSharedMemoryBytes());
      continue;
    }
    if (isa<TmemType>(type)) {
      bytes = addBytes(bytes, kTmemSlotBytes);
      continue;
    }
    auto memref = cast<MemRefType>(type);
    if (isWorkgroupMemRef(memref))
      bytes = addBytes(
          bytes, getBufferBytes(memref.getShape(), memref.getElementType())
                     .value_or(0));
  }
  return bytes;
}

LogicalResult
mlir::mgpu::verifySharedMemoryBudget(Operation *op, int64_t bytes,
                                     std::optional<int64_t> buffers) {
  TargetAttr target = getEffectiveTarget(op);
  std::optional<int64_t> limit = getTargetInfo(op).maxSharedMemoryBytes;
  if (bytes <= *limit)
    return success();
  InFlightDiagnostic diag =
      op->emitError() << "Mosaic GPU kernel exceeds available shared memory: "
                         "smem_bytes="
                      << bytes << " > max_smem_bytes=" << *limit;
  if (buffers)
    diag.attachNote() << "each staged block is buffered max_concurrent_steps = "
                      << *buffers << " times on " << target.getChip()
                      << "; use smaller blocks, fewer buffers or "
                         "memory_space = gmem";
  else
    diag.attachNote() << "scratch in #gpu.address_space<workgroup> is shared "
                         "memory of every CTA on "
                      << target.getChip()
                      << "; use smaller or global-memory scratch";
  return diag;
}
