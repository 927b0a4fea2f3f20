"""What the static reports of bench/ share: compile a kernel for sm_90a,
read its PTX, its launch (threads, dynamic shared memory) and `ptxas -v`,
and count the CTAs an SM can hold.

H200 figures: 64K registers, 2048 threads, 32 CTAs and 228 KiB of shared
memory per SM, 1 KiB of it reserved per CTA.
"""

import math
import os
import re
import subprocess
import sys

REGS_PER_SM = 65536
THREADS_PER_SM = 2048
CTAS_PER_SM = 32
SMEM_PER_SM = 228 * 1024
SMEM_RESERVED_PER_CTA = 1024


def compile_kernel(build, path, ptxas, options="chip=sm_90a format=isa"):
    """The kernel's PTX and a dict of threads, regs, spills, smem. A path
    `file.mlir@N` names the Nth kernel (from 0) of a file of several."""
    here = os.path.dirname(os.path.abspath(__file__))
    opt = os.path.join(build, "bin", "mgpu-opt")
    path, _, index = path.partition("@")
    index = int(index) if index else 0
    module = subprocess.run([opt, "--mgpu-to-binary=" + options, path],
                            check=True, capture_output=True, text=True).stdout
    ptx = subprocess.run(
        [sys.executable, os.path.join(here, "..", "utils", "extract-ptx.py"),
         "--object", str(index)],
        input=module, check=True, capture_output=True, text=True).stdout
    launches = list(re.finditer(r"threads in \(%(\w+),.*?"
                                r"dynamic_shared_memory_size %(\w+)", module))
    launch = launches[index] if index < len(launches) else None
    # SSA names repeat across functions: the constants of the launching one.
    start = max(module.rfind("func.func", 0, launch.start()),
                module.rfind("llvm.func", 0, launch.start())) if launch else 0
    constants = dict(re.findall(
        r"%(\w+) = llvm\.mlir\.constant\((\d+) : (?:i\d+|index)\)",
        module[start:launch.start() if launch else len(module)]))
    threads = int(constants.get(launch.group(1), 128)) if launch else 128
    dynamic = int(constants.get(launch.group(2), 0)) if launch else 0
    ptx_path = path + ".%d.ptx" % os.getpid()
    try:
        with open(ptx_path, "w") as stream:
            stream.write(ptx)
        chip = re.search(r"chip=(\w+)", options)
        arch = chip.group(1) if chip else "sm_90a"
        info = subprocess.run([ptxas, "-arch=" + arch, "-v", ptx_path, "-o",
                               os.devnull], check=True, capture_output=True,
                              text=True).stderr
    finally:
        os.remove(ptx_path)
    static = re.search(r"(\d+) bytes smem", info)
    spills = re.search(r"(\d+) bytes spill stores", info)
    return ptx, {
        "threads": threads,
        "regs": int(re.search(r"Used (\d+) registers", info).group(1)),
        "spills": int(spills.group(1)) if spills else 0,
        "smem": dynamic + (int(static.group(1)) if static else 0),
        "ptxas": info,
    }


def resident_ctas(regs, threads, smem):
    warps = math.ceil(threads / 32)
    regs_per_warp = math.ceil(max(regs, 1) * 32 / 256) * 256
    limits = [THREADS_PER_SM // threads, CTAS_PER_SM,
              REGS_PER_SM // (regs_per_warp * warps)]
    limits.append(SMEM_PER_SM // (smem + SMEM_RESERVED_PER_CTA))
    return max(0, min(limits))
