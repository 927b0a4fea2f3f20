#!/usr/bin/env bash
# Interpret mode against plain C++ (-O2): an elementwise kernel over 2^24 f32
# and a row softmax of 4096x4096 f32 with 4x4096 blocks. For each: the time
# to compile for the CPU (mgpu-opt --mgpu-to-cpu), both run times (best of
# several runs) and the ratio.
# Usage: bench/cpu-interpret.sh [build-dir]
set -euo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for name in elementwise softmax; do
  echo "== $name"
  g++ -O2 -o "$tmp/baseline" "$here/cpu_$name.cpp"
  cpp=$("$tmp/baseline" | tee /dev/stderr | awk '/seconds/ {print $NF}')
  start=$(date +%s.%N)
  "$build/bin/mgpu-opt" --mgpu-to-cpu "$here/cpu_$name.mlir" -o "$tmp/cpu.mlir"
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" \
    'BEGIN { printf "compile for the CPU seconds: %.2f\n", e - s }'
  mgpu=$("$build/bin/mgpu-run" "$here/cpu_$name.mlir" -e main --backend=cpu |
         tee /dev/stderr | awk '/interpret seconds/ {print $NF}')
  awk -v m="$mgpu" -v c="$cpp" \
    'BEGIN { printf "ratio mgpu/C++: %.2f\n", m / c }'
done
