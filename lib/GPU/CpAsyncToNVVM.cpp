//===- CpAsyncToNVVM.cpp - Pre-Hopper cp.async copies on the GPU ----------===//
//
// On a chip without TMA (sm_80) JAX copies a block into shared memory
// without a barrier with cp.async: every lane of the warpgroup copies
// pieces of up to 16 bytes straight from global into shared memory (no
// registers), the lanes taking consecutive pieces so that each warp's
// accesses are coalesced, and commits them as one copy group;
// wait_gmem_to_smem(n) is cp.async.wait_group n. Each lane waits only for
// its own pieces: the warpgroup barrier that the distribution places after
// the wait makes all of them visible to every lane. The pieces are as wide
// as the window's rows allow (16 bytes skip L1, `.cg`; 8 and 4 go through
// it, `.ca`) and never straddle two rows; the verifier asks for rows of
// whole 4-byte pieces, contiguous in global memory, and the window to lie
// inside the array (cp.async does not check bounds).
//
//===----------------------------------------------------------------------===//

#include "CpAsyncToNVVM.h"
#include "NVVMLowering.h"
#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/KernelForm/IndexArithmetic.h"
#include "mgpu/Target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// Global memory's address space (shared memory's is sharedPointer's default).
constexpr unsigned kGlobalSpace = 1;

struct WaitGmemToSmemToNVVM : public OpConversionPattern<WaitGmemToSmemOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WaitGmemToSmemOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncWaitGroupOp::create(
        rewriter, op.getLoc(),
        rewriter.getI32IntegerAttr(static_cast<int32_t>(op.getPending())));
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::mgpu::copyWithCpAsync(OpBuilder &b, Location loc,
                                 const GlobalWindow &window, Value shared) {
  auto sharedType = cast<MemRefType>(shared.getType());
  ArrayRef<int64_t> shape = sharedType.getShape();
  int64_t elementBytes = sharedType.getElementTypeBitWidth() / 8;
  int64_t rowBytes = shape.back() * elementBytes;
  int64_t pieceBytes = rowBytes % 16 == 0 ? 16 : rowBytes % 8 == 0 ? 8 : 4;
  int64_t pieceElements = pieceBytes / elementBytes;
  int64_t pieces = sharedType.getNumElements() / pieceElements;

  // Lane l copies pieces l, l + 128, ...: a warp's 32 pieces in a row.
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value lane = arith::RemUIOp::create(b, loc, tid,
                                      indexConstant(b, loc, kWarpgroupLanes));
  auto loop = scf::ForOp::create(b, loc, lane, indexConstant(b, loc, pieces),
                                 indexConstant(b, loc, kWarpgroupLanes));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value first = arith::MulIOp::create(b, loc, loop.getInductionVar(),
                                        indexConstant(b, loc, pieceElements));
    SmallVector<Value> local = delinearize(b, loc, first, shape);
    auto metadata =
        memref::ExtractStridedMetadataOp::create(b, loc, window.base);
    Value element = indexConstant(b, loc, 0);
    for (auto [d, g] : llvm::enumerate(window.baseIndices(b, loc, local))) {
      element = arith::AddIOp::create(
          b, loc, element,
          arith::MulIOp::create(b, loc, g, metadata.getStrides()[d]));
    }
    Value src = nvvm_lowering::sharedPointer(b, loc, window.base, element,
                                             kGlobalSpace);
    Value dst = nvvm_lowering::sharedPointer(b, loc, shared, first);
    NVVM::CpAsyncOp::create(b, loc, dst, src, pieceBytes,
                            pieceBytes == 16 ? NVVM::LoadCacheModifierKind::CG
                                             : NVVM::LoadCacheModifierKind::CA,
                            Value());
  }
  NVVM::CpAsyncCommitGroupOp::create(b, loc);
}

void mlir::mgpu::populateCpAsyncToNVVMPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<WaitGmemToSmemToNVVM>(converter, patterns.getContext());
}
