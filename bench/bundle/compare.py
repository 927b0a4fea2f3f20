#!/usr/bin/env python3
"""Compares what a bundled test printed with what it printed on the CPU.

    compare.py EXPECTED ACTUAL

Both are split into lines and the lines into words (also at commas and
parentheses, the separators vector.print uses). Integers (a mismatch count)
must match exactly. Other numbers compare with a relative tolerance of 1e-4
(absolute 1e-6 near zero): a GPU may contract a multiply and an add, or sum
in another order. Where both printed values are bf16 (or f16) values, they
may also differ by one unit in the last place of that type, 2^-8 of the
value for bf16: a bf16 result rounded from a sum in another order is one
ulp away. Every other word must match exactly, as must the number of
lines. Prints the first difference and exits 1 when there is one.
"""

import math
import re
import struct
import sys

SPLIT = re.compile(r"[\s,()]+")
INTEGER = re.compile(r"^[-+]?\d+$")
# (bits of the f32 significand that the type drops, its smallest normal)
SIXTEEN_BIT = {"bf16": (16, 2.0 ** -126), "f16": (13, 2.0 ** -14)}


def words(line):
    return [w for w in SPLIT.split(line) if w]


def f32_bits(value):
    try:
        return struct.unpack("<I", struct.pack("<f", value))[0]
    except OverflowError:
        return None


def one_ulp_apart(x, y, dropped, smallest):
    """Whether x and y are both values of a 16-bit type (their f32 forms
    end in `dropped` zero bits) at most one unit in its last place apart."""
    bits = [f32_bits(v) for v in (x, y)]
    if None in bits or any(b & ((1 << dropped) - 1) for b in bits):
        return False
    if min(abs(x), abs(y)) < smallest or (x < 0) != (y < 0):
        return False
    return abs(bits[0] - bits[1]) <= 1 << dropped


def same(expected, actual):
    if expected == actual:
        return True
    if INTEGER.match(expected) and INTEGER.match(actual):
        return False
    try:
        x, y = float(expected), float(actual)
    except ValueError:
        return False
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    if math.isclose(x, y, rel_tol=1e-4, abs_tol=1e-6):
        return True
    return any(one_ulp_apart(x, y, dropped, smallest)
               for dropped, smallest in SIXTEEN_BIT.values())


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
