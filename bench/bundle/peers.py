#!/usr/bin/env python3
"""The peers mgpu is measured against, on the problems of the bundle's
benchmarks: torch (cuBLAS and torch's own kernels), Triton, JAX XLA and
JAX Pallas on its Mosaic GPU backend.

    peers.py --problem KEY --results FILE [--size full|mock]
        times every peer of one problem and checks its output; appends one
        JSON line per peer to FILE as soon as that peer is done (run.sh runs
        one problem at a time under the bundle's deadline)
    peers.py --plan MANIFEST
        for run.sh: one line per problem, `KEY BENCH...` (our executables
        that measure it, in the bundle's bench/), then `other BENCH...`
    peers.py --dry-run
        the problems and their peers, importing nothing (what CI runs)

Timing, the same for everyone. Ours (bench/programs/*.mlir) are timed by
mgpuTimingReport (lib/Runtime/KernelTiming.cpp): a pair of CUDA events
around each launch, 12 launches, the first 2 warm-up, the median of the
other 10, a spinning kernel ahead of each launch keeping the stream busy
while the host records the start event and launches. A launch is timed on
its own there because each call of a benchmark's function copies its
operands between the launches, so one pair of events around 10 launches
would time the copies too. The peers are timed the same way: torch and Triton by CUDA events around each of 10
launches after warm-up, issued back to back with no synchronization in
between and behind a `torch.cuda._sleep` that keeps the stream busy while
Python enqueues them, so that each pair of events brackets one kernel on
the GPU and none of Python's launch overhead (one pair around the whole
burst gives the mean as well); JAX by its CUPTI profiler
(jax.experimental.mosaic.gpu.profiler.measure: the GPU time of the kernels
of each of 10 calls after warm-up), or, where CUPTI is not available, 10
calls back to back and one synchronization (the host clock over 10,
marked `host`).

Correctness. The inputs are seeded random numbers made by torch on the
GPU; JAX gets the same buffers through DLPack. Each implementation's
output is compared, at sampled rows or entries, with a float64 reference
computed here in plain Python from the very input values, within a
tolerance for the output's type (below, TOLERANCE). Ours check themselves:
each benchmark compares its whole output (or 64 entries, 16 rows for
attention) with a closed form or a scalar reference and prints a mismatch
count, which the table shows.

Every JAX API used names the file and line of JAX's sources it relies on,
for JAX 0.11.2 (the GPU machine's): the lines are those of the tag
jax-v0.11.0, the newest release tag of jax-ml/jax that could be read here
(0.11.2 was not tagged there); the main branch at 0.11.1.dev (2026-08-08)
has the same code for everything used here, some of it a few lines away
(pallas_call at 1131, attention_mgpu.py 2 lines earlier, the Mosaic GPU
lowering about 40 lines later). The JAX calls, each also cited where used:

  jax.jit                          jax/_src/api.py:211
  jax.block_until_ready            jax/_src/api.py:2666
  jax.device_get                   jax/_src/api.py:2464
  jax.dlpack.from_dlpack           jax/_src/dlpack.py:200 (jax/dlpack.py:16)
  jax.ShapeDtypeStruct             jax/_src/core.py:3884
  jax.Array.transpose              jax/_src/numpy/array_methods.py:482
  jnp.add, jnp.exp                 jax/_src/numpy/ufuncs.py:1209, 416
  jnp.sum, jnp.max, jnp.mean       jax/_src/numpy/reductions.py:243, 414, 809
  jnp.dot                          jax/_src/numpy/tensor_contractions.py:39
  jax.lax.rsqrt                    jax/_src/lax/lax.py:944
  jax.nn.softmax                   jax/_src/nn/functions.py:580
  jax.nn.dot_product_attention     jax/_src/nn/functions.py:1086
  pl.pallas_call (no `backend`)    jax/_src/pallas/pallas_call.py:1130
  pl.BlockSpec                     jax/_src/pallas/core.py:559
  pl.program_id                    jax/_src/pallas/primitives.py:62
  plgpu.CompilerParams             jax/_src/pallas/mosaic_gpu/core.py:91
  plgpu.GMEM                       jax/experimental/pallas/mosaic_gpu.py:112
  hopper_matmul_mgpu.TuningConfig  jax/experimental/pallas/ops/gpu/
                                   hopper_matmul_mgpu.py:48
  hopper_matmul_mgpu.matmul        hopper_matmul_mgpu.py:232
  attention_mgpu.TuningConfig      jax/experimental/pallas/ops/gpu/
                                   attention_mgpu.py:40
  attention_mgpu.attention         attention_mgpu.py:341
  mosaic.gpu.profiler.measure      jax/experimental/mosaic/gpu/profiler.py:134
"""

import json
import math
import os
import random
import re
import statistics
import sys
import time
import traceback

WARMUP, RUNS = 2, 10  # as mgpu's benchmarks
# cycles of torch.cuda._sleep ahead of a burst of launches: about 10 ms at
# the H200's 1.98 GHz, more than Python needs to enqueue 10 launches
SLEEP_CYCLES = 20_000_000
SAMPLES = 32  # sampled rows or entries checked against the reference

PEAK_TFLOPS = 989.0  # H200 dense bf16 tensor-core peak
PEAK_GBS = 4800.0  # H200 HBM3e bandwidth

# A sampled output value v passes when |v - ref| <= TOLERANCE[dtype] * scale
# where scale is the problem's magnitude of that value: sum |a_ik b_kj| for
# a matmul entry, sum_k p_k |v_k| for an attention output, sum |x| for a
# row sum, |ref| for softmax and vector add, 1 for layer norm. float32
# leaves room for another summation order (and tensor cores' f32
# accumulation); 16-bit types are a few units in their last place.
TOLERANCE = {"float32": 2e-4, "float16": 4e-3, "bfloat16": 2e-2}

SIZES = {
    # the sizes of bench/programs/*.mlir
    "full": dict(vector=1 << 26, rows=4096, cols=4096,
                 matmul=(4096, 4096, 4096), matmul_large=(8192, 8192, 8192),
                 heads=16, seq=4096, head_dim=64),
    # the smallest sizes that JAX's kernels accept (a matmul: multiples of
    # 128 x 256 x 64; attention: of 2 * 64 positions, head dimension 64),
    # for run.sh --mock, whose fake torch and JAX compute in plain Python
    "mock": dict(vector=1 << 12, rows=4, cols=256, matmul=(128, 256, 64),
                 matmul_large=(128, 256, 64), heads=1, seq=128, head_dim=64),
}


# --- helpers ----------------------------------------------------------------


def floats(x):
    """The values of a torch tensor, or of a JAX output that to_host has
    copied, as a (nested) list of Python floats."""
    if hasattr(x, "detach"):  # torch
        return x.detach().float().cpu().tolist()
    try:
        import numpy
    except ImportError:  # the mock's fake JAX, whose arrays hold floats
        return x.tolist()
    return numpy.asarray(x, dtype=numpy.float32).tolist()


def to_host(x):
    """An output in host memory, where the check reads it."""
    if hasattr(x, "detach"):  # torch
        return x.detach().cpu()
    import jax
    # jax.device_get(x): jax/_src/api.py:2464; returns numpy arrays
    return jax.device_get(x)


def dtype_name(x):
    return str(x.dtype).rpartition(".")[2]


def to_jax(tensor):
    """The JAX array of a CUDA torch tensor, sharing its memory."""
    import jax
    # jax.dlpack.from_dlpack(external_array, device=None, copy=None):
    # jax/_src/dlpack.py:200, exported by jax/dlpack.py:16; it takes any
    # object with __dlpack__, as torch tensors have.
    return jax.dlpack.from_dlpack(tensor.contiguous())


def time_torch(launch):
    """Per-launch CUDA-event times (ms) of RUNS launches after warm-up, and
    the mean over the burst; `launch` returns its output."""
    import torch
    out = launch()  # compiles (Triton) and allocates
    for _ in range(WARMUP):
        out = launch()
    torch.cuda.synchronize()
    pairs = [(torch.cuda.Event(enable_timing=True),
              torch.cuda.Event(enable_timing=True)) for _ in range(RUNS)]
    burst = (torch.cuda.Event(enable_timing=True),
             torch.cuda.Event(enable_timing=True))
    sleep = getattr(torch.cuda, "_sleep", None)
    if sleep:
        sleep(SLEEP_CYCLES)
    burst[0].record()
    for start, end in pairs:
        start.record()
        out = launch()
        end.record()
    burst[1].record()
    torch.cuda.synchronize()
    times = [start.elapsed_time(end) for start, end in pairs]
    method = "events" if sleep else "events, stream not kept busy"
    return out, times, burst[0].elapsed_time(burst[1]) / RUNS, method


def time_jax(function, *args):
    """Times of RUNS calls of a jitted function after warm-up: CUPTI's GPU
    time of each call's kernels, else the host clock over RUNS calls."""
    import jax
    # jax.block_until_ready(x): jax/_src/api.py:2666
    out = jax.block_until_ready(function(*args))  # compiles
    for _ in range(WARMUP):
        out = jax.block_until_ready(function(*args))
    try:
        from jax.experimental.mosaic.gpu import profiler
        # profiler.measure(f, *, aggregate=True, iterations=1) -> wrapper
        # returning (outputs, per-iteration kernel times in ms):
        # jax/experimental/mosaic/gpu/profiler.py:134 (Cupti.measure: 51)
        out, times = profiler.measure(function, iterations=RUNS)(*args)
        if times:
            return out, list(times), None, "cupti"
        note = "cupti saw no kernel"
    except Exception as error:  # no CUPTI: fall back on the host clock
        note = "no cupti: %s" % type(error).__name__
    start = time.perf_counter()
    for _ in range(RUNS):
        out = function(*args)
    jax.block_until_ready(out)
    mean = (time.perf_counter() - start) * 1e3 / RUNS
    return out, [mean], mean, "host (%s)" % note


# --- the problems -------------------------------------------------------------


class Problem:
    """One problem: its label (as our benchmarks print it), flops and bytes,
    our executables (a regular expression over the bundle's bench/ names),
    the inputs, the float64 reference at sampled places, and the peers."""

    key = label = ours = bound = ""
    flops = nbytes = 0

    def __init__(self, size):
        self.size = size
        self.rng = random.Random(self.key)
        self.cache = {}
        self.references = {}

    def peers(self):
        """[(name, function(inputs) -> (output, times, burst, method))]"""
        return []

    def check(self, x, out, sample):
        """(output values, float64 reference, magnitudes) at `sample`; the
        reference is computed once for all the peers."""
        key = repr(sample)
        if key not in self.references:
            self.references[key] = self.reference(x, sample)
        want, scale = self.references[key]
        return self.actual(out, sample), want, scale

    def actual(self, out, row):
        return floats(out[row])

    def host(self, name, tensor, index):
        """Input `name`'s values at `index`, fetched once."""
        key = (name, repr(index))
        if key not in self.cache:
            self.cache[key] = floats(tensor[index])
        return self.cache[key]


def randn(shape, dtype_name_, seed):
    import torch
    generator = torch.Generator(device="cuda")
    generator.manual_seed(seed)
    return torch.randn(shape, generator=generator, device="cuda",
                       dtype=torch.float32).to(getattr(torch, dtype_name_))


class VectorAdd(Problem):
    key, ours, bound = "vector_add", r"^vector_add(\.|$)", "bytes"

    def __init__(self, size):
        super().__init__(size)
        self.n = size["vector"]
        self.label = "vector_add 2^%d f32" % int(math.log2(self.n))
        self.flops, self.nbytes = self.n, 3 * 4 * self.n

    def inputs(self):
        return {"a": randn((self.n,), "float32", 1),
                "b": randn((self.n,), "float32", 2)}

    def samples(self):
        return [self.rng.randrange(self.n) for _ in range(SAMPLES)]

    def reference(self, x, i):
        a, b = self.host("a", x["a"], i), self.host("b", x["b"], i)
        return [a + b], [abs(a) + abs(b)]

    def actual(self, out, i):
        return [floats(out[i])]

    def peers(self):
        return [("torch", self.torch), ("triton", self.triton),
                ("jax-xla", self.jax_xla),
                ("jax-pallas-mgpu", self.jax_pallas)]

    def torch(self, x):
        import torch
        out = torch.empty_like(x["a"])
        return time_torch(lambda: torch.add(x["a"], x["b"], out=out))

    def triton(self, x):
        import torch
        import triton
        import triton.language as tl

        @triton.jit
        def add(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
            offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            mask = offsets < n
            a = tl.load(a_ptr + offsets, mask=mask)
            b = tl.load(b_ptr + offsets, mask=mask)
            tl.store(out_ptr + offsets, a + b, mask=mask)

        out = torch.empty_like(x["a"])
        block = 4096
        grid = (triton.cdiv(self.n, block),)

        def launch():
            add[grid](x["a"], x["b"], out, self.n, BLOCK=block)
            return out

        return time_torch(launch)

    def jax_xla(self, x):
        import jax
        import jax.numpy as jnp
        # jax.jit(fun, /, *, ...): jax/_src/api.py:211;
        # jnp.add(x, y, /): jax/_src/numpy/ufuncs.py:1209
        return time_jax(jax.jit(jnp.add), to_jax(x["a"]), to_jax(x["b"]))

    def jax_pallas(self, x):
        import jax
        import jax.numpy as jnp
        from jax.experimental import pallas as pl
        from jax.experimental.pallas import mosaic_gpu as plgpu

        block = 4096  # 16 KiB of each operand in shared memory

        def kernel(a_ref, b_ref, out_ref):
            out_ref[...] = a_ref[...] + b_ref[...]

        # pl.BlockSpec(block_shape, index_map, *, memory_space=...):
        # jax/_src/pallas/core.py:559
        spec = pl.BlockSpec((block,), lambda i: (i,))
        # pl.pallas_call(kernel, out_shape, *, grid, in_specs, out_specs,
        # ..., compiler_params): jax/_src/pallas/pallas_call.py:1130; it has
        # no `backend` argument since JAX 0.9.1 (docs/pallas/CHANGELOG.md:
        # 240): a plgpu.CompilerParams (jax/_src/pallas/mosaic_gpu/core.py:
        # 91) selects Mosaic GPU (pallas_call.py:921-926).
        add = pl.pallas_call(
            kernel,
            # jax.ShapeDtypeStruct: jax/_src/core.py:3884
            out_shape=jax.ShapeDtypeStruct((self.n,), jnp.float32),
            grid=(self.n // block,), in_specs=[spec, spec], out_specs=spec,
            compiler_params=plgpu.CompilerParams())
        return time_jax(jax.jit(add), to_jax(x["a"]), to_jax(x["b"]))


class Rows(Problem):
    """A problem over the rows of a rows x cols f32 matrix."""

    def __init__(self, size):
        super().__init__(size)
        self.rows, self.cols = size["rows"], size["cols"]
        self.label = "%s %dx%d f32" % (self.key, self.rows, self.cols)

    def inputs(self):
        return {"x": randn((self.rows, self.cols), "float32", 3)}

    def samples(self):
        return self.rng.sample(range(self.rows), min(SAMPLES, self.rows))

    def peers(self):
        return [("torch", self.torch), ("triton", self.triton),
                ("jax-xla", self.jax_xla),
                ("jax-pallas-mgpu", self.jax_pallas)]

    def pallas_rows(self, kernel, x, out_shape, out_spec):
        """A Pallas MGPU kernel with one program per row. Each program gets
        its row as a 1-D (cols,) block in shared memory (16 KiB for 4096
        f32: a block of many rows would not fit, 227 KiB in all, with the
        output block), and reduces it over all its axes, the reduction
        Mosaic GPU's default layout supports."""
        import jax
        import jax.numpy as jnp
        from jax.experimental import pallas as pl
        from jax.experimental.pallas import mosaic_gpu as plgpu
        # A None block dimension is squeezed out of the kernel's ref:
        # jax/_src/pallas/core.py:559-568 (BlockSpec), and Mosaic GPU's
        # pipeline drops it from the shared-memory block:
        # jax/_src/pallas/mosaic_gpu/pipeline.py:64-72.
        row = pl.BlockSpec((None, self.cols), lambda i: (i, 0))
        call = pl.pallas_call(
            kernel, out_shape=jax.ShapeDtypeStruct(out_shape, jnp.float32),
            grid=(self.rows,), in_specs=[row],
            out_specs=out_spec(pl, plgpu, row),
            compiler_params=plgpu.CompilerParams())
        return time_jax(jax.jit(call), to_jax(x["x"]))


class RowSum(Rows):
    key, ours, bound = "rowsum", r"^rowsum(\.|$)", "bytes"

    def __init__(self, size):
        super().__init__(size)
        self.flops = self.rows * self.cols
        self.nbytes = 4 * self.rows * self.cols + 4 * self.rows

    def reference(self, x, r):
        row = self.host("x", x["x"], r)
        return [math.fsum(row)], [math.fsum(map(abs, row))]

    def actual(self, out, r):
        return [floats(out[r])]

    def torch(self, x):
        import torch
        out = torch.empty(self.rows, device="cuda")
        return time_torch(lambda: torch.sum(x["x"], dim=1, out=out))

    def triton(self, x):
        import torch
        import triton
        import triton.language as tl

        @triton.jit
        def rowsum(x_ptr, out_ptr, cols: tl.constexpr, BLOCK: tl.constexpr):
            row = tl.program_id(0)
            acc = tl.zeros((BLOCK,), dtype=tl.float32)
            for start in range(0, cols, BLOCK):
                acc += tl.load(x_ptr + row * cols + start + tl.arange(0, BLOCK))
            tl.store(out_ptr + row, tl.sum(acc, axis=0))

        out = torch.empty(self.rows, device="cuda")

        def launch():
            rowsum[(self.rows,)](x["x"], out, self.cols,
                                 BLOCK=min(1024, self.cols))
            return out

        return time_torch(launch)

    def jax_xla(self, x):
        import jax
        import jax.numpy as jnp
        # jnp.sum(a, axis=None, ...): jax/_src/numpy/reductions.py:243
        return time_jax(jax.jit(lambda v: jnp.sum(v, axis=1)), to_jax(x["x"]))

    def jax_pallas(self, x):
        import jax.numpy as jnp
        from jax.experimental import pallas as pl

        def kernel(row_ref, out_ref):
            # A sum over all axes of the row: lowered for the default
            # (strided) layout by jax/_src/pallas/mosaic_gpu/lowering.py:
            # 3207-3222 (lane semantics) and 3253-3270, 3287 (warpgroup);
            # tests/pallas/mosaic_gpu_test.py:1734-1741 adds such sums.
            # The scalar goes to the program's entry of the output, which
            # stays in global memory (a 4-byte block cannot be copied);
            # a scalar store: lowering.py:2283 (lane), 2380 (warpgroup).
            # pl.program_id: jax/_src/pallas/primitives.py:62
            out_ref[pl.program_id(0)] = jnp.sum(row_ref[...])

        # The whole output in global memory: BlockSpec(memory_space=GMEM),
        # docs/pallas/gpu/reference.md:126-128; plgpu.GMEM:
        # jax/experimental/pallas/mosaic_gpu.py:112. Mosaic GPU requires such
        # a block to be the whole array: lowering.py:715-725.
        return self.pallas_rows(
            kernel, x, (self.rows,),
            lambda pl, plgpu, row: pl.BlockSpec(memory_space=plgpu.GMEM))


class Softmax(Rows):
    key, ours, bound = "softmax", r"^softmax(\.|$)", "bytes"

    def __init__(self, size):
        super().__init__(size)
        self.flops = 5 * self.rows * self.cols
        self.nbytes = 8 * self.rows * self.cols

    def reference(self, x, r):
        row = self.host("x", x["x"], r)
        top = max(row)
        e = [math.exp(v - top) for v in row]
        total = math.fsum(e)
        want = [v / total for v in e]
        return want, want

    def torch(self, x):
        import torch
        return time_torch(lambda: torch.softmax(x["x"], dim=1))

    def triton(self, x):
        import torch
        import triton
        import triton.language as tl

        @triton.jit
        def softmax(x_ptr, out_ptr, cols: tl.constexpr):
            offsets = tl.program_id(0) * cols + tl.arange(0, cols)
            v = tl.load(x_ptr + offsets)
            e = tl.exp(v - tl.max(v, axis=0))
            tl.store(out_ptr + offsets, e / tl.sum(e, axis=0))

        out = torch.empty_like(x["x"])

        def launch():
            softmax[(self.rows,)](x["x"], out, self.cols, num_warps=8)
            return out

        return time_torch(launch)

    def jax_xla(self, x):
        import jax
        # jax.nn.softmax(x, axis=-1, where=None): jax/_src/nn/functions.py:580
        return time_jax(jax.jit(lambda v: jax.nn.softmax(v, axis=1)),
                        to_jax(x["x"]))

    def jax_pallas(self, x):
        import jax.numpy as jnp

        def kernel(row_ref, out_ref):
            v = row_ref[...]
            # max and sum over all axes (see RowSum.jax_pallas); jnp.max:
            # jax/_src/numpy/reductions.py:414; jnp.exp: jax/_src/numpy/
            # ufuncs.py:416, lowered by mosaic_gpu/lowering.py:2976-2977
            e = jnp.exp(v - jnp.max(v))
            out_ref[...] = e / jnp.sum(e)

        return self.pallas_rows(kernel, x, (self.rows, self.cols),
                                lambda pl, plgpu, row: row)


class LayerNorm(Rows):
    key, ours, bound = "layernorm", r"^layernorm(\.|$)", "bytes"
    eps = 1e-5

    def __init__(self, size):
        super().__init__(size)
        self.flops = 7 * self.rows * self.cols
        self.nbytes = 8 * self.rows * self.cols

    def reference(self, x, r):
        row = self.host("x", x["x"], r)
        mean = math.fsum(row) / len(row)
        var = math.fsum((v - mean) ** 2 for v in row) / len(row)
        scale = 1 / math.sqrt(var + self.eps)
        return [(v - mean) * scale for v in row], [1.0] * len(row)

    def torch(self, x):
        import torch
        return time_torch(lambda: torch.nn.functional.layer_norm(
            x["x"], (self.cols,), eps=self.eps))

    def triton(self, x):
        import torch
        import triton
        import triton.language as tl

        @triton.jit
        def layernorm(x_ptr, out_ptr, cols: tl.constexpr, eps):
            offsets = tl.program_id(0) * cols + tl.arange(0, cols)
            v = tl.load(x_ptr + offsets)
            d = v - tl.sum(v, axis=0) / cols
            rstd = 1 / tl.sqrt(tl.sum(d * d, axis=0) / cols + eps)
            tl.store(out_ptr + offsets, d * rstd)

        out = torch.empty_like(x["x"])

        def launch():
            layernorm[(self.rows,)](x["x"], out, self.cols, self.eps,
                                    num_warps=8)
            return out

        return time_torch(launch)

    def jax_xla(self, x):
        import jax
        import jax.numpy as jnp
        eps = self.eps

        def layernorm(v):
            # jnp.mean: jax/_src/numpy/reductions.py:809;
            # lax.rsqrt: jax/_src/lax/lax.py:944
            d = v - jnp.mean(v, axis=1, keepdims=True)
            return d * jax.lax.rsqrt(
                jnp.mean(d * d, axis=1, keepdims=True) + eps)

        return time_jax(jax.jit(layernorm), to_jax(x["x"]))

    def jax_pallas(self, x):
        import jax
        import jax.numpy as jnp
        eps = self.eps

        def kernel(row_ref, out_ref):
            # The layer norm of tests/pallas/mosaic_gpu_test.py:1746-1762
            # on one row: means over all axes, lax.rsqrt lowered by
            # mosaic_gpu/lowering.py:2932-2933.
            v = row_ref[...]
            d = v - jnp.mean(v)
            out_ref[...] = d * jax.lax.rsqrt(jnp.mean(d * d) + eps)

        return self.pallas_rows(kernel, x, (self.rows, self.cols),
                                lambda pl, plgpu, row: row)


class Matmul(Problem):
    """C = A B, A and B bf16; ours write C in f32."""
    bound = "flops"

    def __init__(self, size, which):
        self.key = "matmul" if which == "matmul" else "matmul_8192"
        super().__init__(size)
        self.m, self.n, self.k = size[which]
        full = SIZES["full"][which][0]
        self.label = "matmul_bf16 %d^3" % full
        if self.m != full:  # the mock's size
            self.label = "matmul_bf16 %dx%dx%d" % (self.m, self.n, self.k)
        self.ours = (r"^matmul_bf16_ws_8192(\.|$)" if which != "matmul"
                     else r"^matmul_bf16(?!_ws_8192)([._]|$)")
        self.flops = 2 * self.m * self.n * self.k
        self.nbytes = 2 * (self.m * self.k + self.k * self.n) \
            + 4 * self.m * self.n

    def inputs(self):
        return {"a": randn((self.m, self.k), "bfloat16", 4),
                "b": randn((self.k, self.n), "bfloat16", 5)}

    def samples(self):
        return [(self.rng.randrange(self.m), self.rng.randrange(self.n))
                for _ in range(SAMPLES)]

    def reference(self, x, entry):
        i, j = entry
        a = self.host("a", x["a"], i)
        b = self.host("b", x["b"], (slice(None), j))
        return [math.fsum(p * q for p, q in zip(a, b))], \
            [math.fsum(abs(p * q) for p, q in zip(a, b))]

    def actual(self, out, entry):
        return [floats(out[entry])]

    def peers(self):
        return [("torch", self.torch), ("triton", self.triton),
                ("jax-xla", self.jax_xla),
                ("jax-pallas-mgpu", self.jax_pallas)]

    def torch(self, x):
        import torch
        # cuBLAS; bf16 out (f32 accumulation), as is usual for a bf16 GEMM
        return time_torch(lambda: torch.matmul(x["a"], x["b"]))

    def triton(self, x):
        import torch
        import triton
        import triton.language as tl

        @triton.jit
        def matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr,
                   BN: tl.constexpr, BK: tl.constexpr):
            rows = tl.program_id(0) * BM + tl.arange(0, BM)
            cols = tl.program_id(1) * BN + tl.arange(0, BN)
            ks = tl.arange(0, BK)
            acc = tl.zeros((BM, BN), dtype=tl.float32)
            for k in range(0, K, BK):
                a = tl.load(a_ptr + rows[:, None] * K + (k + ks)[None, :])
                b = tl.load(b_ptr + (k + ks)[:, None] * N + cols[None, :])
                acc = tl.dot(a, b, acc)
            tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc)

        c = torch.empty(self.m, self.n, device="cuda", dtype=torch.float32)
        grid = (self.m // 128, self.n // 128)

        def launch():
            matmul[grid](x["a"], x["b"], c, self.m, self.n, self.k, BM=128,
                         BN=128, BK=64, num_stages=4, num_warps=8)
            return c

        return time_torch(launch)

    def jax_xla(self, x):
        import jax
        import jax.numpy as jnp
        # jnp.dot(a, b, *, precision=None, preferred_element_type=None):
        # jax/_src/numpy/tensor_contractions.py:39; f32 out as ours
        dot = jax.jit(lambda a, b: jnp.dot(
            a, b, preferred_element_type=jnp.float32))
        return time_jax(dot, to_jax(x["a"]), to_jax(x["b"]))

    def jax_pallas(self, x):
        # The Hopper matmul JAX ships for Mosaic GPU:
        # jax/experimental/pallas/ops/gpu/hopper_matmul_mgpu.py.
        import functools
        import jax
        from jax.experimental.pallas.ops.gpu import hopper_matmul_mgpu as ops
        a, b = to_jax(x["a"]), to_jax(x["b"])
        errors = []
        # TuningConfig(tile_m, tile_n, tile_k, max_concurrent_steps,
        # epi_tile_n=64, epi_tile_m=64, grid_minor_dim=N, grid_tile_width=1,
        # wg_dimension=N, cluster_dimension=None): hopper_matmul_mgpu.py:
        # 48-59. A CTA computes tile_m x 2 tile_n (two compute warpgroups
        # along N, :81-82) and keeps max_concurrent_steps stages of a
        # 128x64 and a 64x256 bf16 block (:106-137) and 2x2 64x64 output
        # slots (:144-148): 4 stages need 224 KiB of the 227, 3 need 176.
        # The first that compiles is timed, as main() tries its configs
        # (:298-320).
        for steps in (4, 3):
            config = ops.TuningConfig(
                tile_m=128, tile_n=128, tile_k=64, max_concurrent_steps=steps,
                grid_tile_width=4)
            # matmul(a, b, c, config): hopper_matmul_mgpu.py:232; c=None
            # gives a bf16 out (:245-246); an f32 c would be added to the
            # product and needs a third SMEM buffer
            matmul = jax.jit(functools.partial(ops.matmul, c=None,
                                               config=config))
            try:
                out, times, burst, method = time_jax(matmul, a, b)
                return out, times, burst, "%s, %d stages" % (method, steps)
            except Exception as error:
                errors.append("%d stages: %s: %s" % (
                    steps, type(error).__name__, str(error)[:160]))
        raise RuntimeError("; ".join(errors))


class Attention(Problem):
    """softmax(q k^T / 8) v per head; q, k, v bf16 [heads, seq, 64]."""
    key, ours, bound = "attention", r"^attention(\.|$)", "flops"
    scale = 0.125

    def __init__(self, size):
        super().__init__(size)
        self.heads, self.seq, self.dim = \
            size["heads"], size["seq"], size["head_dim"]
        self.label = "attention %dx%dx%d" % (self.heads, self.seq, self.dim)
        self.flops = 4 * self.heads * self.seq ** 2 * self.dim
        self.nbytes = 4 * 2 * self.heads * self.seq * self.dim

    def inputs(self):
        shape = (1, self.heads, self.seq, self.dim)  # torch's layout
        return {name: randn(shape, "bfloat16", 6 + i)
                for i, name in enumerate("qkv")}

    def samples(self):
        return [(self.rng.randrange(self.heads), self.rng.randrange(self.seq))
                for _ in range(min(SAMPLES, 8))]

    def reference(self, x, sample):
        h, s = sample
        q = self.host("q", x["q"], (0, h, s))
        k = self.host("k", x["k"], (0, h))
        v = self.host("v", x["v"], (0, h))
        scores = [self.scale * math.fsum(a * b for a, b in zip(q, row))
                  for row in k]
        top = max(scores)
        p = [math.exp(t - top) for t in scores]
        total = math.fsum(p)
        want = [math.fsum(pj * vj[d] for pj, vj in zip(p, v)) / total
                for d in range(self.dim)]
        scale = [math.fsum(pj * abs(vj[d]) for pj, vj in zip(p, v)) / total
                 for d in range(self.dim)]
        return want, scale

    def actual(self, out, sample):
        h, s = sample
        return floats(out[0, h, s])

    def peers(self):
        return [("torch", self.torch), ("jax-xla", self.jax_xla),
                ("jax-pallas-mgpu", self.jax_pallas)]

    def torch(self, x):
        # Flash attention as torch dispatches it
        import torch
        attend = torch.nn.functional.scaled_dot_product_attention
        return time_torch(lambda: attend(x["q"], x["k"], x["v"],
                                         scale=self.scale))

    @staticmethod
    def torch_layout(timed):
        """A JAX peer's result with its output [batch, seq, heads, dim] in
        torch's layout [batch, heads, seq, dim], as check() reads it
        (jax.Array.transpose: jax/_src/numpy/array_methods.py:482)."""
        out, times, burst, method = timed
        return out.transpose(0, 2, 1, 3), times, burst, method

    def jax_layout(self, x, dtype=None):
        """q, k, v as JAX wants them: [batch, seq, heads, dim]."""
        out = []
        for name in "qkv":
            t = x[name].transpose(1, 2)
            out.append(to_jax(t if dtype is None else t.to(dtype)))
        return out

    def jax_xla(self, x):
        import jax
        # jax.nn.dot_product_attention(query, key, value, bias=None,
        # mask=None, *, scale=None, ..., implementation=None) with
        # [B, T, N, H] operands: jax/_src/nn/functions.py:1086-1099;
        # implementation=None is XLA's (:1270-1272)
        attend = jax.jit(lambda q, k, v: jax.nn.dot_product_attention(
            q, k, v, scale=self.scale))
        return self.torch_layout(time_jax(attend, *self.jax_layout(x)))

    def jax_pallas(self, x):
        # JAX's Hopper flash attention on Mosaic GPU:
        # jax/experimental/pallas/ops/gpu/attention_mgpu.py. Its shared-memory
        # buffers are float16 (:283-293), so q, k, v must be float16 (the
        # bf16 inputs convert exactly). It applies no softmax scale
        # (:183-188), so q comes scaled by 1/8 (exact).
        import functools
        import jax
        import torch
        from jax.experimental.pallas.ops.gpu import attention_mgpu as ops
        q, k, v = self.jax_layout(x, torch.float16)
        q = jax.jit(lambda t: t * self.scale)(q)
        errors = []
        # TuningConfig(block_q, block_kv, max_concurrent_steps, ...):
        # attention_mgpu.py:40-60; main() takes the first of block_kv 256,
        # 128, 64 that compiles, block_q 64, 2 steps (:874-876)
        for block_kv in (256, 128, 64):
            try:
                config = ops.TuningConfig(block_q=64, block_kv=block_kv,
                                          max_concurrent_steps=2)
                # attention(q, k, v, config, save_residuals=False):
                # attention_mgpu.py:341 (jitted with static config, :340)
                attend = functools.partial(ops.attention, config=config)
                out, times, burst, method = self.torch_layout(
                    time_jax(attend, q, k, v))
                return out, times, burst, "%s, block_kv %d" % (method,
                                                                block_kv)
            except Exception as error:
                errors.append("block_kv %d: %s: %s" % (
                    block_kv, type(error).__name__, str(error)[:160]))
        raise RuntimeError("; ".join(errors))


def problems(size_name="full"):
    """The problems in the order run.sh measures them: the tensor-core
    comparisons first."""
    size = SIZES[size_name]
    return [Matmul(size, "matmul"), Attention(size),
            Matmul(size, "matmul_large"), VectorAdd(size), RowSum(size),
            Softmax(size), LayerNorm(size)]


# --- measuring ----------------------------------------------------------------


def check_output(problem, x, out, samples):
    """(verdict, worst error over the tolerance) at the sampled places."""
    tolerance = TOLERANCE.get(dtype_name(out), TOLERANCE["float32"])
    worst = 0.0
    for sample in samples:
        got, want, scale = problem.check(x, out, sample)
        for g, w, s in zip(got, want, scale):
            error = abs(g - w) / max(s, 1e-30)
            if math.isnan(error):
                return "FAIL", float("inf")
            worst = max(worst, error / tolerance)
        if len(got) != len(want):
            return "FAIL", float("inf")
    return ("ok" if worst <= 1 else "FAIL"), worst


def measure(problem, results):
    """Times and checks each peer of `problem`, appending a JSON line per
    peer to `results` as soon as it is known."""
    samples = problem.samples()
    try:
        x = problem.inputs()
    except Exception as error:
        x, input_error = None, "%s: %s" % (type(error).__name__, error)
    for peer, function in problem.peers():
        record = {"problem": problem.key, "impl": peer}
        started = time.time()
        try:
            if x is None:
                raise RuntimeError("no inputs: " + input_error)
            out, times, burst, method = function(x)
            record.update(ms=statistics.median(times), runs=len(times),
                          method=method, out_dtype=dtype_name(out))
            if burst is not None:
                record["burst_ms"] = burst
            try:
                record["check"], record["error_over_tol"] = \
                    check_output(problem, x, to_host(out), samples)
            except Exception as error:  # timed, but its output unreadable
                record["check"] = "FAIL"
                record["check_error"] = "%s: %s" % (type(error).__name__,
                                                    str(error)[:200])
        except Exception as error:  # a missing or failing peer
            record["error"] = "%s: %s" % (type(error).__name__,
                                          " ".join(str(error).split())[:400])
            record["trace"] = traceback.format_exc(limit=-3)[-1500:]
        record["seconds"] = round(time.time() - started, 1)
        with open(results, "a") as stream:
            stream.write(json.dumps(record) + "\n")
        line = "%s [%s]: " % (problem.label, peer)
        if "error" in record:
            print(line + "not measured: " + record["error"], flush=True)
        else:
            print(line + "median %.4f ms over %d (%s), %s" % (
                record["ms"], record["runs"], record["method"],
                record["check"]), flush=True)


def plan(manifest):
    """`KEY BENCH...` per problem, then `other BENCH...`."""
    benches = []
    with open(manifest) as stream:
        for line in stream:
            words = line.split()
            if words and words[0] == "bench":
                benches.append(words[1])
    lines, taken = [], set()
    for problem in problems():
        mine = [b for b in benches if re.search(problem.ours, b)]
        taken.update(mine)
        lines.append(" ".join([problem.key] + mine))
    lines.append(" ".join(["other"] + [b for b in benches if b not in taken]))
    return lines


def main():
    args = sys.argv[1:]
    # JAX would otherwise take 75% of the GPU's memory as it starts, beside
    # torch's own allocations.
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

    def option(name, default=None):
        return args[args.index(name) + 1] if name in args else default

    size = option("--size", "full")
    if "--dry-run" in args:
        for problem in problems(size):
            for peer, _ in problem.peers():
                print("would time %s [%s]" % (problem.label, peer))
        return 0
    if "--plan" in args:
        print("\n".join(plan(option("--plan"))))
        return 0
    key, results = option("--problem"), option("--results")
    chosen = [p for p in problems(size) if p.key == key]
    if not chosen or not results:
        sys.exit("usage: peers.py --problem KEY --results FILE [--size "
                 "full|mock] | --plan MANIFEST | --dry-run")
    measure(chosen[0], results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
