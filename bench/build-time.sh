#!/usr/bin/env bash
# Build and test time, measured the way CI and a new user meet them: a fresh
# clone of this checkout's HEAD, then `make demo`, then `make check`, then
# (with --ci) the rest of `.ci/run` (format check, device bundle, fuzz smoke
# run on the release build). Prints one line per step with its wall time, then the
# slowest compile steps (.ninja_log) and the slowest tests (lit
# --time-tests). Packages already installed are not installed again, so the
# figures leave out `apt-get` (about 20 s to 3 min, by mirror).
#
#   bench/build-time.sh [--ci] [--keep]
#
# Targets (issue 27, 2-core machine): make demo < 8 min with packages,
# make check after it < 3 min, the whole .ci/run < 35 min.
set -euo pipefail
ci=0 keep=0
for arg in "$@"; do
  case "$arg" in
    --ci) ci=1 ;;
    --keep) keep=1 ;;
    *) echo "usage: $0 [--ci] [--keep]" >&2; exit 2 ;;
  esac
done
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
[ $keep = 1 ] || trap 'rm -rf "$work"' EXIT
git clone -q "$src" "$work/mgpu"
cd "$work/mgpu"

step() {
  local name=$1
  shift
  local start=$SECONDS
  "$@" >"$work/$name.log" 2>&1 || {
    echo "build-time: '$name' failed; its log:" >&2
    tail -30 "$work/$name.log" >&2
    exit 1
  }
  printf '%-22s %4d s\n' "$name" $((SECONDS - start))
}

echo "build-time: $(git -C "$src" rev-parse --short HEAD) on $(nproc) cores"
step "make demo" make demo
step "make check" make check
if [ $ci = 1 ]; then
  step "make format-check" make format-check
  step "make device-bundle" make device-bundle
  step "make fuzz-smoke" make fuzz-smoke FUZZ_BUILD=build
fi

echo
echo "slowest compile steps (s):"
awk 'NR > 1 { printf "%6.1f %s\n", ($2 - $1) / 1000, $4 }' build/.ninja_log |
  sort -rn | head -8
echo
echo "slowest tests:"
grep -A9 '^Slowest Tests' "$work/make check.log" | tail -8 || true
[ $keep = 0 ] || echo "kept: $work"
