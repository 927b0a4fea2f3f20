#!/usr/bin/env bash
# Runs the device bundle (bench/make-device-bundle.py) on the GPU machine it
# was built for, within one deadline, and leaves exactly two files in $OUT:
#
#   summary.txt     the side-by-side table (ours, cuBLAS via torch, Triton,
#                   JAX XLA, JAX Pallas MGPU: time, TFLOP/s or GB/s, % of
#                   the H200's peak, ratio to the best peer, a check of
#                   every output), the tests' pass/fail counts and the
#                   compute-sanitizer counts per test; rewritten as each
#                   problem, test or sanitizer run finishes
#   results.tar.gz  every log, peers.jsonl (one record per peer), the plan
#
#   bash BUNDLE/run.sh [--quick | --sanitize | --tests-only | --mock]
#                      [--deadline SECONDS]
#
# Default: the benchmarks and their peers problem by problem, then the tests
# (each against the output it had on the CPU), then, while time is left,
# the tests under compute-sanitizer (racecheck, synccheck, memcheck).
# --quick: the benchmarks and peers only, with a deadline of 225 s.
# --sanitize: only the tests under compute-sanitizer.
# --tests-only: only the tests (how a CPU bundle is tested here).
# --mock: here, without a GPU (bundle/mock/check.py): the whole run on the
# mock CUDA driver with fake torch, Triton, JAX and compute-sanitizer, and
# checks of the deadline, of $OUT and of the executables' CPU features.
#
# The deadline (default 480 s; --deadline or MGPU_BUNDLE_DEADLINE) covers
# the whole run: each step gets `timeout` of the smaller of its own limit and
# the time left, keeping MGPU_BUNDLE_RESERVE (15 s) to write the summary
# and the archive, which are also written when the run is interrupted.
# Other knobs: MGPU_BUNDLE_TEST_TIMEOUT (60 s a test), _BENCH_TIMEOUT (90 s
# a benchmark), _PEERS_TIMEOUT (150 s a problem's peers), _SANITIZE_TIMEOUT
# (60 s a sanitizer run), MGPU_PEERS_SIZE (full; mock: tiny problems for the
# fakes), MGPU_BUNDLE_INJECT (mock only: sleep-test, a test that sleeps past
# its 3-second limit; sleep-bench, a benchmark that sleeps past its own),
# MGPU_BUNDLE_NO_CHMOD (mock: do not restore the execute bits). Nothing
# needs an execute bit: the copy to the GPU machine may drop them, so they
# are set again here, or, where that fails, the executables are copied to
# the temporary folder and set there.
# Exit status: 0 when every step that ran passed, 1 otherwise.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

mode=default
deadline="${MGPU_BUNDLE_DEADLINE:-}"
while [ $# -gt 0 ]; do
  case "$1" in
  --quick) mode=quick ;;
  --sanitize) mode=sanitize ;;
  --tests-only) mode=tests ;;
  --mock) shift; exec python3 "$here/mock/check.py" --bundle "$here" "$@" ;;
  --deadline) deadline="$2"; shift ;;
  --deadline=*) deadline="${1#--deadline=}" ;;
  -h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$deadline" ] || deadline=$([ "$mode" = quick ] && echo 225 || echo 480)
case "$deadline" in '' | *[!0-9]*)
  echo "run.sh: the deadline must be a number of seconds" >&2; exit 2 ;;
esac

start=$SECONDS
reserve="${MGPU_BUNDLE_RESERVE:-15}"
out="${OUT:-$here/results}"
mkdir -p "$out"
work="$(mktemp -d "${TMPDIR:-/tmp}/mgpu-bundle.XXXXXX")"
mkdir -p "$work/bench" "$work/peers" "$work/tests" "$work/sanitize" "$work/exe"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PYTHONDONTWRITEBYTECODE=1
[ -n "${MGPU_BUNDLE_NO_CHMOD:-}" ] ||
  chmod -R u+x "$here/bench" "$here/tests" 2>/dev/null
failures=0

log() { echo "[$((SECONDS - start))s] $*" | tee -a "$work/events.log"; }

# Seconds a step may take: its limit or what is left before the reserve.
budget() {
  local left=$((deadline - reserve - (SECONDS - start)))
  [ "$1" -lt "$left" ] && left="$1"
  echo "$left"
}

# A runnable path for a bundled executable, without relying on its bit.
runnable() {
  if [ -x "$1" ]; then echo "$1"; return; fi
  local copy="$work/exe/$(basename "$1")"
  [ -e "$copy" ] || { cp "$1" "$copy" && chmod u+x "$copy"; }
  echo "$copy"
}

# step LIMIT STATUSFILE COMMAND...: runs COMMAND under the deadline and
# writes ok, `exit N`, `timeout after S s` or `skipped: deadline`.
step() {
  local limit="$1" status="$2" seconds rc
  shift 2
  seconds="$(budget "$limit")"
  if [ "$seconds" -le 0 ]; then
    echo "skipped: deadline" >"$status"
    return 125
  fi
  timeout -k 5 "$seconds" "$@"
  rc=$?
  case $rc in
  0) echo ok ;;
  124 | 137) echo "timeout after $seconds s$([ "$seconds" -lt "$limit" ] &&
    echo ' (deadline)')" ;;
  *) echo "exit $rc" ;;
  esac >"$status"
  return $rc
}

render() {
  timeout 30 python3 "$here/report.py" --work "$work" --bundle "$here" \
    >"$work/summary.txt" 2>"$work/report.err" ||
    { echo "report.py failed:"; cat "$work/report.err"
      cat "$work/events.log"; } >>"$work/summary.txt"
  cp "$work/summary.txt" "$out/.summary.txt.partial" &&
    mv -f "$out/.summary.txt.partial" "$out/summary.txt"
}

archive() {
  tar -czf "$out/.results.tar.gz.partial" -C "$work" . 2>/dev/null &&
    mv -f "$out/.results.tar.gz.partial" "$out/results.tar.gz"
}

finish() {
  trap '' EXIT TERM INT HUP
  log "done ($mode): $failures failed step(s)"
  render
  archive
  rm -rf "$work"
  echo
  cat "$out/summary.txt"
  # The side-by-side table once more at the very end, inside what a tool
  # that keeps only the tail of the output shows.
  sed -n '/^== Side by side/,/^$/p' "$out/summary.txt"
}
trap finish EXIT
trap 'log "interrupted"; exit 130' TERM INT HUP

{
  echo "mode $mode"
  echo "deadline $deadline"
  echo "started $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "host $(uname -n) $(uname -m)"
  echo "bundle $(head -1 "$here/MANIFEST")"
  echo "peers_size ${MGPU_PEERS_SIZE:-full}"
  gpu="$(timeout 10 nvidia-smi --query-gpu=name,driver_version,memory.total \
    --format=csv,noheader 2>/dev/null | head -1)"
  echo "gpu ${gpu:-none found by nvidia-smi}"
  [ -n "${MGPU_CUDA_DRIVER:-}" ] && echo "driver $MGPU_CUDA_DRIVER"
} >"$work/meta"
log "bundle at $here, results to $out, deadline ${deadline}s, mode $mode"

# --- benchmarks and peers, problem by problem ---------------------------------

run_bench() {
  local name="$1" program
  if [ "$name" = mock.sleeper ]; then
    program="$(command -v sleep)"
    set -- 600
  else
    program="$(runnable "$here/bench/$name")"
    set --
  fi
  log "bench $name"
  step "${MGPU_BUNDLE_BENCH_TIMEOUT:-90}" "$work/bench/$name.status" \
    "$program" "$@" >"$work/bench/$name.out" 2>&1 ||
    failures=$((failures + 1))
  grep -E "median|mismatches" "$work/bench/$name.out"
  log "bench $name: $(cat "$work/bench/$name.status")"
}

run_peers() {
  local key="$1"
  log "peers $key"
  step "${MGPU_BUNDLE_PEERS_TIMEOUT:-150}" "$work/peers/$key.status" \
    python3 "$here/peers.py" --problem "$key" --results "$work/peers.jsonl" \
    --size "${MGPU_PEERS_SIZE:-full}" 2>&1 | tee "$work/peers/$key.log" |
    grep -v "^Traceback\|^  "
  log "peers $key: $(cat "$work/peers/$key.status")"
}

if [ "$mode" = default ] || [ "$mode" = quick ]; then
  python3 "$here/peers.py" --plan "$here/MANIFEST" >"$work/plan" 2>&1 ||
    { log "peers.py --plan failed"; failures=$((failures + 1)); }
  if [ "${MGPU_BUNDLE_INJECT:-}" = sleep-bench ]; then
    sed -i '1s/^\([^ ]*\)/\1 mock.sleeper/' "$work/plan"
  fi
  while read -r key benches; do
    for name in $benches; do
      run_bench "$name"
    done
    [ "$key" = other ] || run_peers "$key"
    render
  done <"$work/plan"
fi

# --- tests ------------------------------------------------------------------

tests=()
for expected in "$here"/tests/*.expected; do
  [ -e "$expected" ] && tests+=("$(basename "$expected" .expected)")
done
[ "${MGPU_BUNDLE_INJECT:-}" = sleep-test ] && tests+=(mock.sleeps-past-its-limit)

if [ "$mode" = default ] || [ "$mode" = tests ]; then
  log "tests: ${#tests[@]}"
  rendered=$SECONDS
  for name in "${tests[@]}"; do
    limit="${MGPU_BUNDLE_TEST_TIMEOUT:-60}"
    if [ "$name" = mock.sleeps-past-its-limit ]; then
      # Its own short limit: the real tests keep theirs, since a slow build
      # (ASan on a loaded machine) may take seconds to load a cubin.
      program="$(command -v sleep)"
      set -- 600
      limit=3
    else
      program="$(runnable "$here/tests/$name")"
      set --
    fi
    step "$limit" "$work/tests/$name.status" \
      "$program" "$@" >"$work/tests/$name.out" 2>"$work/tests/$name.err"
    status="$(cat "$work/tests/$name.status")"
    [ "$status" = "skipped: deadline" ] && break
    if [ "$status" = ok ]; then
      why="$(python3 "$here/compare.py" "$here/tests/$name.expected" \
        "$work/tests/$name.out")"
    else
      why="$status"
    fi
    if [ -z "$why" ]; then
      printf '%s\tPASS\t\n' "$name" >>"$work/tests.tsv"
      echo "PASS $name"
    else
      failures=$((failures + 1))
      verdict=FAIL
      case "$status" in timeout*) verdict=TIMEOUT ;; esac
      printf '%s\t%s\t%s\n' "$name" "$verdict" "$why" >>"$work/tests.tsv"
      echo "$verdict $name: $why"
      head -3 "$work/tests/$name.err" | sed 's/^/    /'
    fi
    # the summary at most every 5 s: a test may take a fraction of a second
    if [ $((SECONDS - rendered)) -ge 5 ]; then
      render
      rendered=$SECONDS
    fi
  done
  render
fi

# --- compute-sanitizer ------------------------------------------------------

sanitizer="$(command -v compute-sanitizer ||
  ls /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda-*/bin/compute-sanitizer \
    2>/dev/null | head -1)"
if [ "$mode" = default ] || [ "$mode" = sanitize ]; then
  if [ -z "$sanitizer" ]; then
    log "sanitize: no compute-sanitizer on PATH or in /usr/local/cuda*/bin"
    echo "absent" >"$work/sanitize/none"
  else
    log "sanitize: $sanitizer"
    # One tool over every test, then the next: with little time left, every
    # test gets racecheck before any gets memcheck.
    for tool in racecheck synccheck memcheck; do
      for name in "${tests[@]}"; do
        [ "$name" = mock.sleeps-past-its-limit ] && continue
        [ "$(budget 1)" -le 0 ] && break 2
        program="$(runnable "$here/tests/$name")"
        step "${MGPU_BUNDLE_SANITIZE_TIMEOUT:-60}" \
          "$work/sanitize/$name.$tool.status" \
          "$sanitizer" --tool "$tool" --print-limit 20 \
          --log-file "$work/sanitize/$name.$tool.log" \
          "$program" >/dev/null 2>&1
      done
      log "sanitize: $tool done"
      render
    done
  fi
fi
[ "$failures" -eq 0 ]
