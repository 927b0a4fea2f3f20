#!/usr/bin/env bash
# One go on a GPU machine: build, run the GPU tests and the benchmarks, and
# write the log to $OUT/device-check.log (or ./device-check.log).
#
#   bench/device-check.sh            (from the repository root)
#
# Meant for the project's `device` tool, whose machine has an H200 (sm_90a)
# and whose time is short: it builds in Release with Ninja, runs the lit
# tests that need a GPU (test/Integration/GPU, test/Runtime), then the
# benchmarks, and always leaves the log behind, also when a step fails.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${OUT:-$here}"
log="$out/device-check.log"
mkdir -p "$out"
exec > >(tee "$log") 2>&1

step() { echo; echo "== $*"; }
status=0
run() { "$@" || { echo "FAILED ($?): $*"; status=1; }; }

step "machine"
date -u
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || true

step "build"
run cmake -S "$here" -B "$here/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
run ninja -C "$here/build"

step "GPU tests (lit: Integration/GPU, Runtime)"
run /usr/lib/llvm-22/bin/lit -v "$here/build/test/Integration/GPU" \
  "$here/build/test/Runtime"

step "demo"
run "$here/examples/demo.sh" "$here/build"

step "benchmark: compile time of the GPU pipeline"
run env RUNS=3 "$here/bench/gpu-pipeline.sh" "$here/build"

step "benchmark: one fused mpmd launch against separate launches"
run "$here/bench/mpmd-fusion.sh" "$here/build"

step "benchmark: interpret mode against C++"
run "$here/bench/cpu-elementwise.sh" "$here/build"

echo
echo "device-check: $([ $status = 0 ] && echo passed || echo FAILED)"
exit $status
