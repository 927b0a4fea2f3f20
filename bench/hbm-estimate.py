#!/usr/bin/env python3
"""A static estimate of the HBM bandwidth each memory-bound kernel can reach.

    bench/hbm-estimate.py [--build build] [--min PERCENT] [KERNEL.mlir ...]

Without a GPU, the bandwidth a memory-bound kernel can reach is bounded by
Little's law: to keep HBM busy, bytes_in_flight = bandwidth * latency must
be outstanding at all times. For each kernel (default: the suite of
bench/programs: vector_add, rowsum, softmax, layernorm) this script compiles
it for sm_90a with --mgpu-to-binary, reads the PTX and `ptxas -v`, and
computes:

  loads/thread   bytes of ld.global issued back to back before the first
                 instruction that uses a loaded value (what one thread keeps
                 in flight)
  CTAs/SM        resident CTAs, from registers (allocated per warp in units
                 of 256), shared memory, threads and the CTA limit
  in flight/SM   CTAs/SM * threads * loads/thread
  estimate       min(100%, in flight/SM * SMs / (peak * latency))

with H200 figures: 132 SMs, 4.8 TB/s, 64K registers, 2048 threads, 32 CTAs
and 228 KiB shared memory per SM, and an assumed loaded DRAM latency of
800 ns (so about 29 KiB must be in flight per SM). It also prints what the
estimate does not model but a reader should see: shared-memory accesses
per thread, barriers, shuffles and TMA copies. A kernel that stages its
blocks with TMA is reported as such, without an estimate. With --min, exit
status 1 when an estimate is below PERCENT (for CI; the estimate is static,
not a timing).
"""

import argparse
import os
import re
import sys

from ptxinfo import compile_kernel, resident_ctas

SMS = 132
PEAK = 4.8e12
LATENCY = 800e-9

WIDTH = {"b8": 1, "u8": 1, "s8": 1, "b16": 2, "u16": 2, "s16": 2, "f16": 2,
         "b32": 4, "u32": 4, "s32": 4, "f32": 4, "b64": 8, "u64": 8,
         "s64": 8, "f64": 8}
REGISTER = re.compile(r"%[a-z]+\d+")


def load_bytes(opcode):
    parts = opcode.split(".")
    vector = next((int(p[1:]) for p in parts if re.fullmatch(r"v\d", p)), 1)
    return vector * WIDTH.get(parts[-1], 4)


def loads_in_flight(ptx):
    """Bytes of global loads one thread issues before it uses any of them."""
    loaded = set()
    total = 0
    started = False
    for line in ptx.splitlines():
        line = line.strip()
        if not line or line.startswith("//") or line.startswith("."):
            continue
        if line.endswith(":") or line.startswith("bra") or \
                line.startswith("@") and " bra" in line:
            if started:
                break
            continue
        opcode, _, operands = line.partition(" ")
        if opcode.startswith("ld.global"):
            started = True
            dest, _, _ = operands.partition(",")
            if dest.strip().startswith("{"):
                dest = operands[:operands.index("}") + 1]
            loaded.update(REGISTER.findall(dest))
            total += load_bytes(opcode)
            continue
        if not started:
            continue
        # Stores read all their operands; other instructions write the first.
        read = operands if opcode.startswith("st.") else \
            operands.partition(",")[2]
        if loaded & set(REGISTER.findall(read)):
            break
    return total


def analyze(build, path, ptxas):
    ptx, info = compile_kernel(build, path, ptxas)
    threads, regs, smem = info["threads"], info["regs"], info["smem"]
    count = lambda pattern: len(re.findall(pattern, ptx, re.M))
    row = {
        "kernel": os.path.splitext(os.path.basename(path))[0],
        "threads": threads, "regs": regs, "smem": smem,
        "spills": info["spills"],
        "tma": count(r"^\s*cp\.async\.bulk\.tensor"),
        "shared": count(r"^\s*(ld|st)\.shared"),
        "barriers": count(r"^\s*bar\.sync"),
        "shuffles": count(r"^\s*shfl"),
        "loads": loads_in_flight(ptx),
    }
    row["ctas"] = resident_ctas(regs, threads, smem)
    row["flight"] = row["ctas"] * threads * row["loads"]
    needed = PEAK * LATENCY / SMS
    row["estimate"] = None if row["tma"] else \
        min(100.0, 100.0 * row["flight"] / needed)
    return row


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    suite = [os.path.join(here, "programs", name + ".mlir")
             for name in ("vector_add", "rowsum", "softmax", "layernorm")]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    parser.add_argument("--min", type=float, default=None)
    parser.add_argument("kernels", nargs="*", default=suite)
    args = parser.parse_args()
    rows = [analyze(os.path.abspath(args.build), k, args.ptxas)
            for k in args.kernels]
    needed = PEAK * LATENCY / SMS / 1024
    print("H200: %d SMs, %.1f TB/s, %.0f ns: %.1f KiB in flight per SM "
          "needed" % (SMS, PEAK / 1e12, LATENCY * 1e9, needed))
    header = ("kernel", "path", "regs", "spill", "CTAs/SM", "loads/thr B",
              "flight/SM KiB", "smem acc/thr", "bar", "shfl", "estimate")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    failed = False
    for r in rows:
        estimate = "n/a" if r["estimate"] is None else \
            "%.0f%%" % r["estimate"]
        print("| " + " | ".join(str(x) for x in (
            r["kernel"], "TMA staged" if r["tma"] else "direct", r["regs"],
            r["spills"], r["ctas"], r["loads"],
            "%.1f" % (r["flight"] / 1024), r["shared"], r["barriers"],
            r["shuffles"], estimate)) + " |")
        if args.min is not None and (r["estimate"] is None or
                                     r["estimate"] < args.min):
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
