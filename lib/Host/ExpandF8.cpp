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
/// `like`. Integer arguments are i32 constants: the conversions compute on
/// the bits widened to i32.
struct Bits {
  OpBuilder &b;
  Location loc;
  Type like;
  Type typeOf(Type element) {
    if (auto vector = dyn_cast<VectorType>(like))
      return vector.clone(element);
    return element;
  }
  Type intOf(int64_t width) { return typeOf(b.getIntegerType(width)); }
  Value constant(Type element, TypedAttr attr) {
    if (auto vector = dyn_cast<VectorType>(typeOf(element)))
      attr = DenseElementsAttr::get(vector, attr);
    return arith::ConstantOp::create(b, loc, attr);
  }
  Value f32(double v) { return constant(b.getF32Type(), b.getF32FloatAttr(v)); }
  Value i32(int64_t v) {
    return constant(b.getI32Type(), b.getI32IntegerAttr(v));
  }
  Value i8(int64_t v) {
    return constant(b.getI8Type(), b.getIntegerAttr(b.getI8Type(), v));
  }
  /// The bits of `x` as an integer of `width` bits.
  Value bitsOf(Value x, int64_t width) {
    return arith::BitcastOp::create(b, loc, intOf(width), x);
  }
  Value zextToI32(Value x) {
    return arith::ExtUIOp::create(b, loc, intOf(32), x);
  }
  Value trunc(Value x, int64_t width) {
    return arith::TruncIOp::create(b, loc, intOf(width), x);
  }
  Value shl(Value x, int64_t n) {
    return arith::ShLIOp::create(b, loc, x, i32(n));
  }
  Value shr(Value x, int64_t n) {
    return arith::ShRUIOp::create(b, loc, x, i32(n));
  }
  Value mask(Value x, int64_t m) {
    return arith::AndIOp::create(b, loc, x, i32(m));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t c) { return add(x, i32(c)); }
  Value orI(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, int64_t c) {
    return arith::CmpIOp::create(b, loc, p, x, i32(c));
  }
  Value eq(Value x, int64_t c) { return cmp(arith::CmpIPredicate::eq, x, c); }
  /// 1 where `condition` holds, else 0, as i32.
  Value asI32(Value condition) { return zextToI32(condition); }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value select(Value c, int64_t x, Value y) { return select(c, i32(x), y); }
};

/// The f32 bits of `in`, of the small float `format`.
Value extendToF32(Bits &k, const F8Format &format, Value in) {
  int64_t m = format.mantissa;
  Value bits = k.zextToI32(k.bitsOf(in, format.width));
  Value sign = k.shl(k.shr(bits, format.signBit()), 31);
  Value magnitude = k.mask(bits, format.magnitudeMask());
  Value exponent = k.shr(magnitude, m);
  Value fraction = k.mask(magnitude, (1 << m) - 1);
  // Normal: re-bias the exponent, widen the fraction.
  Value normal = k.orI(k.shl(k.add(exponent, 127 - format.bias), 23),
                       k.shl(fraction, 23 - m));
  // Subnormal (exponent 0): fraction * 2^(1 - bias - m), exact in f32.
  Value fractionF32 =
      arith::UIToFPOp::create(k.b, k.loc, k.typeOf(k.b.getF32Type()), fraction);
  Value subnormal = k.bitsOf(
      arith::MulFOp::create(k.b, k.loc, fractionF32,
                            k.f32(std::ldexp(1.0, 1 - format.bias - m))),
      32);
  Value result = k.select(k.eq(exponent, 0), subnormal, normal);
  // Special values: E5M2 has infinities and NaNs at exponent 31, E4M3FN
  // only NaN at 0x7F, the f6 formats none.
  if (format.hasInfinity || format.nan >= 0) {
    Value special =
        format.hasInfinity ? k.eq(exponent, 31) : k.eq(magnitude, format.nan);
    Value infOrNan =
        format.hasInfinity
            ? k.select(k.eq(fraction, 0), 0x7F800000, k.i32(0x7FC00000))
            : k.i32(0x7FC00000);
    result = k.select(special, infOrNan, result);
  }
  return k.orI(result, sign);
}

/// The bits of `in` (f32) in the small float `format`.
Value truncateFromF32(Bits &k, const F8Format &format, Value in) {
  int64_t m = format.mantissa;
  Value bits = k.bitsOf(in, 32);
  Value sign = k.mask(k.shr(bits, 31 - format.signBit()),
                      int64_t(1) << format.signBit());
  Value magnitude = k.mask(bits, 0x7FFFFFFF);
  // Normal range: round the fraction to m bits, to nearest even (the
  // carry may raise the exponent), then re-bias.
  int64_t drop = 23 - m;
  Value lsb = k.mask(k.shr(magnitude, drop), 1);
  Value rounded = k.add(magnitude, k.add(lsb, (int64_t(1) << (drop - 1)) - 1));
  Value normal = k.add(k.shr(rounded, drop), -((127 - format.bias) << m));
  // Below the smallest normal, 2^(1 - bias): a multiple of the smallest
  // subnormal, rounded to nearest even (may round up to the smallest
  // normal, whose encoding follows).
  Value absolute = math::AbsFOp::create(k.b, k.loc, in);
  Value scaled = arith::MulFOp::create(
      k.b, k.loc, absolute, k.f32(std::ldexp(1.0, format.bias - 1 + m)));
  Value subnormal = arith::FPToUIOp::create(
      k.b, k.loc, k.intOf(32), math::RoundEvenOp::create(k.b, k.loc, scaled));
  Value isSubnormal = k.cmp(arith::CmpIPredicate::ult, magnitude,
                            int64_t(127 + 1 - format.bias) << 23);
  Value encoded = k.select(isSubnormal, subnormal, normal);
  // Saturate to the largest finite value (infinities too, and NaN where
  // the format has none: its exponent is past every finite one); NaN is
  // NaN where the format has it.
  encoded =
      k.select(k.cmp(arith::CmpIPredicate::sgt, encoded, format.maxFinite),
               format.maxFinite, encoded);
  if (format.nan >= 0)
    encoded = k.select(k.cmp(arith::CmpIPredicate::ugt, magnitude, 0x7F800000),
                       format.nan, encoded);
  return k.trunc(k.orI(encoded, sign), format.width);
}

/// f8E8M0FNU to f32: 2^(bits - 127); bits 0 is 2^-127 (an f32 subnormal),
/// 0xFF is NaN.
Value extendE8M0ToF32(Bits &k, Value in) {
  Value bits = k.zextToI32(k.bitsOf(in, 8));
  Value result = k.shl(bits, 23);
  result = k.select(k.eq(bits, 0), 0x00400000, result);
  result = k.select(k.eq(bits, 0xFF), 0x7FC00000, result);
  return result;
}

/// f32 to f8E8M0FNU as JAX converts by default (cvt.rp.satfinite.ue8m0x2):
/// the magnitude rounded up to a power of two, saturated at 2^127; NaN is
/// 0xFF. The sign is ignored (e8m0 has none).
Value truncateF32ToE8M0(Bits &k, Value in) {
  Value bits = k.bitsOf(in, 32);
  Value exponent = k.mask(k.shr(bits, 23), 0xFF);
  Value fraction = k.mask(bits, 0x7FFFFF);
  // A normal value with a fraction rounds up to the next exponent.
  Value encoded =
      k.add(exponent, k.asI32(k.cmp(arith::CmpIPredicate::ne, fraction, 0)));
  // Subnormals (and zero): 2^-127 up to it, 2^-126 above.
  Value small = k.asI32(k.cmp(arith::CmpIPredicate::ugt, fraction, 0x400000));
  encoded = k.select(k.eq(exponent, 0), small, encoded);
  // Saturate (infinity too) at 2^127; NaN stays NaN.
  encoded =
      k.select(k.cmp(arith::CmpIPredicate::ugt, encoded, 0xFE), 0xFE, encoded);
  Value isNan =
      k.cmp(arith::CmpIPredicate::ugt, k.mask(bits, 0x7FFFFFFF), 0x7F800000);
  encoded = k.select(isNan, 0xFF, encoded);
  return k.trunc(encoded, 8);
}

/// f32 from a small float, and back, as integer code on the bits.
struct ExpandExtF : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Type source = getElementTypeOrSelf(op.getIn().getType());
    std::optional<F8Format> format = getFormat(source);
    bool e8m0 = isa<Float8E8M0FNUType>(source);
    if ((!format && !e8m0) || !getElementTypeOrSelf(op.getType()).isF32())
      return failure();
    Bits k{rewriter, op.getLoc(), op.getType()};
    Value bits = e8m0 ? extendE8M0ToF32(k, op.getIn())
                      : extendToF32(k, *format, op.getIn());
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), bits);
    return success();
  }
};

struct ExpandTruncF : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type target = getElementTypeOrSelf(op.getType());
    std::optional<F8Format> format = getFormat(target);
    bool e8m0 = isa<Float8E8M0FNUType>(target);
    if ((!format && !e8m0) ||
        !getElementTypeOrSelf(op.getIn().getType()).isF32())
      return failure();
    Bits k{rewriter, op.getLoc(), op.getType()};
    Value bits = e8m0 ? truncateF32ToE8M0(k, op.getIn())
                      : truncateFromF32(k, *format, op.getIn());
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), bits);
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
    Bits k{rewriter, op.getLoc(), op.getType()};
    Value inverse = arith::SubIOp::create(rewriter, k.loc, k.i8(254),
                                          k.bitsOf(op.getRhs(), 8));
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
    patterns.add<ExpandExtF, ExpandTruncF, ReciprocalE8M0>(&getContext(),
                                                           /*benefit=*/2);
    arith::populateExpandF4E2M1Patterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
