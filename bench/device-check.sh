#!/usr/bin/env bash
# One go on a GPU machine: run the device bundle and keep the results.
#
#   make device-bundle                             (here: compiles everything)
#   bench/device-check.sh [--quick|--sanitize] [--deadline S]   (there)
#
# The GPU machine that the project's `device` tool lends (an H200, sm_90a)
# has a driver, CUDA and Python but no LLVM, so nothing is built there: the
# bundle (bench/make-device-bundle.py, build/device-bundle) holds every run
# test and benchmark compiled ahead of time with the runtime libraries, and
# its run.sh does the rest within one deadline (480 s by default): the
# benchmarks and their peers (torch, Triton, JAX; bundle/peers.py) problem
# by problem, the tests, then the tests under compute-sanitizer. It leaves
# exactly $OUT/summary.txt and $OUT/results.tar.gz, also when it is cut
# short, and prints the summary last. With the `run` tool, one call:
#
#   run(command="bash build/device-bundle/run.sh",
#       carry=["build/device-bundle"], timeout_s=540)
#
# This script is the same call from a checkout that has the bundle, for a
# machine without the tool ($OUT defaults to build/device-results).
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bundle="$here/build/device-bundle"
if [ ! -f "$bundle/run.sh" ]; then
  echo "device-check: no bundle at $bundle; run 'make device-bundle' first" >&2
  exit 1
fi
export OUT="${OUT:-$here/build/device-results}"
exec bash "$bundle/run.sh" "$@"
