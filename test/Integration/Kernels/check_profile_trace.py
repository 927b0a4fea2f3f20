#!/usr/bin/env python3
"""Checks a trace file of mgpu's in-kernel profiler (--mgpu-profile-kernels).

    check_profile_trace.py FILE --threads N --scopes A,B,C [--thread-scopes T=D,E]

The file must parse as JSON in Chrome's trace event format: a "traceEvents"
list of "B"/"E" events (and "M" thread names) with "name", "ph", "ts",
"pid" and "tid". There must be N threads (tids 1..N, one per Pallas
thread), each with a thread name, and in each thread the events must nest
(every "E" closes the innermost open "B" of the same name, none left open),
the times must not decrease, and the scopes must be entered in the order
A, B, C (each once; in thread T, D, E with --thread-scopes). Prints
"trace ok: N threads" on success.
"""

import argparse
import json
import sys


def fail(message):
    print(f"check_profile_trace: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--scopes", required=True)
    parser.add_argument("--thread-scopes", action="append", default=[])
    args = parser.parse_args()
    scopes = args.scopes.split(",")
    thread_scopes = {}
    for spec in args.thread_scopes:
        tid, names = spec.split("=")
        thread_scopes[int(tid)] = names.split(",")

    with open(args.file) as f:
        trace = json.load(f)
    events = trace.get("traceEvents")
    if not isinstance(events, list):
        fail("no traceEvents list")
    threads = {}
    names = {}
    for event in events:
        for key in ("name", "ph", "pid", "tid"):
            if key not in event:
                fail(f"event without {key}: {event}")
        if event["ph"] == "M":
            names[event["tid"]] = event["args"]["name"]
            continue
        if event["ph"] not in ("B", "E") or "ts" not in event:
            fail(f"not a begin or end event: {event}")
        threads.setdefault(event["tid"], []).append(event)
    if sorted(threads) != list(range(1, args.threads + 1)):
        fail(f"threads {sorted(threads)}, expected 1..{args.threads}")
    if sorted(names) != sorted(threads):
        fail(f"thread names for {sorted(names)}, threads {sorted(threads)}")
    for tid, thread in threads.items():
        stack, entered, last = [], [], float("-inf")
        for event in thread:
            if event["ts"] < last:
                fail(f"thread {tid}: time goes back at {event}")
            last = event["ts"]
            if event["ph"] == "B":
                stack.append(event)
                entered.append(event["name"])
            else:
                if not stack or stack[-1]["name"] != event["name"]:
                    fail(f"thread {tid}: unmatched end {event}")
                begin = stack.pop()
                if not begin["ts"] <= event["ts"]:
                    fail(f"thread {tid}: {event['name']} ends before it begins")
        if stack:
            fail(f"thread {tid}: scopes left open: {stack}")
        expected = thread_scopes.get(tid, scopes)
        if entered != expected:
            fail(f"thread {tid}: scopes {entered}, expected {expected}")
    print(f"trace ok: {len(threads)} threads")


if __name__ == "__main__":
    main()
