#!/usr/bin/env python3
"""Compares what a bundled test printed with what it printed on the CPU.

    compare.py EXPECTED ACTUAL

Both are split into lines and the lines into words (also at commas and
parentheses, the separators vector.print uses). Words that are numbers
compare with a relative tolerance of 1e-4 (absolute 1e-6 near zero): a GPU
may contract a multiply and an add, or sum in another order; every other
word must match exactly, as must the number of lines. Prints the first
difference and exits 1 when there is one.
"""

import math
import re
import sys

SPLIT = re.compile(r"[\s,()]+")


def words(line):
    return [w for w in SPLIT.split(line) if w]


def same(expected, actual):
    if expected == actual:
        return True
    try:
        x, y = float(expected), float(actual)
    except ValueError:
        return False
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return math.isclose(x, y, rel_tol=1e-4, abs_tol=1e-6)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: compare.py EXPECTED ACTUAL")
    with open(sys.argv[1]) as stream:
        expected = stream.read().splitlines()
    with open(sys.argv[2]) as stream:
        actual = stream.read().splitlines()
    for number, (want, got) in enumerate(zip(expected, actual), 1):
        want_words, got_words = words(want), words(got)
        if len(want_words) != len(got_words) or not all(
                same(w, g) for w, g in zip(want_words, got_words)):
            print("line %d: expected '%s', got '%s'" % (number, want, got))
            return 1
    if len(expected) != len(actual):
        print("expected %d lines, got %d" % (len(expected), len(actual)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
