//===- MmaSyncEmulation.cpp - The emulator's mma.sync ---------------------===//
//
// Ampere's mma.sync is a warp-wide instruction: each of the 32 lanes holds
// a fragment of a, b and the accumulator, and receives a fragment of the
// result. The emulator runs lanes as host threads or fibers, so a lane
// cannot read another's registers; it exchanges them as it exchanges warp
// shuffles, through one i64 word per thread and the warp's barrier: three
// rounds (a at K 0..7, a at K 8..15, b; two registers a word), after which
// each lane computes its own four sums from the fragments it needs, in the
// layout the PTX ISA gives for m16n8k16 (g = lane / 4, t = lane mod 4):
//
//   a: reg 0 = row g, K 2t and 2t + 1; reg 1 = row g + 8, same K;
//      reg 2 and 3 the same at K + 8;
//   b: reg 0 = K 2t and 2t + 1 of column g; reg 1 = the same at K + 8;
//   c, d: rows g and g + 8, columns 2t and 2t + 1 (c0 c1, c2 c3).
//
// Products of f16 or bf16 are exact in f32 and are summed in K order, so
// the numbers are those of every other backend for the kernels whose sums
// are exact, and within f32 rounding of the hardware's otherwise.
//
//===----------------------------------------------------------------------===//

#include "MmaSyncEmulation.h"

#include "mgpu/KernelForm/IndexArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// Fragments traded between the lanes of a warp through the exchange words
/// (one i64 per thread) and the warp's barrier.
struct WarpExchange {
  OpBuilder &b;
  Location loc;
  Value exchange, thread, warpStart;
  function_ref<void()> warpBarrier;
  Type input;

  Value index(int64_t v) { return indexConstant(b, loc, v); }
  /// A register's 32 bits.
  Value bits(Value reg) {
    if (!isa<VectorType>(reg.getType()))
      return reg;
    Value v = vector::BitCastOp::create(
        b, loc, VectorType::get({1}, b.getI32Type()), reg);
    return vector::ExtractOp::create(b, loc, v, int64_t(0));
  }
  Value word(Value low, Value high) {
    Type i64 = b.getI64Type();
    Value lo = arith::ExtUIOp::create(b, loc, i64, bits(low));
    Value hi = arith::ExtUIOp::create(b, loc, i64, bits(high));
    hi = arith::ShLIOp::create(b, loc, hi,
                               arith::ConstantIntOp::create(b, loc, 32, 64));
    return arith::OrIOp::create(b, loc, lo, hi);
  }
  /// Publishes this lane's word and reads those of `peers` (lanes of the
  /// warp).
  SmallVector<Value> round(Value mine, ArrayRef<Value> peers) {
    memref::StoreOp::create(b, loc, mine, exchange, ValueRange{thread});
    warpBarrier();
    SmallVector<Value> words;
    for (Value peer : peers)
      words.push_back(memref::LoadOp::create(
          b, loc, exchange,
          ValueRange{arith::AddIOp::create(b, loc, warpStart, peer)}));
    warpBarrier();
    return words;
  }
  /// Element `chunk` (16 bits each, lowest first) of a word, in f32.
  Value element(Value w, int64_t chunk) {
    Value shifted = arith::ShRUIOp::create(
        b, loc, w, arith::ConstantIntOp::create(b, loc, 16 * chunk, 64));
    Value half = arith::TruncIOp::create(b, loc, b.getI16Type(), shifted);
    Value value = arith::BitcastOp::create(b, loc, input, half);
    return arith::ExtFOp::create(b, loc, b.getF32Type(), value);
  }
  /// The lanes of quad g (lanes 4g..4g+3).
  SmallVector<Value> quad(Value g) {
    SmallVector<Value> peers;
    for (int64_t q = 0; q < 4; ++q)
      peers.push_back(arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, g, index(4)), index(q)));
    return peers;
  }
  /// The a values of rows g and g + 8 (row h * 8 + g at h * 16 + k, k in
  /// 0..15), from the quad's a0..a3 (two 16-bit elements each).
  SmallVector<Value> aRows(Value g, ValueRange a) {
    SmallVector<Value> peers = quad(g);
    SmallVector<Value> low = round(word(a[0], a[1]), peers);
    SmallVector<Value> high = round(word(a[2], a[3]), peers);
    SmallVector<Value> rows;
    for (int64_t h = 0; h < 2; ++h)
      for (int64_t k = 0; k < 16; ++k)
        rows.push_back(
            element((k < 8 ? low : high)[(k % 8) / 2], 2 * h + k % 2));
    return rows;
  }
};

} // namespace

/// Registers r0, r1, ... of a fragment: elements 2r and 2r + 1.
static SmallVector<Value> registersOf(OpBuilder &b, Location loc,
                                      Value fragment) {
  int64_t count = cast<VectorType>(fragment.getType()).getNumElements() / 2;
  SmallVector<Value> registers;
  for (int64_t r = 0; r < count; ++r)
    registers.push_back(
        vector::ExtractStridedSliceOp::create(b, loc, fragment, 2 * r, 2, 1));
  return registers;
}

void mlir::mgpu::emulateMmaSync(OpBuilder &b, MmaSyncOp mma, Value exchange,
                                Value thread, Value warpStart, Value laneInWarp,
                                function_ref<void()> warpBarrier) {
  Location loc = mma.getLoc();
  WarpExchange x{b,
                 loc,
                 exchange,
                 thread,
                 warpStart,
                 warpBarrier,
                 mma.getA().getType().getElementType()};

  Value g = arith::DivUIOp::create(b, loc, laneInWarp, x.index(4));
  Value t = arith::RemUIOp::create(b, loc, laneInWarp, x.index(4));
  // a: the four lanes of group g; b: those of columns 2t and 2t + 1.
  SmallVector<Value> aRows = x.aRows(g, registersOf(b, loc, mma.getA()));
  SmallVector<Value> bPeers;
  for (int64_t e = 0; e < 2; ++e) {
    Value column = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, t, x.index(2)), x.index(e));
    bPeers.append(x.quad(column));
  }
  SmallVector<Value> bRegisters = registersOf(b, loc, mma.getB());
  SmallVector<Value> bWords =
      x.round(x.word(bRegisters[0], bRegisters[1]), bPeers);

  SmallVector<Value> sums;
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t e = 0; e < 2; ++e) {
      Value sum = vector::ExtractOp::create(b, loc, mma.getAcc(), 2 * h + e);
      for (int64_t k = 0; k < 16; ++k) {
        Value y = x.element(bWords[4 * e + (k % 8) / 2], (k >= 8) * 2 + k % 2);
        sum = arith::AddFOp::create(
            b, loc, sum, arith::MulFOp::create(b, loc, aRows[h * 16 + k], y));
      }
      sums.push_back(sum);
    }
  mma.getResult().replaceAllUsesWith(
      vector::FromElementsOp::create(b, loc, mma.getResult().getType(), sums));
}

SmallVector<Value> mlir::mgpu::exchangeRegisterA(
    OpBuilder &b, Location loc, Value a, Value exchange, Value thread,
    Value warpStart, Value laneInWarp, function_ref<void()> warpBarrier) {
  auto type = cast<VectorType>(a.getType());
  WarpExchange x{
      b, loc, exchange, thread, warpStart, warpBarrier, type.getElementType()};
  Value g = arith::DivUIOp::create(b, loc, laneInWarp, x.index(4));
  return x.aRows(g, registersOf(b, loc, a));
}
