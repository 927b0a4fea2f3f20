//===- MGPUTypes.td - Types of the mgpu dialect ------------*- tablegen -*-===//
//
// The types of the mgpu dialect: today one, the barrier array a kernel
// declares as scratch (Pallas' `plgpu.Barrier`). Barriers complete phases;
// async copies and warpgroups arrive on them and kernel bodies wait for
// their phases (the kernel-level ops of MGPUPrimitiveOps.td).
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_MGPUTYPES_TD
#define MGPU_DIALECT_MGPU_MGPUTYPES_TD

include "mgpu/Dialect/MGPU/MGPUAttrs.td"
include "mlir/IR/AttrTypeBase.td"

def MGPU_BarrierType : TypeDef<MGPU_Dialect, "Barrier"> {
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
  let extraClassDeclaration = [{
    /// Bytes of shared memory the array takes on the GPU (8 per mbarrier).
    int64_t getSharedMemoryBytes() const { return 8 * getCount(); }
  }];
}

#endif // MGPU_DIALECT_MGPU_MGPUTYPES_TD
