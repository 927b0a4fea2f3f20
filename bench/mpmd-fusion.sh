#!/usr/bin/env bash
# One fused launch of N small kernels against N separate launches.
#
# The input is test/Integration/MPMD/horizontal-fusion.mlir: four unrelated
# elementwise kernels (grids 1, 2, 3, 4) in one mpmd_map. The fused form is
# what --mgpu-lower-to-gpu makes of it (one CTA-partitioned launch); the
# separate form is --mgpu-split-mpmd first (one launch per pair, what JAX
# users do by hand). Without a GPU the script reports launches, device
# copies and PTX per form; with one (mgpu-run --backend=cuda works) it also
# times both programs end to end.
#
#   bench/mpmd-fusion.sh [BUILD_DIR]      (default: build)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build}"
opt="$build/bin/mgpu-opt"
run="$build/bin/mgpu-run"
src="$here/test/Integration/MPMD/horizontal-fusion.mlir"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cp "$src" "$work/fused.mlir"
"$opt" --mgpu-split-mpmd "$src" -o "$work/split.mlir"

printf "%-8s %9s %13s %16s %14s\n" form launches "device copies" "PTX kernels" "PTX lines"
for form in fused split; do
  lowered="$work/$form.gpu.mlir"
  "$opt" --mgpu-bufferize --mgpu-lower-to-gpu "$work/$form.mlir" -o "$lowered"
  launches=$(grep -c "gpu.launch_func" "$lowered")
  copies=$(grep -c "gpu.memcpy" "$lowered")
  "$opt" --mgpu-to-binary="format=isa" "$work/$form.mlir" |
    python3 "$here/utils/extract-ptx.py" -o "$work/$form.ptx"
  kernels=$(grep -c "^.visible .entry" "$work/$form.ptx")
  lines=$(grep -cE '^\s+[a-z@]' "$work/$form.ptx")
  printf "%-8s %9d %13d %16d %14d\n" "$form" "$launches" "$copies" "$kernels" "$lines"
done

if "$run" "$src" -e main --backend=cuda >/dev/null 2>&1; then
  echo
  echo "GPU end-to-end time of @main (compile + run, best of 5):"
  for form in fused split; do
    best=""
    for _ in 1 2 3 4 5; do
      start=$(date +%s%N)
      "$run" "$work/$form.mlir" -e main --backend=cuda >/dev/null
      ms=$(( ($(date +%s%N) - start) / 1000000 ))
      if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
    done
    printf "  %-6s %6d ms\n" "$form" "$best"
  done
else
  echo
  echo "no CUDA device here: launch counts and PTX only"
fi
