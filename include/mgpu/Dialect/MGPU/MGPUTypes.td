//===- MGPUTypes.td - Types of the mgpu dialect ------------*- tablegen -*-===//
//
// The types of the mgpu dialect: the barrier arrays a kernel declares as
// scratch, a CTA's own (Pallas' `plgpu.Barrier`) and one whose arrivals come
// from every CTA of some cluster axes (`plgpu.ClusterBarrier`). Barriers
// complete phases; async copies and warpgroups arrive on them and kernel
// bodies wait for their phases (the kernel-level ops of
// MGPUPrimitiveOps.td). Both kinds share BarrierLikeType, which the
// barrier ops take.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_MGPUTYPES_TD
#define MGPU_DIALECT_MGPU_MGPUTYPES_TD

include "mgpu/Dialect/MGPU/MGPUAttrs.td"
include "mlir/IR/AttrTypeBase.td"

def MGPU_BarrierLikeType : TypeInterface<"BarrierLikeType"> {
  let cppNamespace = "::mlir::mgpu";
  let description = [{
    An array of barriers in each CTA's shared memory (8 bytes each on the
    GPU), each completing a phase after `arrivals` arrivals.
  }];
  let methods = [
    InterfaceMethod<"The number of barriers.", "int64_t", "getCount">,
    InterfaceMethod<"Arrivals that complete a phase.", "int64_t",
                    "getArrivals">,
  ];
  let extraSharedClassDeclaration = [{
    /// Bytes of shared memory the array takes on the GPU (8 per mbarrier).
    int64_t getSharedMemoryBytes() const { return 8 * $_type.getCount(); }
  }];
}

def MGPU_BarrierType : TypeDef<MGPU_Dialect, "Barrier", [MGPU_BarrierLikeType]> {
  let mnemonic = "barrier";
  let summary = "an array of barriers in shared memory (plgpu.Barrier)";
  let description = [{
    `count` barriers, each completing a phase once `arrivals` arrivals have
    been made on it and the bytes of every async copy counted on it in that
    phase have landed. A barrier array is declared as a scratch operand of a
    kernel; the body indexes it (`%bar[%i]`) in the kernel-level ops. On the
    GPU each barrier is one 8-byte `mbarrier` in shared memory.

    ```mlir
    // Two barriers (one per buffer slot), one arrival each: the copy that
    // fills the slot.
    !mgpu.barrier<count = 2, arrivals = 1>
    ```
  }];
  let parameters = (ins
    MGPU_RequiredI64Parameter<"number of barriers">:$count,
    MGPU_I64Parameter<"1", "arrivals that complete a phase">:$arrivals
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def MGPU_ClusterBarrierType
    : TypeDef<MGPU_Dialect, "ClusterBarrier", [MGPU_BarrierLikeType]> {
  let mnemonic = "cluster_barrier";
  let summary = "barriers whose arrivals come from every CTA of cluster axes "
                "(plgpu.ClusterBarrier)";
  let description = [{
    `count` barriers in the shared memory of each CTA, like
    `!mgpu.barrier`, but an arrival (`mgpu.barrier_arrive`) is made on the
    barrier of that index in every CTA of the arriving CTA's group: the CTAs
    of its cluster that differ from it only along the cluster axes `axes`
    (itself included). Each CTA's barrier completes a phase after
    `arrivals` arrivals, counted over the whole group: with a group of G
    CTAs each arriving once per phase, `arrivals = G` (JAX's
    `num_arrivals = 1`). A wait (`mgpu.barrier_wait`) waits on the CTA's own
    barrier. `axes` name cluster axes of the kernel's mesh.

    On the GPU each barrier is an mbarrier; an arrival is
    `mbarrier.arrive.release.cluster.shared::cluster` on the address `mapa`
    gives for each CTA of the group, and a wait is
    `mbarrier.try_wait.parity.acquire.cluster`.

    ```mlir
    // One barrier per slot; both CTAs of a 2-CTA cluster arrive once.
    !mgpu.cluster_barrier<axes = ["c"], count = 2, arrivals = 2>
    ```
  }];
  let parameters = (ins
    MGPU_NameListParameter<"cluster axes whose CTAs arrive">:$axes,
    MGPU_RequiredI64Parameter<"number of barriers">:$count,
    MGPU_I64Parameter<"1", "arrivals that complete a phase">:$arrivals
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def MGPU_TmemType : TypeDef<MGPU_Dialect, "Tmem"> {
  let mnemonic = "tmem";
  let summary = "a buffer in the tensor memory of a CTA (plgpu.TMEM)";
  let description = [{
    A `rows x columns` buffer in the tensor memory (TMEM) of each CTA on
    Blackwell (sm_100a): 128 rows (the TMEM lanes) and 1 to 512 columns of
    f32 (accumulators), or of pairs of f16 or bf16 (an MMA's `a` operand,
    JAX's `plgpu.TMEM(..., packed=True)`: two elements to a 32-bit column,
    an even number of them per row). It is declared as a scratch operand of a kernel, as
    JAX declares `plgpu.TMEM((128, n), jnp.float32)`; `mgpu.tcgen05_mma`
    accumulates into it and `mgpu.async_load_tmem` / `mgpu.async_store_tmem`
    move it to and from registers. The TMEM scratch of a kernel is one
    allocation of the sum of its columns rounded up to a power of two (at
    least 32, at most 512). The CPU backend and the emulator keep it as
    plain per-CTA memory.

    With `collective` (JAX's `plgpu.TMEM(..., collective=True)`) the buffer
    is one CTA's half of a pair's accumulator for collective MMAs
    (`mgpu.tcgen05_mma ... collective_axis`): the kernel's tensor memory is
    then allocated by both CTAs of the pair together (`tcgen05.alloc
    .cta_group::2`), and every TMEM buffer of the kernel must be collective
    (PTX gives all tcgen05 instructions of a kernel one CTA group).

    ```mlir
    !mgpu.tmem<128x128xf32>
    !mgpu.tmem<128x256xf32, collective>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t", "rows and columns">:$shape,
                        "::mlir::Type":$elementType,
                        DefaultValuedParameter<"bool", "false">:$collective);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRows() const { return getShape()[0]; }
    /// TMEM columns: 32 bits of each row (one f32, or two packed 16-bit
    /// elements).
    int64_t getColumns() const {
      return getShape()[1] * getElementType().getIntOrFloatBitWidth() / 32;
    }
    /// The same shape as a vector or memref type.
    ::mlir::VectorType getVectorType() const {
      return ::mlir::VectorType::get(getShape(), getElementType());
    }
    ::mlir::MemRefType getMemRefType() const {
      return ::mlir::MemRefType::get(getShape(), getElementType());
    }
    /// The host backends' view of the buffer: row-major rows of a stride
    /// and at an offset known at run time, so that a column slice
    /// (mgpu.tmem_slice) has the type of a whole buffer.
    ::mlir::MemRefType getHostMemRefType() const {
      int64_t dynamic = ::mlir::ShapedType::kDynamic;
      return ::mlir::MemRefType::get(
          getShape(), getElementType(),
          ::mlir::StridedLayoutAttr::get(getContext(), dynamic,
                                         {dynamic, 1}));
    }
  }];
}

/// Either kind of barrier array.
def MGPU_AnyBarrierType
    : Type<CPred<"::llvm::isa<::mlir::mgpu::BarrierLikeType>($_self)">,
           "barrier array (!mgpu.barrier or !mgpu.cluster_barrier)",
           "::mlir::mgpu::BarrierLikeType">;

#endif // MGPU_DIALECT_MGPU_MGPUTYPES_TD
