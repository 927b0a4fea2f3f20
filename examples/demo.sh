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
sed 's/^module {/module attributes {mgpu.target = #mgpu.target<profile = jax>} {/' \
  "$here/producer_consumer.mlir" | "$opt" 2>&1 >/dev/null | head -n 3 || true

echo
echo "== the same program in the extended profile (the default) verifies:"
"$opt" "$here/producer_consumer.mlir" >/dev/null && echo "ok: 2 mesh/function pairs in one mpmd_map"

echo
echo "== --mgpu-split-mpmd refuses to split regions that synchronize:"
"$opt" --mgpu-split-mpmd "$here/producer_consumer.mlir" 2>&1 >/dev/null | head -n 1 || true

echo
echo "== vector add run by mgpu-run on the best backend available here:"
"$build/bin/mgpu-run" "$here/../test/Integration/CPU/vector_add.mlir" -e main \
  --backend=auto --verbose
