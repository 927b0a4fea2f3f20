//===- WgmmaEmulation.cpp - wgmma operand reads on the host ---------------===//
//
// See the header. A descriptor keeps 14 bits of (shared address / 16), so the
// emulator recovers the host address of an operand from those bits and the
// host address of the CTA's slice, which is smaller than the 256 KiB the
// field spans.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Host/WgmmaEmulation.h"
#include "mgpu/Host/HostRuntimeCalls.h"
#include "mgpu/KernelForm/IndexArithmetic.h"
#include "mgpu/Target/SmemDescriptor.h"
#include "mgpu/Target/SwizzleFormula.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// Where an operand lies in the CTA's slice: its start, the two distances
/// (bytes, as index) and whether it has the 128-byte swizzle (i1).
struct DecodedDescriptor {
  Value start, leading, stride;
  /// Whether the descriptor names a swizzle (i1), and its span in bytes
  /// (an index; 256 without one).
  Value swizzled, span;
};

struct Emitter {
  OpBuilder &b;
  Location loc;

  Value i64(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 64); }
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value toIndex(Value v) {
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v);
  }
  /// Bits [shift, shift + 14) of `desc`, times 16 (SmemDescriptor.h).
  Value field(Value desc, int64_t shift) {
    Value bits = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, desc, i64(shift)), i64(0x3fff));
    return arith::ShLIOp::create(b, loc, bits, i64(4));
  }
  DecodedDescriptor decode(Value desc, Value sliceLow18) {
    // The operand's offset in the slice: its 18 address bits minus the
    // slice's, modulo 256 KiB.
    Value start = arith::AndIOp::create(
        b, loc,
        arith::SubIOp::create(
            b, loc, field(desc, ::mgpu::kDescriptorStartShift), sliceLow18),
        i64(::mgpu::kDescriptorAddressMask));
    Value mode =
        arith::ShRUIOp::create(b, loc, desc, i64(::mgpu::kWgmmaSwizzleShift));
    Value swizzled =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, mode, i64(0));
    // The span is 256 >> mode (SmemDescriptor.h's wgmmaSwizzleBytes).
    Value span = arith::ShRUIOp::create(b, loc, i64(256), mode);
    return {toIndex(start),
            toIndex(field(desc, ::mgpu::kDescriptorLeadingShift)),
            toIndex(field(desc, ::mgpu::kDescriptorStrideShift)), swizzled,
            toIndex(span)};
  }
  /// Byte offset of element (row, col) (M or N, K) in a decoded tile of
  /// `size`-byte elements: a core matrix is 8 rows of 16 bytes of K
  /// elements, or 8 K rows of 16 bytes of M or N elements (`mnMajor`).
  Value elementBytes(const DecodedDescriptor &d, Value row, Value col,
                     bool mnMajor, int64_t size) {
    int64_t perCoreRow = 16 / size;
    auto mul = [&](Value x, Value y) -> Value {
      return arith::MulIOp::create(b, loc, x, y);
    };
    auto div = [&](Value x, int64_t c) -> Value {
      return arith::DivUIOp::create(b, loc, x, index(c));
    };
    auto rem = [&](Value x, int64_t c) -> Value {
      return arith::RemUIOp::create(b, loc, x, index(c));
    };
    auto add = [&](Value x, Value y) -> Value {
      return arith::AddIOp::create(b, loc, x, y);
    };
    Value coreRow = mnMajor ? col : row, inRow = mnMajor ? row : col;
    Value bytes = add(add(d.start, mul(div(row, 8), d.stride)),
                      add(mul(div(col, perCoreRow), d.leading),
                          add(mul(rem(coreRow, 8), index(16)),
                              mul(rem(inRow, perCoreRow), index(size)))));
    // With a swizzle of S bytes, rows are S bytes: K-major, row r at r / 8
    // strides and (r mod 8) rows, column c at c E bytes along it (E the
    // element size); N-major, K row k at k / 8 strides and (k mod 8) rows,
    // column n at n / (S / E) leading distances and E (n mod S / E)
    // bytes. The address then has its
    // 16-byte chunk bits xor-ed with its 128-byte line bits (mod S / 16):
    // SwizzleFormula.h's swizzle, with S read from the descriptor.
    auto divBy = [&](Value x, Value y) -> Value {
      return arith::DivUIOp::create(b, loc, x, y);
    };
    auto remBy = [&](Value x, Value y) -> Value {
      return arith::RemUIOp::create(b, loc, x, y);
    };
    Value perRow = div(d.span, size);
    Value swizzledBytes =
        mnMajor ? add(add(d.start, mul(div(col, 8), d.stride)),
                      add(mul(rem(col, 8), d.span),
                          add(mul(divBy(row, perRow), d.leading),
                              mul(remBy(row, perRow), index(size)))))
                : add(add(d.start, mul(div(row, 8), d.stride)),
                      add(mul(rem(row, 8), d.span), mul(col, index(size))));
    swizzledBytes = ::mgpu::swizzleChunks(
        IndexArith{b, loc}, div(d.span, ::mgpu::kSwizzleChunkBytes),
        swizzledBytes);
    return arith::SelectOp::create(b, loc, d.swizzled, swizzledBytes, bytes);
  }
};

} // namespace

/// The checks of an MMA's shared-memory reads: a (64 x 32 bytes of K)
/// from `descA` when given, b (n x 32 bytes of K) from `descB`, of
/// elements of `aBytes` and `bBytes`.
static void emitReadChecks(OpBuilder &b, Operation *op, Value descA,
                           Value descB, int64_t n, bool aMnMajor, bool bMnMajor,
                           int64_t aBytes, int64_t bBytes, Value smem,
                           Value ctaBase, Value where) {
  Location loc = op->getLoc();
  Emitter e{b, loc};
  Value base = arith::AddIOp::create(
      b, loc, memref::ExtractAlignedPointerAsIndexOp::create(b, loc, smem),
      ctaBase);
  Value low18 = arith::AndIOp::create(
      b, loc, arith::IndexCastUIOp::create(b, loc, b.getI64Type(), base),
      e.i64(0x3ffff));
  auto checkOperand = [&](Value desc, int64_t rows, bool mnMajor,
                          int64_t size) {
    DecodedDescriptor d = e.decode(desc, low18);
    auto outer =
        scf::ForOp::create(b, loc, e.index(0), e.index(rows), e.index(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(outer.getBody());
    auto inner =
        scf::ForOp::create(b, loc, e.index(0), e.index(32 / size), e.index(1));
    b.setInsertionPointToStart(inner.getBody());
    Value address = arith::AddIOp::create(
        b, loc, base,
        e.elementBytes(d, outer.getInductionVar(), inner.getInductionVar(),
                       mnMajor, size));
    Value pointer = LLVM::IntToPtrOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext()),
        Value(arith::IndexCastOp::create(b, loc, b.getI64Type(), address)));
    callHostRuntime(b, op, "mgpuEmuCheckWgmmaRead",
                    {pointer, e.i64(size), where});
  };
  if (descA)
    checkOperand(descA, 64, aMnMajor, aBytes);
  checkOperand(descB, n, bMnMajor, bBytes);
}

void mlir::mgpu::emitWgmmaReadChecks(OpBuilder &b, WgmmaSharedOp op, Value smem,
                                     Value ctaBase, Value where) {
  emitReadChecks(b, op, op.getDescriptorA(), op.getDescriptorB(),
                 2 * op.getAcc().getType().getNumElements(), op.getAMnMajor(),
                 op.getBMnMajor(), op.getAType().getIntOrFloatBitWidth() / 8,
                 op.getBType().getIntOrFloatBitWidth() / 8, smem, ctaBase,
                 where);
}

void mlir::mgpu::emitWgmmaReadChecks(OpBuilder &b, WgmmaRegisterAOp op,
                                     Value smem, Value ctaBase, Value where) {
  emitReadChecks(b, op, Value(), op.getDescriptorB(),
                 2 * op.getAcc().getType().getNumElements(),
                 /*aMnMajor=*/false, op.getBMnMajor(), /*aBytes=*/2,
                 /*bBytes=*/2, smem, ctaBase, where);
}
