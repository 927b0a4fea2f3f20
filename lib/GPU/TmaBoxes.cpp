//===- TmaBoxes.cpp - Tensor maps and the boxes TMA copies move -----------===//
//
// The tensor maps of a launch's TMA copies and the boxes each copy issues
// (see TmaBoxes.h).
//
//===----------------------------------------------------------------------===//

#include "TmaBoxes.h"
#include "NVVMLowering.h"
#include "mgpu/KernelForm/IndexArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::mgpu;
using namespace mlir::mgpu::nvvm_lowering;

FailureOr<Value> TensorMaps::get(OpBuilder &b, Location loc,
                                 gpu::LaunchOp launch, Value base,
                                 ArrayRef<int64_t> box,
                                 nvgpu::TensorMapSwizzleKind swizzle,
                                 bool unsignedElements) {
  if (launch->isAncestor(base.getParentRegion()->getParentOp()))
    return failure();
  SmallVector<int64_t> boxKey(box);
  boxKey.push_back(static_cast<int64_t>(swizzle));
  boxKey.push_back(unsignedElements);
  auto key =
      std::make_tuple(launch.getOperation(), base.getAsOpaquePointer(), boxKey);
  for (auto &[k, v] : maps)
    if (k == key)
      return v;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(launch);
  auto type = cast<MemRefType>(base.getType());
  Type element = type.getElementType();
  Value unranked =
      memref::CastOp::create(b, loc, UnrankedMemRefType::get(element, 0), base);
  if (unsignedElements && element.isSignlessInteger()) {
    // The same unranked descriptor, read as unsigned: the LLVM forms of
    // both types are one struct, so the cast disappears with the others.
    element = IntegerType::get(b.getContext(), element.getIntOrFloatBitWidth(),
                               IntegerType::Unsigned);
    unranked = UnrealizedConversionCastOp::create(
                   b, loc, UnrankedMemRefType::get(element, 0), unranked)
                   .getResult(0);
  }
  SmallVector<Value> boxSizes;
  for (int64_t size : box)
    boxSizes.push_back(indexConstant(b, loc, size));
  MLIRContext *ctx = b.getContext();
  auto sharedBox = MemRefType::get(
      box, element, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
  auto descriptorType = nvgpu::TensorMapDescriptorType::get(
      ctx, sharedBox, swizzle, nvgpu::TensorMapL2PromoKind::L2PROMO_NONE,
      nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  Value descriptor = nvgpu::TmaCreateDescriptorOp::create(
      b, loc, descriptorType, unranked, boxSizes);
  Value pointer = UnrealizedConversionCastOp::create(
                      b, loc, LLVM::LLVMPointerType::get(ctx), descriptor)
                      .getResult(0);
  maps.push_back({key, pointer});
  return pointer;
}

void nvvm_lowering::forEachBox(OpBuilder &b, Location loc, const TmaPlan &plan,
                               ArrayRef<int64_t> window,
                               ArrayRef<Value> offsets,
                               function_ref<void(ValueRange, Value)> issue) {
  int64_t rank = window.size();
  auto loop = scf::ForOp::create(b, loc, indexConstant(b, loc, 0),
                                 indexConstant(b, loc, plan.issues),
                                 indexConstant(b, loc, 1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value t = loop.getInductionVar();
  int64_t split = plan.splitDim;
  int64_t perRow = window[split] / plan.box[split];
  SmallVector<Value> start(rank, indexConstant(b, loc, 0));
  start[split] = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, t, indexConstant(b, loc, perRow)),
      indexConstant(b, loc, plan.box[split]));
  SmallVector<Value> outer = delinearize(
      b, loc, arith::DivUIOp::create(b, loc, t, indexConstant(b, loc, perRow)),
      window.take_front(split));
  for (int64_t d = 0; d < split; ++d)
    start[d] = outer[d];
  // Element offset of the box in the row-major window, and its
  // coordinates in the array (innermost first, as PTX wants them).
  Value element = indexConstant(b, loc, 0);
  int64_t stride = 1;
  SmallVector<Value> coordinates;
  for (int64_t d = rank - 1; d >= 0; --d) {
    element = arith::AddIOp::create(
        b, loc, element,
        arith::MulIOp::create(b, loc, start[d], indexConstant(b, loc, stride)));
    stride *= window[d];
    coordinates.push_back(
        toI32(b, loc, arith::AddIOp::create(b, loc, offsets[d], start[d])));
  }
  issue(coordinates, element);
}

nvgpu::TensorMapSwizzleKind
nvvm_lowering::swizzleKind(const SwizzledTiling &tiling) {
  switch (tiling.swizzleBytes) {
  case 32:
    return nvgpu::TensorMapSwizzleKind::SWIZZLE_32B;
  case 64:
    return nvgpu::TensorMapSwizzleKind::SWIZZLE_64B;
  default:
    return nvgpu::TensorMapSwizzleKind::SWIZZLE_128B;
  }
}

SwizzledBoxes nvvm_lowering::planSwizzledBoxes(const SwizzledTiling &tiling,
                                               int64_t rows, int64_t width) {
  constexpr int64_t kMaxBoxRows = 256;
  SwizzledBoxes boxes;
  boxes.tiling = tiling;
  boxes.tileCols = width / tiling.cols;
  boxes.tileRows = rows / tiling.rows;
  boxes.boxRows = tiling.rows;
  if (boxes.tileCols == 1)
    while (boxes.boxRows * 2 <= kMaxBoxRows && rows % (boxes.boxRows * 2) == 0)
      boxes.boxRows *= 2;
  return boxes;
}

void nvvm_lowering::forEachSwizzledBox(
    OpBuilder &b, Location loc, const SwizzledBoxes &boxes, Value firstTileRow,
    const GlobalWindow &window, function_ref<void(ValueRange, Value)> issue) {
  const SwizzledTiling &tiling = boxes.tiling;
  int64_t tilesPerBox = boxes.boxRows / tiling.rows;
  for (int64_t i = 0; i < boxes.tileRows; i += tilesPerBox)
    for (int64_t j = 0; j < boxes.tileCols; ++j) {
      Value tileRow =
          arith::AddIOp::create(b, loc, firstTileRow, indexConstant(b, loc, i));
      // Coordinates innermost first, as PTX wants them.
      Value starts[] = {
          arith::MulIOp::create(b, loc, tileRow,
                                indexConstant(b, loc, tiling.rows)),
          indexConstant(b, loc, j * tiling.cols)};
      // (A named vector: llvm::reverse of a temporary would iterate over
      // it after its end, as ASan found.)
      SmallVector<Value> indices = window.baseIndices(b, loc, starts);
      SmallVector<Value> coordinates;
      for (Value index : llvm::reverse(indices))
        coordinates.push_back(toI32(b, loc, index));
      // Tile (tileRow, j) of the buffer's row-major order of tiles.
      Value element = arith::MulIOp::create(
          b, loc,
          arith::AddIOp::create(
              b, loc,
              arith::MulIOp::create(b, loc, tileRow,
                                    indexConstant(b, loc, boxes.tileCols)),
              indexConstant(b, loc, j)),
          indexConstant(b, loc, tiling.rows * tiling.cols));
      issue(coordinates, element);
    }
}
