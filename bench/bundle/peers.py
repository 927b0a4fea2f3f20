#!/usr/bin/env python3
"""Times the bundle's benchmark problems with the peers mgpu measures itself
against: torch (cuBLAS / its own kernels), Triton, and JAX (XLA and Pallas on
the Mosaic GPU backend), on the GPU machine that runs the bundle.

Each line has the form of mgpu's own reports (mgpuTimingReport): the median
of 10 launches timed with CUDA events after 2 warm-up launches, and the
bandwidth or throughput. A peer that is missing or fails prints why and the
others go on. `--dry-run` lists the problems and peers without importing
anything (what CI runs).
"""

import statistics
import sys

N = 1 << 24  # bench/programs/vector_add.mlir
WARMUP, RUNS = 2, 10


def report(label, times_ms, flops, nbytes):
    median = statistics.median(times_ms)
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


PROBLEMS = [
    # (label, flops, bytes, [(peer, function)])
    ("vector_add 2^24 f32", N, 3 * 4 * N, [
        ("torch", vector_add_torch),
        ("triton", vector_add_triton),
        ("jax-xla", vector_add_jax_xla),
        ("jax-pallas-mgpu", vector_add_jax_pallas_mgpu),
    ]),
]


def main():
    dry_run = "--dry-run" in sys.argv[1:]
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
