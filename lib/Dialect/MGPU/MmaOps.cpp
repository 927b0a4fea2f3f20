//===- MmaOps.cpp - Ampere mma of arrays ----------------------------------===//
//
// The rules of mgpu.mma (plgpu.mma: acc + a @ b, synchronously, on Ampere's
// mma.sync). First JAX's shape and type rules in its words
// (jax/_src/pallas/mosaic_gpu/primitives.py:2175-2200 at jax-ml/jax
// cec06d1, _mma_abstract_eval; shapes print as Python tuples, types in MLIR
// spelling where JAX prints NumPy's), so that a kernel JAX rejects is
// rejected here alike; then what mgpu computes: f16 or bf16 into f32, in
// whole m16n8k16 tiles for the four warps of a warpgroup.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::mgpu;

/// A shape as Python prints a tuple: (64, 32).
static std::string pythonTuple(ArrayRef<int64_t> shape) {
  std::string text = "(";
  for (auto [i, size] : llvm::enumerate(shape))
    text += (i ? ", " : "") + std::to_string(size);
  return text + ")";
}

static std::string typeName(Type type) {
  std::string text;
  llvm::raw_string_ostream(text) << type;
  return text;
}

LogicalResult MmaOp::verify() {
  auto acc = cast<VectorType>(getAcc().getType());
  auto a = cast<VectorType>(getA().getType());
  auto b = cast<VectorType>(getB().getType());
  int64_t m = acc.getDimSize(0), n = acc.getDimSize(1), k = a.getDimSize(1);
  if (m != a.getDimSize(0) || n != b.getDimSize(1) || k != b.getDimSize(0))
    return emitOpError() << "Incompatible shapes for matrix multiplication: "
                            "lhs="
                         << pythonTuple(a.getShape())
                         << ", rhs=" << pythonTuple(b.getShape())
                         << ", acc=" << pythonTuple(acc.getShape());
  Type input = a.getElementType(), accElement = acc.getElementType();
  if (input != b.getElementType())
    return emitOpError() << "Operand dtypes must match: " << typeName(input)
                         << " != " << typeName(b.getElementType());
  if (input.isSignlessInteger()) {
    if (!accElement.isSignlessInteger(32))
      return emitOpError() << "Only int32 accumulator supported for integer "
                              "and boolean operands. Got "
                           << typeName(accElement);
  } else if (isa<FloatType>(input)) {
    if (!accElement.isF64() && !accElement.isF32() && !accElement.isF16())
      return emitOpError() << "Only float64, float32 and float16 accumulators "
                              "supported for floating operands. Got "
                           << typeName(accElement);
  } else {
    return emitOpError() << "Unsupported operand type: " << typeName(input);
  }
  // What mgpu computes (JAX also takes f8, int8 and int4 operands).
  if (!(input.isF16() || input.isBF16()) || !accElement.isF32())
    return emitOpError() << "computes f16 or bf16 operands into an f32 "
                            "accumulator, got "
                         << typeName(input) << " into " << typeName(accElement);
  if (m % 64 || n % 8 || k % 16)
    return emitOpError() << "needs M a multiple of 64 (16-row tiles for each "
                            "of the 4 warps), N a multiple of 8 and K of 16 "
                            "(m16n8k16 tiles), got M = "
                         << m << ", N = " << n << ", K = " << k;
  return success();
}
