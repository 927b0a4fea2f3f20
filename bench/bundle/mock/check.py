#!/usr/bin/env python3
"""`run.sh --mock`: the bundle end to end here, without a GPU, and checks
of what a GPU session depends on.

    bash BUNDLE/run.sh --mock        (what the lit test device-bundle-mock
                                      runs; under 3 minutes)

A copy of the bundle with every execute bit removed (the copy to the GPU
machine may drop them) runs twice on the mock CUDA driver
(mock/lib/libmgpu_mock_cuda.so, built from test/Runtime/mock_cuda_driver.c:
the executables load their cubins and launch; no kernel runs, so our
outputs are wrong and their checks say so), with the fakes of mock/python
(torch, Triton, JAX with the signatures of the versions on the GPU machine:
torch and JAX compute in plain Python, so their checks pass; Triton's
kernels do nothing, so theirs fail) and of mock/bin (compute-sanitizer,
nvidia-smi) first on the paths:

1. the default mode with a test injected that sleeps past its 3-second
   limit: it is cut, the other tests and the sanitizer runs go on, and the
   summary has every problem's row, every peer's check, the tests' counts
   and the sanitizer's counts;
2. a 12-second deadline with a benchmark injected that sleeps past it
   (its own limit is 90 s), without the chmod the bundle relies on (so
   executables run from copies): the run ends within the deadline, says
   so, and still writes its summary and archive.

After each, $OUT must hold exactly results.tar.gz and summary.txt. Then:
the executables and libraries carry no instruction of a CPU newer than
x86-64-v2 (objdump finds no ymm or zmm register: no AVX of any kind), and
the fakes reject the calls the issue found (pallas_call's removed
`backend`, the Hopper matmul without `c`, bf16 attention, 256 KiB blocks,
a reduction over one axis in a Mosaic GPU kernel). Prints one line per
check and exits 1 if one fails.
"""

import argparse
import os
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
import time

RESULTS = {"results.tar.gz", "summary.txt"}
failed = []


def check(name, ok, detail=""):
    print("mock: %s: %s%s" % (name, "ok" if ok else "FAILED",
                              (" (%s)" % detail) if detail else ""),
          flush=True)
    if not ok:
        failed.append(name)


def strip_exec_bits(root):
    for directory, _, files in os.walk(root):
        for file in files:
            path = os.path.join(directory, file)
            mode = os.stat(path).st_mode
            os.chmod(path, mode & ~(stat.S_IXUSR | stat.S_IXGRP |
                                    stat.S_IXOTH))


def run_bundle(bundle, out, env, args, log):
    os.makedirs(out, exist_ok=True)
    started = time.time()
    with open(log, "w") as stream:
        rc = subprocess.call(["bash", os.path.join(bundle, "run.sh")] + args,
                             stdout=stream, stderr=subprocess.STDOUT,
                             env=dict(env, OUT=out))
    return rc, time.time() - started


def read_results(out):
    names = set(os.listdir(out))
    summary = ""
    if "summary.txt" in names:
        with open(os.path.join(out, "summary.txt")) as stream:
            summary = stream.read()
    members = []
    if "results.tar.gz" in names:
        with tarfile.open(os.path.join(out, "results.tar.gz")) as tar:
            members = [m.name.lstrip("./") for m in tar.getmembers()]
    return names, summary, members


def tar_text(out, name):
    """The text of member `name` of $OUT/results.tar.gz ("" if absent)."""
    try:
        with tarfile.open(os.path.join(out, "results.tar.gz")) as tar:
            for member in tar.getmembers():
                if member.name.lstrip("./") == name:
                    return tar.extractfile(member).read().decode()
    except (OSError, tarfile.TarError):
        pass
    return ""


def check_outputs(which, out):
    names, summary, members = read_results(out)
    check("%s: $OUT holds exactly results.tar.gz and summary.txt" % which,
          names == RESULTS, "holds %s" % sorted(names))
    return summary, members


def cpu_features(bundle):
    """Whether the bundle's ELF files use AVX registers."""
    if os.uname().machine != "x86_64":
        check("executables target a generic CPU", True,
              "not checked: not an x86-64 host")
        return
    objdump = shutil.which("objdump")
    if not objdump:
        check("executables target a generic CPU", True,
              "not checked: no objdump")
        return
    files = []
    for sub in ("bench", "tests", "lib"):
        folder = os.path.join(bundle, sub)
        for name in sorted(os.listdir(folder)) if os.path.isdir(folder) \
                else []:
            path = os.path.join(folder, name)
            with open(path, "rb") as stream:
                if stream.read(4) == b"\x7fELF":
                    files.append(path)
    offenders = []
    for path in files:
        text = subprocess.run([objdump, "-d", "--no-show-raw-insn", path],
                              capture_output=True, text=True).stdout
        hits = re.findall(r"%[yz]mm\d+", text)
        if hits:
            offenders.append("%s: %d uses of %s" % (
                os.path.relpath(path, bundle), len(hits), hits[0]))
    check("executables target a generic CPU: no AVX/AVX-512 register in %d "
          "ELF files" % len(files), not offenders and files,
          "; ".join(offenders[:5]) or ("%d files" % len(files)))


def fakes_reject_old_calls(python_path):
    """The calls the issue found in the old peers.py fail on the fakes."""
    code = r'''
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import mosaic_gpu as plgpu
from jax.experimental.pallas.ops.gpu import hopper_matmul_mgpu as mm
from jax.experimental.pallas.ops.gpu import attention_mgpu as att
from _mock_array import DType
from jax import JaxArray

def expect(name, error, function):
    try:
        function()
    except error as e:
        print("rejected %s: %s" % (name, type(e).__name__))
        return
    print("ACCEPTED %s" % name)

def zeros(shape, dtype):
    n = 1
    for d in shape: n *= d
    return JaxArray(shape, [0.0] * n, DType(dtype))

kernel = lambda x, o: None
expect("backend=mosaic_gpu", TypeError, lambda: pl.pallas_call(
    kernel, out_shape=jax.ShapeDtypeStruct((8,), jnp.float32),
    backend="mosaic_gpu"))
config = mm.TuningConfig(tile_m=128, tile_n=128, tile_k=64,
                         max_concurrent_steps=4)
a = zeros((128, 64), "bfloat16"); b = zeros((64, 256), "bfloat16")
expect("hopper matmul without c", TypeError,
       lambda: mm.matmul(a, b, config=config))
q = zeros((1, 128, 1, 64), "bfloat16")
expect("bf16 attention", TypeError, lambda: att.attention(
    q, q, q, att.TuningConfig(block_q=64, block_kv=64,
                              max_concurrent_steps=2)))
x = zeros((16, 4096), "float32")
expect("(16, 4096) f32 blocks", ValueError, lambda: pl.pallas_call(
    lambda x_ref, o_ref: None, grid=(1,),
    out_shape=jax.ShapeDtypeStruct((16, 4096), jnp.float32),
    in_specs=[pl.BlockSpec((16, 4096), lambda i: (i, 0))],
    out_specs=pl.BlockSpec((16, 4096), lambda i: (i, 0)),
    compiler_params=plgpu.CompilerParams())(x))
y = zeros((2, 256), "float32")
def rowsum(x_ref, o_ref):
    o_ref[...] = jnp.sum(x_ref[...], axis=1)
expect("a reduction over one axis", NotImplementedError, lambda: pl.pallas_call(
    rowsum, grid=(1,), out_shape=jax.ShapeDtypeStruct((2,), jnp.float32),
    in_specs=[pl.BlockSpec((2, 256), lambda i: (i, 0))],
    out_specs=pl.BlockSpec((2,), lambda i: (i,)),
    compiler_params=plgpu.CompilerParams())(y))
'''
    result = subprocess.run([sys.executable, "-c", code], capture_output=True,
                            text=True, env=dict(os.environ,
                                                PYTHONPATH=python_path))
    lines = result.stdout.splitlines()
    check("the fakes reject the old peers' calls (%d)" % len(lines),
          result.returncode == 0 and len(lines) == 5 and
          all(line.startswith("rejected") for line in lines),
          "; ".join(lines) + result.stderr[-300:])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bundle", required=True)
    parser.add_argument("--keep", action="store_true",
                        help="keep the temporary folder")
    args = parser.parse_args()
    started = time.time()
    source = os.path.abspath(args.bundle)
    temp = tempfile.mkdtemp(prefix="mgpu-bundle-mock.")
    bundle = os.path.join(temp, "bundle")
    shutil.copytree(source, bundle, symlinks=True)
    strip_exec_bits(bundle)
    for tool in ("compute-sanitizer", "nvidia-smi"):
        os.chmod(os.path.join(bundle, "mock", "bin", tool), 0o755)
    driver = os.path.join(bundle, "mock", "lib", "libmgpu_mock_cuda.so")
    check("the bundle carries the mock driver", os.path.exists(driver))
    python_path = os.path.join(bundle, "mock", "python")
    env = dict(os.environ,
               MGPU_CUDA_DRIVER=driver,
               PYTHONPATH=python_path,
               PATH=os.path.join(bundle, "mock", "bin") + os.pathsep +
               os.environ.get("PATH", ""),
               MGPU_PEERS_SIZE="mock",
               # The benchmarks' gigabytes need not move: no kernel runs.
               MOCK_CUDA_COPY_LIMIT=str(1 << 20))
    env.pop("OUT", None)
    out = os.environ.get("OUT") or os.path.join(temp, "out")

    # 1. Everything, with a test that sleeps past its limit.
    rc, seconds = run_bundle(
        bundle, out, dict(env, MGPU_BUNDLE_INJECT="sleep-test"),
        ["--deadline", "150"], os.path.join(temp, "run1.log"))
    summary, members = check_outputs("default run", out)
    print(summary)
    check("default run: finished within its deadline", seconds < 150,
          "%.0f s, exit %d" % (seconds, rc))
    check("default run: the sleeping test is cut at its limit",
          "TIMEOUT mock.sleeps-past-its-limit: timeout after 3 s" in summary)
    check("default run: every problem has a row",
          all(re.search(r"^%s " % re.escape(label), summary, re.M)
              for label in ("matmul_bf16 4096^3", "attention 16x4096x64",
                            "matmul_bf16 8192^3", "vector_add 2^26 f32",
                            "rowsum 4096x4096 f32", "softmax 4096x4096 f32",
                            "layernorm 4096x4096 f32")))
    peer_checks = re.findall(r"^  (torch \(cuBLAS, its kernels\)|Triton|JAX "
                             r"XLA|JAX Pallas MGPU) .* (ok|FAIL); ", summary,
                             re.M)
    check("default run: every peer measured and checked (torch and JAX "
          "right, Triton's no-op kernels wrong)", len(peer_checks) == 27 and
          all((verdict == "FAIL") == (impl == "Triton")
              for impl, verdict in peer_checks),
          "%d peer rows" % len(peer_checks))
    # One row per benchmark executable the bundle holds.
    with open(os.path.join(bundle, "MANIFEST")) as stream:
        benchmarks = sum(1 for line in stream if line.startswith("bench "))
    ours = len(re.findall(r"^  ours \S+.*\d+\.\d{4} .*mismatches\)", summary,
                          re.M))
    check("default run: our benchmarks report times and mismatch counts",
          benchmarks > 0 and ours == benchmarks,
          "%d rows, %d benchmarks" % (ours, benchmarks))
    check("default run: tests counted",
          re.search(r"== Tests: \d+ passed, \d+ failed, 1 timed out",
                    summary) is not None)
    check("default run: sanitizer counts per test",
          re.search(r"compute-sanitizer: .* totals racecheck 0, synccheck 0,"
                    r" memcheck 0", summary) is not None)
    check("default run: the archive holds the logs",
          "peers.jsonl" in members and "summary.txt" in members and
          any(m.startswith("bench/") for m in members) and
          any(m.startswith("sanitize/") for m in members),
          "%d members" % len(members))

    # 2. A deadline that cuts a benchmark, without execute bits restored.
    out2 = os.path.join(temp, "out-deadline")
    rc, seconds = run_bundle(
        bundle, out2, dict(env, MGPU_BUNDLE_INJECT="sleep-bench",
                           MGPU_BUNDLE_RESERVE="4", MGPU_BUNDLE_NO_CHMOD="1"),
        ["--deadline", "12"], os.path.join(temp, "run2.log"))
    summary2, members2 = check_outputs("deadline run", out2)
    # The sleeper alone would take 90 s; the margin covers writing the
    # summary and archive on a machine busy with other tests.
    check("deadline run: ended within the deadline", seconds < 12 + 10,
          "%.1f s, exit %d" % (seconds, rc))
    check("deadline run: says it was stopped, and the summary is written",
          "STOPPED AT THE DEADLINE" in summary2 and
          "== Side by side" in summary2)
    status = tar_text(out2, "bench/mock.sleeper.status")
    check("deadline run: the sleeping benchmark was cut by the deadline",
          status.startswith("timeout after") and "(deadline)" in status,
          status.strip())

    cpu_features(bundle)
    fakes_reject_old_calls(python_path)

    if args.keep:
        print("mock: kept %s" % temp)
    else:
        shutil.rmtree(temp, ignore_errors=True)
    print("mock: %s in %.0f s" % (
        "all checks passed" if not failed else
        "%d check(s) FAILED: %s" % (len(failed), ", ".join(failed)),
        time.time() - started))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
