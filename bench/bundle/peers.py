#!/usr/bin/env python3
"""Times the bundle's benchmark problems with the peers mgpu measures itself
against: torch (cuBLAS / its own kernels), Triton, and JAX (XLA and Pallas on
the Mosaic GPU backend), on the GPU machine that runs the bundle.

Each line has the form of mgpu's own reports (mgpuTimingReport): the median
of 10 launches timed with CUDA events after 2 warm-up launches, and the
bandwidth or throughput. A peer that is missing or fails prints why and the
others go on. With `--mgpu FILE...` (the benchmarks' outputs, as run.sh
passes them) it ends with one table: per problem, mgpu's median, each
peer's, and mgpu's time over the peer's (below 1: mgpu is faster).
`--dry-run` lists the problems and peers without importing anything (what
CI runs).
"""

import os
import re
import statistics
import sys

N = 1 << 26  # bench/programs/vector_add.mlir
ROWS = COLS = 4096  # bench/programs/rowsum.mlir, softmax.mlir
WARMUP, RUNS = 2, 10
MEDIANS = {}  # "problem [peer]" -> median ms


def report(label, times_ms, flops, nbytes):
    median = statistics.median(times_ms)
    MEDIANS[label] = median
    print("%s: median %.4f ms over %d launches (%d warm-up), %.2f TFLOP/s, "
          "%.1f GB/s" % (label, median, len(times_ms), WARMUP,
                         flops / (median * 1e-3) / 1e12,
                         nbytes / (median * 1e-3) / 1e9), flush=True)


def time_torch_launches(launch):
    import torch
    times = []
    for index in range(WARMUP + RUNS):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        launch()
        end.record()
        end.synchronize()
        if index >= WARMUP:
            times.append(start.elapsed_time(end))
    return times


def vector_add_torch():
    import torch
    a = torch.arange(N, device="cuda", dtype=torch.float32) % 7
    b, out = a.clone(), torch.empty_like(a)
    times = time_torch_launches(lambda: torch.add(a, b, out=out))
    assert torch.equal(out, a + b)
    return times


def vector_add_triton():
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def add(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offsets < n
        tl.store(out_ptr + offsets, tl.load(a_ptr + offsets, mask=mask)
                 + tl.load(b_ptr + offsets, mask=mask), mask=mask)

    a = torch.arange(N, device="cuda", dtype=torch.float32) % 7
    b, out = a.clone(), torch.empty_like(a)
    block = 4096
    times = time_torch_launches(
        lambda: add[(triton.cdiv(N, block),)](a, b, out, N, BLOCK=block))
    assert torch.equal(out, a + b)
    return times


def time_jax(function, *args):
    # JAX dispatches asynchronously; block_until_ready brackets each call,
    # so these times include the dispatch (a few microseconds).
    import time
    times = []
    for index in range(WARMUP + RUNS):
        start = time.perf_counter()
        function(*args).block_until_ready()
        if index >= WARMUP:
            times.append((time.perf_counter() - start) * 1e3)
    return times


def vector_add_jax_xla():
    import jax
    import jax.numpy as jnp
    a = jnp.arange(N, dtype=jnp.float32) % 7
    return time_jax(jax.jit(jnp.add), a, a)


def vector_add_jax_pallas_mgpu():
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import mosaic_gpu as plgpu  # noqa: F401

    block = 4096

    def kernel(a_ref, b_ref, out_ref):
        out_ref[...] = a_ref[...] + b_ref[...]

    spec = pl.BlockSpec((block,), lambda i: (i,))
    add = pl.pallas_call(kernel, grid=(N // block,), in_specs=[spec, spec],
                         out_specs=spec,
                         out_shape=jax.ShapeDtypeStruct((N,), jnp.float32),
                         backend="mosaic_gpu")
    a = jnp.arange(N, dtype=jnp.float32) % 7
    return time_jax(jax.jit(add), a, a)



def matrix():
    import torch
    columns = torch.arange(COLS, device="cuda", dtype=torch.float32)
    return ((torch.arange(ROWS, device="cuda")[:, None] + columns) % 8) \
        .to(torch.float32).contiguous()


def rowsum_torch():
    import torch
    x = matrix()
    out = torch.empty(ROWS, device="cuda")
    return time_torch_launches(lambda: torch.sum(x, dim=1, out=out))


def softmax_torch():
    import torch
    x = matrix()
    out = torch.empty_like(x)
    return time_torch_launches(lambda: torch.softmax(x, dim=1, out=out))


def rowsum_triton():
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def rowsum(x_ptr, out_ptr, cols, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        acc = tl.zeros((BLOCK,), dtype=tl.float32)
        for start in range(0, cols, BLOCK):
            offsets = start + tl.arange(0, BLOCK)
            acc += tl.load(x_ptr + row * cols + offsets)
        tl.store(out_ptr + row, tl.sum(acc, axis=0))

    x = matrix()
    out = torch.empty(ROWS, device="cuda")
    times = time_torch_launches(
        lambda: rowsum[(ROWS,)](x, out, COLS, BLOCK=1024))
    assert torch.allclose(out, x.sum(dim=1))
    return times


def softmax_triton():
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def softmax(x_ptr, out_ptr, cols: tl.constexpr):
        row = tl.program_id(0)
        offsets = row * cols + tl.arange(0, cols)
        x = tl.load(x_ptr + offsets)
        e = tl.exp(x - tl.max(x, axis=0))
        tl.store(out_ptr + offsets, e / tl.sum(e, axis=0))

    x = matrix()
    out = torch.empty_like(x)
    times = time_torch_launches(lambda: softmax[(ROWS,)](x, out, COLS))
    assert torch.allclose(out, torch.softmax(x, dim=1), rtol=1e-4)
    return times


def jax_matrix():
    import jax.numpy as jnp
    return ((jnp.arange(ROWS)[:, None] + jnp.arange(COLS)) % 8) \
        .astype(jnp.float32)


def rowsum_jax_xla():
    import jax
    import jax.numpy as jnp
    return time_jax(jax.jit(lambda x: jnp.sum(x, axis=1)), jax_matrix())


def softmax_jax_xla():
    import jax
    return time_jax(jax.jit(lambda x: jax.nn.softmax(x, axis=1)),
                    jax_matrix())


def rows_pallas_mgpu(kernel, out_shape, out_block):
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import mosaic_gpu as plgpu  # noqa: F401

    block = 16
    call = pl.pallas_call(
        kernel, grid=(ROWS // block,),
        in_specs=[pl.BlockSpec((block, COLS), lambda i: (i, 0))],
        out_specs=pl.BlockSpec(out_block(block), lambda i: (i,) +
                               (0,) * (len(out_shape) - 1)),
        out_shape=jax.ShapeDtypeStruct(out_shape, jnp.float32),
        backend="mosaic_gpu")
    return time_jax(jax.jit(call), jax_matrix())


def rowsum_jax_pallas_mgpu():
    import jax.numpy as jnp

    def kernel(x_ref, out_ref):
        out_ref[...] = jnp.sum(x_ref[...], axis=1)

    return rows_pallas_mgpu(kernel, (ROWS,), lambda block: (block,))


def softmax_jax_pallas_mgpu():
    import jax.numpy as jnp

    def kernel(x_ref, out_ref):
        x = x_ref[...]
        e = jnp.exp(x - jnp.max(x, axis=1, keepdims=True))
        out_ref[...] = e / jnp.sum(e, axis=1, keepdims=True)

    return rows_pallas_mgpu(kernel, (ROWS, COLS),
                            lambda block: (block, COLS))



def layernorm_torch():
    import torch
    x = matrix()
    return time_torch_launches(
        lambda: torch.nn.functional.layer_norm(x, (COLS,), eps=1e-5))


def layernorm_triton():
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def layernorm(x_ptr, out_ptr, cols: tl.constexpr):
        row = tl.program_id(0)
        offsets = row * cols + tl.arange(0, cols)
        x = tl.load(x_ptr + offsets)
        d = x - tl.sum(x, axis=0) / cols
        rstd = 1 / tl.sqrt(tl.sum(d * d, axis=0) / cols + 1e-5)
        tl.store(out_ptr + offsets, d * rstd)

    x = matrix()
    out = torch.empty_like(x)
    times = time_torch_launches(lambda: layernorm[(ROWS,)](x, out, COLS))
    reference = torch.nn.functional.layer_norm(x, (COLS,), eps=1e-5)
    assert torch.allclose(out, reference, atol=1e-4)
    return times


def layernorm_jax_xla():
    import jax
    import jax.numpy as jnp

    def layernorm(x):
        d = x - jnp.mean(x, axis=1, keepdims=True)
        return d * jax.lax.rsqrt(jnp.mean(d * d, axis=1, keepdims=True)
                                 + 1e-5)

    return time_jax(jax.jit(layernorm), jax_matrix())


def layernorm_jax_pallas_mgpu():
    import jax
    import jax.numpy as jnp

    def kernel(x_ref, out_ref):
        x = x_ref[...]
        d = x - jnp.mean(x, axis=1, keepdims=True)
        out_ref[...] = d * jax.lax.rsqrt(
            jnp.mean(d * d, axis=1, keepdims=True) + 1e-5)

    return rows_pallas_mgpu(kernel, (ROWS, COLS),
                            lambda block: (block, COLS))


MATMUL = 4096  # bench/programs/matmul_bf16.mlir
MATMUL_LARGE = 8192  # bench/programs/matmul_bf16_ws_8192.mlir


def matmul_operands_torch(n=MATMUL):
    import torch
    index = torch.arange(n, device="cuda")
    a = ((index[:, None] + index) % 3 - 1).to(torch.bfloat16)
    b = ((index[:, None] + 2 * index) % 5 - 2).to(torch.bfloat16)
    return a, b


def matmul_torch(n=MATMUL):
    import torch
    a, b = matmul_operands_torch(n)
    out = torch.empty(n, n, device="cuda", dtype=torch.bfloat16)
    return time_torch_launches(lambda: torch.matmul(a, b, out=out))


def matmul_triton(size=MATMUL):
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def matmul(a_ptr, b_ptr, c_ptr, n: tl.constexpr, BM: tl.constexpr,
               BN: tl.constexpr, BK: tl.constexpr):
        rows = tl.program_id(0) * BM + tl.arange(0, BM)
        cols = tl.program_id(1) * BN + tl.arange(0, BN)
        ks = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, n, BK):
            a = tl.load(a_ptr + rows[:, None] * n + (k + ks)[None, :])
            b = tl.load(b_ptr + (k + ks)[:, None] * n + cols[None, :])
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + rows[:, None] * n + cols[None, :], acc)

    a, b = matmul_operands_torch(size)
    c = torch.empty(size, size, device="cuda", dtype=torch.float32)
    grid = (size // 128, size // 128)
    times = time_torch_launches(lambda: matmul[grid](
        a, b, c, size, BM=128, BN=128, BK=64, num_stages=4, num_warps=8))
    assert torch.equal(c, torch.matmul(a.float(), b.float()))
    return times


def matmul_operands_jax(n=MATMUL):
    import jax.numpy as jnp
    index = jnp.arange(n)
    a = ((index[:, None] + index) % 3 - 1).astype(jnp.bfloat16)
    b = ((index[:, None] + 2 * index) % 5 - 2).astype(jnp.bfloat16)
    return a, b


def matmul_jax_xla(n=MATMUL):
    import jax
    import jax.numpy as jnp
    dot = jax.jit(lambda a, b: jnp.dot(a, b,
                                       preferred_element_type=jnp.float32))
    return time_jax(dot, *matmul_operands_jax(n))


def matmul_jax_pallas_mgpu(n=MATMUL):
    # The Hopper matmul JAX ships for its Mosaic GPU backend.
    import jax
    from jax.experimental.pallas.ops.gpu import hopper_matmul_mgpu as ops
    config = ops.TuningConfig(tile_m=128, tile_n=128, tile_k=64,
                              max_concurrent_steps=4)
    matmul = jax.jit(lambda a, b: ops.matmul(a, b, config=config))
    return time_jax(matmul, *matmul_operands_jax(n))

HEADS, SEQ, HEAD_DIM = 16, 4096, 64  # bench/programs/attention.mlir


def attention_torch():
    # Flash attention as torch dispatches it (its FlashAttention-2 kernel).
    import torch
    import torch.nn.functional as F
    shape = (1, HEADS, SEQ, HEAD_DIM)
    q, k, v = (torch.randn(shape, device="cuda", dtype=torch.bfloat16)
               for _ in range(3))
    return time_torch_launches(
        lambda: F.scaled_dot_product_attention(q, k, v, scale=0.125))


def attention_operands_jax():
    import jax
    import jax.numpy as jnp
    shape = (1, SEQ, HEADS, HEAD_DIM)  # batch, positions, heads, dimension
    key = jax.random.PRNGKey(0)
    return [jax.random.normal(jax.random.fold_in(key, i), shape, jnp.bfloat16)
            for i in range(3)]


def attention_jax_xla():
    import jax
    attend = jax.jit(lambda q, k, v: jax.nn.dot_product_attention(
        q, k, v, scale=0.125))
    return time_jax(attend, *attention_operands_jax())


def attention_jax_pallas_mgpu():
    # The Hopper flash attention JAX ships for its Mosaic GPU backend.
    import functools
    import jax
    from jax.experimental.pallas.ops.gpu import attention_mgpu as ops
    config = ops.TuningConfig(block_q=64, block_kv=64, max_concurrent_steps=2)
    attend = jax.jit(functools.partial(ops.attention, config=config))
    return time_jax(attend, *attention_operands_jax())


PROBLEMS = [
    ("matmul_bf16 4096^3", 2 * MATMUL ** 3, 2 * 2 * MATMUL ** 2
     + 4 * MATMUL ** 2, [
        ("torch", matmul_torch),
        ("triton", matmul_triton),
        ("jax-xla", matmul_jax_xla),
        ("jax-pallas-mgpu", matmul_jax_pallas_mgpu),
    ]),
    ("matmul_bf16 8192^3", 2 * MATMUL_LARGE ** 3, 2 * 2 * MATMUL_LARGE ** 2
     + 4 * MATMUL_LARGE ** 2, [
        ("torch", lambda: matmul_torch(MATMUL_LARGE)),
        ("triton", lambda: matmul_triton(MATMUL_LARGE)),
        ("jax-xla", lambda: matmul_jax_xla(MATMUL_LARGE)),
        ("jax-pallas-mgpu", lambda: matmul_jax_pallas_mgpu(MATMUL_LARGE)),
    ]),
    ("attention 16x4096x64", 4 * HEADS * SEQ ** 2 * HEAD_DIM,
     3 * 2 * HEADS * SEQ * HEAD_DIM + 4 * HEADS * SEQ * HEAD_DIM, [
        ("torch", attention_torch),
        ("jax-xla", attention_jax_xla),
        ("jax-pallas-mgpu", attention_jax_pallas_mgpu),
    ]),
    # (label, flops, bytes, [(peer, function)])
    ("vector_add 2^26 f32", N, 3 * 4 * N, [
        ("torch", vector_add_torch),
        ("triton", vector_add_triton),
        ("jax-xla", vector_add_jax_xla),
        ("jax-pallas-mgpu", vector_add_jax_pallas_mgpu),
    ]),
    ("rowsum 4096x4096 f32", ROWS * COLS, 4 * ROWS * COLS + 4 * ROWS, [
        ("torch", rowsum_torch),
        ("triton", rowsum_triton),
        ("jax-xla", rowsum_jax_xla),
        ("jax-pallas-mgpu", rowsum_jax_pallas_mgpu),
    ]),
    ("softmax 4096x4096 f32", 5 * ROWS * COLS, 8 * ROWS * COLS, [
        ("torch", softmax_torch),
        ("triton", softmax_triton),
        ("jax-xla", softmax_jax_xla),
        ("jax-pallas-mgpu", softmax_jax_pallas_mgpu),
    ]),
    ("layernorm 4096x4096 f32", 7 * ROWS * COLS, 8 * ROWS * COLS, [
        ("torch", layernorm_torch),
        ("triton", layernorm_triton),
        ("jax-xla", layernorm_jax_xla),
        ("jax-pallas-mgpu", layernorm_jax_pallas_mgpu),
    ]),
]

MGPU_LINE = re.compile(r"^(.*): median ([0-9.]+) ms")


def mgpu_medians(files):
    """Label -> median; a bundle variant (bench-NAME.VARIANT.out, built with
    extra mgpu-run options) is labelled "LABEL (VARIANT)"."""
    medians = {}
    for file in files:
        stem = os.path.basename(file)
        stem = stem[len("bench-"):] if stem.startswith("bench-") else stem
        stem = stem[:-len(".out")] if stem.endswith(".out") else stem
        variant = stem.partition(".")[2]
        with open(file) as stream:
            for line in stream:
                match = MGPU_LINE.match(line.strip())
                if match:
                    label = match.group(1)
                    if variant:
                        label += " (%s)" % variant
                    medians[label] = float(match.group(2))
    return medians


def mgpu_rows(label, mgpu):
    """mgpu's labels measuring the problem `label`: the same size, a program
    name starting with the problem's (matmul_bf16_wgmma for matmul_bf16)."""
    name, _, size = label.partition(" ")
    rows = sorted(l for l in mgpu
                  if l.split(" ")[0].startswith(name) and size in l)
    return rows or [label]


def print_table(mgpu):
    print("\n%-42s %10s  %-16s %10s  %s"
          % ("problem", "mgpu ms", "peer", "peer ms", "mgpu/peer"))
    for label, _, _, peers in PROBLEMS:
        for row in mgpu_rows(label, mgpu):
            ours = mgpu.get(row)
            for peer, _ in peers:
                theirs = MEDIANS.get("%s [%s]" % (label, peer))
                ratio = "%.2f" % (ours / theirs) if ours and theirs else "-"
                print("%-42s %10s  %-16s %10s  %s" % (
                    row, "%.4f" % ours if ours else "-", peer,
                    "%.4f" % theirs if theirs else "-", ratio))


def main():
    arguments = sys.argv[1:]
    dry_run = "--dry-run" in arguments
    mgpu_files = arguments[arguments.index("--mgpu") + 1:] \
        if "--mgpu" in arguments else []
    for label, flops, nbytes, peers in PROBLEMS:
        for peer, function in peers:
            name = "%s [%s]" % (label, peer)
            if dry_run:
                print("would time " + name)
                continue
            try:
                report(name, function(), flops, nbytes)
            except Exception as error:  # a missing or failing peer
                print("%s: not measured: %s: %s"
                      % (name, type(error).__name__, str(error)[:200]))
    if mgpu_files:
        print_table(mgpu_medians(mgpu_files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
