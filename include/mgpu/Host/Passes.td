//===- Passes.td - Host passes -----------------------------*- tablegen -*-===//
//
// The passes of the host backends (lib/Host): interpret mode, the GPU
// emulator, and the host code they share. Each lives in one file of lib/Host;
// mgpu/Passes.h declares the passes of every layer, mgpu/Pipelines.h
// composes them.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_HOST_PASSES_TD
#define MGPU_HOST_PASSES_TD

include "mlir/Pass/PassBase.td"

def MGPULowerToCPU : Pass<"mgpu-lower-to-cpu"> {
  let summary = "Lower mgpu.launch ops to host code (interpret mode)";
  let description = [{
    Runs the launches of --mgpu-form-launches on the host: a loop nest over
    the CTAs in grid order (last axis innermost, cluster axes after the
    grid's), each running its Pallas threads, the body inlined once with its
    arguments bound to loop indices. Global scratch is zeroed once; a CTA's
    shared scratch (buffers and barriers, at the planned offsets of one host
    arena) is poisoned when it starts (0xff bytes: shared memory starts
    undefined), its barrier words zeroed (phase 0).

    Kernel-level ops become host code: copies are synchronous (clipped to
    the array, zero-filled past it) and arrive on their barrier at once,
    barriers and semaphore waits go through libmgpu_host_runtime.so (a wait
    that cannot complete reports the op and its location after
    MGPU_WAIT_TIMEOUT seconds instead of hanging). The Pallas threads of a
    CTA that waits on a barrier run on host threads of their own; a launch
    that waits on a semaphore runs every Pallas thread of every CTA on its
    own host thread (at most 1024).

    With `smem-layouts` (the default) a shared buffer whose copies name
    transforms holds the tiled, swizzled bytes the GPU's copies leave in
    it, and the ops that name the transforms (copies in and out, the
    tensor cores' operands) move elements through that layout: an op that
    reads the buffer as row-major then reads the scrambled numbers it
    would on the GPU. `smem-layouts=0` keeps every buffer row-major.
  }];
  let options = [
    Option<"smemLayouts", "smem-layouts", "bool", /*default=*/"true",
           "Store shared buffers with transforms in the GPU's layout">
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::omp::OpenMPDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def MGPUEmulateGPU : Pass<"mgpu-emulate-gpu", "::mlir::ModuleOp"> {
  let summary = "Run the gpu.launch kernels of --mgpu-lower-to-gpu on host "
                "threads (a test vehicle)";
  let description = [{
    Replaces every `gpu.launch` by a call of the host runtime's
    `mgpuEmuRunGrid` with a lane function outlined from the kernel body
    (its captures passed through a stack struct): the runtime runs groups of
    CTAs that must run together (a cluster; every CTA of a kernel that waits
    on semaphores) on a pool of one host thread per core
    (`MGPU_EMULATE_THREADS` overrides), each CUDA thread of a group a fiber
    that yields where it waits. Thread, block and cluster ids come from the
    lane function's arguments, workgroup memory is a host buffer with one
    slice per CTA slot of the pool, `gpu.barrier` and named `nvvm.barrier`s
    are counters spun on with `mgpuEmuYield`, and xor shuffles exchange
    values through a host array between two warp-wide barriers. Host-side
    gpu ops become memref ops. This checks the GPU lowering itself (staging,
    lane distribution, barriers, shuffles, semaphores) with numbers on
    machines without a GPU (`mgpu-run --backend=emulate`).

    With `checks` (`all`, or a comma-separated list of `races`, `async`,
    `barriers`, `init`, `bounds`; `none` by default here, `all` in
    `mgpu-run --backend=emulate`) the lane functions also call the host
    runtime's checker (lib/Runtime/EmuChecks.cpp) at every shared-memory
    load and store, proxy fence, CTA barrier and wgmma, and the first hazard
    is reported as `file:line:col: error: ...` at its op (exit status 1):
    shared-memory data races between warps, async-proxy hazards (a
    generic write read by TMA or wgmma without `commit_smem`, memory read
    or overwritten while an async copy or wgmma still uses it), mbarrier
    misuse (more arrivals than a phase takes, a wait that can never
    complete), reads of never-written shared memory and accesses outside
    the CTA's shared memory.
  }];
  let options = [
    Option<"checks", "checks", "std::string", /*default=*/"\"none\"",
           "The emulator's hazard checks: all, none, or a comma-separated "
           "list of races, async, barriers, init, bounds">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def MGPUVectorsToLoops : Pass<"mgpu-vectors-to-loops"> {
  let summary = "Whole-block vector ops as loops over small chunks (host)";
  let description = [{
    Kernel bodies compute on whole blocks (`vector<4x4096xf32>`). LLVM keeps
    such a value in registers and the host lowering unrolls every op on it
    (a libm call per element for `math.exp`): compile time grows with the
    block and the value spills to the stack. For the host backends this
    pass gives each vector with more than `max-elements` elements a heap
    buffer and turns the ops on it into loops over chunks of the innermost
    dimension (up to 16 elements): elementwise ops, splat constants,
    broadcasts, in-bounds unmasked transfers and vector loads/stores,
    `vector.reduction` and `vector.multi_reduction`. A `vector.contract`
    with a big operand or result (any projected-permutation indexing maps,
    narrower operands widened to the accumulator's type) becomes loops over
    its parallel dimensions around a scalar loop over the reduced ones. Any
    other user gets the whole vector back, so unsupported ops still work,
    unrolled as before.
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t", "64",
           "vectors with more elements than this get buffers and loops">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::ub::UBDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def MGPUHoistAllocas : Pass<"mgpu-hoist-allocas"> {
  let summary = "Statically shaped memref.alloca out of loops (host)";
  let description = [{
    --convert-vector-to-scf puts the stack buffers of N-D transfers at the
    top of the loop body that holds them, and LLVM takes an alloca outside
    the entry block again on every iteration: a long pipelined grid ran
    out of stack on the host. This pass moves every statically shaped
    `memref.alloca` out of the sequential control flow around it (scf.for,
    while, if, index_switch, execute_region) to the start of the enclosing
    region, never out of a parallel region, whose threads need their own
    buffers.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def MGPUByteBoolVectors : Pass<"mgpu-byte-bool-vectors"> {
  let summary = "i1 vector loads and stores one byte per element (host)";
  let description = [{
    A memref of i1 holds one byte per element, but LLVM loads and stores
    `<N x i1>` as N packed bits. On the host backends this pass rewrites
    the vector accesses of i1 vectors in memrefs (`vector.load`, `store`,
    `maskedload`, `maskedstore`, and the 1-D transfers that lower to them)
    as `vector.gather` / `vector.scatter` over consecutive indices, which
    LLVM performs element by element. Vectors of 4-bit elements in the
    host's own buffers (after --mgpu-pack-sub-byte, only those hold 4-bit
    elements) get the same treatment. Other accesses are left alone.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def MGPUWidenContractions : Pass<"mgpu-widen-contractions"> {
  let summary = "Mixed-precision vector.contract with widened operands (host)";
  let description = [{
    Rewrites a `vector.contract` whose operands are narrower than its
    accumulator (f16 or bf16 into f32, i8 into i32) to extend the operands
    to the accumulator's element type first (`arith.extf` / `arith.extsi`),
    the contraction's meaning, which LLVM's lowering of the contraction
    does not handle. Used by the host backends.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def MGPUExpandF8 : Pass<"mgpu-expand-f8"> {
  let summary = "f8E4M3FN / f8E5M2 / f8E8M0FNU / f6 conversions as integer "
                "code";
  let description = [{
    LLVM has no f8 or f6 type: their values live in i8 and i6 and the
    backends compute on them in f32. This pass writes `arith.extf` from
    and `arith.truncf` to f8E4M3FN, f8E5M2, f6E2M3FN and f6E3M2FN (with f32
    on the other side) as integer code on the bits: exact widening, and
    narrowing with round-to-nearest-even that saturates to the largest
    finite value as the GPU's `cvt.rn.satfinite` does (NaN stays NaN in
    f8; the f6 formats have no NaN or infinity, and NaN saturates too). f8E8M0FNU (a byte of
    biased exponent, the MX scale type) widens exactly (bits 0 is 2^-127,
    0xFF NaN) and narrows as JAX narrows it by default
    (`cvt.rp.satfinite.ue8m0x2.f32`): the magnitude rounded up to a power
    of two, saturated at 2^127. `1 / x` on f8E8M0FNU becomes the integer
    `254 - x`, as in JAX. Both backends run it (the GPU has f8 conversions
    only on some chips; integer code serves every one).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect"
  ];
}

def MGPUDropUnusedViews : Pass<"mgpu-drop-unused-views"> {
  let summary = "Erase memref views nothing uses (before the host's runtime checks)";
  let description = [{
    Erases every view (an op without memory effects whose results are
    memrefs: `memref.subview`, `memref.view`, casts, reshapes, transposes)
    whose results nothing uses, and then the views it was made from that
    are left unused. The host lowerings replace copies by loops over the
    array a window's views resolve to, and leave the views behind; on the
    GPU a view is only address arithmetic. A GMEM view that runs past its
    array, as JAX's `x.at[pl.ds(start, k)]` may, is valid when only copies
    use it (they clip at the array, as TMA's tensor map does), but
    `--generate-runtime-verification` would check it and refuse the kernel.
    A view that something accesses stays, and is checked.
  }];
}

def MGPUCheckVectorAccesses : Pass<"mgpu-check-vector-accesses"> {
  let summary = "Runtime bounds checks of vector loads, stores and transfers";
  let description = [{
    Upstream's `--generate-runtime-verification` checks memref loads and
    stores but not vector accesses. For the host backends this pass adds a
    `cf.assert` before each `vector.load`, `vector.store` and each
    `vector.transfer_read` / `vector.transfer_write` dimension marked in
    bounds: the vector must lie inside the memref. Out of bounds it would
    read or write other memory (an in-bounds transfer is not masked). It
    also asserts that each `memref.view` (a RefUnion's ref) lies inside
    its byte buffer, which upstream's checks leave out.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

def MGPUCheckDivisions : Pass<"mgpu-check-divisions"> {
  let summary = "Runtime checks that integer divisors are not zero (host)";
  let description = [{
    For the host backends: a `cf.assert` that the divisor is not zero before
    each scalar integer division or remainder of the arith dialect (divui,
    divsi, remui, remsi, ceildivsi, ceildivui, floordivsi), which would
    otherwise trap or yield garbage.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect"
  ];
}

def MGPUReportFailedChecks
    : Pass<"mgpu-report-failed-checks", "::mlir::ModuleOp"> {
  let summary = "Failed runtime checks as located errors (host backends)";
  let description = [{
    Interpret mode and the GPU emulator check memory accesses at run time
    (upstream `--generate-runtime-verification`, which emits `cf.assert`):
    an index out of bounds in a kernel body or in host code would otherwise
    read or write other memory, corrupt the heap or hang. This pass turns
    each `cf.assert` into a call of the host runtime that, when the check
    fails, prints `file:line:col: error: <what failed>` at the checked op's
    location and ends the program with exit code 1 (a `cf.assert` would
    abort with a signal).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::func::FuncDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def MGPUHostPrintf : Pass<"mgpu-host-printf", "::mlir::ModuleOp"> {
  let summary = "debug_print (gpu.printf) as C printf on the host backends";
  let description = [{
    Interpret mode and the GPU emulator run kernel bodies as host code: this
    pass turns each `gpu.printf` outside a `gpu.module` into a call of the C
    library's `printf` with the same format, its arguments promoted as C
    varargs are (index and small integers widened, floats to double). A
    vector argument is refused with a diagnostic.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

#endif // MGPU_HOST_PASSES_TD
