//===- Pipelines.cpp - mgpu pass pipelines --------------------------------===//
//
// The pipelines compose the mgpu passes with upstream conversions. Each stage
// is listed explicitly (rather than through convert-to-llvm's interface
// registry) so that the pipelines work in any tool that links MGPUPipelines.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Pipelines.h"
#include "mgpu/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir;
using namespace mlir::mgpu;

/// Upstream canonicalization less gpu's SimplifyDimOfAllocOp: in LLVM 22 it
/// asks a memref type whether a memref.dim's constant index names a dynamic
/// dimension before checking that the index is in range, and crashes on one
/// that is not (llvm-project#205073, fixed after 22.1). Such a dim is
/// undefined behaviour that the host backends report at run time; the
/// pattern only folds dims of gpu.alloc, which no pipeline creates.
static std::unique_ptr<Pass> createCanonicalizer() {
  static const std::string disabled[] = {
      "(anonymous namespace)::SimplifyDimOfAllocOp"};
  return createCanonicalizerPass(GreedyRewriteConfig(), disabled);
}

/// LLVM has no f8 or f6 types (their values live in i8 and i6): arithmetic
/// on them is done in f32 and the conversions are integer code
/// (--mgpu-expand-f8). After
/// the canonicalizations that would fold a conversion chain into one
/// `sitofp i32 -> f8`, which no backend lowers.
static void addF8Passes(OpPassManager &pm) {
  // First the f8E8M0FNU reciprocals (an integer subtraction), before the
  // emulation widens every division.
  pm.addPass(createMGPUExpandF8());
  arith::ArithEmulateUnsupportedFloatsOptions f8;
  f8.sourceTypeStrs = {"f8E4M3FN",   "f8E5M2",  "f8E4M3",    "f8E5M2FNUZ",
                       "f8E4M3FNUZ", "f8E3M4",  "f8E8M0FNU", "f6E2M3FN",
                       "f6E3M2FN",   "f4E2M1FN"};
  pm.addPass(arith::createArithEmulateUnsupportedFloats(f8));
  pm.addPass(createMGPUExpandF8());
}

/// Strided memref views as a base pointer and offset arithmetic (which
/// expand-strided-metadata writes as affine.apply).
static void addStridedMetadataExpansion(OpPassManager &pm) {
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
}

/// Host code with loops, vectors and memrefs to the LLVM dialect: what
/// remains of a module once its kernels are host loops.
static void addHostToLLVMPasses(OpPassManager &pm) {
  pm.addPass(createMGPUWidenContractions());
  pm.addPass(createCanonicalizer());
  addF8Passes(pm);
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // convert-vector-to-llvm does not lower vector.multi_reduction.
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMultiReductionPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createMGPUHoistAllocas());
  pm.addPass(createMGPUByteBoolVectors());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  addStridedMetadataExpansion(pm);
  // Math first: convert-math-to-libm calls libm element by element for the
  // functions LLVM has no intrinsic for (erf, tanh, atan2), with
  // vector.extract and vector.insert that the vector lowering then takes.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertOpenMPToLLVMPass());
  // Vector lowerings (transpose, multi_reduction, ...) leave ub.poison.
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizer());
}

/// The kernel form, shared by every backend: pipelines expanded into step
/// loops over kernel-level ops, barrier phases explicit. With tensor cores,
/// blocks that only wgmma reads are staged in their tiled, swizzled layout.
static void addKernelFormPasses(OpPassManager &pm, bool identityLayout,
                                bool tensorCores = true,
                                bool hostLoops = false) {
  MGPUBufferizeOptions bufferize;
  bufferize.identityLayout = identityLayout;
  pm.addPass(createMGPUBufferize(bufferize));
  MGPUPackSubByteOptions pack;
  pack.scalarLoops = hostLoops;
  pm.addPass(createMGPUPackSubByte(pack));
  pm.addPass(createMGPUProfileKernels());
  pm.addPass(createMGPULowerRunScoped());
  pm.addPass(createMGPUExpandCopyPredicates());
  pm.addPass(createMGPUContractToWgmma());
  MGPUSelectTensorCoresOptions select;
  select.enable = tensorCores;
  pm.addPass(createMGPUSelectTensorCores(select));
  pm.addPass(createMGPUDirectBlocks());
  pm.addPass(createMGPUMathFlags());
  pm.addPass(createMGPUMarkUnsyncedAccesses());
  pm.addPass(createMGPUExpandPipelines());
  pm.addPass(createMGPUPropagateTransforms());
  pm.addPass(createMGPUTrackBarrierPhases());
}

/// The host backends check memory accesses at run time: an index out of
/// bounds is reported at its op instead of corrupting memory. Views that
/// only copies used (they clip at the array) are not accesses.
static void addRuntimeChecks(OpPassManager &pm) {
  pm.addPass(createMGPUDropUnusedViews());
  pm.addPass(createMGPUCheckVectorAccesses());
  pm.addPass(createMGPUCheckDivisions());
  pm.addPass(createGenerateRuntimeVerificationPass());
  pm.addPass(createMGPUReportFailedChecks());
}

/// Meshes with different clusters cannot share one launch: such an
/// mpmd_map becomes one launch per pair, in order (an error if its regions
/// wait on each other).
static void addLaunchSplitting(OpPassManager &pm) {
  MGPUSplitMpmdOptions split;
  split.differentClustersOnly = true;
  pm.addPass(createMGPUSplitMpmd(split));
}

/// Kernel form to GPU launches with per-lane bodies and device copies: what
/// the GPU and emulator pipelines share.
static void addGPULowering(OpPassManager &pm, StringRef mpmdForm,
                           bool tensorCores, bool emulated = false) {
  addLaunchSplitting(pm);
  pm.addPass(createMGPUPromoteAccumulators());
  MGPUFormLaunchesOptions launches;
  launches.mpmdForm = mpmdForm.str();
  pm.addPass(createMGPUFormLaunches(launches));
  pm.addPass(createMGPUAssignLayouts());
  pm.addPass(createMGPUPlaceBarriers());
  // mgpu.mma on mma.sync with tensor cores (the emulator exchanges the
  // fragments as the hardware would), lane by lane without.
  MGPUDistributeWarpgroupsOptions distribute;
  distribute.mmaSync = tensorCores;
  pm.addPass(createMGPUDistributeWarpgroups(distribute));
  MGPULowerToGPUOptions lower;
  lower.copyWriteOnlyOuts = emulated;
  pm.addPass(createMGPULowerToGPU(lower));
  pm.addPass(createMGPUDeviceMemory());
}

/// Adds a failing pass with `message` when the pipeline cannot run as
/// asked; true then, and the caller adds nothing else.
static bool addedPipelineError(OpPassManager &pm, const Twine &message) {
  MGPUPipelineErrorOptions error;
  error.message = message.str();
  pm.addPass(createMGPUPipelineError(error));
  return true;
}

/// The pipelines transform whole modules: under another op they would add
/// module passes where MLIR cannot nest them (and abort).
static bool isMisplaced(OpPassManager &pm, StringRef pipeline) {
  StringRef anchor = pm.getOpAnchorName();
  if (anchor == ModuleOp::getOperationName() ||
      anchor == OpPassManager::getAnyOpAnchorName())
    return false;
  return addedPipelineError(pm, "--" + pipeline +
                                    " runs on a builtin.module, not on '" +
                                    anchor + "': use it at the top level");
}

void mlir::mgpu::buildMGPUToCPUPipeline(
    OpPassManager &pm, const MGPUToCPUPipelineOptions &options) {
  if (isMisplaced(pm, "mgpu-to-cpu"))
    return;
  pm.addPass(createMGPUCheckModuleLevel());
  addKernelFormPasses(pm, options.identityLayout, /*tensorCores=*/true,
                      /*hostLoops=*/true);
  MGPUDeviceMemoryOptions deviceMemory;
  deviceMemory.target = "host";
  pm.addPass(createMGPUDeviceMemory(deviceMemory));
  // The regions of an mpmd_map run in order, CTA by CTA, as separate
  // launches would (unless they wait for each other).
  addLaunchSplitting(pm);
  MGPUFormLaunchesOptions launches;
  launches.mpmdForm = "cta-partitioned";
  pm.addPass(createMGPUFormLaunches(launches));
  MGPULowerToCPUOptions lower;
  lower.smemLayouts = options.smemLayouts;
  pm.addPass(createMGPULowerToCPU(lower));
  pm.addPass(createMGPUVectorsToLoops());
  pm.addPass(createMGPUHostPrintf());
  addRuntimeChecks(pm);
  addHostToLLVMPasses(pm);
}

void mlir::mgpu::buildMGPUToGPUEmulatorPipeline(OpPassManager &pm,
                                                StringRef mpmdForm,
                                                bool tensorCores,
                                                StringRef checks) {
  if (isMisplaced(pm, "mgpu-to-gpu-emulator"))
    return;
  pm.addPass(createMGPUCheckModuleLevel());
  addKernelFormPasses(pm, /*identityLayout=*/true, tensorCores);
  // Unwritten output elements are undefined; the emulator keeps the host's
  // values there, as interpret mode does, so the two agree.
  addGPULowering(pm, mpmdForm, tensorCores, /*emulated=*/true);
  MGPUEmulateGPUOptions emulate;
  emulate.checks = checks.str();
  pm.addPass(createMGPUEmulateGPU(emulate));
  pm.addPass(createMGPUHostPrintf());
  addRuntimeChecks(pm);
  addHostToLLVMPasses(pm);
}

StringRef mlir::mgpu::getDefaultCudaToolkitPath() {
#ifdef MGPU_CUDA_TOOLKIT_PATH
  return MGPU_CUDA_TOOLKIT_PATH;
#else
  return "";
#endif
}

void mlir::mgpu::buildMGPUToBinaryPipeline(
    OpPassManager &pm, const MGPUToBinaryPipelineOptions &options) {
  if (isMisplaced(pm, "mgpu-to-binary"))
    return;
  pm.addPass(createMGPUCheckModuleLevel());
  if (!llvm::is_contained({"isa", "bin", "fatbin"},
                          options.format.getValue()) &&
      addedPipelineError(pm, "--mgpu-to-binary: unknown format '" +
                                 options.format + "' (isa, bin or fatbin)"))
    return;
  // gpu-module-to-binary reports a missing toolkit but does not fail.
  if (!options.toolkit.empty() &&
      !llvm::sys::fs::is_directory(options.toolkit.getValue()) &&
      addedPipelineError(pm, "--mgpu-to-binary: toolkit '" + options.toolkit +
                                 "' is not a directory (a CUDA toolkit "
                                 "holding bin/ptxas)"))
    return;
  if (options.optLevel > 3 &&
      addedPipelineError(pm, "--mgpu-to-binary: opt-level " +
                                 Twine(options.optLevel.getValue()) +
                                 " (0, 1, 2 or 3)"))
    return;
  // The chip enters once, into mgpu.target, where every pass reads it.
  MGPUSetTargetOptions chip;
  chip.chip = options.chip;
  pm.addPass(createMGPUSetTarget(chip));
  addKernelFormPasses(pm, options.identityLayout, options.tensorCores);
  addGPULowering(pm, options.mpmdForm, options.tensorCores);
  pm.addPass(createMGPUPrimitivesToNVVM());
  pm.addPass(createMGPUOutlineKernels());
  // gpu.printf in host code (the kernels' own are in gpu.modules now):
  // C printf, as on the host backends.
  pm.addPass(createMGPUHostPrintf());
  pm.addPass(createCanonicalizer());
  pm.addPass(createCSEPass());
  addF8Passes(pm);

  // Host code: what the interpret pipeline does around the kernels.
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMultiReductionPass());
  pm.addNestedPass<func::FuncOp>(createConvertVectorToSCFPass());

  // Both sides, as upstream's gpu-lower-to-nvvm-pipeline does.
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  // Tensor maps (nvgpu, host side) to runtime calls, before NVVM's own
  // inline-PTX lowering.
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  addStridedMetadataExpansion(pm);
  MGPUAttachTargetOptions target;
  target.optLevel = options.optLevel;
  pm.addPass(createMGPUAttachTarget(target));
  pm.addNestedPass<func::FuncOp>(createConvertVectorToLLVMPass());
  pm.addNestedPass<func::FuncOp>(createConvertMathToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  // Host functions only: the kernels' arith ops go with the NVVM lowering,
  // whose type converter maps shared memory to its address space (a select
  // of shared-memory refs cannot be converted without it).
  pm.addNestedPass<LLVM::LLVMFuncOp>(createArithToLLVMConversionPass());
  pm.addNestedPass<LLVM::LLVMFuncOp>(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizer());
  pm.addPass(createCSEPass());

  // Kernels to NVVM.
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  pm.addNestedPass<gpu::GPUModuleOp>(createMGPUAlignDynamicSharedMemory());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizer());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());

  // Host launches to runtime calls, kernels to binaries.
  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = options.toolkit.empty()
                           ? getDefaultCudaToolkitPath().str()
                           : options.toolkit.getValue();
  binary.cmdOptions =
      "-O" + std::to_string(std::min(3u, options.optLevel.getValue()));
  pm.addPass(createGpuModuleToBinaryPass(binary));
  // The host's math, now that no kernel is left to mistake for host code:
  // LLVM's intrinsics, then libm calls (erf, tanh, atan2, ...) element by
  // element, whose vector.extract/insert and declarations are lowered
  // after them.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createCanonicalizer());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::mgpu::registerMGPUPipelines() {
  PassPipelineRegistration<MGPUToBinaryPipelineOptions>(
      "mgpu-to-binary",
      "Whole GPU pipeline: mgpu kernels to gpu.binary (PTX, cubin or "
      "fatbin) plus host code in the LLVM dialect",
      buildMGPUToBinaryPipeline);
  PassPipelineRegistration<MGPUToCPUPipelineOptions>(
      "mgpu-to-cpu",
      "Whole interpret pipeline: mgpu kernels to host code in the LLVM "
      "dialect",
      buildMGPUToCPUPipeline);
}
