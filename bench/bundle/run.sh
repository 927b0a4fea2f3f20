#!/usr/bin/env bash
# Runs the device bundle (bench/make-device-bundle.py) on the machine it was
# built for: every test against the output it had on the CPU backend, then the
# benchmarks, then the peers (torch, Triton, JAX) on the same problems and
# the side-by-side table (peers.py). Everything goes to stdout and to $OUT/device-results.txt; each program's output
# to $OUT/logs. Exit status 1 when a test fails.
#
#   bash BUNDLE/run.sh [--tests-only]
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${OUT:-$here/results}"
mkdir -p "$out/logs"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
test_timeout="${MGPU_BUNDLE_TEST_TIMEOUT:-60}"
exec > >(tee "$out/device-results.txt") 2>&1

echo "== bundle: $(head -1 "$here/MANIFEST"), $(date -u)"
command -v nvidia-smi >/dev/null &&
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1

passed=0
failed=0
echo "== tests"
for expected in "$here"/tests/*.expected; do
  name="$(basename "$expected" .expected)"
  log="$out/logs/$name"
  timeout "$test_timeout" "$here/tests/$name" >"$log.out" 2>"$log.err"
  rc=$?
  if [ $rc -ne 0 ]; then
    why="exit status $rc$([ $rc = 124 ] && echo ", timed out")"
  else
    why="$(python3 "$here/compare.py" "$expected" "$log.out")"
  fi
  if [ -z "$why" ]; then
    passed=$((passed + 1))
    echo "PASS $name"
  else
    failed=$((failed + 1))
    echo "FAIL $name: $why"
    head -5 "$log.err" | sed 's/^/    /'
  fi
done
echo "== tests: $passed passed, $failed failed"

if [ "${1:-}" != "--tests-only" ]; then
  echo "== benchmarks (median of CUDA-event times)"
  for program in "$here"/bench/*; do
    [ -x "$program" ] || continue
    name="$(basename "$program")"
    timeout 120 "$program" >"$out/logs/bench-$name.out" 2>&1 ||
      echo "FAIL bench $name: exit status $?"
    grep -E "median|mismatches" "$out/logs/bench-$name.out"
  done
  echo "== peers"
  timeout 420 python3 "$here/peers.py" --mgpu "$out"/logs/bench-*.out 2>&1 ||
    echo "peers: exit status $?"
fi
[ $failed -eq 0 ]
