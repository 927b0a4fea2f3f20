//===- WgmmaSteps.cpp - Warpgroup MMAs as the lanes issue them ------------===//
//
// See the header. The layout, descriptor and fragment conventions are those
// of the PTX ISA's asynchronous warpgroup-level matrix operations: a
// descriptor holds the tile's shared address, the byte distance between
// core matrices adjacent along K (leading) and along M or N (stride), all
// divided by 16, and a swizzle mode (0: none).
//
//===----------------------------------------------------------------------===//

#include "mgpu/GPU/WgmmaSteps.h"
#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Target/SmemDescriptor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::mgpu;

static Value indexValue(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// A core matrix: 8 rows of 16 bytes, contiguous.
static constexpr int64_t kCoreRows = 8, kCoreRowBytes = 16,
                         kCoreBytes = kCoreRows * kCoreRowBytes;

Value mlir::mgpu::buildCoreMatrixOffset(OpBuilder &b, Location loc, Value mn,
                                        Value kIndex, int64_t k, bool mnMajor,
                                        int64_t elementBytes) {
  const int64_t kElementsPerCoreRow = kCoreRowBytes / elementBytes;
  auto mul = [&](Value x, int64_t c) -> Value {
    return arith::MulIOp::create(b, loc, x, indexValue(b, loc, c));
  };
  auto div = [&](Value x, int64_t c) -> Value {
    return arith::DivUIOp::create(b, loc, x, indexValue(b, loc, c));
  };
  auto rem = [&](Value x, int64_t c) -> Value {
    return arith::RemUIOp::create(b, loc, x, indexValue(b, loc, c));
  };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, loc, x, y);
  };
  int64_t coresPerRow = k / kElementsPerCoreRow;
  Value core = add(mul(div(mn, kCoreRows), coresPerRow),
                   div(kIndex, kElementsPerCoreRow));
  // Which index picks the 16-byte row of the core matrix, and which the
  // element in it.
  Value coreRow = mnMajor ? kIndex : mn, inRow = mnMajor ? mn : kIndex;
  Value within = add(mul(rem(coreRow, kCoreRows), kCoreRowBytes),
                     mul(rem(inRow, kElementsPerCoreRow), elementBytes));
  return add(mul(core, kCoreBytes), within);
}

std::pair<Value, Value> mlir::mgpu::buildFragmentPosition(OpBuilder &b,
                                                          Location loc,
                                                          Value lane,
                                                          int64_t reg) {
  // Warp w holds rows 16w..16w+15; in a warp, thread t holds row t/4 (and
  // t/4 + 8) at columns 2(t%4), 2(t%4)+1 of every 8-column group.
  Value warp = arith::DivUIOp::create(b, loc, lane, indexValue(b, loc, 32));
  Value inWarp = arith::RemUIOp::create(b, loc, lane, indexValue(b, loc, 32));
  Value row = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, warp, indexValue(b, loc, 16)),
      arith::DivUIOp::create(b, loc, inWarp, indexValue(b, loc, 4)));
  row = arith::AddIOp::create(b, loc, row,
                              indexValue(b, loc, ((reg / 2) % 2) * 8));
  Value col = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, inWarp, indexValue(b, loc, 4)),
      indexValue(b, loc, 2));
  col = arith::AddIOp::create(b, loc, col,
                              indexValue(b, loc, (reg / 4) * 8 + reg % 2));
  return {row, col};
}

/// The descriptor of `operand` at K step `step`: the start address and the
/// two distances in 16-byte units, and the swizzle mode.
static Value buildDescriptor(OpBuilder &b, Location loc,
                             const MmaOperand &operand, int64_t step) {
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 64);
  };
  Value start = arith::ShRUIOp::create(
      b, loc,
      arith::AndIOp::create(b, loc, operand.address(step),
                            constant(::mgpu::kDescriptorAddressMask)),
      constant(4));
  uint64_t fields = ::mgpu::encodeDescriptorFields(
      ::mgpu::DescriptorKind::Wgmma, operand.leading, operand.stride,
      operand.swizzleBytes);
  return arith::OrIOp::create(b, loc, start,
                              constant(static_cast<int64_t>(fields)));
}

MmaOperand mlir::mgpu::getCoreMatrixOperand(OpBuilder &b, Location loc,
                                            Value address, int64_t k,
                                            bool mnMajor,
                                            int64_t elementBytes) {
  // One K step covers two core matrices along K.
  constexpr int64_t kStepBytes = 2 * kCoreBytes;
  MmaOperand operand;
  operand.address = [&b, loc, address](int64_t step) -> Value {
    return arith::AddIOp::create(
        b, loc, address,
        arith::ConstantIntOp::create(b, loc, step * kStepBytes, 64));
  };
  operand.leading = kCoreBytes; // next core along K
  operand.stride =
      (k / (kCoreRowBytes / elementBytes)) * kCoreBytes; // next 8 rows
  operand.mnMajor = mnMajor;
  return operand;
}

Value mlir::mgpu::buildTensorCoreMma(OpBuilder &b, Location loc,
                                     Value accumulator, const MmaOperand &a,
                                     const MmaOperand &bOperand, int64_t k,
                                     Type aType, Type bType, bool async) {
  const int64_t kStep = getWgmmaKStep(aType.getIntOrFloatBitWidth() / 8);
  WgmmaFenceOp::create(b, loc);
  for (int64_t step = 0; step < k / kStep; ++step) {
    // a's descriptor first (C++ leaves the order of arguments open).
    Value descA = buildDescriptor(b, loc, a, step);
    Value descB = buildDescriptor(b, loc, bOperand, step);
    accumulator =
        WgmmaSharedOp::create(b, loc, accumulator, descA, descB, aType, bType,
                              a.mnMajor, bOperand.mnMajor);
  }
  WgmmaCommitGroupOp::create(b, loc);
  if (!async)
    WgmmaWaitGroupOp::create(b, loc, 0);
  return accumulator;
}

Value mlir::mgpu::buildRegisterATensorCoreMma(OpBuilder &b, Location loc,
                                              Value accumulator, Value a,
                                              const MmaOperand &bOperand,
                                              int64_t k, bool async) {
  constexpr int64_t kStep = 16, kElementsPerStep = 8;
  // The step's two 8-column groups: the fragment's registers 8s..8s+7 are
  // wgmma's a0..a7 (rows g, g + 8; K 2t.. and 2t + 8..). Taken before the
  // fence: ptxas serializes the MMAs of a pipeline stage whose inputs are
  // defined after its wgmma.fence.
  SmallVector<Value> aSteps;
  for (int64_t step = 0; step < k / kStep; ++step)
    aSteps.push_back(vector::ExtractStridedSliceOp::create(
        b, loc, a, step * kElementsPerStep, kElementsPerStep, 1));
  WgmmaFenceOp::create(b, loc);
  for (auto [step, aStep] : llvm::enumerate(aSteps))
    accumulator = WgmmaRegisterAOp::create(
        b, loc, accumulator, aStep, buildDescriptor(b, loc, bOperand, step),
        bOperand.mnMajor);
  WgmmaCommitGroupOp::create(b, loc);
  if (!async)
    WgmmaWaitGroupOp::create(b, loc, 0);
  return accumulator;
}
