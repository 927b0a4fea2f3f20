#!/usr/bin/env python3
"""Builds the device bundle: every run test and benchmark, compiled ahead of time.

The GPU machine that `device` lends has a driver and CUDA but no LLVM, so
nothing can be compiled there. This script compiles, here, each run test of
test/Integration (the programs that `%run_on_backends` runs, with their
mgpu-run options) and each benchmark of bench/programs into stand-alone
executables (`mgpu-run --emit-executable`), records what each test prints on
the CPU backend as its expected output, and copies in the runtime libraries,
run.sh, compare.py, peers.py, report.py and mock/ (the fakes and the mock
CUDA driver of `run.sh --mock`). On the GPU machine, `bash BUNDLE/run.sh`
runs everything within a deadline and leaves $OUT/summary.txt and
$OUT/results.tar.gz (bench/bundle/run.sh says how).

    bench/make-device-bundle.py --build build --out build/device-bundle
    bench/make-device-bundle.py ... --backend=cpu   (a bundle that runs here;
                                                      how the bundle is tested)
    bench/make-device-bundle.py ... --only REGEX    (fewer tests: CI's mock run)
    bench/make-device-bundle.py ... --only-bench REGEX   (fewer benchmarks)

The bundle must stay under the device tool's 64 MiB; the script fails when it
does not.
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys

LIMIT_BYTES = 64 * 1024 * 1024
RUN_LINE = re.compile(r"//\s*RUN:\s*%run_on_backends\s+(%s|%t\.mlir)(?=\s|$)(.*)$")
# A run test of an example: `cat EXAMPLE DRIVER > %t.mlir`, then
# `%run_on_backends %t.mlir`.
CAT_LINE = re.compile(r"//\s*RUN:\s*cat\s+(.+?)\s*>\s*%t\.mlir\s*$")
BUNDLE_VARIANT = re.compile(r"//\s*bundle-variant:\s*(.+)$")
# A program edited by sed into a temporary file (`sed ... SRC > %t.x.mlir`)
# that a `cat` line then concatenates: the bundle runs the same sed.
SED_LINE = re.compile(r"//\s*RUN:\s*(sed\s+.+?)\s*>\s*(%t\.[\w.]+)\s*$")


def find_run_tests(source_root):
    """(name, test file, sources, mgpu-run options, backends it skips) for
    each %run_on_backends line: on %s (sources: the test), or on %t.mlir
    (sources: what the test's `cat ... > %t.mlir` line concatenates, a
    ("sed", command) pair for a file a sed line made)."""
    tests = []
    integration = os.path.join(source_root, "test", "Integration")
    for directory, _, files in sorted(os.walk(integration)):
        for file in sorted(f for f in files if f.endswith(".mlir")):
            path = os.path.join(directory, file)
            runs = []
            concatenated = None
            edited = {}
            with open(path) as stream:
                for line in stream:
                    sed = SED_LINE.match(line.strip())
                    if sed:
                        edited[sed.group(2)] = (
                            sed.group(1).replace("%mgpu_src_root", source_root)
                            .replace("%s", path).replace("%S", directory))
                        continue
                    cat = CAT_LINE.match(line.strip())
                    if cat:
                        concatenated = [
                            ("sed", edited[word]) if word in edited else
                            word.replace("%mgpu_src_root", source_root)
                            .replace("%s", path).replace("%S", directory)
                            for word in cat.group(1).split()]
                    match = RUN_LINE.match(line.strip())
                    if not match:
                        continue
                    sources = [path] if match.group(1) == "%s" else \
                        concatenated
                    if not sources:
                        continue
                    rest = match.group(2)
                    options = rest.split(" -- ", 1)[1].split() \
                        if " -- " in rest else []
                    # run-on-backends.py's --skip-backends=a,b (e.g. sm_100a
                    # code on a Hopper device).
                    skip = re.search(r"--skip-backends=(\S+)",
                                     rest.split(" -- ", 1)[0])
                    skipped = skip.group(1).split(",") if skip else []
                    runs.append((sources, options, skipped))
            stem = os.path.relpath(path, integration)[:-len(".mlir")]
            stem = stem.replace(os.sep, ".")
            for index, (sources, options, skipped) in enumerate(runs):
                name = stem if len(runs) == 1 else "%s.%d" % (stem, index)
                tests.append((name, path, sources, options, skipped))
    return tests


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
        sys.exit("make-device-bundle: failed (exit %d): %s"
                 % (result.returncode, " ".join(command)))
    return result.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True, help="the build directory")
    parser.add_argument("--out", required=True, help="the bundle directory")
    parser.add_argument("--backend", choices=["cuda", "cpu"], default="cuda")
    parser.add_argument("--expected-from", default="",
                        help="a bundle of the same tests whose expected "
                             "outputs are copied instead of recomputed")
    parser.add_argument("--only", default="",
                        help="a regular expression: only tests whose name "
                             "matches (benchmarks are kept)")
    parser.add_argument("--manifest-only", action="store_true",
                        help="print the MANIFEST the bundle would have and "
                             "build nothing")
    parser.add_argument("--only-bench", default="",
                        help="a regular expression: only benchmarks whose "
                             "program's name (without .mlir) matches")
    args = parser.parse_args()

    source_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    mgpu_run = os.path.join(args.build, "bin", "mgpu-run")
    lib_dir = os.path.join(args.build, "lib")
    out = os.path.abspath(args.out)
    # A half-written bundle is never left behind: build aside, then move.
    staging = out + ".partial"
    shutil.rmtree(staging, ignore_errors=True)
    for sub in ("tests", "bench", "lib"):
        os.makedirs(os.path.join(staging, sub))

    def build_test(name, path, sources, options):
        exe = os.path.join(staging, "tests", name)
        program = path
        if sources != [path]:
            program = exe + ".mlir"
            with open(program, "w") as stream:
                for source in sources:
                    if isinstance(source, tuple):  # ("sed", command)
                        stream.write(run(["bash", "-c", source[1]]))
                        continue
                    with open(source) as part:
                        stream.write(part.read())
        run([mgpu_run, program, "-e", "main", "--emit-executable",
             "--backend=" + args.backend, "-o", exe] + options)
        if args.expected_from:
            shutil.copy2(os.path.join(args.expected_from, "tests",
                                      name + ".expected"), exe + ".expected")
        else:
            expected = run([mgpu_run, program, "-e", "main", "--backend=cpu"]
                           + options, timeout=600)
            with open(exe + ".expected", "w") as stream:
                stream.write(expected)
        if program != path:
            os.remove(program)
        return test_line(name, path, options)

    def test_line(name, path, options):
        return "test %s %s %s" % (
            name, os.path.relpath(path, source_root), " ".join(options))

    selected = [(name, path, sources, options)
                for name, path, sources, options, skipped
                in find_run_tests(source_root)
                if args.backend not in skipped and
                (not args.only or re.search(args.only, name))]
    # Benchmarks, each with its `// bundle-variant: OPTIONS` lines (an
    # executable built with those mgpu-run options, name.OPTION-WORDS, `=`
    # as `-`).
    benchmarks = []
    if args.backend == "cuda":
        programs = os.path.join(source_root, "bench", "programs")
        for file in sorted(os.listdir(programs)):
            if not file.endswith(".mlir") or not re.search(
                    args.only_bench, file[:-len(".mlir")]):
                continue
            path = os.path.join(programs, file)
            variants = [[]]
            with open(path) as stream:
                for line in stream:
                    match = BUNDLE_VARIANT.match(line.strip())
                    if match:
                        variants.append(match.group(1).split())
            benchmarks += [(file, options) for options in variants]

    def bench_name(file, options):
        return file[:-len(".mlir")] + "".join(
            "." + o.lstrip("-").replace("=", "-") for o in options)

    def bench_line(file, options):
        return ("bench %s bench/programs/%s %s" % (
            bench_name(file, options), file, " ".join(options))).rstrip()

    def build_benchmark(file, options):
        run([mgpu_run, os.path.join(source_root, "bench", "programs", file),
             "-e", "main", "--emit-executable", "-o",
             os.path.join(staging, "bench", bench_name(file, options))] +
            options)
        return bench_line(file, options)

    if args.manifest_only:
        shutil.rmtree(staging)
        print("backend %s" % args.backend)
        for name, path, _, options in selected:
            print(test_line(name, path, options))
        for file, options in benchmarks:
            print(bench_line(file, options))
        return

    # One compile per core, tests and benchmarks together; the manifest
    # keeps their order.
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        tests = [pool.submit(build_test, *test) for test in selected]
        benches = [pool.submit(build_benchmark, *bench)
                   for bench in benchmarks]
        manifest = [future.result() for future in tests + benches]

    runtime = "libmgpu_cuda_runtime.so" if args.backend == "cuda" \
        else "libmgpu_host_runtime.so"
    for library in ("libmgpu_runner_utils.so", runtime):
        shutil.copy2(os.path.join(lib_dir, library),
                     os.path.join(staging, "lib"))
    for file in ("run.sh", "compare.py", "peers.py", "report.py"):
        shutil.copy2(os.path.join(source_root, "bench", "bundle", file),
                     staging)
    # run.sh --mock: the fakes, and the mock CUDA driver the tests use.
    shutil.copytree(os.path.join(source_root, "bench", "bundle", "mock"),
                    os.path.join(staging, "mock"),
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    mock_driver = os.path.join(args.build, "test", "Runtime",
                               "libmgpu_mock_cuda.so")
    if os.path.exists(mock_driver):
        os.makedirs(os.path.join(staging, "mock", "lib"))
        shutil.copy2(mock_driver, os.path.join(staging, "mock", "lib"))
    with open(os.path.join(staging, "MANIFEST"), "w") as stream:
        stream.write("backend %s\n" % args.backend)
        stream.write("".join(line + "\n" for line in manifest))

    size = sum(os.path.getsize(os.path.join(d, f))
               for d, _, files in os.walk(staging) for f in files)
    if size > LIMIT_BYTES:
        shutil.rmtree(staging)
        sys.exit("make-device-bundle: the bundle holds %d bytes, more than "
                 "the device tool carries (%d)" % (size, LIMIT_BYTES))
    shutil.rmtree(out, ignore_errors=True)
    os.rename(staging, out)
    tests = sum(1 for line in manifest if line.startswith("test "))
    print("make-device-bundle: %s: %d tests, %d benchmarks, %.1f MiB (%s)"
          % (args.out, tests, len(manifest) - tests, size / 2**20,
             args.backend))


if __name__ == "__main__":
    main()
