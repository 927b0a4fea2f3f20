//===- MGPUTensorCoreOps.td - Hopper's MMAs ----------------*- tablegen -*-===//
//
// The tensor-core ops of Pallas Mosaic GPU on Hopper (`plgpu.wgmma`,
// `wgmma_wait`), the register-A form the distribution makes of a wgmma
// whose a the lanes hold, and `mgpu.mma` (a warp-level MMA of lane values).
// Included where they always were, in MGPUPrimitiveOps.td, so the op list
// keeps its order.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_MGPUTENSORCOREOPS_TD
#define MGPU_DIALECT_MGPU_MGPUTENSORCOREOPS_TD

include "mgpu/Dialect/MGPU/MGPUTypes.td"

def MGPU_WgmmaOp : MGPU_Op<"wgmma", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "warpgroup matrix multiply-accumulate on the tensor cores";
  let description = [{
    `%result = %acc + %a x %b` for one warpgroup (plgpu.wgmma): `%a` is an
    M x K matrix in shared memory or in registers (a vector), `%b` a K x N
    matrix in shared memory, `%acc` and the result M x N vectors. Products
    are exact and summed in the accumulator's type (f32, or f16 for f16 and
    f8 inputs; i32 for i8). Inputs are f16, bf16, f8E4M3FN or f8E5M2 (`%a`
    and `%b` of the same type, except that the two f8 types may mix, as
    PTX's separate `.atype` and `.btype` allow), f32 read as tf32 (the low
    13 mantissa bits ignored, as the hardware does), or i8 read as signed
    (s8, as JAX reads 8-bit integers) into an i32 accumulator, whose sums
    wrap. M is a multiple of 64, N a multiple of 8 up to 256, K a multiple
    of the K step of the type (16 for 16-bit types, 32 for f8 and i8, 8 for
    tf32).

    The op is asynchronous on the GPU: `%b` (and `%a` in shared memory) may
    be read until a later `mgpu.wgmma_wait` lets this wgmma complete, so
    their buffers must not be overwritten before it; the result may be used
    only after that wait, except as the accumulator of a later wgmma, which
    the tensor cores order after this one (the backends that compute
    synchronously give the same numbers). A kernel that waits with N > 0
    keeps MMAs in flight on purpose, across loop steps too: the lowering
    then adds no wait of its own until the end of the kernel body.

    `a_transforms` / `b_transforms` say that the operand lies in a buffer
    written in that tiled and swizzled layout (see `mgpu.copy_gmem_to_smem`),
    at a tile boundary of it; the tensor cores then read it in place. The
    view may start at a run-time offset (a ring's slot, a warpgroup's rows:
    JAX's `a_smem.at[wg_m_slice]`), which must be at a tile boundary too
    (as in JAX; not checked): the GPU finds its place in the swizzled
    buffer at run time. The
    backends without tensor cores keep such buffers row-major and read them
    as such (see `mgpu.copy_gmem_to_smem`), so the numbers are the same.

    ```mlir
    %acc2 = mgpu.wgmma %acc, %a, %b : vector<64x128xf32>,
        memref<64x64xbf16, #gpu.address_space<workgroup>>,
        memref<64x128xbf16, #gpu.address_space<workgroup>>
    mgpu.wgmma_wait 0
    ```
  }];
  let arguments = (ins VectorOfRankAndType<[2], [F32, F16, I32]>:$acc,
                       AnyTypeOf<[MemRefRankOf<[AnyFloat, I8], [2]>,
                                  VectorOfRankAndType<[2], [AnyFloat, I8]>]>:$a,
                       MemRefRankOf<[AnyFloat, I8], [2]>:$b,
                       OptionalAttr<ArrayAttr>:$a_transforms,
                       OptionalAttr<ArrayAttr>:$b_transforms);
  let results = (outs VectorOfRankAndType<[2], [F32, F16, I32]>:$result);
  let assemblyFormat = [{
    $acc `,` $a `,` $b (`a_transforms` $a_transforms^)?
    (`b_transforms` $b_transforms^)? attr-dict `:` type($acc) `,` type($a)
    `,` type($b) custom<SameType>(type($result), ref(type($acc)))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The K step of the input type (16, 32 or 8); 0 if not an input type.
    static int64_t getKStep(::mlir::Type inputType);
    /// Whether the inputs are f32 read as tf32.
    bool isTf32() { return ::llvm::isa<::mlir::Float32Type>(getInputType()); }
    ::mlir::Type getInputType();
  }];
}

def MGPU_MmaOp : MGPU_Op<"mma", [Pure]> {
  let summary = "synchronous matrix multiply-accumulate of arrays (Ampere)";
  let description = [{
    `%result = %acc + %a x %b` for one warpgroup, computed synchronously
    (plgpu.mma): `%a` is an M x K array, `%b` K x N and `%acc` and the result
    M x N, all of them vectors (values, not buffers). The shape and type
    rules are JAX's (`_mma_abstract_eval`); mgpu computes f16 or bf16
    operands into an f32 accumulator, with M a multiple of 64, N of 8 and K
    of 16. Products are exact and summed in f32.

    On the GPU the operands go through the warpgroup's exchange area in
    shared memory, each warp of the warpgroup computes a slab of M / 4 rows
    with `mma.sync.aligned.m16n8k16` (one 16 x 8 tile of the result per
    instruction, K in steps of 16), and the result comes back in the lanes'
    layout. The emulator runs those mma.sync instructions (each lane's
    fragments exchanged within its warp); with tensor cores off
    (`--tensor-cores=0`) and on the CPU backend each element is summed lane
    by lane instead (the order of the f32 additions may differ).

    ```mlir
    %d = mgpu.mma %acc, %a, %b
        : vector<64x64xf32>, vector<64x64xf16>, vector<64x64xf16>
    ```
  }];
  let arguments = (ins VectorOfRank<[2]>:$acc, VectorOfRank<[2]>:$a,
                       VectorOfRank<[2]>:$b);
  let results = (outs VectorOfRank<[2]>:$result);
  let assemblyFormat = [{
    $acc `,` $a `,` $b attr-dict `:` type($acc) `,` type($a) `,` type($b)
    custom<SameType>(type($result), ref(type($acc)))
  }];
  let hasVerifier = 1;
}

def MGPU_WgmmaWaitOp : MGPU_Op<"wgmma_wait",
    [MGPU_PallasThreadPrimitive, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait for warpgroup MMAs";
  let description = [{
    Waits until at most `pending` of this Pallas thread's wgmma ops are
    still in flight (plgpu.wgmma_wait); the results of the others may be
    used and their shared-memory operands overwritten.

    ```mlir
    mgpu.wgmma_wait 1
    ```
  }];
  let arguments = (ins I64Attr:$pending);
  let assemblyFormat = "$pending attr-dict";
  let hasVerifier = 1;
}

def MGPU_WgmmaRegisterAOp : MGPU_Op<"wgmma_register_a",
    [AllTypesMatch<["acc", "result"]>, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "one lane's part of a wgmma step with a in registers "
                "(emitted by the distribution)";
  let description = [{
    One m64nNk16 warpgroup MMA with a taken from registers, as each of the
    128 lanes of the warpgroup issues it (PTX `wgmma.mma_async` with a
    register a): `%a` is the lane's 8 elements of the 64 x 16 a tile in the
    WGMMA fragment layout (rows g and g + 8 of its warp's 16, K 2t, 2t + 1
    and 2t + 8, 2t + 9; g = lane mod 32 / 4, t = lane mod 4), `%acc` its N / 2
    accumulator registers in the same layout, `%descriptor_b` b's shared
    memory matrix descriptor, K-major or N-major (`b_mn_major`). Asynchronous
    as wgmma is: the distribution fences before and commits after, and the
    result is read after a wait. N is a multiple of 8 up to 256.

    ```mlir
    %d = mgpu.wgmma_register_a %acc, %a, %desc b_mn_major : vector<8xbf16>, vector<64xf32>
    ```
  }];
  let arguments = (ins VectorOfRankAndType<[1], [F32]>:$acc,
                       VectorOfRankAndType<[1], [F16, BF16]>:$a,
                       I64:$descriptor_b, UnitAttr:$b_mn_major);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $acc `,` $a `,` $descriptor_b (`b_mn_major` $b_mn_major^)? attr-dict `:`
    type($a) `,` type($acc)
  }];
  let hasVerifier = 1;
}

def MGPU_WgmmaSharedOp : MGPU_Op<"wgmma_shared",
    [AllTypesMatch<["acc", "result"]>, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "one lane's part of a wgmma step with a and b in shared "
                "memory (emitted by the distribution)";
  let description = [{
    One m64nNkS warpgroup MMA with both operands read from shared memory
    through their matrix descriptors, as each of the 128 lanes of the
    warpgroup issues it (PTX `wgmma.mma_async`): `%acc` is the lane's N / 2
    f32 accumulator registers in the WGMMA fragment layout. `a_type` and
    `b_type` are the inputs' element types (f16, bf16, f8E4M3FN, f8E5M2,
    or f32 read as tf32); S is 32 bytes of K of them. a is read K-major,
    or M-major with `a_mn_major`; b K-major, or N-major with `b_mn_major`
    (16-bit inputs only). Asynchronous as wgmma is: the distribution puts
    `mgpu.wgmma_fence` before and `mgpu.wgmma_commit_group` after, and
    reads the result after a `mgpu.wgmma_wait_group`.
    --mgpu-primitives-to-nvvm lowers it; the emulator defers it to its
    wait.

    ```mlir
    %d = mgpu.wgmma_shared %acc, %da, %db {a_type = bf16, b_type = bf16} : vector<64xf32>
    ```
  }];
  let arguments = (ins VectorOfRankAndType<[1], [F32]>:$acc,
                       I64:$descriptor_a, I64:$descriptor_b,
                       TypeAttr:$a_type, TypeAttr:$b_type,
                       UnitAttr:$a_mn_major, UnitAttr:$b_mn_major);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $acc `,` $descriptor_a `,` $descriptor_b (`a_mn_major` $a_mn_major^)?
    (`b_mn_major` $b_mn_major^)? attr-dict `:` type($acc)
  }];
  let hasVerifier = 1;
}

// A lane's fragment of an MMA operand: a 1-D vector of `length` elements.
class MGPU_Fragment<int length, list<Type> types> : AllOfType<
  [VectorOfRankAndType<[1], types>, VectorOfLength<[length]>],
  "a lane's fragment of " # length # " elements: " #
  VectorOfRankAndType<[1], types>.summary, "::mlir::VectorType">;

// mma.sync's accumulator fragment: four f32 (buildable, so the syntax
// need not spell it).
def MGPU_MmaSyncAccumulator : MGPU_Fragment<4, [F32]> {
  let builderCall = "::mlir::VectorType::get({4}, $_builder.getF32Type())";
}

def MGPU_MmaSyncOp : MGPU_Op<"mma_sync",
    [AllTypesMatch<["acc", "result"]>, AllElementTypesMatch<["a", "b"]>]> {
  let summary = "one lane's part of a warp-wide m16n8k16 MMA (emitted by "
                "the distribution)";
  let description = [{
    One Ampere m16n8k16 MMA of f16 or bf16 inputs into f32, as each of the
    32 lanes of a warp issues it (PTX `mma.sync.aligned`), in the PTX ISA's
    fragment layout (g = lane mod 32 / 4, t = lane mod 4): `%a` is the
    lane's 8 elements of the 16 x 16 a tile (rows g, g + 8, g, g + 8 at K
    2t and 2t + 1, then 2t + 8 and 2t + 9: registers a0..a3), `%b` its 4 of
    the 16 x 8 b tile (column g at K 2t, 2t + 1, 2t + 8, 2t + 9), `%acc`
    and the result its 4 sums (rows g and g + 8, columns 2t and 2t + 1).
    Synchronous: every lane of the warp runs it together, so it has effects
    and the distribution issues it where the whole warp is. The emulator
    trades the fragments between the lanes of a warp.

    ```mlir
    %d = mgpu.mma_sync %acc, %a, %b : vector<8xbf16>, vector<4xbf16>
    ```
  }];
  let arguments = (ins MGPU_MmaSyncAccumulator:$acc,
                       MGPU_Fragment<8, [F16, BF16]>:$a,
                       MGPU_Fragment<4, [F16, BF16]>:$b);
  let results = (outs MGPU_MmaSyncAccumulator:$result);
  let assemblyFormat = [{
    $acc `,` $a `,` $b attr-dict `:` type($a) `,` type($b)
  }];
}

def MGPU_WgmmaFenceOp : MGPU_Op<"wgmma_fence",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "orders a lane's registers before its next wgmma steps "
                "(emitted by the distribution)";
  let description = [{
    Before the first `mgpu.wgmma_shared` or `mgpu.wgmma_register_a` of a
    group, every lane orders its earlier accesses to the accumulator and a
    registers (PTX `wgmma.fence.sync.aligned`). The emulator needs none.

    ```mlir
    mgpu.wgmma_fence
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def MGPU_WgmmaCommitGroupOp : MGPU_Op<"wgmma_commit_group",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "closes a lane's group of wgmma steps (emitted by the "
                "distribution)";
  let description = [{
    The lane's wgmma steps since its last commit form one group, which a
    `mgpu.wgmma_wait_group` waits for (PTX `wgmma.commit_group.sync.aligned`).

    ```mlir
    mgpu.wgmma_commit_group
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def MGPU_WgmmaWaitGroupOp : MGPU_Op<"wgmma_wait_group",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits for a lane's wgmma groups (emitted by the "
                "distribution)";
  let description = [{
    Waits until at most `pending` of the lane's committed wgmma groups are
    in flight (PTX `wgmma.wait_group.sync.aligned`): the results of the
    others may be read, and the shared memory they read overwritten. The
    lanes' form of `mgpu.wgmma_wait`.

    ```mlir
    mgpu.wgmma_wait_group 0
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$pending);
  let assemblyFormat = "$pending attr-dict";
}

#endif // MGPU_DIALECT_MGPU_MGPUTENSORCOREOPS_TD
