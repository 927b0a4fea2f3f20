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
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::mgpu;

LogicalResult mlir::mgpu::emulateMmaSync(OpBuilder &b, NVVM::MmaOp mma,
                                         Value exchange, Value thread,
                                         Value warpStart, Value laneInWarp,
                                         function_ref<void()> warpBarrier) {
  Location loc = mma.getLoc();
  NVVM::MMAShapeAttr shape = mma.getShapeAttr();
  ValueRange a = mma.getOperandA(), bRegs = mma.getOperandB(),
             c = mma.getOperandC();
  auto f16Pair = VectorType::get({2}, b.getF16Type());
  std::optional<NVVM::MMATypes> ptx = mma.getMultiplicandAPtxType();
  bool bf16 = ptx && *ptx == NVVM::MMATypes::bf16;
  bool f16 = ptx ? *ptx == NVVM::MMATypes::f16 : a[0].getType() == f16Pair;
  if (shape.getM() != 16 || shape.getN() != 8 || shape.getK() != 16 ||
      !(f16 || bf16) || a.size() != 4 || bRegs.size() != 2 || c.size() != 4 ||
      !llvm::all_of(c.getTypes(), [](Type t) { return t.isF32(); }))
    return mma.emitOpError() << "cannot be emulated: only m16n8k16 with f16 "
                                "or bf16 inputs into f32 is";
  Type i16 = b.getI16Type(), i32 = b.getI32Type(), i64 = b.getI64Type(),
       f32 = b.getF32Type();
  Type input = bf16 ? Type(b.getBF16Type()) : Type(b.getF16Type());
  auto index = [&](int64_t v) { return indexConstant(b, loc, v); };

  // A register's 32 bits.
  auto bits = [&](Value reg) -> Value {
    if (!isa<VectorType>(reg.getType()))
      return reg;
    Value v = vector::BitCastOp::create(b, loc, VectorType::get({1}, i32), reg);
    return vector::ExtractOp::create(b, loc, v, int64_t(0));
  };
  auto word = [&](Value low, Value high) -> Value {
    Value lo = arith::ExtUIOp::create(b, loc, i64, bits(low));
    Value hi = arith::ExtUIOp::create(b, loc, i64, bits(high));
    hi = arith::ShLIOp::create(b, loc, hi,
                               arith::ConstantIntOp::create(b, loc, 32, 64));
    return arith::OrIOp::create(b, loc, lo, hi);
  };
  // Publishes this lane's word and reads those of `peers` (lanes of the
  // warp).
  auto round = [&](Value mine, ArrayRef<Value> peers) {
    memref::StoreOp::create(b, loc, mine, exchange, ValueRange{thread});
    warpBarrier();
    SmallVector<Value> words;
    for (Value peer : peers)
      words.push_back(memref::LoadOp::create(
          b, loc, exchange,
          ValueRange{arith::AddIOp::create(b, loc, warpStart, peer)}));
    warpBarrier();
    return words;
  };
  // Element `chunk` (16 bits each, lowest first) of a word, in f32.
  auto element = [&](Value w, int64_t chunk) -> Value {
    Value shifted = arith::ShRUIOp::create(
        b, loc, w, arith::ConstantIntOp::create(b, loc, 16 * chunk, 64));
    Value half = arith::TruncIOp::create(b, loc, i16, shifted);
    Value value = arith::BitcastOp::create(b, loc, input, half);
    return arith::ExtFOp::create(b, loc, f32, value);
  };

  Value g = arith::DivUIOp::create(b, loc, laneInWarp, index(4));
  Value t = arith::RemUIOp::create(b, loc, laneInWarp, index(4));
  // a: the four lanes of group g; b: those of columns 2t and 2t + 1.
  SmallVector<Value> aPeers, bPeers[2];
  for (int64_t q = 0; q < 4; ++q)
    aPeers.push_back(arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, g, index(4)), index(q)));
  for (int64_t e = 0; e < 2; ++e) {
    Value column = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, t, index(2)), index(e));
    for (int64_t q = 0; q < 4; ++q)
      bPeers[e].push_back(arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, column, index(4)), index(q)));
  }
  SmallVector<Value> aLow = round(word(a[0], a[1]), aPeers);
  SmallVector<Value> aHigh = round(word(a[2], a[3]), aPeers);
  SmallVector<Value> bothB(bPeers[0]);
  bothB.append(bPeers[1]);
  SmallVector<Value> bWords = round(word(bRegs[0], bRegs[1]), bothB);

  Value result = LLVM::PoisonOp::create(b, loc, mma.getResult().getType());
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t e = 0; e < 2; ++e) {
      Value sum = c[2 * h + e];
      for (int64_t k = 0; k < 16; ++k) {
        Value x = element((k < 8 ? aLow : aHigh)[(k % 8) / 2], 2 * h + k % 2);
        Value y = element(bWords[4 * e + (k % 8) / 2], (k >= 8) * 2 + k % 2);
        sum = arith::AddFOp::create(b, loc, sum,
                                    arith::MulFOp::create(b, loc, x, y));
      }
      result = LLVM::InsertValueOp::create(b, loc, result, sum, 2 * h + e);
    }
  mma.getResult().replaceAllUsesWith(result);
  return success();
}
