#!/usr/bin/env bash
# Interpret mode against plain C++: an elementwise kernel over 2^24 f32.
# Usage: bench/cpu-elementwise.sh [build-dir]. Prints both times and the ratio.
set -euo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
g++ -O2 -o "$tmp/baseline" "$here/cpu_elementwise.cpp"
cpp=$("$tmp/baseline" | tee /dev/stderr | awk '/seconds/ {print $NF}')
mgpu=$("$build/bin/mgpu-run" "$here/cpu_elementwise.mlir" -e main --backend=cpu |
       tee /dev/stderr | awk '/interpret seconds/ {print $NF}')
awk -v m="$mgpu" -v c="$cpp" 'BEGIN { printf "ratio mgpu/C++: %.2f\n", m / c }'
