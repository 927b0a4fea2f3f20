//===- PairOnHost.cpp - Blackwell's 2-CTA MMAs on the host ----------------===//
//
// See the header. On the GPU a pair's MMA is issued by the first CTA and
// read and written in both; its partitioned copies complete on the first
// CTA's barrier; its commit arrives in both CTAs. On the host the first
// CTA does all of it when it issues each op, reaching the peer's buffers
// through views of the shared host buffer: its copy brings both CTAs'
// parts before its one arrival, so a wait on its barrier covers what the
// MMA reads, as the GPU's byte count has it.
//
//===----------------------------------------------------------------------===//

#include "PairOnHost.h"
#include "ClusterMemory.h"
#include "HostMmaLoops.h"

#include "mgpu/Host/EmulatePrimitives.h"
#include "mgpu/Host/HostRuntimeCalls.h"
#include "mgpu/Host/PrimitivesToCPU.h"
#include "mgpu/KernelForm/IfThen.h"
#include "mgpu/KernelForm/IndexArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::mgpu;

void mlir::mgpu::buildPairMma(OpBuilder &b, Tcgen05MmaOp op, Value accSelf,
                              Value accPeer, PairOperandLoad loadA,
                              PairOperandLoad loadB) {
  Location loc = op.getLoc();
  TmemType accType = op.getAcc().getType();
  int64_t rows = accType.getRows(), n = accType.getColumns() / 2;
  int64_t k = cast<MemRefType>(op.getA().getType()).getDimSize(1);
  Value accumulate = op.getAccumulate()
                         ? op.getAccumulate()
                         : Value(arith::ConstantIntOp::create(b, loc, 1, 1));
  // Accumulator p's columns [half * n, half * n + n) take b of CTA `half`.
  for (bool peer : {false, true})
    for (bool half : {false, true})
      buildHostMmaLoops(
          b, loc, accumulate, peer ? accPeer : accSelf, half * n, rows, n, k,
          [&](OpBuilder &nb, Location l, Value row, Value col) {
            return loadA(nb, l, peer, row, col);
          },
          [&](OpBuilder &nb, Location l, Value row, Value col) {
            return loadB(nb, l, half, row, col);
          });
}

/// The host storage that a cast bound a TMEM buffer or barrier array to.
static Value castInput(Value value) {
  auto cast = value.getDefiningOp<UnrealizedConversionCastOp>();
  return cast ? cast.getInputs().front() : Value();
}

/// The host storage of a TMEM buffer in interpret mode, before the
/// conversion: its cast's input, or a slice's subview of its buffer's.
static Value hostTmem(OpBuilder &b, Value tmem) {
  auto slice = tmem.getDefiningOp<TmemSliceOp>();
  if (!slice)
    return castInput(tmem);
  Value storage = hostTmem(b, slice.getSrc());
  if (!storage)
    return Value();
  ArrayRef<int64_t> shape = slice.getType().getShape();
  return memref::SubViewOp::create(
      b, slice.getLoc(), storage,
      ArrayRef<OpFoldResult>{b.getIndexAttr(0), slice.getColumn()},
      ArrayRef<OpFoldResult>{b.getIndexAttr(shape[0]),
                             b.getIndexAttr(shape[1])},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
}

/// The partitioned copy: part 1 of the window into the peer's buffer, then
/// part 0 into this CTA's as a plain copy (the pattern's copy and arrival).
static LogicalResult lowerPartitionedCopy(OpBuilder &b, CopyGmemToSmemOp copy,
                                          Value peerBytes, bool smemLayouts) {
  Location loc = copy.getLoc();
  Value peerDst = viewInPeer(b, loc, copy.getDst(), peerBytes);
  if (!peerDst)
    return copy.emitOpError() << "cannot run in interpret mode: its buffer "
                                 "is not a view of the CTA's shared scratch";
  auto dst = cast<MemRefType>(copy.getDst().getType());
  int64_t dim = *copy.getPartitioned();
  SmallVector<OpFoldResult> offsets = copy.getMixedOffsets();
  if (offsets.empty())
    offsets.assign(dst.getRank(), b.getIndexAttr(0));
  auto partAt = [&](int64_t part) {
    SmallVector<Value> at = getValueOrCreateConstantIndexOp(b, loc, offsets);
    at[dim] = arith::AddIOp::create(
        b, loc, at[dim], indexConstant(b, loc, part * dst.getDimSize(dim)));
    return at;
  };
  SmallVector<Value> peerAt = partAt(1);
  if (ArrayAttr transforms = smemLayouts ? copy.getTransformsAttr() : nullptr) {
    Value rowMajor = memref::AllocOp::create(
        b, loc, MemRefType::get(dst.getShape(), dst.getElementType()));
    copyWindow(b, loc, copy.getSrc(), getAsOpFoldResult(peerAt), rowMajor,
               /*toShared=*/true);
    writeThroughLayout(b, copy, peerDst, rowMajor, transforms);
    memref::DeallocOp::create(b, loc, rowMajor);
  } else {
    copyWindow(b, loc, copy.getSrc(), getAsOpFoldResult(peerAt), peerDst,
               /*toShared=*/true);
  }
  SmallVector<Value> ownAt = partAt(0);
  CopyGmemToSmemOp::create(
      b, loc, copy.getSrc(), ownAt,
      SmallVector<int64_t>(ownAt.size(), ShapedType::kDynamic), copy.getDst(),
      copy.getBarrier(), copy.getBarrierIndex(), copy.getTransformsAttr(),
      ArrayAttr(), DenseI64ArrayAttr());
  return success();
}

/// The pair's MMA over both CTAs' row-major host buffers.
static LogicalResult lowerPairMma(OpBuilder &b, Tcgen05MmaOp mma,
                                  Value peerBytes, bool smemLayouts) {
  Location loc = mma.getLoc();
  Value acc = hostTmem(b, mma.getAcc());
  Value accPeer = acc ? viewInPeer(b, loc, acc, peerBytes) : Value();
  Value aOwn = mma.getA(), bOwn = mma.getB();
  Value aPeer = viewInPeer(b, loc, aOwn, peerBytes);
  Value bPeer = viewInPeer(b, loc, bOwn, peerBytes);
  if (!accPeer || !aPeer || !bPeer)
    return mma.emitOpError() << "cannot run in interpret mode: its operands "
                                "are not views of the CTA's scratch";
  // Operands in shared memory, read through their layout.
  SmallVector<Value> copies;
  auto read = [&](Value &operand, ArrayAttr transforms) {
    if (smemLayouts && transforms && isa<MemRefType>(operand.getType())) {
      operand = readThroughLayout(b, mma, operand, transforms);
      copies.push_back(operand);
    }
  };
  read(aOwn, mma.getATransformsAttr());
  read(aPeer, mma.getATransformsAttr());
  read(bOwn, mma.getBTransformsAttr());
  read(bPeer, mma.getBTransformsAttr());
  buildPairMma(
      b, mma, acc, accPeer,
      [&](OpBuilder &nb, Location l, bool peer, Value row, Value col) {
        return memref::LoadOp::create(nb, l, peer ? aPeer : aOwn,
                                      ValueRange{row, col})
            .getResult();
      },
      [&](OpBuilder &nb, Location l, bool peer, Value row, Value col) {
        return memref::LoadOp::create(nb, l, peer ? bPeer : bOwn,
                                      ValueRange{row, col})
            .getResult();
      });
  for (Value copy : copies)
    memref::DeallocOp::create(b, loc, copy);
  return success();
}

/// One arrival on barrier `index` of `words` (host barrier words) and of
/// the same words `peerBytes` further: the pair's.
static LogicalResult arriveOnPair(OpBuilder &b, Tcgen05CommitArriveOp commit,
                                  Value words, Value peerBytes,
                                  StringRef runtime) {
  Location loc = commit.getLoc();
  Value peerWords = words ? viewInPeer(b, loc, words, peerBytes) : Value();
  if (!peerWords)
    return commit.emitOpError() << "cannot run on the host: needs its "
                                   "barrier's storage in shared memory";
  BarrierLikeType type = commit.getBarrier().getType();
  for (Value storage : {words, peerWords}) {
    Value word = getCheckedBarrier(b, commit, storage, commit.getIndex(),
                                   type.getCount());
    if (runtime.empty()) {
      arriveOnHostBarrier(b, commit, word, type.getArrivals());
      continue;
    }
    // The issuing thread's MMAs so far complete for the emulator's checks
    // at a wait on either CTA's barrier.
    callHostRuntime(b, commit, "mgpuEmuCheckMmaCommit", {word});
    callHostRuntime(b, commit, runtime,
                    {word, getI64(b, loc, type.getArrivals()),
                     getLocationString(b, commit)});
  }
  return success();
}

LogicalResult mlir::mgpu::lowerPairOpOnCPU(Operation *op, Value leader,
                                           Value peerBytes, bool smemLayouts) {
  OpBuilder b(op);
  LogicalResult result = success();
  buildIfThen(b, op->getLoc(), leader, [&] {
    if (auto copy = dyn_cast<CopyGmemToSmemOp>(op))
      result = lowerPartitionedCopy(b, copy, peerBytes, smemLayouts);
    else if (auto mma = dyn_cast<Tcgen05MmaOp>(op))
      result = lowerPairMma(b, mma, peerBytes, smemLayouts);
    else
      result = arriveOnPair(b, cast<Tcgen05CommitArriveOp>(op),
                            castInput(op->getOperand(0)), peerBytes, "");
  });
  if (succeeded(result))
    op->erase();
  return result;
}

LogicalResult mlir::mgpu::emulatePairCommit(OpBuilder &b,
                                            Tcgen05CommitArriveOp op,
                                            Value peerBytes) {
  return arriveOnPair(b, op, emulation::barrierStorage(op.getBarrier()),
                      peerBytes, "mgpuEmuBarrierArrive");
}
