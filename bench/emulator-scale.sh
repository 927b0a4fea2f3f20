#!/usr/bin/env bash
# The emulator at scale: test/Integration/Kernels/million_programs.mlir at
# 2^20 programs (2^27 CUDA threads, run as fibers on one host thread per
# core), with the checks on and off. Prints the wall and CPU seconds of
# each run and its output (mismatches must be 0).
# Usage: bench/emulator-scale.sh [build-dir] [log2-programs]
set -euo pipefail
build=${1:-build}
log2=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=$((1 << log2))
sed -e "s/131072/$n/g" -e "s/131071/$((n - 1))/g" \
  "$here/../test/Integration/Kernels/million_programs.mlir" > "$tmp/scale.mlir"
for checks in all none; do
  echo "== 2^$log2 programs, --check=$checks"
  /usr/bin/time -f "wall %e s, cpu %U s user + %S s system" \
    "$build/bin/mgpu-run" "$tmp/scale.mlir" -e main --backend=emulate \
    --emulate-schedules=1 --check=$checks
done
