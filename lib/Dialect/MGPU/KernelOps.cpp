//===- KernelOps.cpp - pallas_call, mpmd_map and emit_pipeline ------------===//
//
// Verifiers of the kernel ops (pallas_call, mpmd_map, emit_pipeline), which
// encode the support rules S1-S11, S18-S28 and S40 of the Mosaic GPU backend
// (see SPEC section 4), and their memory effects. Messages that JAX emits
// are reproduced word for word with emitError (no op-name prefix); rules in
// our own wording use emitOpError.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/BlockSpecRules.h"
#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Dialect/MGPU/TensorMemory.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::mgpu;

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

/// S26: kernels are launched from host code, never from inside a kernel.
static LogicalResult verifyLaunchedFromHost(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (isa<PallasCallOp, MpmdMapOp, LaunchOp, gpu::GPUFuncOp, gpu::LaunchOp>(
            parent)) {
      InFlightDiagnostic diag =
          op->emitOpError() << "cannot be nested inside '" << parent->getName()
                            << "': kernels are launched from host code";
      diag.attachNote(parent->getLoc()) << "enclosing kernel is here";
      return diag;
    }
    if (isa<FunctionOpInterface>(parent))
      return success();
  }
  return op->emitOpError() << "must be inside a host function";
}

/// Whether every kernel operand is a tensor, or every one a memref, of
/// elements some backend handles (S29).
static LogicalResult verifyOperandForm(Operation *op, ValueRange operands) {
  if (operands.empty())
    return success();
  for (auto [i, operand] : llvm::enumerate(operands)) {
    // Host code passes arrays in global memory; a kernel stages its own
    // shared copies.
    if (isa<MemRefType>(operand.getType()) &&
        !isGlobalMemRef(operand.getType()))
      return op->emitOpError()
             << "operand #" << i
             << " must be a memref in global memory (no memory space), got "
             << operand.getType();
    Type element = cast<ShapedType>(operand.getType()).getElementType();
    if (!isBackendElementType(element))
      return op->emitOpError()
             << "operand #" << i << " has elements of type " << element
             << ", which no backend stages or computes on (i1, i4, i8, "
                "i16, i32, i64, index, f16, bf16, f32, f64, f8E4M3FN, "
                "f8E5M2, f8E8M0FNU, f6E2M3FN, f6E3M2FN, f4E2M1FN)";
  }
  bool tensors = isa<TensorType>(operands.front().getType());
  for (Value operand : operands)
    if (isa<TensorType>(operand.getType()) != tensors)
      return op->emitOpError()
             << "expects ins and outs to be all tensors or all memrefs";
  return success();
}

/// Scratch entries must be statically shaped memrefs or barrier arrays.
static LogicalResult verifyScratchTypes(Operation *op,
                                        std::optional<ArrayAttr> scratch) {
  if (!scratch)
    return success();
  for (auto [i, attr] : llvm::enumerate(*scratch)) {
    Type type = cast<TypeAttr>(attr).getValue();
    if (isa<BarrierLikeType, TmemType>(type))
      continue;
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref || !memref.hasStaticShape())
      return op->emitOpError() << "scratch[" << i
                               << "] must be a statically shaped memref, a "
                                  "!mgpu.barrier, a !mgpu.cluster_barrier or a "
                                  "!mgpu.tmem, "
                                  "got "
                               << type;
    if (!isGlobalMemRef(memref) && !isWorkgroupMemRef(memref))
      return op->emitOpError()
             << "scratch[" << i
             << "] must be in global memory (no memory space) or shared "
                "memory (#gpu.address_space<workgroup>), got "
             << type;
    // The backends zero-fill and compute on scratch: no signed, unsigned or
    // other unhandled element type (S29).
    if (!isBackendElementType(memref.getElementType()))
      return op->emitOpError() << "scratch[" << i << "] has elements of type "
                               << memref.getElementType()
                               << ", which no backend stages or computes on";
  }
  SmallVector<Type> types = llvm::map_to_vector(
      *scratch, [](Attribute a) { return cast<TypeAttr>(a).getValue(); });
  return verifyTmemScratch(op, types);
}

/// S22: the region's arguments are the operands' blocks, then the scratch.
static LogicalResult verifyRegionArguments(
    Operation *op, Region &region, StringRef regionName,
    ArrayRef<Type> expected, ArrayRef<std::string> origins,
    StringRef what = "one per input, output and scratch buffer") {
  Block &block = region.front();
  if (block.getNumArguments() != expected.size())
    return op->emitOpError()
           << regionName << " has " << block.getNumArguments()
           << " arguments, expected " << expected.size() << " (" << what << ")";
  for (auto [i, arg, type] : llvm::enumerate(block.getArguments(), expected)) {
    if (arg.getType() == type)
      continue;
    InFlightDiagnostic diag = op->emitOpError()
                              << regionName << " argument #" << i << " (for "
                              << origins[i] << ") has type " << arg.getType()
                              << ", expected " << type;
    return diag;
  }
  return success();
}

static void addKernelEffects(
    MutableOperandRange ins, MutableOperandRange outs,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : ins)
    if (isa<MemRefType>(operand.get().getType()))
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
  for (OpOperand &operand : outs) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    effects.emplace_back(MemoryEffects::Read::get(), &operand,
                         SideEffects::DefaultResource::get());
    effects.emplace_back(MemoryEffects::Write::get(), &operand,
                         SideEffects::DefaultResource::get());
  }
  // A memref-form kernel without outputs still runs (it may print, signal,
  // or be a test's subject): it is never dead.
  bool hasOutputs = llvm::any_of(outs, [](OpOperand &operand) {
    return isa<MemRefType>(operand.get().getType());
  });
  bool tensorForm = llvm::any_of(ins, [](OpOperand &operand) {
    return isa<TensorType>(operand.get().getType());
  });
  if (!hasOutputs && !tensorForm)
    effects.emplace_back(MemoryEffects::Write::get(),
                         SideEffects::DefaultResource::get());
}

/// `ins[i]`, `outs[i]`, `scratch[i]`: how messages name an operand.
static SmallVector<std::string> getOriginNames(size_t numIns, size_t numOuts,
                                               size_t numScratch) {
  SmallVector<std::string> names;
  for (size_t i = 0; i < numIns; ++i)
    names.push_back("ins[" + std::to_string(i) + "]");
  for (size_t i = 0; i < numOuts; ++i)
    names.push_back("outs[" + std::to_string(i) + "]");
  for (size_t i = 0; i < numScratch; ++i)
    names.push_back("scratch[" + std::to_string(i) + "]");
  return names;
}

static size_t getNumScratch(std::optional<ArrayAttr> scratch) {
  return scratch ? scratch->size() : 0;
}

//===----------------------------------------------------------------------===//
// PallasCallOp
//===----------------------------------------------------------------------===//

BlockSpecAttr PallasCallOp::getInSpec(unsigned i) {
  return i < getInSpecs().size() ? dyn_cast<BlockSpecAttr>(getInSpecs()[i])
                                 : BlockSpecAttr();
}

BlockSpecAttr PallasCallOp::getOutSpec(unsigned i) {
  return i < getOutSpecs().size() ? dyn_cast<BlockSpecAttr>(getOutSpecs()[i])
                                  : BlockSpecAttr();
}

MeshAttr PallasCallOp::getMeshAttrOrNull() {
  return dyn_cast_or_null<MeshAttr>(getMeshAttr());
}

void PallasCallOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addKernelEffects(getInsMutable(), getOutsMutable(), effects);
}

/// S18-S20 for an op with block specs: one spec per input and output, each
/// fitting its operand; the operands are named `inName[i]`, `outName[i]`.
/// Index maps have at most `symbols` symbols (the values an emit_pipeline
/// binds; a pallas_call's maps take the grid indices alone).
template <typename OpTy>
static LogicalResult verifyBlockSpecs(OpTy op, size_t gridRank,
                                      StringRef inName, StringRef outName,
                                      size_t symbols = 0) {
  if (op.getInSpecs().size() != op.getIns().size())
    return op.emitOpError()
           << "expects one in_spec per input: got " << op.getInSpecs().size()
           << " in_specs for " << op.getIns().size() << " inputs";
  if (op.getOutSpecs().size() != op.getOuts().size())
    return op.emitOpError()
           << "expects one out_spec per output: got " << op.getOutSpecs().size()
           << " out_specs for " << op.getOuts().size() << " outputs";
  auto verifyEach = [&](ValueRange operands, ArrayAttr specs,
                        StringRef name) -> LogicalResult {
    for (auto [i, operand] : llvm::enumerate(operands)) {
      std::string what = (name + "[" + Twine(i) + "]").str();
      if (failed(
              verifyBlockSpec(op, gridRank, what, operand.getType(), specs[i])))
        return failure();
      AffineMapAttr map = cast<BlockSpecAttr>(specs[i]).getIndexMap();
      if (map.getValue().getNumSymbols() <= symbols)
        continue;
      if (symbols == 0 && !isa<EmitPipelineOp>(op)) {
        InFlightDiagnostic diag =
            op.emitOpError()
            << "block index_map must not have symbols, got " << map;
        diag.attachNote() << "a pallas_call's index maps take its grid "
                             "indices alone; an emit_pipeline binds captured "
                             "values with index_map_symbols(..)";
        return diag;
      }
      return op.emitOpError()
             << "expects the index map of " << what << " to have at most "
             << symbols << " symbols (index_map_symbols), got " << map;
    }
    return success();
  };
  if (failed(verifyEach(op.getIns(), op.getInSpecs(), inName)))
    return failure();
  return verifyEach(op.getOuts(), op.getOutSpecs(), outName);
}

/// The types a body sees for `operands` with `specs`: a staged block in
/// shared memory, else the whole array.
static void appendBlockTypes(ValueRange operands, ArrayAttr specs,
                             SmallVectorImpl<Type> &types) {
  for (auto [operand, specAttr] : llvm::zip(operands, specs)) {
    auto spec = cast<BlockSpecAttr>(specAttr);
    types.push_back(spec.isStaged()
                        ? getStagedBlockType(operand.getType(), spec)
                        : getGlobalRefType(operand.getType()));
  }
}

LogicalResult PallasCallOp::verify() {
  if (failed(verifyLaunchedFromHost(*this)))
    return failure();

  // S1.
  Attribute mesh = getMeshAttr();
  if (mesh && !isa<MeshAttr>(mesh)) {
    InFlightDiagnostic diag = emitError()
                              << "Mesh " << mesh
                              << " is not supported by the Mosaic GPU backend";
    diag.attachNote() << "use a #mgpu.mesh<...> attribute";
    return diag;
  }
  if (auto meshAttr = dyn_cast_or_null<MeshAttr>(mesh);
      meshAttr && failed(verifyMeshThreads(*this, meshAttr)))
    return failure();

  // The grid: one operand per dynamic size; S40, S6.
  ArrayRef<int64_t> grid = getStaticGrid();
  if (failed(verifyListOfOperandsOrIntegers(*this, "grid", grid.size(), grid,
                                            getGrid())))
    return failure();
  // S40. JAX checks the sequential axes only, as its emit_pipeline's grid;
  // for a parallel axis the jax profile prints the whole grid.
  CompilerParamsAttr params = getParamsAttr();
  if (failed(verifyGridSizes(*this, grid, [&](unsigned bad) {
        SmallVector<int64_t> steps;
        for (auto [d, size] : llvm::enumerate(grid))
          if (!isSequential(params, bad) || isSequential(params, d))
            steps.push_back(size);
        return steps;
      })))
    return failure();
  bool jax = getEffectiveTarget(*this).isJaxProfile();
  if (!getGrid().empty() && jax) {
    InFlightDiagnostic diag =
        emitError()
        << "dynamic grid bounds not supported in the Mosaic GPU backend";
    diag.attachNote() << "the extended profile (the default) supports "
                         "dynamic grids";
    return diag;
  }

  if (failed(verifyOperandForm(
          *this, getOperation()->getOperands().drop_front(getGrid().size()))))
    return failure();

  // S18-S20. JAX names the operands args[i] and outputs[i]
  // (jax/_src/pallas/pallas_call.py:1284-1285 at jax-ml/jax cec06d1).
  if (failed(verifyBlockSpecs(*this, grid.size(), jax ? "args" : "ins",
                              jax ? "outputs" : "outs")))
    return failure();
  // JAX's pallas_call reads only blocked and squeezed dimensions
  // (jax/_src/pallas/mosaic_gpu/lowering.py:727-731 at cec06d1); its
  // emit_pipeline reads element ones too.
  if (jax)
    for (Attribute spec :
         llvm::concat<const Attribute>(getInSpecs(), getOutSpecs()))
      if (llvm::is_contained(cast<BlockSpecAttr>(spec).getIndexing(),
                             BlockIndexing::element))
        return emitError() << "Only Blocked indexing mode is supported in "
                              "Mosaic GPU lowering.";

  if (failed(verifyScratchTypes(*this, getScratch())) ||
      failed(verifyDelayRelease(*this, getInSpecs(), getOutSpecs(), params,
                                /*warpSpecialized=*/false)) ||
      failed(verifyCollectiveBlocks(*this, getInSpecs(), getOutSpecs(),
                                    /*pipeline=*/false,
                                    /*warpSpecialized=*/false)))
    return failure();
  if (std::optional<ArrayAttr> scratch = getScratch())
    for (Attribute attr : *scratch)
      if (auto barrier =
              dyn_cast<ClusterBarrierType>(cast<TypeAttr>(attr).getValue()))
        if (failed(
                verifyClusterBarrierAxes(*this, barrier, getMeshAttrOrNull())))
          return failure();

  // The kernel form stages nothing itself.
  if (getExpanded())
    for (Attribute spec :
         llvm::concat<const Attribute>(getInSpecs(), getOutSpecs()))
      if (cast<BlockSpecAttr>(spec).isStaged())
        return emitOpError() << "is expanded (its body stages blocks itself), "
                                "so every block must be in gmem";

  // S21.
  if (params && !params.getDimensionSemantics().empty() &&
      params.getDimensionSemantics().size() != grid.size())
    return emitOpError() << "dimension_semantics has "
                         << params.getDimensionSemantics().size()
                         << " entries, but the grid has rank " << grid.size();

  // S11.
  if (auto meshAttr = getMeshAttrOrNull()) {
    SmallVector<int64_t> meshShape = meshAttr.getShape();
    if (ArrayRef<int64_t>(meshShape) != grid) {
      InFlightDiagnostic diag = emitError()
                                << "Mesh shape " << formatTuple(meshShape)
                                << " does not match grid shape "
                                << formatTuple(grid) << ".";
      diag.attachNote() << "the grid must list the mesh's grid, cluster and "
                           "thread sizes in order";
      return diag;
    }
  }

  // S28: the launch the programs make.
  {
    SmallVector<int64_t> ctaSizes;
    ArrayRef<int64_t> cluster;
    if (MeshAttr meshAttr = getMeshAttrOrNull()) {
      ctaSizes.assign(meshAttr.getGrid().begin(), meshAttr.getGrid().end());
      cluster = meshAttr.getCluster();
    } else {
      for (auto [d, size] : llvm::enumerate(grid))
        if (!isSequential(params, d))
          ctaSizes.push_back(size);
    }
    if (failed(verifyLaunchLimits(*this, ctaSizes, cluster)))
      return failure();
  }

  // S25, counted as JAX's pipeline counts buffers: max_concurrent_steps,
  // but no more than the steps of the sequential axes when they are known.
  // Without sequential axes (one step) every block is fetched once.
  int64_t buffers = params ? params.getMaxConcurrentSteps() : 1;
  int64_t steps = 1;
  bool known = true;
  for (auto [d, size] : llvm::enumerate(grid)) {
    if (!isSequential(params, d))
      continue;
    if (ShapedType::isDynamic(size))
      known = false;
    else
      steps = addBytes(0, steps, size);
  }
  if (known)
    buffers = std::min(buffers, steps);
  int64_t smemBytes = getWorkgroupScratchBytes(getScratch());
  auto addStaged = [&](ValueRange operands, ArrayAttr specs) {
    for (auto [operand, specAttr] : llvm::zip(operands, specs)) {
      auto spec = cast<BlockSpecAttr>(specAttr);
      if (spec.isStaged())
        smemBytes = addBytes(
            smemBytes,
            getBufferBytes(spec.getShape(),
                           cast<ShapedType>(operand.getType()).getElementType())
                .value_or(0),
            buffers);
    }
  };
  addStaged(getIns(), getInSpecs());
  addStaged(getOuts(), getOutSpecs());
  return verifySharedMemoryBudget(*this, smemBytes, buffers);
}

LogicalResult PallasCallOp::verifyRegions() {
  SmallVector<Type> expected;
  appendBlockTypes(getIns(), getInSpecs(), expected);
  appendBlockTypes(getOuts(), getOutSpecs(), expected);
  if (std::optional<ArrayAttr> scratch = getScratch())
    for (Attribute attr : *scratch)
      expected.push_back(cast<TypeAttr>(attr).getValue());
  if (failed(verifyRegionArguments(
          *this, getBody(), "body", expected,
          getOriginNames(getIns().size(), getOuts().size(),
                         getNumScratch(getScratch())))))
    return failure();
  return verifyKernelValueTypes(*this, getBody());
}

//===----------------------------------------------------------------------===//
// MpmdMapOp
//===----------------------------------------------------------------------===//

MeshAttr MpmdMapOp::getMeshAttrOrNull(unsigned i) {
  return i < getMeshes().size() ? dyn_cast<MeshAttr>(getMeshes()[i])
                                : MeshAttr();
}

void MpmdMapOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addKernelEffects(getInsMutable(), getOutsMutable(), effects);
}

/// S2, then S16/S28 (its threads), for one entry of `meshes` or
/// `external_meshes`.
static LogicalResult verifyIsMesh(MpmdMapOp op, Attribute mesh) {
  if (auto meshAttr = dyn_cast<MeshAttr>(mesh))
    return verifyMeshThreads(op, meshAttr);
  InFlightDiagnostic diag = op.emitError()
                            << "Mesh " << mesh
                            << " is not supported by the Mosaic GPU backend";
  diag.attachNote() << "use a #mgpu.mesh<...> attribute";
  return diag;
}

LogicalResult MpmdMapOp::verify() {
  if (failed(verifyLaunchedFromHost(*this)))
    return failure();

  // S7, S2, S8.
  if (getBodies().empty())
    return emitError() << "At least one mesh/function pair is required";
  ArrayAttr external = getExternalMeshesAttr();
  for (Attribute mesh : getMeshes())
    if (failed(verifyIsMesh(*this, mesh)))
      return failure();
  if (external)
    for (Attribute mesh : external)
      if (failed(verifyIsMesh(*this, mesh)))
        return failure();
  if (getMeshes().size() != getBodies().size()) {
    InFlightDiagnostic diag = emitError() << "expected " << getMeshes().size()
                                          << " regions, one per mesh, got "
                                          << getBodies().size();
    diag.attachNote() << "mesh i runs region i: give one region per mesh";
    return diag;
  }

  // S3-S5 (jax profile).
  if (getEffectiveTarget(*this).isJaxProfile()) {
    auto jaxError = [&](StringRef message) {
      InFlightDiagnostic diag = emitError() << message;
      diag.attachNote() << "the extended profile (the default) supports this";
      return diag;
    };
    if (getMeshes().size() > 1)
      return jaxError("Lowering multiple mesh/function pairs is not "
                      "supported by the Mosaic GPU backend");
    if (external && !external.empty())
      return jaxError(
          "External meshes are not supported by the Mosaic GPU backend");
    int64_t internal = 0;
    if (auto count = (*this)->getAttrOfType<IntegerAttr>(
            MGPUDialect::getInternalScratchAttrName()))
      internal = count.getInt();
    if (getScratch() && int64_t(getScratch()->size()) > internal)
      return jaxError("Scratch operands are not supported by the Mosaic GPU "
                      "mpmd_map lowering");
  }

  // S27 (jax profile): JAX refuses a ref passed twice.
  if (getEffectiveTarget(*this).isJaxProfile()) {
    llvm::SmallPtrSet<Value, 8> seen;
    for (Value operand : getOperation()->getOperands())
      if (!seen.insert(operand).second) {
        InFlightDiagnostic diag =
            emitError()
            << "Cannot pass the same ref into a mpmd map multiple times";
        diag.attachNote() << "the extended profile (the default) supports "
                             "this";
        return diag;
      }
  }

  // S9.
  if (CompilerParamsAttr params = getParamsAttr();
      params && !params.getDimensionSemantics().empty()) {
    InFlightDiagnostic diag = emitError() << "dimension_semantics= is not "
                                             "supported by the unpipelined "
                                             "lowering";
    diag.attachNote() << "mpmd_map is not pipelined: remove "
                         "dimension_semantics from params";
    return diag;
  }

  // S10: the super-mesh.
  llvm::StringMap<int64_t> axisSizes;
  SmallVector<Attribute> allMeshes(getMeshes().begin(), getMeshes().end());
  if (external)
    llvm::append_range(allMeshes, external);
  for (Attribute attr : allMeshes) {
    for (auto [name, size] : cast<MeshAttr>(attr).getNamedAxes()) {
      auto [it, inserted] = axisSizes.try_emplace(name.getValue(), size);
      if (!inserted && it->second != size)
        return emitError() << "Conflicting size for axis " << name.getValue()
                           << ": " << it->second << " and " << size;
    }
  }

  if (failed(verifyOperandForm(*this, getOperation()->getOperands())) ||
      failed(verifyScratchTypes(*this, getScratch())))
    return failure();

  // S28: each mesh's launch (the pairs may share one).
  for (Attribute attr : getMeshes())
    if (failed(verifyLaunchLimits(*this, cast<MeshAttr>(attr).getGrid(),
                                  cast<MeshAttr>(attr).getCluster())))
      return failure();

  // S25: shared-memory scratch is the only static shared memory here.
  return verifySharedMemoryBudget(*this, getWorkgroupScratchBytes(getScratch()),
                                  std::nullopt);
}

LogicalResult MpmdMapOp::verifyRegions() {
  SmallVector<Type> expected;
  for (Value operand : getOperation()->getOperands())
    expected.push_back(getGlobalRefType(operand.getType()));
  if (std::optional<ArrayAttr> scratch = getScratch())
    for (Attribute attr : *scratch)
      expected.push_back(cast<TypeAttr>(attr).getValue());
  SmallVector<std::string> origins = getOriginNames(
      getIns().size(), getOuts().size(), getNumScratch(getScratch()));
  for (auto [i, region] : llvm::enumerate(getBodies()))
    if (failed(verifyRegionArguments(*this, region,
                                     "region #" + std::to_string(i), expected,
                                     origins)) ||
        failed(verifyKernelValueTypes(*this, region)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// EmitPipelineOp
//===----------------------------------------------------------------------===//

void EmitPipelineOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addKernelEffects(getInsMutable(), getOutsMutable(), effects);
  // The body may also touch what it captures from the kernel.
  effects.emplace_back(MemoryEffects::Read::get(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(),
                       SideEffects::DefaultResource::get());
}

LogicalResult EmitPipelineOp::verify() {
  if (failed(verifyInsideKernel(*this)))
    return failure();
  ArrayRef<int64_t> grid = getStaticGrid();
  if (failed(verifyListOfOperandsOrIntegers(*this, "grid", grid.size(), grid,
                                            getGrid())))
    return failure();
  if (failed(verifyGridSizes(*this, grid,
                             [&](unsigned) { return llvm::to_vector(grid); })))
    return failure();
  for (auto [i, operand] : llvm::enumerate(getOperation()->getOperands().slice(
           getGrid().size(), getIns().size() + getOuts().size())))
    if (isWorkgroupMemRef(operand.getType())) {
      InFlightDiagnostic diag = emitOpError()
                                << "pipelines global-memory refs, but operand #"
                                << i << " is in shared memory";
      diag.attachNote() << "pass the kernel's global refs (or subviews of "
                           "them); the pipeline stages their blocks itself";
      return diag;
    }
  if (failed(verifyBlockSpecs(*this, grid.size(), "ins", "outs",
                              getIndexMapSymbols().size())))
    return failure();
  if (CompilerParamsAttr params = getParamsAttr();
      params && !params.getDimensionSemantics().empty()) {
    InFlightDiagnostic diag = emitOpError()
                              << "runs its steps in order: "
                                 "dimension_semantics does not apply";
    diag.attachNote() << "remove dimension_semantics from params";
    return diag;
  }
  if (failed(verifyDelayRelease(*this, getInSpecs(), getOutSpecs(),
                                getParamsAttr(),
                                bool(getWarpSpecializationAttr()))) ||
      failed(verifyCollectiveBlocks(*this, getInSpecs(), getOutSpecs(),
                                    /*pipeline=*/true,
                                    bool(getWarpSpecializationAttr()))))
    return failure();
  return verifyWarpSpecialization(*this);
}

LogicalResult EmitPipelineOp::verifyRegions() {
  SmallVector<Type> expected(getStaticGrid().size(),
                             IndexType::get(getContext()));
  SmallVector<std::string> origins;
  for (size_t d = 0; d < getStaticGrid().size(); ++d)
    origins.push_back("grid index " + std::to_string(d));
  appendBlockTypes(getIns(), getInSpecs(), expected);
  appendBlockTypes(getOuts(), getOutSpecs(), expected);
  llvm::append_range(origins,
                     getOriginNames(getIns().size(), getOuts().size(), 0));
  // JAX's ready_barrier.at[slot] and consumed_barrier.at[slot], one per
  // input each: the body waits for the copy on the first; every compute
  // thread arrives on the second once per step.
  size_t numIns = getIns().size();
  size_t firstReady = expected.size();
  if (hasManualReadyBarriers())
    for (size_t i = 0; i < numIns; ++i) {
      expected.push_back(BarrierType::get(getContext(), 1, 1));
      origins.push_back("ready barrier of ins[" + std::to_string(i) + "]");
    }
  size_t firstConsumed = expected.size();
  if (hasManualConsumedBarriers()) {
    MeshAttr mesh = getEnclosingMesh(*this);
    int64_t computeThreads = (mesh ? mesh.getNumThreads().value_or(1) : 1) - 1;
    for (size_t i = 0; i < numIns; ++i) {
      expected.push_back(BarrierType::get(
          getContext(), 1, std::max<int64_t>(computeThreads, 1)));
      origins.push_back("consumed barrier of ins[" + std::to_string(i) + "]");
    }
  }
  EvalPipelineOp eval = getEvalPipeline();
  TypeRange carried = eval ? TypeRange(eval.getInitCarry().getTypes())
                           : TypeRange(getInitCarry().getTypes());
  for (auto [i, type] : llvm::enumerate(carried)) {
    expected.push_back(type);
    origins.push_back("carry " + std::to_string(i));
  }
  if (failed(verifyPipelineCarries(*this)) ||
      failed(verifyRegionArguments(*this, getBody(), "body", expected, origins,
                                   "grid indices, one per input and output "
                                   "block, ready and consumed barriers, "
                                   "carries")))
    return failure();
  ValueRange args = getBody().getArguments();
  if (hasManualReadyBarriers() &&
      failed(verifyPipelineBarrierUses(*this, args.slice(firstReady, numIns),
                                       /*ready=*/true)))
    return failure();
  if (hasManualConsumedBarriers() &&
      failed(verifyPipelineBarrierUses(*this, args.slice(firstConsumed, numIns),
                                       /*ready=*/false)))
    return failure();
  return success();
}
