#!/usr/bin/env python3
"""Writes the device bundle's summary.txt from what run.sh has left in its
work folder so far (run.sh calls it after every problem, test and
sanitizer pass, so the summary grows as the run goes):

    report.py --work DIR --bundle BUNDLE

meta, plan, bench/NAME.{out,status}, peers.jsonl, peers/KEY.status,
tests.tsv, tests/NAME.status, sanitize/NAME.TOOL.{log,status},
events.log. The problems' sizes, flops and bytes come from peers.py.
"""

import argparse
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402

MEDIAN = re.compile(r"^(.*): median ([0-9.]+) ms over (\d+) launches")
MISMATCHES = re.compile(r"mismatches:\s*(-?\d+)")
RACECHECK = re.compile(r"RACECHECK SUMMARY: (\d+) hazards? displayed "
                       r"\((\d+) errors?, (\d+) warnings?\)")
ERRORS = re.compile(r"ERROR SUMMARY: (\d+) errors?")
TOOLS = ("racecheck", "synccheck", "memcheck")
IMPLS = ("torch", "triton", "jax-xla", "jax-pallas-mgpu")
NAMES = {"torch": "torch (cuBLAS, its kernels)", "triton": "Triton",
         "jax-xla": "JAX XLA", "jax-pallas-mgpu": "JAX Pallas MGPU"}


def read(path, default=""):
    try:
        with open(path, errors="replace") as stream:
            return stream.read()
    except OSError:
        return default


def meta(work):
    fields = {}
    for line in read(os.path.join(work, "meta")).splitlines():
        key, _, value = line.partition(" ")
        fields[key] = value
    return fields


def plan(work):
    rows = []
    for line in read(os.path.join(work, "plan")).splitlines():
        words = line.split()
        if words:
            rows.append((words[0], words[1:]))
    return rows


def ours(work, name):
    """{ms, label, check, status} of one of our benchmarks."""
    base = os.path.join(work, "bench", name)
    status = read(base + ".status", "not run").strip()
    text = read(base + ".out")
    record = {"status": status}
    for line in text.splitlines():
        match = MEDIAN.match(line.strip())
        if match:
            record.update(label=match.group(1), ms=float(match.group(2)))
        match = MISMATCHES.search(line)
        if match:
            record["mismatches"] = int(match.group(1))
    if "mismatches" in record:
        n = record["mismatches"]
        record["check"] = ("ok" if n == 0 else "FAIL") + \
            " (%d mismatches)" % n
    else:
        record["check"] = "-"
    return record


def peer_records(work):
    records = {}
    for line in read(os.path.join(work, "peers.jsonl")).splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        records[(record.get("problem"), record.get("impl"))] = record
    return records


def rate(problem, ms):
    """(TFLOP/s or GB/s as text, % of the H200's peak as text)."""
    if not ms:
        return "-", "-"
    if problem.bound == "flops":
        value = problem.flops / (ms * 1e-3) / 1e12
        return "%.1f TF/s" % value, "%.1f%%" % (100 * value / peers.PEAK_TFLOPS)
    value = problem.nbytes / (ms * 1e-3) / 1e9
    return "%.0f GB/s" % value, "%.1f%%" % (100 * value / peers.PEAK_GBS)


def fmt_ms(ms):
    return "%.4f" % ms if ms is not None else "-"


def table(work, lines):
    info = meta(work)
    size = info.get("peers_size", "full")
    full = {p.key: p for p in peers.problems("full")}
    mine = {p.key: p for p in peers.problems(size)}
    records = peer_records(work)
    steps = dict(plan(work))
    side = []
    detail = []
    for key, problem in mine.items():
        if key not in steps:
            continue
        rows = []
        for name in steps[key]:
            record = ours(work, name)
            label = "ours " + name.replace(".tensor-cores-0", " lanes")
            rows.append(("ours", label, record.get("ms"), full[key],
                         record["check"] if record["status"] == "ok" or
                         "ms" in record else record["status"], ""))
        peer_names = [name for name, _ in problem.peers()]
        measured = {}
        for impl in peer_names:
            record = records.get((key, impl))
            if record is None:
                status = read(os.path.join(work, "peers", key + ".status"),
                              "not run").strip()
                why = "not run" if status == "ok" else status
                rows.append(("peer", NAMES[impl], None, problem, "-", why))
                continue
            if "error" in record:
                rows.append(("peer", NAMES[impl], None, problem, "-",
                             "not measured: " + record["error"][:150]))
                continue
            check = record["check"]
            note = "%s out; %s" % (record.get("out_dtype", "?"),
                                   record.get("method", ""))
            measured[impl] = (record["ms"], check)
            rows.append(("peer", NAMES[impl], record["ms"], problem, check,
                         note))
        correct = [ms for ms, check in measured.values() if check == "ok"]
        best = min(correct) if correct else None
        detail.append("")
        detail.append("%s: %s-bound; peers at %s" % (
            problem.label if size == "full" else full[key].label,
            "compute" if problem.bound == "flops" else "memory",
            "the same size" if size == "full" else
            "the mock's size %s" % problem.label))
        detail.append("  %-34s %10s %12s %7s %7s  %s" % (
            "implementation", "ms", "rate", "%peak", "x best", "check, notes"))
        for kind, label, ms, prob, check, note in rows:
            value, percent = rate(prob, ms)
            ratio = "%.2f" % (ms / best) if ms and best else "-"
            detail.append("  %-34s %10s %12s %7s %7s  %s" % (
                label[:34], fmt_ms(ms), value, percent, ratio,
                check + ("; " + note if note else "")))
        our_ms = [(ms, check) for kind, _, ms, _, check, _ in rows
                  if kind == "ours" and ms]
        our_ok = [ms for ms, check in our_ms if check.startswith("ok")]
        our_best = min(our_ok or [ms for ms, _ in our_ms] or [None],
                       key=lambda v: v or 0)
        cells = ["%s %s%s" % (fmt_ms(our_best),
                              "%.2fx" % (our_best / best) if our_best and best
                              else "", "" if our_ok or not our_ms else " FAIL")]
        for impl in IMPLS:
            if impl not in peer_names:
                cells.append("n/a")
            elif impl in measured:
                ms, check = measured[impl]
                cells.append("%s %s" % (fmt_ms(ms), check))
            else:
                cells.append("-")
        side.append("%-24s " % full[key].label + " ".join(
            "%-17s" % c for c in cells))
    lines.append("== Side by side: median ms per launch; ours: our fastest "
                 "variant with a correct output, x its time over the best "
                 "correct peer's (below 1: faster than every peer)")
    lines.append("%-24s " % "problem" + " ".join("%-17s" % c for c in (
        ["ours", "torch/cuBLAS"] + list(IMPLS[1:]))))
    lines.extend(side)
    lines.append("")
    lines.append("== Per problem: rate and %% of the H200's peak (%g TFLOP/s "
                 "dense bf16, %g TB/s), x = ms over the best correct peer's"
                 % (peers.PEAK_TFLOPS, peers.PEAK_GBS / 1000))
    lines.append("   Timing, the same for all: CUDA events around each of "
                 "10 launches after 2 warm-up, the median, the stream kept "
                 "busy ahead of the launches (ours: mgpuTimingReport, a "
                 "spinning kernel ahead of each; torch and Triton: back to "
                 "back behind torch.cuda._sleep; JAX: CUPTI kernel time of "
                 "each of 10 calls). Checks: ours by their own reference "
                 "(mismatch count); peers at 32 sampled places against "
                 "float64 (peers.py, TOLERANCE). lanes: built with "
                 "--tensor-cores=0 (ordinary instructions).")
    lines.extend(detail)
    others = steps.get("other", [])
    if others:
        lines.append("")
        lines.append("Benchmarks of no problem above:")
        for name in others:
            record = ours(work, name)
            lines.append("  %-34s %10s  %s" % (name, fmt_ms(record.get("ms")),
                                               record["check"]))


def tests(work, bundle, lines):
    names = sorted(os.path.basename(p)[:-len(".expected")] for p in
                   glob.glob(os.path.join(bundle, "tests", "*.expected")))
    rows = []
    for line in read(os.path.join(work, "tests.tsv")).splitlines():
        name, _, rest = line.partition("\t")
        verdict, _, why = rest.partition("\t")
        rows.append((name, verdict, why))
    if not rows and not os.path.exists(os.path.join(work, "tests.tsv")):
        if meta(work).get("mode") in ("default", "tests"):
            lines.append("== Tests: none run yet (%d in the bundle)"
                         % len(names))
        return
    count = {v: sum(1 for _, verdict, _ in rows if verdict == v)
             for v in ("PASS", "FAIL", "TIMEOUT")}
    run = {name for name, _, _ in rows}
    lines.append("== Tests: %d passed, %d failed, %d timed out, %d not run "
                 "(of %d in the bundle)" % (
                     count["PASS"], count["FAIL"], count["TIMEOUT"],
                     len([n for n in names if n not in run]), len(names)))
    for name, verdict, why in rows:
        if verdict != "PASS":
            lines.append("  %s %s: %s" % (verdict, name, why[:110]))


def sanitizer(work, bundle, lines):
    folder = os.path.join(work, "sanitize")
    if os.path.exists(os.path.join(folder, "none")):
        lines.append("== compute-sanitizer: not run (no compute-sanitizer "
                     "on this machine)")
        return
    results = {}
    for path in glob.glob(os.path.join(folder, "*.status")):
        name, tool = os.path.basename(path)[:-len(".status")].rsplit(".", 1)
        status = read(path).strip()
        text = read(path[:-len(".status")] + ".log")
        match = RACECHECK.search(text) if tool == "racecheck" else \
            ERRORS.search(text)
        if match:
            cell = match.group(1)
            if status != "ok":  # a summary line, but the program failed
                cell += " (%s)" % status
        else:
            cell = "? (%s)" % status
        results.setdefault(name, {})[tool] = cell
    if not results:
        return
    totals = {tool: sum(int(c[tool].split()[0]) for c in results.values()
                        if tool in c and c[tool].split()[0].isdigit())
              for tool in TOOLS}
    runs = sum(len(cells) for cells in results.values())
    planned = len(TOOLS) * len(glob.glob(os.path.join(bundle, "tests",
                                                      "*.expected")))
    lines.append("== compute-sanitizer: hazards (racecheck) and errors "
                 "(synccheck, memcheck) per test; totals %s; %d of %d runs%s"
                 % (", ".join("%s %d" % (tool, totals[tool])
                              for tool in TOOLS), runs, planned,
                    "" if runs >= planned else
                    " (the others did not fit before the deadline)"))
    lines.append("  %-40s %9s %9s %9s" % (("test",) + TOOLS))
    for name in sorted(results):
        lines.append("  %-40s %9s %9s %9s" % ((name[:40],) + tuple(
            results[name].get(tool, "-") for tool in TOOLS)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", required=True)
    parser.add_argument("--bundle", required=True)
    args = parser.parse_args()
    info = meta(args.work)
    events = read(os.path.join(args.work, "events.log")).splitlines()
    statuses = " ".join(read(p) for p in glob.glob(
        os.path.join(args.work, "*", "*.status")))
    cut = "skipped: deadline" in statuses or "(deadline)" in statuses
    lines = [
        "mgpu device bundle: %s run started %s on %s" % (
            info.get("mode", "?"), info.get("started", "?"),
            info.get("host", "?")),
        "GPU: %s; %s" % (info.get("gpu", "?"), info.get("bundle", "?")),
        "deadline %s s; %s; %s" % (
            info.get("deadline", "?"),
            events[-1].split("]")[0].lstrip("[") + " elapsed at the last "
            "event" if events else "nothing run yet",
            "STOPPED AT THE DEADLINE: some steps were cut or skipped"
            if cut else "no step cut by the deadline"),
        "",
    ]
    if info.get("mode") in ("default", "quick"):
        table(args.work, lines)
        lines.append("")
    tests(args.work, args.bundle, lines)
    lines.append("")
    sanitizer(args.work, args.bundle, lines)
    print("\n".join(lines).rstrip() + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
