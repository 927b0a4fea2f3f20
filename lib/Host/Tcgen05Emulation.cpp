//===- Tcgen05Emulation.cpp - Tensor memory and tcgen05 on host threads ---===//
//
// See the header. TMEM buffers are row-major f32 views of the CTA's tensor
// memory region, at 512 bytes per column of their column offset; the lane
// moves are vector loads and stores of one row. An MMA runs on the lane that
// issues it (the distribution puts it under lane 0) and reads a and b
// element by element at the byte offsets of their buffers' tiled,
// swizzled layout, as TMA wrote them, summing in f32 in k order like every
// other backend (WgmmaSemantics.h). A pair's MMA (cta_group::2) runs on
// the pair's first CTA over both CTAs' operands and accumulators
// (PairOnHost.h). The checks see the MMA as the GPU runs it: its reads of
// shared memory and its writes of tensor memory, in both CTAs of a pair,
// stay pending until a thread waits on the barrier of a commit covering
// it.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Host/Tcgen05Emulation.h"
#include "ClusterMemory.h"
#include "HostMmaLoops.h"
#include "PairOnHost.h"
#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Host/EmulatorChecks.h"
#include "mgpu/Host/HostRuntimeCalls.h"
#include "mgpu/KernelForm/IndexArithmetic.h"
#include "mgpu/Target/SwizzleFormula.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::mgpu;

static constexpr int64_t kColumnBytes = 128 * 4;

int64_t mlir::mgpu::getEmulatedTmemBytes(Operation *launch) {
  int64_t columns = 0;
  launch->walk([&](TmemRefOp ref) {
    columns = std::max(columns, static_cast<int64_t>(ref.getColumnOffset()) +
                                    ref.getType().getColumns());
  });
  return columns * kColumnBytes;
}

void mlir::mgpu::replaceTcgen05Commits(Operation *launch) {
  launch->walk([](Tcgen05CommitArriveOp commit) {
    // A pair's commit arrives in both CTAs (emulatePairCommit).
    if (commit.getCollectiveAxis())
      return;
    OpBuilder b(commit);
    auto arrive = BarrierArriveOp::create(
        b, commit.getLoc(), commit.getBarrier(), commit.getIndex());
    arrive->setAttr(kCommitsMmasAttrName, b.getUnitAttr());
    commit.erase();
  });
}

bool mlir::mgpu::isEmulatedTcgen05Op(Operation *op) {
  return isa<TmemAllocOp, TmemDeallocOp, TmemRefOp, TmemSliceOp, Tcgen05MmaOp,
             TmemLaneLoadOp, TmemLaneStoreOp, WaitLoadTmemOp>(op);
}

/// The host buffer of a TMEM value (the view a tmem_ref became).
static Value getStorage(Value tmem) {
  auto cast = tmem.getDefiningOp<UnrealizedConversionCastOp>();
  return cast ? cast.getInputs()[0] : Value();
}

namespace {
/// Element reads of a tiled, swizzled operand.
struct SwizzledReader {
  TiledOperand tiled;
  Value flat;
  /// Where the view starts in its buffer (index values).
  Value row0, col0;

  /// The index in `flat` of element (`row`, `col`) of the buffer, relative
  /// to the view's origin.
  Value at(OpBuilder &b, Location loc, Value row, Value col) const {
    const SwizzledTiling &t = tiled.tiling;
    auto add = [&](Value x, Value y) -> Value {
      return arith::AddIOp::create(b, loc, x, y);
    };
    Value bytes = ::mgpu::swizzledByteOffset(IndexArith{b, loc}, t.rows, t.cols,
                                             t.elementBytes, tiled.width,
                                             add(row, row0), add(col, col0));
    return arith::DivUIOp::create(b, loc, bytes,
                                  indexConstant(b, loc, t.elementBytes));
  }

  Value load(OpBuilder &b, Location loc, Value row, Value col) const {
    return memref::LoadOp::create(b, loc, flat,
                                  ValueRange{at(b, loc, row, col)});
  }
};
} // namespace

/// A reader of `operand` of `op` (a or b) through a flat view of its whole
/// buffer.
static FailureOr<SwizzledReader> getReader(OpBuilder &b, Tcgen05MmaOp op,
                                           StringRef name, Value operand,
                                           ArrayAttr transforms) {
  FailureOr<TiledOperand> tiled =
      getTiledOperand(op, name, operand.getType(), transforms,
                      /*dynamicOffsets=*/true);
  if (failed(tiled))
    return failure();
  auto type = cast<MemRefType>(operand.getType());
  Location loc = op.getLoc();
  auto [row0, col0] = buildTiledOperandStart(b, loc, operand, *tiled);
  // The buffer's tile rows up to the view's end.
  int64_t viewRows =
      tiled->transposed ? type.getDimSize(1) : type.getDimSize(0);
  int64_t tileRows = tiled->tiling.rows;
  Value rows = arith::MulIOp::create(
      b, loc,
      arith::DivUIOp::create(
          b, loc,
          arith::AddIOp::create(b, loc, row0,
                                indexConstant(b, loc, viewRows + tileRows - 1)),
          indexConstant(b, loc, tileRows)),
      indexConstant(b, loc, tileRows));
  Value elements =
      arith::MulIOp::create(b, loc, rows, indexConstant(b, loc, tiled->width));
  Value flat = memref::ReinterpretCastOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, type.getElementType()),
      operand, OpFoldResult(b.getIndexAttr(0)),
      ArrayRef<OpFoldResult>{elements},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  return SwizzledReader{*tiled, flat, row0, col0};
}

/// The checks of an MMA's reads of the operand `reader` (`rows` x `cols`
/// elements as the MMA indexes them; b's transposed view is read
/// column-first, as the MMA loads it), in the peer CTA's shared memory with
/// `peer`: every element, then the tile rows that hold them, which the
/// MMA's next commit covers.
static void emitMmaReadChecks(OpBuilder &b, Operation *op,
                              const SwizzledReader &reader, int64_t rows,
                              int64_t cols, bool transposedB, bool peer) {
  Location loc = op->getLoc();
  Value where = getLocationString(b, op);
  int64_t elementBytes = reader.tiled.tiling.elementBytes;
  scf::buildLoopNest(
      b, loc, {indexConstant(b, loc, 0), indexConstant(b, loc, 0)},
      {indexConstant(b, loc, rows), indexConstant(b, loc, cols)},
      {indexConstant(b, loc, 1), indexConstant(b, loc, 1)},
      [&](OpBuilder &nb, Location l, ValueRange ivs) {
        Value at = transposedB ? reader.at(nb, l, ivs[1], ivs[0])
                               : reader.at(nb, l, ivs[0], ivs[1]);
        callHostRuntime(nb, op, "mgpuEmuCheckMmaRead",
                        {getElementPointer(nb, l, reader.flat, ValueRange{at}),
                         getI64(nb, l, elementBytes), getI64(nb, l, peer),
                         where});
      });
  // The whole tile rows from the view's first one to the end of `flat`.
  const SwizzledTiling &t = reader.tiled.tiling;
  Value firstRow = arith::MulIOp::create(
      b, loc,
      arith::DivUIOp::create(b, loc, reader.row0,
                             indexConstant(b, loc, t.rows)),
      indexConstant(b, loc, t.rows));
  Value first = arith::MulIOp::create(
      b, loc, firstRow, indexConstant(b, loc, reader.tiled.width));
  Value elements = memref::DimOp::create(b, loc, reader.flat, 0);
  Value bytes = arith::MulIOp::create(
      b, loc, arith::SubIOp::create(b, loc, elements, first),
      indexConstant(b, loc, elementBytes));
  callHostRuntime(b, op, "mgpuEmuCheckMmaSpan",
                  {getElementPointer(b, loc, reader.flat, ValueRange{first}),
                   arith::IndexCastOp::create(b, loc, b.getI64Type(), bytes),
                   getI64(b, loc, peer)});
}

/// A pair's MMA (on lane 0 of the pair's first CTA): both CTAs'
/// accumulators, from both CTAs' operands, `peerBytes` apart.
static LogicalResult emulatePairMma(OpBuilder &b, Tcgen05MmaOp op, Value acc,
                                    Value peerBytes, bool check) {
  Location loc = op.getLoc();
  Value accPeer = viewInPeer(b, loc, acc, peerBytes);
  // The peer's rows, written by this CTA's thread: pending, as this CTA's
  // own rows, until a wait on a barrier of a commit covering the MMA.
  if (check && accPeer) {
    TmemType type = op.getAcc().getType();
    Value where = getLocationString(b, op);
    scf::buildLoopNest(
        b, loc, indexConstant(b, loc, 0), indexConstant(b, loc, type.getRows()),
        indexConstant(b, loc, 1),
        [&](OpBuilder &nb, Location l, ValueRange ivs) {
          callHostRuntime(
              nb, op, "mgpuEmuCheckPeerMmaWrite",
              {getElementPointer(nb, l, accPeer,
                                 ValueRange{ivs[0], indexConstant(nb, l, 0)}),
               getI64(nb, l, type.getShape()[1] * 4), where});
        });
  }
  Value aPeer = viewInPeer(b, loc, op.getA(), peerBytes);
  Value bPeer = viewInPeer(b, loc, op.getB(), peerBytes);
  if (!accPeer || !aPeer || !bPeer)
    return op.emitOpError() << "cannot be emulated: its operands are not "
                               "views of shared memory";
  FailureOr<SwizzledReader> readers[2][2] = {
      {getReader(b, op, "a", op.getA(), op.getATransformsAttr()),
       getReader(b, op, "a", aPeer, op.getATransformsAttr())},
      {getReader(b, op, "b", op.getB(), op.getBTransformsAttr()),
       getReader(b, op, "b", bPeer, op.getBTransformsAttr())}};
  for (auto &operand : readers)
    for (FailureOr<SwizzledReader> &reader : operand)
      if (failed(reader))
        return failure();
  if (check) {
    TmemType accType = op.getAcc().getType();
    int64_t k = cast<MemRefType>(op.getA().getType()).getDimSize(1);
    for (bool peer : {false, true}) {
      emitMmaReadChecks(b, op, *readers[0][peer], accType.getRows(), k,
                        /*transposedB=*/false, peer);
      emitMmaReadChecks(b, op, *readers[1][peer], k, accType.getColumns() / 2,
                        readers[1][peer]->tiled.transposed, peer);
    }
  }
  buildPairMma(
      b, op, acc, accPeer,
      [&](OpBuilder &nb, Location l, bool peer, Value row, Value col) {
        return readers[0][peer]->load(nb, l, row, col);
      },
      [&](OpBuilder &nb, Location l, bool peer, Value row, Value col) {
        const SwizzledReader &reader = *readers[1][peer];
        return reader.tiled.transposed ? reader.load(nb, l, col, row)
                                       : reader.load(nb, l, row, col);
      });
  return success();
}

static LogicalResult emulateMma(OpBuilder &b, Tcgen05MmaOp op, Value peerBytes,
                                bool check) {
  Location loc = op.getLoc();
  Value acc = getStorage(op.getAcc());
  if (!acc)
    return op.emitOpError() << "cannot be emulated: its accumulator is not "
                               "a TMEM scratch buffer of the launch";
  if (op.getCollectiveAxis())
    return emulatePairMma(b, op, acc, peerBytes, check);
  // a in TMEM is its row-major host view; in shared memory, swizzled.
  Value aTmem;
  FailureOr<SwizzledReader> a = SwizzledReader();
  if (isa<TmemType>(op.getA().getType())) {
    aTmem = getStorage(op.getA());
    if (!aTmem)
      return op.emitOpError() << "cannot be emulated: its a is not a TMEM "
                                 "scratch buffer of the launch";
  } else {
    a = getReader(b, op, "a", op.getA(), op.getATransformsAttr());
  }
  FailureOr<SwizzledReader> bReader =
      getReader(b, op, "b", op.getB(), op.getBTransformsAttr());
  if (failed(a) || failed(bReader))
    return failure();
  TmemType accType = op.getAcc().getType();
  int64_t k = cast<MemRefType>(op.getB().getType()).getDimSize(0);
  if (check) {
    if (!aTmem)
      emitMmaReadChecks(b, op, *a, accType.getRows(), k,
                        /*transposedB=*/false, /*peer=*/false);
    emitMmaReadChecks(b, op, *bReader, k, accType.getColumns(),
                      bReader->tiled.transposed, /*peer=*/false);
  }
  Value accumulate = op.getAccumulate()
                         ? op.getAccumulate()
                         : Value(arith::ConstantIntOp::create(b, loc, 1, 1));
  buildHostMmaLoops(
      b, loc, accumulate, acc, /*column=*/0, accType.getRows(),
      accType.getColumns(), k,
      [&](OpBuilder &nb, Location l, Value row, Value col) {
        return aTmem
                   ? memref::LoadOp::create(nb, l, aTmem, ValueRange{row, col})
                         .getResult()
                   : a->load(nb, l, row, col);
      },
      [&](OpBuilder &nb, Location l, Value row, Value col) {
        return bReader->tiled.transposed ? bReader->load(nb, l, col, row)
                                         : bReader->load(nb, l, row, col);
      });
  return success();
}

/// How a TMEM access is checked: a lane's read or write, or an MMA's write
/// of its accumulator, which then stays pending until a thread waits on its
/// commit's barrier.
using TmemAccess = CheckedAccess;

/// Checks an access of `bytes` at element (`row`, `col`) of `storage` (a
/// host TMEM buffer) by the calling lane.
static void checkTmemAccess(OpBuilder &b, Operation *op, Value storage,
                            Value row, Value col, int64_t bytes,
                            TmemAccess access) {
  Location loc = op->getLoc();
  Value pointer = getElementPointer(b, loc, storage, ValueRange{row, col});
  Value where = getLocationString(b, op);
  callHostRuntime(b, op, "mgpuEmuCheckAccess",
                  {pointer, getI64(b, loc, bytes),
                   getI64(b, loc, static_cast<int64_t>(access)), where});
  if (access == TmemAccess::MmaWrite)
    callHostRuntime(b, op, "mgpuEmuCheckMmaWrites",
                    {pointer, getI64(b, loc, bytes), where});
}

/// Checks the rows of `storage` (`columns` elements of `elementBytes`
/// each) as one access per row.
static void checkTmemRows(OpBuilder &b, Operation *op, Value storage,
                          int64_t rows, int64_t columns, int64_t elementBytes,
                          TmemAccess access) {
  Location loc = op->getLoc();
  scf::buildLoopNest(
      b, loc, indexConstant(b, loc, 0), indexConstant(b, loc, rows),
      indexConstant(b, loc, 1), [&](OpBuilder &nb, Location, ValueRange ivs) {
        checkTmemAccess(nb, op, storage, ivs[0], indexConstant(nb, loc, 0),
                        columns * elementBytes, access);
      });
}

LogicalResult mlir::mgpu::emulateTcgen05Op(OpBuilder &b, Operation *op,
                                           Value smem, Value tmemBase,
                                           Value peerBytes, bool check) {
  Location loc = op->getLoc();
  if (auto ref = dyn_cast<TmemRefOp>(op)) {
    Value shift = arith::AddIOp::create(
        b, loc, tmemBase,
        indexConstant(b, loc, ref.getColumnOffset() * kColumnBytes));
    Value view = memref::ViewOp::create(b, loc, ref.getType().getMemRefType(),
                                        smem, shift, ValueRange());
    view =
        memref::CastOp::create(b, loc, ref.getType().getHostMemRefType(), view);
    ref.getResult().replaceAllUsesWith(
        UnrealizedConversionCastOp::create(b, loc, ref.getType(), view)
            .getResult(0));
    return success();
  }
  if (auto slice = dyn_cast<TmemSliceOp>(op)) {
    Value storage = getStorage(slice.getSrc());
    if (!storage)
      return op->emitOpError() << "cannot be emulated: its buffer is not a "
                                  "TMEM scratch buffer of the launch";
    ArrayRef<int64_t> shape = slice.getType().getShape();
    Value columns = memref::SubViewOp::create(
        b, loc, storage,
        ArrayRef<OpFoldResult>{b.getIndexAttr(0), slice.getColumn()},
        ArrayRef<OpFoldResult>{b.getIndexAttr(shape[0]),
                               b.getIndexAttr(shape[1])},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
    slice.getResult().replaceAllUsesWith(
        UnrealizedConversionCastOp::create(b, loc, slice.getType(), columns)
            .getResult(0));
    return success();
  }
  if (auto mma = dyn_cast<Tcgen05MmaOp>(op)) {
    // This CTA's accumulator written (asynchronously: pending until its
    // commit's barrier is waited for), a in TMEM read.
    if (check) {
      TmemType acc = mma.getAcc().getType();
      if (Value storage = getStorage(mma.getAcc()))
        checkTmemRows(b, op, storage, acc.getRows(), acc.getShape()[1], 4,
                      TmemAccess::MmaWrite);
      if (auto a = dyn_cast<TmemType>(mma.getA().getType()))
        if (Value storage = getStorage(mma.getA()))
          checkTmemRows(b, op, storage, a.getRows(), a.getShape()[1],
                        a.getElementType().getIntOrFloatBitWidth() / 8,
                        TmemAccess::Read);
    }
    return emulateMma(b, mma, peerBytes, check);
  }
  auto rowOf = [&](Value tmem, Value row,
                   int64_t column = 0) -> FailureOr<SmallVector<Value>> {
    Value storage = getStorage(tmem);
    if (!storage)
      return op->emitOpError() << "cannot be emulated: its buffer is not a "
                                  "TMEM scratch buffer of the launch";
    return SmallVector<Value>{storage, row, indexConstant(b, loc, column)};
  };
  if (auto load = dyn_cast<TmemLaneLoadOp>(op)) {
    FailureOr<SmallVector<Value>> at =
        rowOf(load.getSrc(), load.getRow(), load.getColumn());
    if (failed(at))
      return failure();
    if (check)
      checkTmemAccess(b, op, (*at)[0], (*at)[1], (*at)[2],
                      load.getType().getNumElements() *
                          load.getType().getElementTypeBitWidth() / 8,
                      TmemAccess::Read);
    load.getResult().replaceAllUsesWith(
        vector::LoadOp::create(b, loc, load.getType(), (*at)[0],
                               ValueRange{(*at)[1], (*at)[2]})
            .getResult());
    return success();
  }
  if (auto store = dyn_cast<TmemLaneStoreOp>(op)) {
    FailureOr<SmallVector<Value>> at = rowOf(store.getDst(), store.getRow());
    if (failed(at))
      return failure();
    if (check) {
      VectorType type = store.getValue().getType();
      checkTmemAccess(b, op, (*at)[0], (*at)[1], (*at)[2],
                      type.getNumElements() * type.getElementTypeBitWidth() / 8,
                      TmemAccess::Write);
    }
    vector::StoreOp::create(b, loc, store.getValue(), (*at)[0],
                            ValueRange{(*at)[1], (*at)[2]});
    return success();
  }
  // tmem_alloc, tmem_dealloc: the region is the CTA's for the whole launch;
  // wait_load_tmem: the loads were done when issued.
  return success();
}
