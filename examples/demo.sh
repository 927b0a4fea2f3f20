#!/usr/bin/env bash
# `make demo`: parse and verify the example kernels with mgpu-opt, show what
# the jax profile refuses and what the extended profile accepts.
set -euo pipefail
build=${1:-build}
opt="$build/bin/mgpu-opt"
here=$(cd "$(dirname "$0")" && pwd)

echo "== examples/vector_add.mlir: parsed, verified and printed by mgpu-opt"
"$opt" "$here/vector_add.mlir"

echo
echo "== examples/producer_consumer.mlir under the jax profile (JAX refuses it):"
sed -e '/^func.func/i module attributes {mgpu.target = #mgpu.target<profile = jax>} {' \
  -e '$a }' "$here/producer_consumer.mlir" | "$opt" 2>&1 >/dev/null | head -n 3 || true

echo
echo "== the same program in the extended profile (the default) verifies:"
"$opt" "$here/producer_consumer.mlir" >/dev/null && echo "ok: 2 mesh/function pairs in one mpmd_map"

echo
echo "== --mgpu-split-mpmd refuses to split regions that synchronize:"
"$opt" --mgpu-split-mpmd "$here/producer_consumer.mlir" 2>&1 >/dev/null | head -n 1 || true

echo
echo "== examples/vector_add.mlir compiled for sm_90a by --mgpu-to-binary:"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$opt" --mgpu-to-binary="format=bin" "$here/vector_add.mlir" -o "$work/vector_add.bin.mlir"
echo "cubin embedded in $(grep -c 'gpu.binary' "$work/vector_add.bin.mlir") gpu.binary, host code in the LLVM dialect"
"$opt" --mgpu-to-binary="format=isa" "$here/vector_add.mlir" |
  python3 "$here/../utils/extract-ptx.py" -o "$work/vector_add.ptx"
echo "PTX summary (vector_add_kernel):"
printf "  %-28s %s\n" "instructions:" \
  "$(grep -cE '^\s+[a-z@][a-z0-9_.]*' "$work/vector_add.ptx")"
# A lane-local body: blocks read and written in place (--mgpu-direct-blocks).
printf "  %-28s %s\n" "128-bit global loads/stores:" \
  "$(grep -cE 'ld.global.v4|st.global.v4' "$work/vector_add.ptx")"
printf "  %-28s %s\n" "shared-memory accesses:" \
  "$(grep -cE '(ld|st).shared' "$work/vector_add.ptx")"
printf "  %-28s %s\n" "barriers (bar.sync):" \
  "$(grep -c 'bar.sync' "$work/vector_add.ptx")"
ptxas=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
if [ -x "$ptxas" ]; then
  "$ptxas" -arch=sm_90a -v "$work/vector_add.ptx" -o "$work/vector_add.cubin" 2>&1 |
    grep -E 'registers|spill' | sed -e 's/^ptxas info *: /  ptxas: /;t' -e 's/^ */  ptxas: /'
fi

echo
echo "== vector add run by mgpu-run on the best backend available here:"
"$build/bin/mgpu-run" "$here/../test/Integration/Kernels/vector_add.mlir" -e main \
  --backend=auto --verbose
