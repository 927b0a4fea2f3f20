#!/usr/bin/env python3
"""Checks that mgpu's layers include only the layers below them.

    utils/check-layers.py SOURCE_ROOT

The layers, lowest first, and what each may include (besides itself and
the include/mgpu headers of those layers): Target (chip facts), Dialect,
KernelForm (shared by every backend), then the backends side by side, GPU
(the NVVM lowering) and Host (interpret mode and the GPU emulator, which
runs the GPU lowering's output IR but none of its C++), then Pipelines,
CAPI and Plugin over everything. Runtime (the C ABI libraries loaded by
programs) includes only Target's plain headers. Inside GPU, the
distribution (Distribute*.cpp, WarpgroupDistribut*, WgmmaSteps.*) writes
target-neutral ops only: it includes no NVVM or LLVM dialect header. Exit
status 1 with the offending line for each include that goes the wrong way
or across.
"""
import os
import re
import sys

ALLOWED = {
    "Target": set(),
    "Dialect": {"Target"},
    "KernelForm": {"Dialect", "Target"},
    "GPU": {"KernelForm", "Dialect", "Target"},
    "Host": {"KernelForm", "Dialect", "Target"},
    "Runtime": {"Target"},
    "Pipelines": {"GPU", "Host", "KernelForm", "Dialect", "Target"},
    "CAPI": {"Pipelines", "GPU", "Host", "KernelForm", "Dialect", "Target"},
    "Plugin": {"Pipelines", "GPU", "Host", "KernelForm", "Dialect", "Target"},
}
# Headers at the top of include/mgpu that belong to a layer.
TOP_LEVEL = {"Passes.h": "KernelForm", "Pipelines.h": "Pipelines",
             "InitAll.h": "Pipelines"}
INCLUDE = re.compile(r'^\s*#include\s+"mgpu/([A-Za-z]+)(/|\.h")')
# The distribution's files and the dialect headers they must not include.
DISTRIBUTION = re.compile(r"^(Distribute|WarpgroupDistribut|WgmmaSteps)")
TARGET_DIALECT = re.compile(
    r'^\s*#include\s+"mlir/Dialect/LLVMIR/(NVVM|LLVM)Dialect\.h"')


def layer_of_include(match, line):
    name = match.group(1)
    if match.group(2) == '.h"':
        return TOP_LEVEL.get(name + ".h")
    return name


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    bad = []
    for base in ("lib", "include/mgpu"):
        for layer in ALLOWED:
            folder = os.path.join(root, base, layer)
            for dirpath, _, files in os.walk(folder):
                for name in files:
                    if not name.endswith((".h", ".cpp", ".td")):
                        continue
                    path = os.path.join(dirpath, name)
                    distribution = layer == "GPU" and DISTRIBUTION.match(name)
                    for number, line in enumerate(open(path), 1):
                        if distribution and TARGET_DIALECT.match(line):
                            bad.append("%s:%d: the distribution includes a "
                                       "target dialect: %s" % (
                                           os.path.relpath(path, root),
                                           number, line.strip()))
                        match = INCLUDE.match(line)
                        if not match:
                            continue
                        used = layer_of_include(match, line)
                        if used is None or used == layer:
                            continue
                        # Every layer may name the passes it defines.
                        if used == "KernelForm" and "Passes.h" in line:
                            continue
                        if used not in ALLOWED[layer]:
                            bad.append("%s:%d: %s includes %s: %s" % (
                                os.path.relpath(path, root), number, layer,
                                used, line.strip()))
    for line in bad:
        print("check-layers: " + line)
    if bad:
        return 1
    print("check-layers: every include goes down the layers, and the "
          "distribution includes no target dialect")
    return 0


if __name__ == "__main__":
    sys.exit(main())
