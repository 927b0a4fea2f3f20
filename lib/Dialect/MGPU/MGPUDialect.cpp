//===- MGPUDialect.cpp - The mgpu dialect ---------------------------------===//
//
// Registers the ops, types and attributes of the mgpu dialect, gives the
// attributes short aliases in printed IR (#mesh, #block_spec, ...), and checks
// the discardable `mgpu.*` attributes: only `mgpu.target`, on a module.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPULayouts.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mgpu;

#include "mgpu/Dialect/MGPU/MGPUDialect.cpp.inc"
#include "mgpu/Dialect/MGPU/MGPUEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "mgpu/Dialect/MGPU/MGPUAttrs.cpp.inc"

#include "mgpu/Dialect/MGPU/MGPUTypeInterfaces.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "mgpu/Dialect/MGPU/MGPUTypes.cpp.inc"

#define GET_OP_CLASSES
#include "mgpu/Dialect/MGPU/MGPUOps.cpp.inc"

namespace {
/// Prints the (often repeated, often long) mgpu attributes once, at the top
/// of the module, under a short alias.
struct MGPUOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    return TypeSwitch<Attribute, AliasResult>(attr)
        .Case<MeshAttr, BlockSpecAttr, CompilerParamsAttr, TargetAttr>(
            [&](auto a) {
              os << a.getMnemonic();
              return AliasResult::OverridableAlias;
            })
        .Default([](Attribute) { return AliasResult::NoAlias; });
  }
};
} // namespace

void MGPUDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "mgpu/Dialect/MGPU/MGPUAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "mgpu/Dialect/MGPU/MGPUTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "mgpu/Dialect/MGPU/MGPUOps.cpp.inc"
      >();
  addInterfaces<MGPUOpAsmInterface>();
}

/// `mgpu.target` belongs on a module; no other `mgpu.*` name is known. `where`
/// says what carries the attribute when it is not `op` itself.
/// An `mgpu.*` attribute other than `mgpu.target`, on the op itself or (with
/// `where`) on one of its region arguments or results.
static InFlightDiagnostic
emitUnknownAttributeError(Operation *op, NamedAttribute attr, StringRef where) {
  // getValue(): a StringAttr would print quoted inside the quotes.
  InFlightDiagnostic diag = op->emitError() << "unknown mgpu attribute '"
                                            << attr.getName().getValue() << "'";
  if (!where.empty())
    diag << " on " << where;
  diag << "; the discardable ones are '" << MGPUDialect::getTargetAttrName()
       << "', '" << MGPUDialect::getLanePrivateAttrName() << "', '"
       << MGPUDialect::getUnsyncedAttrName() << "' and '"
       << MGPUDialect::getComputeStepsAttrName() << "'";
  return diag;
}

/// An attribute on region argument or result `index` (`kind`: "argument"
/// or "result") of `op`.
static LogicalResult verifyArgOrResultAttribute(Operation *op,
                                                NamedAttribute attr,
                                                StringRef kind,
                                                unsigned index) {
  std::string where = (kind + " #" + Twine(index)).str();
  if (attr.getName() == MGPUDialect::getTargetAttrName())
    return op->emitError() << "'" << MGPUDialect::getTargetAttrName()
                           << "' must be attached to a builtin.module, not "
                           << where;
  return emitUnknownAttributeError(op, attr, where);
}

LogicalResult MGPUDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned regionIndex,
                                                    unsigned argIndex,
                                                    NamedAttribute attr) {
  return verifyArgOrResultAttribute(op, attr, "argument", argIndex);
}

LogicalResult MGPUDialect::verifyRegionResultAttribute(Operation *op,
                                                       unsigned regionIndex,
                                                       unsigned resultIndex,
                                                       NamedAttribute attr) {
  return verifyArgOrResultAttribute(op, attr, "result", resultIndex);
}

LogicalResult MGPUDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() == getLanePrivateAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()) ||
        op->getName().getStringRef() != "memref.subview")
      return op->emitError() << "'" << getLanePrivateAttrName()
                             << "' must be a unit attribute of a "
                                "memref.subview";
    return success();
  }
  if (attr.getName() == getUnsyncedAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError()
             << "'" << getUnsyncedAttrName() << "' must be a unit attribute";
    return success();
  }
  if (attr.getName() == getComputeStepsAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()) ||
        op->getName().getStringRef() != "scf.for")
      return op->emitError() << "'" << getComputeStepsAttrName()
                             << "' must be a unit attribute of an scf.for";
    return success();
  }
  if (attr.getName() == getWarpgroupUniformAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()) || !isa<BarrierWaitOp>(op))
      return op->emitError() << "'" << getWarpgroupUniformAttrName()
                             << "' must be a unit attribute of an "
                                "mgpu.barrier_wait";
    return success();
  }
  if (attr.getName() == getTensorCoresAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()) || !isa<WgmmaOp>(op))
      return op->emitError() << "'" << getTensorCoresAttrName()
                             << "' must be a unit attribute of an mgpu.wgmma";
    return success();
  }
  if (attr.getName() == getInternalScratchAttrName()) {
    auto count = dyn_cast<IntegerAttr>(attr.getValue());
    auto scratch = op->getAttrOfType<ArrayAttr>("scratch");
    if (!count || !isa<PallasCallOp, MpmdMapOp>(op) || count.getInt() < 0 ||
        count.getInt() > (scratch ? int64_t(scratch.size()) : 0))
      return op->emitError()
             << "'" << getInternalScratchAttrName()
             << "' must be an integer attribute of a pallas_call or mpmd_map, "
                "at most its number of scratch operands";
    return success();
  }
  if (attr.getName() == kOutLayoutsAttrName)
    return verifyOutLayouts(op, attr.getValue());
  if (attr.getName() == kAccessTransformsAttrName) {
    auto transforms = dyn_cast<ArrayAttr>(attr.getValue());
    if (!transforms || !isWholeViewTransfer(op))
      return op->emitError()
             << "'" << kAccessTransformsAttrName
             << "' must be the transforms of a vector.transfer_read or "
                "transfer_write of a whole 2-d view with contiguous rows, at "
                "[0, 0]";
    auto view = cast<MemRefType>(
        cast<VectorTransferOpInterface>(op).getBase().getType());
    return success(succeeded(
        getSwizzledTiling(op, "the accessed view", transforms, view)));
  }
  if (attr.getName() != getTargetAttrName())
    return emitUnknownAttributeError(op, attr, /*where=*/"");
  if (!isa<TargetAttr>(attr.getValue()))
    return op->emitError() << "'" << getTargetAttrName()
                           << "' must be a #mgpu.target attribute, got "
                           << attr.getValue();
  if (!isa<ModuleOp>(op))
    return op->emitError() << "'" << getTargetAttrName()
                           << "' must be attached to a builtin.module";
  return success();
}
