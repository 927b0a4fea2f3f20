#!/usr/bin/env python3
"""Runs one mgpu program on every backend of the test configuration.

The lit substitution %run_on_backends expands to this script with the
backends lit found (cpu and emulate always, cuda where a device answers), so
that every run test names its program once and is checked on each backend
against the same CHECK lines:

    // RUN: %run_on_backends %s [FileCheck options] [--skip-backends=cuda]
    //          [-- mgpu-run options]

Each backend's output goes through FileCheck on its own; a failure names the
backend. Exit status 1 when any backend fails.
"""

import argparse
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", required=True,
                        help="comma-separated backends (cpu,emulate,cuda)")
    parser.add_argument("--mgpu-run", required=True)
    parser.add_argument("--filecheck", required=True)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--skip-backends", default="",
                        help="comma-separated backends this program does "
                             "not run on (e.g. cuda for an sm_100a kernel "
                             "while the device may be a Hopper GPU)")
    parser.add_argument("file")
    argv, run_options = sys.argv[1:], []
    if "--" in argv:
        split = argv.index("--")
        argv, run_options = argv[:split], argv[split + 1:]
    args, filecheck_options = parser.parse_known_args(argv)

    failed = []
    skipped = set(args.skip_backends.split(","))
    for backend in [b for b in args.backends.split(",")
                    if b and b not in skipped]:
        command = [args.mgpu_run, args.file, "-e", "main",
                   "--backend=" + backend] + run_options
        try:
            run = subprocess.run(command, capture_output=True,
                                 timeout=args.timeout)
        except subprocess.TimeoutExpired:
            print("run-on-backends: %s: timed out after %g s: %s"
                  % (backend, args.timeout, " ".join(command)))
            failed.append(backend)
            continue
        if run.returncode != 0:
            print("run-on-backends: %s: exit status %d: %s"
                  % (backend, run.returncode, " ".join(command)))
            sys.stdout.write(run.stderr.decode(errors="replace"))
            failed.append(backend)
            continue
        check = subprocess.run(
            [args.filecheck, args.file] + filecheck_options,
            input=run.stdout, capture_output=True)
        if check.returncode != 0:
            print("run-on-backends: %s: the output does not match:" % backend)
            sys.stdout.write(check.stderr.decode(errors="replace"))
            failed.append(backend)
    if failed:
        print("run-on-backends: failed on %s" % ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
