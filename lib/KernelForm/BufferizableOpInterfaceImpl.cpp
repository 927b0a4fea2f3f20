//===- BufferizableOpInterfaceImpl.cpp - Bufferizing kernel ops -----------===//
//
// BufferizableOpInterface for pallas_call and mpmd_map. Both are
// destination-passing: inputs are read, outputs are read and written, and
// each tensor result is equivalent to its `outs` init. An input passed again
// as an init (JAX's input_output_aliases) is updated in place when the op
// touches both element-wise: a pallas_call whose two operands have the same
// staged block spec reads each block into shared memory before it writes
// that block back. A whole-array input ref (a GMEM block spec, every
// mpmd_map ref) is the output's buffer, as in Pallas: what the body writes
// through either ref is the result, in place or, where the one-shot
// analysis gives the output a copy, in that copy. Other staged inputs read
// the input's values as they were before the kernel (the analysis copies
// the output when a block could be overwritten before it is read).
//
//===----------------------------------------------------------------------===//

#include "mgpu/KernelForm/BufferizableOpInterfaceImpl.h"

#include "mgpu/Dialect/MGPU/MGPURules.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace mlir::mgpu;

namespace {

/// The block spec of a pallas_call operand, null for the grid sizes.
BlockSpecAttr getSpecOf(PallasCallOp op, OpOperand *operand) {
  unsigned index = operand->getOperandNumber();
  unsigned firstIn = op.getGrid().size();
  unsigned firstOut = firstIn + op.getIns().size();
  if (index >= firstOut)
    return op.getOutSpec(index - firstOut);
  if (index >= firstIn)
    return op.getInSpec(index - firstIn);
  return {};
}

/// Whether region argument `index` of `op` is a whole array in global memory
/// (its type follows the operand's buffer) rather than a staged block.
bool isGlobalRefArgument(Operation *op, unsigned index) {
  auto call = dyn_cast<PallasCallOp>(op);
  if (!call)
    return true;
  unsigned numIns = call.getIns().size();
  BlockSpecAttr spec =
      index < numIns ? call.getInSpec(index) : call.getOutSpec(index - numIns);
  return !spec.isStaged();
}

/// The (input, output) operand numbers of each tensor input that `op`
/// takes again as an output init (input_output_aliases) and whose region
/// argument is the whole array (a GMEM block, any mpmd_map ref): the body
/// may write through it, and what it writes is the output.
template <typename KernelOp>
SmallVector<std::pair<unsigned, unsigned>> getAliasedOperands(KernelOp op) {
  SmallVector<std::pair<unsigned, unsigned>> aliases;
  unsigned firstIn =
      op->getNumOperands() - op.getIns().size() - op.getOuts().size();
  unsigned firstOut = firstIn + op.getIns().size();
  for (unsigned in = firstIn; in < firstOut; ++in) {
    Value input = op->getOperand(in);
    if (!isa<TensorType>(input.getType()) ||
        !isGlobalRefArgument(op, in - firstIn))
      continue;
    for (unsigned out = firstOut; out < op->getNumOperands(); ++out)
      if (op->getOperand(out) == input) {
        aliases.push_back({in, out});
        break;
      }
  }
  return aliases;
}

template <typename KernelOp>
struct KernelOpInterface : public DstBufferizableOpInterfaceExternalModel<
                               KernelOpInterface<KernelOp>, KernelOp> {
  bool bufferizesToElementwiseAccess(Operation *op, const AnalysisState &state,
                                     ArrayRef<OpOperand *> operands) const {
    auto call = dyn_cast<PallasCallOp>(op);
    if (!call)
      return false;
    BlockSpecAttr common;
    for (OpOperand *operand : operands) {
      BlockSpecAttr spec = getSpecOf(call, operand);
      if (!spec || !spec.isStaged() || (common && spec != common))
        return false;
      common = spec;
    }
    return true;
  }

  /// An aliased input is read through the output's buffer (see
  /// resolveConflicts), so the op's own write of that buffer does not
  /// conflict with it, whether or not the output is in place.
  bool isNotConflicting(Operation *op, OpOperand *uRead, OpOperand *uWrite,
                        const AnalysisState &state) const {
    if (uRead->getOwner() != op || uWrite->getOwner() != op)
      return false;
    return llvm::is_contained(
        getAliasedOperands(cast<KernelOp>(op)),
        std::make_pair(uRead->getOperandNumber(), uWrite->getOperandNumber()));
  }

  /// An input passed again as an init (input_output_aliases) is one buffer
  /// with the output, as in Pallas: what the body writes through either ref
  /// is the result. Where the analysis gives the output a copy, the input
  /// becomes that copy too (it holds the input's values when the kernel
  /// starts), so both refs still name one array.
  LogicalResult resolveConflicts(Operation *op, RewriterBase &rewriter,
                                 const AnalysisState &analysisState,
                                 const BufferizationState &state) const {
    SmallVector<std::pair<unsigned, unsigned>> aliases =
        getAliasedOperands(cast<KernelOp>(op));
    if (failed(
            cast<BufferizableOpInterface>(op).resolveTensorOpOperandConflicts(
                rewriter, analysisState, state)))
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      for (auto [in, out] : aliases)
        op->setOperand(in, op->getOperand(out));
    });
    return success();
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto kernel = cast<KernelOp>(op);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(op);

    // Operands: tensors become their buffers, everything else stays.
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      if (!isa<TensorType>(operand.getType())) {
        operands.push_back(operand);
        continue;
      }
      FailureOr<Value> buffer = getBuffer(rewriter, operand, options, state);
      if (failed(buffer))
        return failure();
      operands.push_back(*buffer);
    }

    unsigned firstIn =
        op->getNumOperands() - kernel.getIns().size() - kernel.getOuts().size();

    // The same op in memref form: same properties, no results.
    OperationState newState(op->getLoc(), op->getName());
    newState.addOperands(operands);
    newState.propertiesAttr = op->getPropertiesAsAttribute();
    newState.addAttributes(llvm::to_vector(op->getDiscardableAttrs()));
    for (unsigned i = 0, e = op->getNumRegions(); i < e; ++i)
      newState.addRegion();
    Operation *newOp = rewriter.create(newState);

    // Whole-array region arguments take the buffers' types (which may carry
    // a layout); a cast keeps the body's view of them unchanged.
    ValueRange refs = ValueRange(operands).drop_front(firstIn);
    for (auto [oldRegion, newRegion] :
         llvm::zip(op->getRegions(), newOp->getRegions())) {
      rewriter.inlineRegionBefore(oldRegion, newRegion, newRegion.end());
      Block &body = newRegion.front();
      rewriter.setInsertionPointToStart(&body);
      for (auto [index, ref] : llvm::enumerate(refs)) {
        BlockArgument arg = body.getArgument(index);
        if (arg.getType() == ref.getType() || !isGlobalRefArgument(op, index))
          continue;
        Type viewType = arg.getType();
        arg.setType(ref.getType());
        auto view =
            memref::CastOp::create(rewriter, arg.getLoc(), viewType, arg);
        rewriter.replaceAllUsesExcept(arg, view, view);
      }
    }

    replaceOpWithBufferizedValues(rewriter, op,
                                  refs.take_back(kernel.getOuts().size()));
    return success();
  }
};

} // namespace

void mlir::mgpu::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, MGPUDialect *) {
    PallasCallOp::attachInterface<KernelOpInterface<PallasCallOp>>(*ctx);
    MpmdMapOp::attachInterface<KernelOpInterface<MpmdMapOp>>(*ctx);
  });
}
