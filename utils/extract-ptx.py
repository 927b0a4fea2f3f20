#!/usr/bin/env python3
"""Prints the PTX (or any text) held by the gpu.binary objects of an MLIR file.

Reads MLIR from a file or stdin, finds every `#gpu.object<..., "...">` whose
payload is PTX (what --mgpu-to-binary="format=isa" produces), undoes MLIR's
string escapes (\\XX hex, \\n, \\t, \\", \\\\) and writes the text, objects
separated by a blank line, to stdout or to -o FILE (with --object N, only
the Nth). Exits with 1 when no
object is found, so a test that expects PTX fails loudly.
"""
import argparse
import re
import sys

OBJECT = re.compile(r'#gpu\.object<.*?assembly = "((?:[^"\\]|\\.)*)"', re.S)


def unescape(text):
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            if re.match(r"[0-9A-Fa-f]{2}", text[i + 1:i + 3]):
                out.append(int(text[i + 1:i + 3], 16))
                i += 3
                continue
            out += {"n": b"\n", "t": b"\t", '"': b'"', "\\": b"\\"}.get(
                nxt, nxt.encode())
            i += 2
            continue
        out += c.encode()
        i += 1
    return out.decode("utf-8", "replace")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("input", nargs="?", default="-")
    parser.add_argument("-o", dest="output", default="-")
    parser.add_argument("--object", type=int, default=None,
                        help="write only object N (from 0), one module that "
                        "ptxas can assemble on its own")
    args = parser.parse_args()
    source = sys.stdin.read() if args.input == "-" else open(args.input).read()
    objects = [unescape(m.group(1)) for m in OBJECT.finditer(source)]
    if not objects:
        sys.stderr.write("extract-ptx: no gpu.object in the input\n")
        return 1
    if args.object is not None:
        if not 0 <= args.object < len(objects):
            sys.stderr.write("extract-ptx: no object %d (%d found)\n" %
                             (args.object, len(objects)))
            return 1
        objects = [objects[args.object]]
    text = "\n".join(objects)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
