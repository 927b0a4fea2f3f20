//===- ExpandF8.cpp - f8 and f6 conversions as integer code ---------------===//
//
// LLVM has no f8 or f6 types (their values live in i8 and i6), so the
// backends compute on them in f32 (arith-emulate-unsupported-floats) and
// need only the two conversions, which this pass writes as integer code on
// the bits: f8E4M3FN, f8E5M2, f6E2M3FN and f6E3M2FN to f32 exactly, and
// f32 to them with round-to-nearest-even and saturation to the largest
// finite value, as the GPU's cvt.rn.satfinite does (NaN stays NaN in f8;
// the f6 formats have no NaN, and it saturates too). Scalars and vectors
// alike.
// f8E8M0FNU, a byte of biased exponent, converts as JAX converts it by
// default (rounding up), and its reciprocal is an integer subtraction.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUEXPANDF8
#include "mgpu/Host/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// The encoding of a small float type: total and mantissa bits, exponent
/// bias, the largest finite encoding (sign cleared) and the NaN one (none:
/// -1).
struct F8Format {
  int64_t width, mantissa, bias, maxFinite, nan;
  bool hasInfinity;
  int64_t signBit() const { return width - 1; }
  int64_t magnitudeMask() const { return (int64_t(1) << (width - 1)) - 1; }
};

std::optional<F8Format> getFormat(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return F8Format{8, 3, 7, 0x7E, 0x7F, false};
  if (isa<Float8E5M2Type>(type))
    return F8Format{8, 2, 15, 0x7B, 0x7F, true};
  // The f6 formats (OCP MX): finite only, every encoding a number.
  if (isa<Float6E2M3FNType>(type))
    return F8Format{6, 3, 1, 0x1F, -1, false};
  if (isa<Float6E3M2FNType>(type))
    return F8Format{6, 2, 3, 0x1F, -1, false};
  // f4E2M1FN (OCP MX): finite only, 6.0 the largest.
  if (isa<Float4E2M1FNType>(type))
    return F8Format{4, 1, 1, 0x7, -1, false};
  return std::nullopt;
}

/// Builds elementwise integer code for scalars or vectors shaped like
/// `like`.
struct Bits {
  OpBuilder &b;
  Location loc;
  Type like;
  Type typeOf(Type element) {
    if (auto vector = dyn_cast<VectorType>(like))
      return vector.clone(element);
    return element;
  }
  Value constant(Type element, int64_t v) {
    Type type = typeOf(element);
    TypedAttr attr = b.getIntegerAttr(element, v);
    if (auto vector = dyn_cast<VectorType>(type))
      attr = DenseElementsAttr::get(vector, attr);
    return arith::ConstantOp::create(b, loc, attr);
  }
  Value f32(double v) {
    Type type = typeOf(b.getF32Type());
    TypedAttr attr = b.getF32FloatAttr(v);
    if (auto vector = dyn_cast<VectorType>(type))
      attr = DenseElementsAttr::get(vector, attr);
    return arith::ConstantOp::create(b, loc, attr);
  }
  Value i32(int64_t v) { return constant(b.getI32Type(), v); }
  Value i8(int64_t v) { return constant(b.getI8Type(), v); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
};

struct ExpandExtF : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Type source = getElementTypeOrSelf(op.getIn().getType());
    std::optional<F8Format> format = getFormat(source);
    if (!format || !getElementTypeOrSelf(op.getType()).isF32())
      return failure();
    Location loc = op.getLoc();
    Bits k{rewriter, loc, op.getType()};
    int64_t m = format->mantissa;
    Value byte = arith::BitcastOp::create(
        rewriter, loc, k.typeOf(rewriter.getIntegerType(format->width)),
        op.getIn());
    Value bits = arith::ExtUIOp::create(rewriter, loc,
                                        k.typeOf(rewriter.getI32Type()), byte);
    Value sign = arith::ShLIOp::create(
        rewriter, loc,
        arith::ShRUIOp::create(rewriter, loc, bits, k.i32(format->signBit())),
        k.i32(31));
    Value magnitude = arith::AndIOp::create(rewriter, loc, bits,
                                            k.i32(format->magnitudeMask()));
    Value exponent = arith::ShRUIOp::create(rewriter, loc, magnitude, k.i32(m));
    Value fraction =
        arith::AndIOp::create(rewriter, loc, magnitude, k.i32((1 << m) - 1));
    // Normal: re-bias the exponent, widen the fraction.
    Value normal = arith::OrIOp::create(
        rewriter, loc,
        arith::ShLIOp::create(rewriter, loc,
                              arith::AddIOp::create(rewriter, loc, exponent,
                                                    k.i32(127 - format->bias)),
                              k.i32(23)),
        arith::ShLIOp::create(rewriter, loc, fraction, k.i32(23 - m)));
    // Subnormal (exponent 0): fraction * 2^(1 - bias - m), exact in f32.
    Value subnormal = arith::BitcastOp::create(
        rewriter, loc, k.typeOf(rewriter.getI32Type()),
        arith::MulFOp::create(
            rewriter, loc,
            arith::UIToFPOp::create(rewriter, loc,
                                    k.typeOf(rewriter.getF32Type()), fraction),
            k.f32(std::ldexp(1.0, 1 - format->bias - m))));
    Value result = k.select(k.cmp(arith::CmpIPredicate::eq, exponent, k.i32(0)),
                            subnormal, normal);
    // Special values: E5M2 has infinities and NaNs at exponent 31, E4M3FN
    // only NaN at 0x7F, the f6 formats none.
    if (format->hasInfinity || format->nan >= 0) {
      Value special =
          format->hasInfinity
              ? k.cmp(arith::CmpIPredicate::eq, exponent, k.i32(31))
              : k.cmp(arith::CmpIPredicate::eq, magnitude, k.i32(format->nan));
      Value infOrNan =
          format->hasInfinity
              ? k.select(k.cmp(arith::CmpIPredicate::eq, fraction, k.i32(0)),
                         k.i32(0x7F800000), k.i32(0x7FC00000))
              : k.i32(0x7FC00000);
      result = k.select(special, infOrNan, result);
    }
    result = arith::OrIOp::create(rewriter, loc, result, sign);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), result);
    return success();
  }
};

struct ExpandTruncF : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type target = getElementTypeOrSelf(op.getType());
    std::optional<F8Format> format = getFormat(target);
    if (!format || !getElementTypeOrSelf(op.getIn().getType()).isF32())
      return failure();
    Location loc = op.getLoc();
    Bits k{rewriter, loc, op.getType()};
    int64_t m = format->mantissa;
    Type i32 = k.typeOf(rewriter.getI32Type());
    Value bits = arith::BitcastOp::create(rewriter, loc, i32, op.getIn());
    Value sign = arith::AndIOp::create(
        rewriter, loc,
        arith::ShRUIOp::create(rewriter, loc, bits,
                               k.i32(31 - format->signBit())),
        k.i32(int64_t(1) << format->signBit()));
    Value magnitude =
        arith::AndIOp::create(rewriter, loc, bits, k.i32(0x7FFFFFFF));
    // Normal range: round the fraction to m bits, to nearest even (the
    // carry may raise the exponent), then re-bias.
    int64_t drop = 23 - m;
    Value lsb = arith::AndIOp::create(
        rewriter, loc,
        arith::ShRUIOp::create(rewriter, loc, magnitude, k.i32(drop)),
        k.i32(1));
    Value rounded = arith::AddIOp::create(
        rewriter, loc, magnitude,
        arith::AddIOp::create(rewriter, loc, lsb,
                              k.i32((int64_t(1) << (drop - 1)) - 1)));
    Value normal = arith::SubIOp::create(
        rewriter, loc,
        arith::ShRUIOp::create(rewriter, loc, rounded, k.i32(drop)),
        k.i32((127 - format->bias) << m));
    // Below the smallest normal, 2^(1 - bias): a multiple of the smallest
    // subnormal, rounded to nearest even (may round up to the smallest
    // normal, whose encoding follows).
    Value absolute = math::AbsFOp::create(rewriter, loc, op.getIn());
    Value scaled = arith::MulFOp::create(
        rewriter, loc, absolute, k.f32(std::ldexp(1.0, format->bias - 1 + m)));
    Value subnormal = arith::FPToUIOp::create(
        rewriter, loc, i32, math::RoundEvenOp::create(rewriter, loc, scaled));
    Value isSubnormal = k.cmp(arith::CmpIPredicate::ult, magnitude,
                              k.i32(int64_t(127 + 1 - format->bias) << 23));
    Value encoded = k.select(isSubnormal, subnormal, normal);
    // Saturate to the largest finite value (infinities too, and NaN where
    // the format has none: its exponent is past every finite one); NaN is
    // NaN where the format has it.
    Value tooLarge =
        k.cmp(arith::CmpIPredicate::sgt, encoded, k.i32(format->maxFinite));
    encoded = k.select(tooLarge, k.i32(format->maxFinite), encoded);
    if (format->nan >= 0) {
      Value isNan =
          k.cmp(arith::CmpIPredicate::ugt, magnitude, k.i32(0x7F800000));
      encoded = k.select(isNan, k.i32(format->nan), encoded);
    }
    encoded = arith::OrIOp::create(rewriter, loc, encoded, sign);
    Value byte = arith::TruncIOp::create(
        rewriter, loc, k.typeOf(rewriter.getIntegerType(format->width)),
        encoded);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), byte);
    return success();
  }
};

/// f8E8M0FNU to f32: 2^(bits - 127); bits 0 is 2^-127 (an f32 subnormal),
/// 0xFF is NaN.
struct ExpandExtFE8M0 : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<Float8E8M0FNUType>(getElementTypeOrSelf(op.getIn().getType())) ||
        !getElementTypeOrSelf(op.getType()).isF32())
      return failure();
    Location loc = op.getLoc();
    Bits k{rewriter, loc, op.getType()};
    Value byte = arith::BitcastOp::create(
        rewriter, loc, k.typeOf(rewriter.getI8Type()), op.getIn());
    Value bits = arith::ExtUIOp::create(rewriter, loc,
                                        k.typeOf(rewriter.getI32Type()), byte);
    Value result = arith::ShLIOp::create(rewriter, loc, bits, k.i32(23));
    result = k.select(k.cmp(arith::CmpIPredicate::eq, bits, k.i32(0)),
                      k.i32(0x00400000), result);
    result = k.select(k.cmp(arith::CmpIPredicate::eq, bits, k.i32(0xFF)),
                      k.i32(0x7FC00000), result);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), result);
    return success();
  }
};

/// f32 to f8E8M0FNU as JAX converts by default (cvt.rp.satfinite.ue8m0x2):
/// the magnitude rounded up to a power of two, saturated at 2^127; NaN is
/// 0xFF. The sign is ignored (e8m0 has none).
struct ExpandTruncFE8M0 : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<Float8E8M0FNUType>(getElementTypeOrSelf(op.getType())) ||
        !getElementTypeOrSelf(op.getIn().getType()).isF32())
      return failure();
    Location loc = op.getLoc();
    Bits k{rewriter, loc, op.getType()};
    Type i32 = k.typeOf(rewriter.getI32Type());
    Value bits = arith::BitcastOp::create(rewriter, loc, i32, op.getIn());
    Value exponent = arith::AndIOp::create(
        rewriter, loc, arith::ShRUIOp::create(rewriter, loc, bits, k.i32(23)),
        k.i32(0xFF));
    Value fraction =
        arith::AndIOp::create(rewriter, loc, bits, k.i32(0x7FFFFF));
    // A normal value with a fraction rounds up to the next exponent.
    Value inexact = arith::ExtUIOp::create(
        rewriter, loc, i32,
        k.cmp(arith::CmpIPredicate::ne, fraction, k.i32(0)));
    Value encoded = arith::AddIOp::create(rewriter, loc, exponent, inexact);
    // Subnormals (and zero): 2^-127 up to it, 2^-126 above.
    Value small = arith::ExtUIOp::create(
        rewriter, loc, i32,
        k.cmp(arith::CmpIPredicate::ugt, fraction, k.i32(0x400000)));
    encoded = k.select(k.cmp(arith::CmpIPredicate::eq, exponent, k.i32(0)),
                       small, encoded);
    // Saturate (infinity too) at 2^127; NaN stays NaN.
    encoded = k.select(k.cmp(arith::CmpIPredicate::ugt, encoded, k.i32(0xFE)),
                       k.i32(0xFE), encoded);
    Value isNan =
        k.cmp(arith::CmpIPredicate::ugt,
              arith::AndIOp::create(rewriter, loc, bits, k.i32(0x7FFFFFFF)),
              k.i32(0x7F800000));
    encoded = k.select(isNan, k.i32(0xFF), encoded);
    Value byte = arith::TruncIOp::create(
        rewriter, loc, k.typeOf(rewriter.getI8Type()), encoded);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), byte);
    return success();
  }
};

/// 1 / x on f8E8M0FNU is 2^(127 - e): the byte 254 - x, as JAX computes it
/// (FragmentedArray._e8m0_reciprocal). Exact, and no conversion.
struct ReciprocalE8M0 : OpRewritePattern<arith::DivFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::DivFOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<Float8E8M0FNUType>(getElementTypeOrSelf(op.getType())))
      return failure();
    FloatAttr one;
    if (!matchPattern(op.getLhs(), m_Constant(&one))) {
      SplatElementsAttr splat;
      if (!matchPattern(op.getLhs(), m_Constant(&splat)))
        return failure();
      one = splat.getSplatValue<FloatAttr>();
    }
    if (!one.getValue().isExactlyValue(1.0))
      return failure();
    Location loc = op.getLoc();
    Bits k{rewriter, loc, op.getType()};
    Value byte = arith::BitcastOp::create(
        rewriter, loc, k.typeOf(rewriter.getI8Type()), op.getRhs());
    Value inverse = arith::SubIOp::create(rewriter, loc, k.i8(254), byte);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), inverse);
    return success();
  }
};

struct ExpandF8Pass : public mgpu::impl::MGPUExpandF8Base<ExpandF8Pass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // f32 to and from f4E2M1FN by this pass's code too (upstream's rounds
    // ties away from zero: 2.5 became 3, where JAX, ml_dtypes and PTX's
    // cvt.rn.satfinite.e2m1x2 give 2); upstream's stays for the other
    // widths it converts.
    patterns.add<ExpandExtF, ExpandTruncF, ExpandExtFE8M0, ExpandTruncFE8M0,
                 ReciprocalE8M0>(&getContext(), /*benefit=*/2);
    arith::populateExpandF4E2M1Patterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
