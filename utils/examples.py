#!/usr/bin/env python3
"""The examples/ folder as the one list of examples: what README's table
shows and what the tests compile are made from it, so neither can drift.

Each example's header comment ends with a `// Summary:` line (continued on
`//   ` lines), the row README gives it.

    examples.py table                   print README's table of examples
    examples.py check-readme README.md  exit 1 when README's table is not
                                        the one `table` prints
    examples.py update-readme README.md rewrite README's table
    examples.py compile --mgpu-opt BIN [--cpu] [--roundtrip]
                        [--ptx DIR [--ptxas BIN [--allow-spills NAME...]]]
                        [--cubin]
        every example through mgpu-opt: printed and parsed again
        (--roundtrip), the interpret pipeline (--cpu), the GPU pipeline
        into DIR/NAME.ptx (--ptx), assembled by ptxas for sm_90a (the
        chip of a `// Chip: sm_..` header line, if any) with no
        warning, no ignored setmaxnreg (C7508) and no spill (--ptxas), and
        serialized to a cubin by the pipeline itself (--cubin); exit 1
        naming each failure. --allow-spills names examples whose spills
        the caller explains.

README's table sits between `<!-- examples:begin -->` and
`<!-- examples:end -->`.
"""

import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")
BEGIN, END = "<!-- examples:begin -->", "<!-- examples:end -->"


def examples():
    return sorted(f for f in os.listdir(EXAMPLES) if f.endswith(".mlir"))


def summary(name):
    """The example's `// Summary:` text, or exit naming the file."""
    text, found = [], False
    with open(os.path.join(EXAMPLES, name)) as stream:
        for line in stream:
            if line.startswith("// Summary:"):
                found = True
                text.append(line[len("// Summary:"):].strip())
            elif found and line.startswith("//   "):
                text.append(line[2:].strip())
            elif found:
                break
    if not found:
        sys.exit("examples.py: examples/%s has no '// Summary:' line" % name)
    return " ".join(text)


def run_tests(name):
    """The run tests (test/Integration) that name the example."""
    tests = []
    integration = os.path.join(ROOT, "test", "Integration")
    for directory, _, files in sorted(os.walk(integration)):
        for file in sorted(files):
            path = os.path.join(directory, file)
            with open(path) as stream:
                if "examples/" + name in stream.read():
                    tests.append(os.path.relpath(path, ROOT))
    return tests


def table():
    rows = ["| file | what it shows | run test |", "|---|---|---|"]
    for name in examples():
        tests = ", ".join("`%s`" % t for t in run_tests(name)) or "none"
        rows.append("| `%s` | %s | %s |" % (name, summary(name), tests))
    return "\n".join(rows) + "\n"


def readme_parts(path):
    with open(path) as stream:
        text = stream.read()
    if BEGIN not in text or END not in text:
        sys.exit("examples.py: %s has no %s ... %s block" % (path, BEGIN, END))
    head, rest = text.split(BEGIN, 1)
    old, tail = rest.split(END, 1)
    return head, old, tail


def check_readme(path):
    _, old, _ = readme_parts(path)
    want = table()
    if old.strip() == want.strip():
        return 0
    print("examples.py: the table of examples in %s is not examples/'s; "
          "run utils/examples.py update-readme %s" % (path, path))
    old_rows, new_rows = set(old.strip().split("\n")), set(want.split("\n"))
    for row in sorted(old_rows - new_rows):
        print("- " + row)
    for row in sorted(new_rows - old_rows):
        print("+ " + row)
    return 1


def update_readme(path):
    head, _, tail = readme_parts(path)
    with open(path, "w") as stream:
        stream.write(head + BEGIN + "\n" + table() + END + tail)
    return 0


def chip(name):
    """The chip an example is written for: its header's `// Chip: sm_..`
    line, else sm_90a."""
    with open(os.path.join(EXAMPLES, name)) as stream:
        for line in stream:
            if not line.startswith("//"):
                break
            found = re.match(r"// Chip: (\w+)", line)
            if found:
                return found.group(1)
    return "sm_90a"


def compile_all(args):
    failures = []

    def run(name, what, command, stdin=None):
        result = subprocess.run(command, input=stdin, capture_output=True)
        if result.returncode != 0:
            failures.append("%s: %s failed (exit %d): %s" % (
                name, what, result.returncode,
                result.stderr.decode(errors="replace").strip()[:2000]))
            return None
        return result.stdout

    for name in examples():
        path = os.path.join(EXAMPLES, name)
        stem = name[:-len(".mlir")]
        if args.roundtrip:
            printed = run(name, "printing", [args.mgpu_opt, path])
            if printed is not None:
                run(name, "parsing the printed form",
                    [args.mgpu_opt, "-", "-o", os.devnull], printed)
        if args.cpu:
            run(name, "--mgpu-to-cpu",
                [args.mgpu_opt, "--mgpu-to-cpu", path, "-o", os.devnull])
        target = chip(name)
        if args.cubin:
            binary = run(name, "--mgpu-to-binary=format=bin",
                         [args.mgpu_opt, "--mgpu-to-binary=format=bin chip=" +
                          target, path])
            if binary is not None and b'bin = "' not in binary:
                failures.append("%s: no cubin in the gpu.binary" % name)
        if args.ptx:
            lowered = run(name, "--mgpu-to-binary=format=isa",
                          [args.mgpu_opt, "--mgpu-to-binary=format=isa chip=" +
                           target, path])
            if lowered is None:
                continue
            ptx_path = os.path.join(args.ptx, stem + ".ptx")
            run(name, "extracting the PTX",
                [sys.executable, os.path.join(ROOT, "utils", "extract-ptx.py"),
                 "-o", ptx_path], lowered)
            if args.ptxas and os.path.exists(ptx_path):
                info = subprocess.run(
                    [args.ptxas, "-arch=" + target, "-v", ptx_path, "-o",
                     os.path.join(args.ptx, stem + ".cubin")],
                    capture_output=True, text=True)
                log = info.stdout + info.stderr
                if info.returncode != 0 or "warning" in log or "C7508" in log:
                    failures.append("%s: ptxas: %s" % (name, log.strip()))
                for spill in re.findall(r"(\d+) bytes spill (?:stores|loads)",
                                        log):
                    if int(spill) and stem not in args.allow_spills:
                        failures.append("%s: ptxas spills: %s" %
                                        (name, log.strip()))
                        break
    for failure in failures:
        print("examples.py: " + failure)
    print("examples.py: %d examples, %d failures" % (len(examples()),
                                                     len(failures)))
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("table")
    for name in ("check-readme", "update-readme"):
        sub.add_parser(name).add_argument("readme")
    compile_parser = sub.add_parser("compile")
    compile_parser.add_argument("--mgpu-opt", required=True)
    compile_parser.add_argument("--roundtrip", action="store_true")
    compile_parser.add_argument("--cpu", action="store_true")
    compile_parser.add_argument("--ptx", help="folder for the PTX files")
    compile_parser.add_argument("--ptxas")
    compile_parser.add_argument("--cubin", action="store_true")
    compile_parser.add_argument("--allow-spills", nargs="*", default=[])
    args = parser.parse_args()
    if args.command == "table":
        sys.stdout.write(table())
        return 0
    if args.command == "check-readme":
        return check_readme(args.readme)
    if args.command == "update-readme":
        return update_readme(args.readme)
    if args.ptx:
        os.makedirs(args.ptx, exist_ok=True)
    return compile_all(args)


if __name__ == "__main__":
    sys.exit(main())
