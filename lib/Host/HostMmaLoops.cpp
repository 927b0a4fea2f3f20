//===- HostMmaLoops.cpp - A tcgen05 MMA as host loops ---------------------===//
//
// See the header.
//
//===----------------------------------------------------------------------===//

#include "HostMmaLoops.h"

#include "mgpu/Dialect/MGPU/WgmmaSemantics.h"
#include "mgpu/KernelForm/IndexArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::mgpu;

void mlir::mgpu::buildHostMmaLoops(OpBuilder &b, Location loc, Value accumulate,
                                   Value acc, int64_t column, int64_t rows,
                                   int64_t cols, int64_t k, HostMmaLoad loadA,
                                   HostMmaLoad loadB) {
  Value zero = indexConstant(b, loc, 0), one = indexConstant(b, loc, 1);
  scf::buildLoopNest(
      b, loc, ValueRange{zero, zero},
      ValueRange{indexConstant(b, loc, rows), indexConstant(b, loc, cols)},
      ValueRange{one, one}, [&](OpBuilder &nb, Location l, ValueRange ivs) {
        Value i = ivs[0], j = ivs[1];
        Value at[] = {
            i, arith::AddIOp::create(nb, l, j, indexConstant(nb, l, column))};
        Value old = memref::LoadOp::create(nb, l, acc, at);
        Value start = arith::SelectOp::create(
            nb, l, accumulate, old,
            arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(0)));
        auto steps =
            scf::ForOp::create(nb, l, zero, indexConstant(nb, l, k), one,
                               ValueRange{buildWgmmaStart(nb, l, start)});
        OpBuilder::InsertionGuard guard(nb);
        nb.setInsertionPointToStart(steps.getBody());
        Value kk = steps.getInductionVar();
        scf::YieldOp::create(
            nb, l,
            buildWgmmaAccumulate(nb, l, steps.getRegionIterArgs()[0],
                                 loadA(nb, l, i, kk), loadB(nb, l, kk, j)));
        nb.setInsertionPointAfter(steps);
        memref::StoreOp::create(
            nb, l, buildWgmmaFinish(nb, l, steps.getResult(0), nb.getF32Type()),
            acc, at);
      });
}
