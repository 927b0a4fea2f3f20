#!/usr/bin/env python3
"""Checks that README.md's pass table names every pass (include/mgpu/*/Passes.td).

Run by `make docs-check`: a pass added without a README line fails the
check, naming it. Exit status 1 when one is missing.
"""
import glob
import re
import sys


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    passes = []
    for td in sorted(glob.glob(f"{root}/include/mgpu/*/Passes.td")):
        passes += re.findall(r'Pass<"(mgpu-[a-z0-9-]+)"', open(td).read())
    readme = open(f"{root}/README.md").read()
    missing = [p for p in passes
               if not re.search(r"`--" + re.escape(p) + r"[`{=\"]", readme)]
    for p in missing:
        print(f"docs-check: README.md's pass table lacks --{p}")
    if missing:
        return 1
    print(f"docs-check: README.md names all {len(passes)} passes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
