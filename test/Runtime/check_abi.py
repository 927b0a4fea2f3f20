"""Checks that libmgpu_cuda_runtime.so defines every mgpu* function a
lowered program declares.

Usage: check_abi.py NM_OUTPUT LLVM_IR...

NM_OUTPUT is `llvm-nm -D --defined-only` of the library; each LLVM_IR file
is a program lowered by MLIR (gpu-to-llvm and friends) and translated to
LLVM IR. Prints each declared mgpu* function with whether the library
defines it, then a summary line, and exits 1 if any is missing, so a new
entry point in a future MLIR shows up as a failing test rather than as an
unresolved symbol at run time.
"""

import re
import sys


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    defined = set()
    with open(argv[1]) as nm_output:
        for line in nm_output:
            fields = line.split()
            if len(fields) >= 2 and fields[-2] in ("T", "W"):
                defined.add(fields[-1])
    declared = set()
    for path in argv[2:]:
        with open(path) as ir:
            declared.update(re.findall(r"^declare [^@]*@(mgpu\w+)\(", ir.read(),
                                       re.MULTILINE))
    missing = sorted(declared - defined)
    for name in sorted(declared):
        print("%s: %s" % ("missing" if name in missing else "defined", name))
    print("%d declared, %d missing" % (len(declared), len(missing)))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
