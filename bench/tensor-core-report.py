#!/usr/bin/env python3
"""A static report of the tensor-core kernels, with an issue-rate bound.

    bench/tensor-core-report.py [--build build] [--min PERCENT] [KERNEL.mlir[@N] ...]

Without a GPU, what a tensor-core kernel can reach is bounded by what its
step loop issues. Each kernel (default: examples/matmul_bf16.mlir,
the 4096^3 benchmark, examples/matmul_warp_specialized.mlir, JAX's
hopper_matmul_mgpu.py as test/Integration/TensorCores/hopper_matmul_mgpu.mlir
writes it, and examples/attention.mlir; `file.mlir@N` names the Nth
kernel, from 0, of a file of several) is compiled for sm_90a
with --mgpu-to-binary="tensor-cores=1"; from `ptxas -v` and from the PTX
of the innermost loop holding wgmma.mma_async (one pipeline step) this
script reports:

  wgmma/step    wgmma.mma_async per step, and their shapes
  TMA KiB       bytes the step's TMA copies bring (their expect_tx)
  lane KiB      bytes the lanes load from and store to shared memory in the
                step (each static ld/st.shared once per thread; with inner
                loops, such as the lanes' operand copies, this is a lower
                bound and the bound below an upper one: marked >= and <=)
  regs, spill, smem, CTAs/SM
  MMA clk       the step's flops / 4096 (dense 16-bit flops per SM and
                clock: 989 TFLOP/s over 132 SMs at 1.83 GHz)
  smem clk      (TMA bytes + the bytes wgmma reads + lane bytes) / 128
                (shared-memory bytes per SM and clock)
  bound         MMA clk / step clk, as a share of the 989 TFLOP/s peak.
                TMA and wgmma run asynchronously and overlap; the lanes'
                accesses do not overlap the MMAs (wgmma waits before the
                lanes reuse memory), so step clk = lane clk + max(MMA clk,
                async smem clk).

A warp-specialized kernel (a producer warpgroup whose loop issues the TMA
copies and holds no wgmma, and consumer warpgroups running the step loop)
is counted per CTA step: the consumers' MMAs and lane accesses, one per
warpgroup other than the producer, and the producer loop's TMA bytes.

With --chip sm_100a the kernels are compiled for Blackwell and the step
loop is the innermost loop around the first tcgen05.mma; each
tcgen05.mma.cta_group::1.kind::f16 is M x N x 16, M and N read from its
instruction descriptor (N / 8 at bit 17, M / 16 at bit 24), its operands
(M x 16 and 16 x N, 2 bytes each) read from shared memory. A pair's
tcgen05.mma.cta_group::2 (M = 256) is counted per CTA: half its flops,
and half of each operand (each CTA holds M/2 rows of a and N/2 columns of
b, which the tensor cores of both CTAs read once); its partitioned TMA
copies (cp.async.bulk.tensor...cta_group::2) bring each CTA half the
bytes that the first CTA's expect_tx counts. The figures
are B200's: 148 SMs at 1.855 GHz, 8192 dense 16-bit flops per SM and
clock (twice Hopper's), 2.25 PFLOP/s in all, and 128 shared-memory bytes
per SM and clock. The MMA issuer waits for nothing in the loop but the
stage's barrier, so the same step formula applies. A producer that the
compiler unrolled (no loop of its own) is counted from its expect_tx, one
run of arrivals on the same barrier per step.

The bound leaves out the wgmma pipeline's drain at each wait, barrier and
mbarrier latencies, and the prologue and epilogue: it is an upper bound
of what the step loop allows, not a timing. With --min, exit status 1
when the bound of the first kernel is below PERCENT.
"""

import argparse
import os
import re
import sys

from ptxinfo import compile_kernel, resident_ctas

FLOPS_PER_CLOCK = 4096
SMEM_BYTES_PER_CLOCK = 128
PEAK_TFLOPS = 989
# B200 (sm_100a): 148 SMs x 8192 flops/clock x 1.855 GHz = 2.25 PFLOP/s.
CHIPS = {"sm_90a": (4096, 989, "wgmma.mma_async"),
         "sm_100a": (8192, 2249, "tcgen05.mma")}
WIDTH = {"b8": 1, "u8": 1, "b16": 2, "u16": 2, "f16": 2, "b32": 4, "u32": 4,
         "f32": 4, "b64": 8, "u64": 8, "f64": 8}


def access_bytes(opcode):
    parts = opcode.split(".")
    vector = next((int(p[1:]) for p in parts if re.fullmatch(r"v\d", p)), 1)
    return vector * WIDTH.get(parts[-1], 4)


def loops(lines, merged=False):
    """The line ranges (label, back branch) of the loops of `lines`. With
    `merged`, a loop whose body branches back to its label from several
    places (ptxas rotates loops so) is one range, up to the last branch."""
    labels = {l.strip()[:-1]: i for i, l in enumerate(lines)
              if re.match(r"^\$\w+:$", l.strip())}
    ranges, last = [], {}
    for i, line in enumerate(lines):
        branch = re.search(r"\bbra(?:\.uni)?\s+(\$\w+);", line)
        if branch and branch.group(1) in labels and \
                labels[branch.group(1)] <= i:
            ranges.append((labels[branch.group(1)], i))
            last[labels[branch.group(1)]] = i
    if merged:
        return sorted(last.items(), key=lambda r: r[1])
    return ranges


def step_loop(lines, mma="wgmma.mma_async"):
    """The line range of the innermost loop around the first MMA."""
    first = next((i for i, l in enumerate(lines)
                  if mma in l), None)
    if first is None:
        return None
    best = None
    for start, end in loops(lines):
        if start <= first <= end and (best is None or
                                      end - start < best[1] - best[0]):
            best = (start, end)
    return best


def producer_loop(lines, step, hopper=True):
    """A warp-specialized kernel's producer: the code between its
    setmaxnreg.dec and setmaxnreg.inc when it rebalances registers (the
    producer issues one step's copies there; ptxas may rotate its loop so
    that no branch goes back to the loop's label), else the first loop
    outside `step` that issues TMA (expect_tx) and no wgmma."""
    dec = next((i for i, l in enumerate(lines) if "setmaxnreg.dec" in l), None)
    inc = next((i for i, l in enumerate(lines) if "setmaxnreg.inc" in l), None)
    if dec is not None and inc is not None and (dec < inc or hopper):
        # The producer's branch before the consumers' (up to their inc) or,
        # on Hopper, after it (up to the kernel's end: JAX's FA3, whose
        # memory thread comes last).
        end = inc if dec < inc else next(
            (i for i in range(dec, len(lines)) if lines[i].strip() == "ret;"),
            len(lines))
        body = lines[dec:end]
        if any("expect_tx" in l for l in body) and \
                not any("wgmma.mma_async" in l for l in body):
            return body
    for start, end in loops(lines, merged=True):
        if start <= step[0] <= end or step[0] <= start <= step[1]:
            continue
        body = lines[start:end + 1]
        if any("expect_tx" in l for l in body) and \
                not any("wgmma.mma_async" in l for l in body):
            return body
    return None


def step_copy_bytes(body, moves):
    """The TMA bytes of one step of a producer whose steps ptxas unrolled
    (no loop but barrier waits): each input block is copied once per step
    through its own tensor map, so a step moves, per map, the bytes its
    copies expect. None where the body has a loop of its own."""
    spin_waits = [(start, end) for start, end in loops(body)
                  if any("try_wait" in l for l in body[start:end + 1])]
    if len(spin_waits) != len(loops(body)):
        return None
    per_map, pending = {}, 0
    for line in body:
        expect = re.search(r"mbarrier\.arrive\.expect_tx\S*\s+[^,]+, [^,]+, "
                           r"(%r\d+|\d+);", line.strip())
        if expect:
            value = expect.group(1)
            pending = int(moves.get(value, value if value.isdigit() else 0))
        copy = re.search(r"cp\.async\.bulk\.tensor\.\S*shared\S*global\S*\s+"
                         r"\[[^\]]+\], \[(%rd\d+)", line)
        if copy and pending:
            per_map[copy.group(1)] = max(per_map.get(copy.group(1), 0),
                                         pending)
    return sum(per_map.values())


def expect_bytes(body, moves):
    total = 0
    for line in body:
        expect = re.search(r"mbarrier\.arrive\.expect_tx\S*\s+[^,]+, [^,]+, "
                           r"(%r\d+|\d+);", line.strip())
        if expect:
            value = expect.group(1)
            total += int(moves.get(value, value if value.isdigit() else 0))
    return total


def tcgen05_shape(text, moves):
    """M and N of a tcgen05.mma line, from its instruction descriptor (an
    immediate or a register set by a mov)."""
    operands = text.split(",")
    if len(operands) < 4:
        return None
    idesc = operands[3].strip()
    value = moves.get(idesc, idesc)
    if not str(value).lstrip("-").isdigit():
        return None
    value = int(value) & 0xffffffff
    return ((value >> 24) & 31) << 4, ((value >> 17) & 63) << 3


def unrolled_producer_bytes(lines, step, moves):
    """The TMA bytes of one step of a producer that the compiler unrolled
    (no loop of its own): the expect_tx outside the step loop, grouped by
    runs on the same barrier (one run per step), divided by the runs."""
    runs, last, total = 0, None, 0
    for i, line in enumerate(lines):
        if step[0] <= i <= step[1]:
            continue
        expect = re.search(r"mbarrier\.arrive\.expect_tx\S*\s+[^,]+, "
                           r"\[([^\]]+)\], (%r\d+|\d+);", line.strip())
        if not expect:
            continue
        if expect.group(1) != last:
            runs += 1
            last = expect.group(1)
        value = expect.group(2)
        total += int(moves.get(value, value if value.isdigit() else 0))
    return total / runs if runs else 0


def analyze(build, path, ptxas, chip="sm_90a"):
    flops_per_clock, _, mma_name = CHIPS[chip]
    ptx, info = compile_kernel(build, path, ptxas,
                               "chip=%s format=isa tensor-cores=1" % chip)
    lines = ptx.splitlines()
    name, _, index = os.path.basename(path).partition("@")
    row = dict(info, kernel=os.path.splitext(name)[0] +
               ("@" + index if index else ""))
    row["ctas"] = resident_ctas(info["regs"], info["threads"], info["smem"])
    loop = step_loop(lines, mma_name)
    if loop is None:
        row.update(inner=0, wgmma=0, shapes="none", tma=0, lane=0,
                   bound=None)
        return row
    body = lines[loop[0]:loop[1] + 1]
    # Loops inside the step (the lanes' copies) run more than once: their
    # accesses are undercounted.
    inner = [r for r in loops(lines)
             if loop[0] <= r[0] and r[1] <= loop[1] and r != loop]
    inner = [r for r in inner
             if any(re.search(r"\b(ld|st)\.shared", l)
                    for l in lines[r[0]:r[1] + 1])]
    moves = dict(re.findall(r"mov\.b32\s+(%r\d+), (\d+);", ptx))
    # Warpgroups that run the step loop: all, or all but the producer.
    producer = producer_loop(lines, loop, mma_name == "wgmma.mma_async")
    consumers = info["threads"] // 128 - (1 if producer else 0)
    shapes, flops, operand, lane = {}, 0, 0, 0
    unrolled = step_copy_bytes(producer, moves) \
        if producer and mma_name == "wgmma.mma_async" else None
    tma = unrolled if unrolled is not None else \
        expect_bytes(producer if producer else body, moves)
    if not tma and not producer and mma_name == "tcgen05.mma":
        tma = unrolled_producer_bytes(lines, loop, moves)
    # Partitioned copies (cta_group::2): the first CTA of the pair expects
    # both CTAs' bytes, each CTA loads half.
    if any("cp.async.bulk.tensor" in l and ".cta_group::2" in l
           for l in lines):
        tma /= 2
    for line in body:
        text = line.strip()
        mma = re.search(r"wgmma\.mma_async\S*\.m64n(\d+)k(\d+)", text)
        if mma:
            n, k = int(mma.group(1)), int(mma.group(2))
            shapes["m64n%dk%d" % (n, k)] = shapes.get("m64n%dk%d" % (n, k),
                                                      0) + consumers
            flops += 2 * 64 * n * k * consumers
            operand += (64 * k + k * n) * 2 * consumers
        if "tcgen05.mma" in text and not text.startswith("//"):
            shape = tcgen05_shape(text, moves)
            if shape:
                m, n = shape
                # A pair's MMA: each CTA computes half the rows and reads
                # its own half of a and of b.
                ctas = 2 if ".cta_group::2" in text else 1
                name = "m%dn%dk16%s" % (m, n, " (pair)" if ctas == 2 else "")
                shapes[name] = shapes.get(name, 0) + 1
                flops += 2 * m * n * 16 / ctas
                # a in tensor memory ([%r] in place of a's descriptor) is
                # not read from shared memory.
                a_bytes = 0 if re.search(r"\], \[%r\d+\]", text) else m * 16
                operand += (a_bytes + 16 * n) * 2 / ctas
        access = re.match(r"(?:@%p\d+\s+)?((?:ld|st)\.shared\S*)", text)
        if access:
            lane += access_bytes(access.group(1)) * 128 * consumers
    mma_clk = flops / flops_per_clock
    async_clk = (tma + operand) / SMEM_BYTES_PER_CLOCK
    lane_clk = lane / SMEM_BYTES_PER_CLOCK
    row.update(inner=len(inner), wgmma=sum(shapes.values()),
               shapes=", ".join("%d x %s" % (c, s)
                                for s, c in sorted(shapes.items())),
               tma=tma, lane=lane, mma_clk=mma_clk,
               smem_clk=async_clk + lane_clk,
               bound=100.0 * mma_clk / (lane_clk + max(mma_clk, async_clk)))
    return row


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.join(here, "..")
    suite = [os.path.join(root, "examples", "matmul_bf16.mlir"),
             os.path.join(here, "programs", "matmul_bf16_wgmma.mlir"),
             os.path.join(root, "examples", "matmul_warp_specialized.mlir"),
             os.path.join(root, "test", "Integration", "TensorCores",
                          "hopper_matmul_mgpu.mlir"),
             os.path.join(root, "examples", "attention.mlir")]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    parser.add_argument("--min", type=float, default=None)
    parser.add_argument("--chip", default="sm_90a", choices=sorted(CHIPS))
    parser.add_argument("kernels", nargs="*", default=suite)
    args = parser.parse_args()
    if args.chip != "sm_90a" and args.kernels == suite:
        args.kernels = [os.path.join(root, "examples", name) for name in
                        ("blackwell_matmul_2cta.mlir",
                         "blackwell_matmul.mlir")]
    peak = CHIPS[args.chip][1]
    rows = [analyze(os.path.abspath(args.build), k, args.ptxas, args.chip)
            for k in args.kernels]
    header = ("kernel", "MMAs/step" if args.chip != "sm_90a" else
              "wgmma/step", "shapes", "TMA KiB", "lane KiB",
              "inner loops",
              "regs", "spill", "smem B", "CTAs/SM", "MMA clk", "smem clk",
              "bound")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in rows:
        bound = "n/a" if r["bound"] is None else "%s%.0f%% (%.0f TFLOP/s)" % (
            "<= " if r["inner"] else "", r["bound"],
            r["bound"] * peak / 100)
        print("| " + " | ".join(str(x) for x in (
            r["kernel"], r["wgmma"], r["shapes"], "%.0f" % (r["tma"] / 1024),
            ("%.0f" if not r["inner"] else ">= %.0f") % (r["lane"] / 1024),
            r["inner"], r["regs"], r["spills"], r["smem"],
            r["ctas"], "%.0f" % r.get("mma_clk", 0),
            "%.0f" % r.get("smem_clk", 0), bound)) + " |")
    first = rows[0]["bound"] if rows else None
    if args.min is not None and (first is None or first < args.min):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
