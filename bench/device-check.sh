#!/usr/bin/env bash
# One go on a GPU machine: run the device bundle and keep the results.
#
#   make device-bundle                     (here: compiles everything)
#   bench/device-check.sh [BUNDLE]         (there; BUNDLE: build/device-bundle)
#
# The GPU machine that the project's `device` tool lends (an H200, sm_90a)
# has a driver, CUDA and Python but no LLVM, so nothing is built there: the
# bundle (bench/make-device-bundle.py) holds every run test and benchmark
# compiled ahead of time with the runtime libraries. Its run.sh runs the tests
# against their CPU outputs, times the benchmarks with CUDA events and times
# the same problems with torch, Triton and JAX (bundle/peers.py). With the
# `run` tool, carry the bundle and call this script:
#
#   run(command="bench/device-check.sh", carry=["build/device-bundle"])
#
# The results land in $OUT/device-results.txt (./device-results.txt without
# $OUT), also when a step fails.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bundle="${1:-$here/build/device-bundle}"
export OUT="${OUT:-$here}"
mkdir -p "$OUT"
if [ ! -x "$bundle/run.sh" ]; then
  echo "device-check: no bundle at $bundle; run 'make device-bundle' first" >&2
  exit 1
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 |
  tee "$OUT/machine.txt" || true
bash "$bundle/run.sh"
