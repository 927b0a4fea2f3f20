#!/usr/bin/env bash
# Compile time of the whole GPU pipeline against upstream's.
#
# For every example kernel: the time of `mgpu-opt --mgpu-to-binary` from the
# mgpu source to a cubin, against upstream `mlir-opt
# --gpu-lower-to-nvvm-pipeline` (same chip, PTX version, format and opt
# level) on the equivalent gpu-dialect IR: the kernels that
# --mgpu-lower-to-gpu, --mgpu-primitives-to-nvvm and --mgpu-outline-kernels
# produce (TMA, mbarriers and the distributed bodies), saved first, so both sides
# serialize the same kernels and the difference is what mgpu adds
# (bufferization, pipeline expansion, distribution, outlining and its own
# pass list). Each side is the best of RUNS runs.
#
#   bench/gpu-pipeline.sh [BUILD_DIR]      (default: build)
# Prints one line per example and the ratio of the totals.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build}"
runs="${RUNS:-5}"
mgpu_opt="$build/bin/mgpu-opt"
mlir_opt="${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}"
toolkit="${CUDA_TOOLKIT:-/usr/local/cuda}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

best_of() { # best wall time in ms of running "$@" $runs times
  local best=""
  for _ in $(seq "$runs"); do
    local start end ms
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    ms=$(( (end - start) / 1000000 ))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
  done
  echo "$best"
}

total_mgpu=0
total_upstream=0
printf "%-20s %10s %10s %7s\n" example mgpu_ms upstream_ms ratio
for src in "$here"/examples/*.mlir; do
  name="$(basename "$src" .mlir)"
  "$mgpu_opt" "$src" --mgpu-bufferize --mgpu-expand-pipelines \
    --mgpu-track-barrier-phases --mgpu-split-mpmd=different-clusters-only=true \
    --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm --mgpu-outline-kernels \
    -o "$work/$name.gpu.mlir"
  mgpu=$(best_of "$mgpu_opt" "$src" \
    --mgpu-to-binary="chip=sm_90a format=bin opt-level=3 toolkit=$toolkit")
  upstream=$(best_of env CUDA_HOME="$toolkit" "$mlir_opt" --allow-unregistered-dialect "$work/$name.gpu.mlir" \
    --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=bin opt-level=3")
  total_mgpu=$((total_mgpu + mgpu))
  total_upstream=$((total_upstream + upstream))
  printf "%-20s %10d %10d %7s\n" "$name" "$mgpu" "$upstream" \
    "$(awk -v a="$mgpu" -v b="$upstream" 'BEGIN { printf "%.2f", a / b }')"
done
printf "%-20s %10d %10d %7s\n" total "$total_mgpu" "$total_upstream" \
  "$(awk -v a="$total_mgpu" -v b="$total_upstream" 'BEGIN { printf "%.2f", a / b }')"
