//===- PropagateTransforms.cpp - --mgpu-propagate-transforms --------------===//
//
// One layout per shared-memory buffer. Transforms (a tiling with swizzled
// 128-byte rows) are named op by op: by copies in and out, as JAX's
// transforms of an SMEM ref, and by the tensor cores' operands. A copy out
// that names none used to read a buffer row-major that its copy in had
// written swizzled, which the GPU got wrong. This pass groups the accesses
// of each buffer (through its views), checks that the names agree, gives
// the copies that name nothing the buffer's transforms, and keeps a buffer
// row-major where the lanes also read or write its elements (the layout
// they compute with), unless the tensor cores need it tiled: then the
// lanes access it through its layout (JAX's `qo_smem[...] = acc` into the
// buffer wgmma read q from), each access marked `mgpu.transforms`. A
// kernel buffer that no op lays out but the tensor cores read gets the
// layout JAX's warpgroup semantics infers for MMA operands (fa3_kernel's
// `qo_smem`, a plain SMEM scratch): the tensor cores then read it in place
// and its copies and whole-view lane accesses follow.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/BufferViews.h"
#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPULayouts.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/KernelForm/LayoutAssignment.h"
#include "mgpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUPROPAGATETRANSFORMS
#include "mgpu/KernelForm/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// The transforms `op` names for its operand `use` (null: none), and
/// whether `op` reads that operand on the tensor cores.
struct Named {
  ArrayAttr transforms;
  bool tensorCores = false;
};

/// What the accesses of one buffer say about its layout.
struct BufferUses {
  /// The first op naming transforms, and what it names.
  Operation *namer = nullptr;
  ArrayAttr transforms;
  /// The first MMA reading the buffer tiled on the tensor cores, and the
  /// first op accessing its elements as the lanes do (row-major).
  Operation *tensorCores = nullptr, *elements = nullptr;
  /// Every element access.
  SmallVector<OpOperand *> elementUses;
  /// A use this pass cannot see through.
  bool opaque = false;
  /// The copies in and out of the buffer's views.
  SmallVector<Operation *> copies;
  /// Tensor-core MMAs reading the buffer with no transforms named.
  SmallVector<OpOperand *> unnamedMmaReads;
};

class TransformPropagation {
public:
  LogicalResult run(Operation *root) {
    // Every access of every shared buffer, in program order: the memref
    // operands of ops other than views, by the buffers they may be views
    // of.
    llvm::MapVector<Value, SmallVector<OpOperand *>> accesses;
    root->walk([&](Operation *op) {
      if (getViewSource(op, ViewChain::sameLayout) || isa<arith::SelectOp>(op))
        return;
      for (OpOperand &use : op->getOpOperands()) {
        if (!isa<BaseMemRefType>(use.get().getType()))
          continue;
        SmallVector<Value> found;
        collectViewedBuffers(use.get(), found, ViewChain::sameLayout);
        for (Value buffer : found)
          accesses[buffer].push_back(&use);
      }
    });
    for (auto &[buffer, uses] : accesses) {
      BufferUses found;
      if (failed(collectUses(uses, found)))
        return failure();
      if (!found.namer)
        inferMmaLayout(buffer, found);
      // Where another op names the layout, an MMA naming none reads the
      // buffer as the lanes do.
      if (found.namer && !found.unnamedMmaReads.empty()) {
        if (!found.elements)
          found.elements = found.unnamedMmaReads.front()->getOwner();
        llvm::append_range(found.elementUses, found.unnamedMmaReads);
      }
      if (found.namer && failed(settle(found)))
        return failure();
    }
    return success();
  }

private:
  /// The transforms a layout-aware op names for operand `use`; nothing for
  /// other ops.
  static std::optional<Named> getNamed(OpOperand &use) {
    Operation *op = use.getOwner();
    if (auto copy = dyn_cast<CopyGmemToSmemOp>(op);
        copy && use.get() == copy.getDst())
      return Named{copy.getTransformsAttr()};
    if (auto copy = dyn_cast<CopySmemToGmemOp>(op);
        copy && use.get() == copy.getSrc())
      return Named{copy.getTransformsAttr()};
    if (auto wgmma = dyn_cast<WgmmaOp>(op)) {
      if (use.getOperandNumber() == 0)
        return std::nullopt;
      ArrayAttr named = use.get() == wgmma.getA() ? wgmma.getATransformsAttr()
                                                  : wgmma.getBTransformsAttr();
      // Off the tensor cores a wgmma reads its operands as the lanes do.
      if (!named || !isOnTensorCores(wgmma))
        return std::nullopt;
      return Named{named, /*tensorCores=*/true};
    }
    if (auto mma = dyn_cast<Tcgen05MmaOp>(op)) {
      if (use.get() != mma.getA() && use.get() != mma.getB())
        return std::nullopt;
      ArrayAttr named = use.get() == mma.getA() ? mma.getATransformsAttr()
                                                : mma.getBTransformsAttr();
      if (!named)
        return std::nullopt;
      return Named{named, /*tensorCores=*/true};
    }
    return std::nullopt;
  }

  /// Whether `op` moves or reads no element of its memref operand `value`.
  static bool isNeutral(Operation *op, Value value) {
    // A byte copy between two buffers of one layout.
    if (isa<AsyncStoreSmemOp, memref::DimOp, memref::ExtractStridedMetadataOp,
            memref::DeallocOp, memref::ViewOp>(op))
      return true;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return false;
    SmallVector<MemoryEffects::EffectInstance> found;
    effects.getEffects(found);
    return llvm::none_of(found, [&](const MemoryEffects::EffectInstance &e) {
      return e.getValue() == value || !e.getValue();
    });
  }

  static LogicalResult collectUses(ArrayRef<OpOperand *> accesses,
                                   BufferUses &uses) {
    for (OpOperand *use : accesses) {
      Operation *op = use->getOwner();
      std::optional<Named> named = getNamed(*use);
      if (named && isa<CopyGmemToSmemOp, CopySmemToGmemOp>(op))
        uses.copies.push_back(op);
      if (named) {
        if (failed(noteNamed(op, *named, uses)))
          return failure();
        continue;
      }
      if (isNeutral(op, use->get()))
        continue;
      if (auto wgmma = dyn_cast<WgmmaOp>(op);
          wgmma && use->getOperandNumber() > 0 && isOnTensorCores(wgmma)) {
        uses.unnamedMmaReads.push_back(use);
        continue;
      }
      if (isa<MemoryEffectOpInterface, WgmmaOp>(op)) {
        if (!uses.elements)
          uses.elements = op;
        uses.elementUses.push_back(use);
        continue;
      }
      uses.opaque = true;
    }
    return success();
  }

  static LogicalResult noteNamed(Operation *op, const Named &named,
                                 BufferUses &uses) {
    if (named.tensorCores && !uses.tensorCores)
      uses.tensorCores = op;
    if (!named.transforms)
      return success();
    if (!uses.namer) {
      uses.namer = op;
      uses.transforms = named.transforms;
      return success();
    }
    if (uses.transforms == named.transforms)
      return success();
    InFlightDiagnostic diag =
        op->emitOpError()
        << "names transforms " << named.transforms
        << " for a shared buffer that another op lays out with "
        << uses.transforms << ": a buffer holds one layout";
    diag.attachNote(uses.namer->getLoc()) << "transforms named here";
    return diag;
  }

  /// Whether the element access `use` can go through a buffer's layout:
  /// a vector.transfer_read or transfer_write of a whole 2-d view whose
  /// rows are contiguous, at [0, 0] (each lane's pieces then stay in the
  /// swizzle's 16-byte chunks).
  static bool isWholeViewAccess(OpOperand &use) {
    auto transfer = dyn_cast<VectorTransferOpInterface>(use.getOwner());
    return transfer && use.get() == transfer.getBase() &&
           isWholeViewTransfer(use.getOwner());
  }

  /// Marks the element access `use` to go through the buffer's layout
  /// (the tensor cores' or the copies'), or says why it cannot.
  static LogicalResult accessThroughLayout(OpOperand &use,
                                           const BufferUses &uses) {
    Operation *op = use.getOwner();
    auto view = dyn_cast<MemRefType>(use.get().getType());
    if (!isWholeViewAccess(use)) {
      InFlightDiagnostic diag =
          op->emitOpError()
          << "accesses the elements of a shared buffer that the tensor cores "
             "read in the layout "
          << uses.transforms
          << ": the lanes go through that layout in a "
             "vector.transfer_read or transfer_write of a whole 2-d view "
             "with contiguous rows, at [0, 0]; access such a view or give "
             "the elements a buffer of their own";
      diag.attachNote(uses.tensorCores->getLoc())
          << "the tensor cores read it here";
      return diag;
    }
    if (failed(
            getSwizzledTiling(op, "the accessed view", uses.transforms, view)))
      return failure();
    op->setAttr(kAccessTransformsAttrName, uses.transforms);
    return success();
  }

  /// JAX's warpgroup semantics: a kernel buffer (scratch, at least a
  /// swizzle atom long, so it starts on one) that only tensor-core MMAs,
  /// copies naming nothing and whole-view lane accesses use gets the MMA
  /// layout of its rows (inferMmaTransforms), if the MMAs accept it.
  /// Pipeline slots get theirs from --mgpu-expand-pipelines.
  static void inferMmaLayout(Value buffer, BufferUses &uses) {
    auto type = dyn_cast<MemRefType>(buffer.getType());
    if (uses.unnamedMmaReads.empty() || uses.opaque ||
        !isa<BlockArgument>(buffer) || !type || !isWorkgroupMemRef(type) ||
        getBufferBytes(type.getShape(), type.getElementType()).value_or(0) <
            TargetInfo::kSwizzleAtomBytes)
      return;
    ArrayAttr transforms = inferMmaTransforms(type);
    if (!transforms)
      return;
    MLIRContext *ctx = type.getContext();
    ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
    for (OpOperand *use : uses.elementUses)
      if (!isWholeViewAccess(*use) ||
          failed(getSwizzledTiling(use->getOwner(), "the accessed view",
                                   transforms,
                                   cast<MemRefType>(use->get().getType()))))
        return;
    SmallVector<std::pair<WgmmaOp, StringAttr>> named;
    bool accepted = true;
    for (OpOperand *use : uses.unnamedMmaReads) {
      auto wgmma = cast<WgmmaOp>(use->getOwner());
      StringAttr name = use->get() == wgmma.getA()
                            ? wgmma.getATransformsAttrName()
                            : wgmma.getBTransformsAttrName();
      wgmma->setAttr(name, transforms);
      named.push_back({wgmma, name});
      accepted = accepted && succeeded(wgmma.verify());
    }
    // The copies must move whole tiles of the layout (settle names it on
    // them): tried here, where a refusal keeps the buffer row-major.
    for (Operation *copy : uses.copies) {
      setCopyTransforms(copy, transforms);
      auto in = dyn_cast<CopyGmemToSmemOp>(copy);
      accepted =
          accepted &&
          succeeded(in ? in.verify() : cast<CopySmemToGmemOp>(copy).verify());
      setCopyTransforms(copy, nullptr);
    }
    if (!accepted) {
      for (auto [wgmma, name] : named)
        wgmma->removeAttr(name);
      return;
    }
    uses.namer = uses.tensorCores = uses.unnamedMmaReads.front()->getOwner();
    uses.transforms = transforms;
    uses.unnamedMmaReads.clear();
  }

  static ArrayAttr getCopyTransforms(Operation *copy) {
    if (auto in = dyn_cast<CopyGmemToSmemOp>(copy))
      return in.getTransformsAttr();
    return cast<CopySmemToGmemOp>(copy).getTransformsAttr();
  }

  static void setCopyTransforms(Operation *copy, ArrayAttr transforms) {
    if (transforms)
      copy->setAttr("transforms", transforms);
    else
      copy->removeAttr("transforms");
  }

  static LogicalResult settle(BufferUses &uses) {
    // Where the lanes access whole views (JAX's `o_smem[...] = acc` of an
    // epilogue), they go through the buffer's layout, as JAX's lanes do;
    // other element accesses keep it row-major, and so the copies, unless
    // the tensor cores need it tiled: an error.
    bool wholeViews = llvm::all_of(uses.elementUses, [&](OpOperand *use) {
      if (!isWholeViewAccess(*use))
        return false;
      ScopedDiagnosticHandler quiet(use->getOwner()->getContext(),
                                    [](Diagnostic &) { return success(); });
      return succeeded(getSwizzledTiling(
          use->getOwner(), "the accessed view", uses.transforms,
          cast<MemRefType>(use->get().getType())));
    });
    if (uses.elements && !uses.tensorCores && (uses.opaque || !wholeViews)) {
      // The lanes read and write row-major, so the copies do too.
      if (!uses.opaque)
        for (Operation *copy : uses.copies)
          setCopyTransforms(copy, nullptr);
      return success();
    }
    for (OpOperand *use : uses.elementUses)
      if (failed(accessThroughLayout(*use, uses)))
        return failure();
    for (Operation *copy : uses.copies) {
      if (getCopyTransforms(copy))
        continue;
      setCopyTransforms(copy, uses.transforms);
      bool verified;
      {
        ScopedDiagnosticHandler quiet(copy->getContext(),
                                      [](Diagnostic &) { return success(); });
        auto in = dyn_cast<CopyGmemToSmemOp>(copy);
        verified =
            succeeded(in ? in.verify() : cast<CopySmemToGmemOp>(copy).verify());
      }
      if (!verified) {
        setCopyTransforms(copy, nullptr);
        InFlightDiagnostic diag =
            copy->emitOpError()
            << "copies a view of a shared buffer laid out with transforms "
            << uses.transforms
            << " that is not whole tiles of it: copy whole tiles";
        diag.attachNote(uses.namer->getLoc()) << "transforms named here";
        return diag;
      }
    }
    return success();
  }
};

struct PropagateTransformsPass
    : public mgpu::impl::MGPUPropagateTransformsBase<PropagateTransformsPass> {
  void runOnOperation() override {
    if (failed(TransformPropagation().run(getOperation())))
      signalPassFailure();
  }
};

} // namespace
