//===- MGPUDialect.td - The mgpu dialect definition --------*- tablegen -*-===//
//
// The mgpu dialect models JAX Pallas kernels for the Mosaic GPU backend:
// pallas_call (a pipelined grid of programs) and mpmd_map (mesh/function pairs
// run concurrently in one launch). This file declares only the dialect; its
// enums, attributes and ops live beside it.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_MGPUDIALECT_TD
#define MGPU_DIALECT_MGPU_MGPUDIALECT_TD

include "mlir/IR/OpBase.td"

def MGPU_Dialect : Dialect {
  let name = "mgpu";
  let cppNamespace = "::mlir::mgpu";
  let summary = "Pallas / Mosaic GPU kernels as MLIR ops";
  let description = [{
    The `mgpu` dialect represents JAX Pallas kernels written for the Mosaic
    GPU backend. `mgpu.pallas_call` runs a body once per point of a grid, with
    inputs and outputs staged block by block through shared memory;
    `mgpu.mpmd_map` runs one region per mesh, all concurrently in one launch.
    The verifiers of both ops encode the support rules of the Mosaic GPU
    backend (the module attribute `mgpu.target` selects the rule profile:
    `extended`, the default, or `jax`, which accepts exactly what JAX does).

    Kernel bodies are written once per Pallas thread (a warpgroup of 128 CUDA
    threads) at array level; `mgpu.program_id`, `mgpu.num_programs`,
    `mgpu.axis_index` and `mgpu.axis_size` query the program's position, and
    `mgpu.semaphore_signal` / `mgpu.semaphore_wait` synchronize programs
    through global memory.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  // Argument and result attributes too: an `mgpu.*` name there is as unknown
  // (or misplaced) as on an op.
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The name of the module attribute holding the `#mgpu.target`.
    static constexpr ::llvm::StringLiteral getTargetAttrName() {
      return ::llvm::StringLiteral("mgpu.target");
    }
    /// The unit attribute of a `memref.subview` of global memory whose every
    /// access covers it whole with one layout (a block read in place, see
    /// --mgpu-direct-blocks): each lane only touches its own elements, so
    /// its accesses need no barrier between lanes.
    static constexpr ::llvm::StringLiteral getLanePrivateAttrName() {
      return ::llvm::StringLiteral("mgpu.lane_private");
    }
    /// The unit attribute of a memory access in the body of a kernel whose
    /// compiler params set `unsafe_no_auto_barriers` (see
    /// --mgpu-mark-unsynced-accesses): the distribution puts no barrier
    /// between lanes before it.
    static constexpr ::llvm::StringLiteral getUnsyncedAttrName() {
      return ::llvm::StringLiteral("mgpu.unsynced");
    }
    /// The unit attribute of the compute threads' step loop (an scf.for) of
    /// a warp-specialized pipeline whose body synchronizes with no other
    /// thread: what one of them keeps in a block between steps, no other
    /// can see without a race, so --mgpu-promote-accumulators may carry it.
    static constexpr ::llvm::StringLiteral getComputeStepsAttrName() {
      return ::llvm::StringLiteral("mgpu.compute_steps");
    }
    /// The unit attribute of an mgpu.wgmma that runs on the tensor cores
    /// (--mgpu-select-tensor-cores): the pipeline expansion stores its shared
    /// operands in their tiled, swizzled layout, the layout assignment leaves
    /// its result in fragments, the distribution issues wgmma.mma_async.
    static constexpr ::llvm::StringLiteral getTensorCoresAttrName() {
      return ::llvm::StringLiteral("mgpu.tensor_cores");
    }
    /// The unit attribute of a kernel-level op in per-lane code that every
    /// lane of a warpgroup runs together (the distribution's copy of a
    /// Pallas thread's op): the emulator lets the lanes reach it together,
    /// as a warpgroup's warps do on the GPU.
    static constexpr ::llvm::StringLiteral getWarpgroupUniformAttrName() {
      return ::llvm::StringLiteral("mgpu.warpgroup_uniform");
    }
    /// The i64 attribute of a pallas_call or mpmd_map counting the trailing
    /// `scratch` entries that a pass added (pipeline slots and barriers):
    /// rules about the scratch a user writes (S5) do not count them.
    static constexpr ::llvm::StringLiteral getInternalScratchAttrName() {
      return ::llvm::StringLiteral("mgpu.internal_scratch");
    }
  }];
}

#endif // MGPU_DIALECT_MGPU_MGPUDIALECT_TD
