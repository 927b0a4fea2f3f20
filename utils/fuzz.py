#!/usr/bin/env python3
"""A mutation fuzzer for mgpu's tools, seeded with the project's own tests.

    utils/fuzz.py --build build [--mutants 1000] [--seed 1] [--jobs 2]
                  [--out fuzz-findings] [--run-fraction 0.2]

Each mutant is one small edit of one .mlir file of test/ or examples/ (a
number changed, a type swapped, a line dropped, duplicated or moved, an
attribute keyword replaced, an op swapped for a sibling: a wait for an
arrival, a full wait for a read-only one, a copy in for a copy out), chosen
deterministically from the seed. A
seed with a JAX-shaped kernel function (pallas_call or mpmd_map on static
float tensors or memrefs) but no @main, as every example is, gets a
generated @main that fills its inputs and prints checksums of its outputs,
so that it runs; programs that run weigh 4 times the others in the choice.
Upstream-style GPU programs (gpu.launch, gpu.launch_func) with a @main are
seeds too, run on the emulator only. Every
mutant goes through `mgpu-opt` (parse and verify), `--mgpu-to-cpu` and
`--mgpu-to-binary=format=isa`; a fraction of those that compile and have a
`main` also run with `mgpu-run` on the cpu and emulate backends. Each result
is classified:

  rejected      exit 1 with a located error (what bad input must get)
  ok            exit 0 and no error
  crash         a signal, or an exit status other than 0 and 1
  hang          no answer within the time limit
  slow          a run past the time limit of a mutant whose grids have more
                than 2^20 points (as many programs as the largest test,
                which itself outlasts the limit under the sanitizers) or 16
                times its seed's: counted, not a finding (a 4x4 attention
                grid made 4x1023 runs 256 times the work)
  error-exit-0  an error printed but exit status 0
  no-location   an error without a location (`<unknown>:0` or `loc(unknown)`)
  invalid-ir    a pass produced IR that fails to verify
  disagreement  cpu and emulate print different results

The findings (all but rejected and ok) are written as reproducers under
--out, one directory per finding with the mutant, the command and its
output; the summary counts every class. Exit status 1 when there is a
finding.
"""

import argparse
import collections
import concurrent.futures
import hashlib
import os
import random
import re
import subprocess
import sys

TYPES = ["f32", "f16", "bf16", "f64", "i1", "i4", "i8", "i32", "i64", "index",
         "complex<f32>", "f80", "tf32", "f8E4M3FN", "ui32", "si8"]
NUMBERS = ["0", "1", "-1", "2", "3", "7", "64", "255", "256", "1023",
           "4294967296", "-9223372036854775808", "9223372036854775807"]
KEYWORDS = ["parallel", "sequential", "gmem", "smem", "workgroup", "global",
            "private", "ins", "outs", "in_specs", "out_specs", "grid",
            "floordiv", "mod", "ceildiv", "read_only", "commit_group",
            # Clusters, transforms, tensor memory.
            "collective_axes", "transforms", "a_transforms", "b_transforms",
            "partitioned", "along", "collective", "accumulate", "predicate",
            "cluster", "num_threads"]
# An op swapped for a sibling that takes the same operands: the same program
# with one synchronization or memory operation changed (a wait made an
# arrival, a full wait a read-only one, a copy in a copy out...).
OP_SWAPS = [
    ("mgpu.barrier_wait", "mgpu.barrier_arrive"),
    ("mgpu.wait_smem_to_gmem 0", "mgpu.wait_smem_to_gmem 1"),
    ("mgpu.wait_smem_to_gmem 0", "mgpu.wait_smem_to_gmem 0 read_only"),
    ("mgpu.commit_smem", "mgpu.cluster_sync"),
    ("mgpu.wgmma_wait 0", "mgpu.wgmma_wait 1"),
    ("mgpu.semaphore_signal", "mgpu.semaphore_wait"),
    ("mgpu.tcgen05_commit_arrive", "mgpu.barrier_arrive"),
    ("mgpu.copy_gmem_to_smem", "mgpu.copy_smem_to_gmem"),
    ("!mgpu.tmem<", "!mgpu.tmem<256x"),
    ("collective_axes [\"c\"]", "collective_axes [\"x\"]"),
    # Tensor memory: a wait for the loads or a fence of the stores made the
    # other, or an smem fence; a cluster barrier made a warpgroup one.
    ("mgpu.wait_load_tmem", "mgpu.commit_tmem"),
    ("mgpu.commit_tmem", "mgpu.commit_smem"),
    ("mgpu.cluster_sync", "mgpu.warpgroup_barrier"),
    ("mgpu.griddepcontrol_wait", "mgpu.griddepcontrol_launch_dependents"),
    ("mgpu.wgmma_wait_group 0", "mgpu.wgmma_wait_group 1"),
]
NUMBER = re.compile(r"(?<![\w#%@.])-?\d+(?![\w.])")
TYPE = re.compile(r"\b(f16|bf16|f32|f64|i1|i8|i16|i32|i64|index)\b")
KEYWORD = re.compile(r"\b(" + "|".join(KEYWORDS) + r")\b")


FLOATS = ("f32", "f16", "bf16")
SIGNATURE = re.compile(r"func\.func @(\w+)\(([^)]*)\)\s*(?:->\s*\(?([^{]*?)\)?\s*)?\{")
SHAPED = re.compile(r"(tensor|memref)<((?:\d+x)+)(f32|f16|bf16)>")


def shaped(text):
    """[(kind, shape, element)] of a list of types, or None when one is not
    a static tensor or memref of floats in the default memory space."""
    types = re.findall(r"(?:tensor|memref)<[^>]*>|[\w.!]+", text)
    result = []
    for t in types:
        match = SHAPED.fullmatch(t)
        if not match:
            return None
        result.append((match.group(1),
                       [int(d) for d in match.group(2).split("x")[:-1]],
                       match.group(3)))
    return result


def fill(lines, name, kind, shape, element, salt):
    """`%name`: a new memref of the shape with values (a small function of
    the indices and `salt`, exact in every float type) in it."""
    rank = len(shape)
    memref = "memref<%sx%s>" % ("x".join(map(str, shape)), element)
    dims = ", ".join("d%d" % i for i in range(rank))
    lines.append("    %%%s = memref.alloc() : %s" % (name, memref))
    lines.append("    linalg.generic {indexing_maps = [affine_map<(%s) -> (%s)>],"
                 " iterator_types = [%s]} outs(%%%s : %s) {"
                 % (dims, dims, ", ".join(['"parallel"'] * rank), name, memref))
    lines.append("    ^bb0(%%out: %s):" % element)
    lines.append("      %%h0 = arith.constant %d : index" % salt)
    for i in range(rank):
        lines.append("      %%i%d = linalg.index %d : index" % (i, i))
        lines.append("      %%m%d = arith.muli %%h%d, %%c31 : index" % (i, i))
        lines.append("      %%h%d = arith.addi %%m%d, %%i%d : index"
                     % (i + 1, i, i))
    lines.append("      %%r = arith.remui %%h%d, %%c17 : index" % rank)
    lines.append("      %r32 = arith.index_cast %r : index to i32")
    lines.append("      %%f = arith.uitofp %%r32 : i32 to %s" % element)
    lines.append("      %%eighth = arith.constant 0.125 : %s" % element)
    lines.append("      %v = arith.mulf %f, %eighth : " + element)
    lines.append("      linalg.yield %v : " + element)
    lines.append("    }")
    if kind == "tensor":
        lines.append("    %%%s_t = bufferization.to_tensor %%%s restrict : %s to "
                     "tensor<%sx%s>" % (name, name, memref,
                                        "x".join(map(str, shape)), element))


def checksum(lines, name, shape, element):
    """Prints a weighted f32 sum of memref `%name`, summed in order."""
    rank = len(shape)
    memref = "memref<%sx%s>" % ("x".join(map(str, shape)), element)
    dims = ", ".join("d%d" % i for i in range(rank))
    lines.append("    %%%s_sum = memref.alloc() : memref<f32>" % name)
    lines.append("    memref.store %%zero, %%%s_sum[] : memref<f32>" % name)
    lines.append("    linalg.generic {indexing_maps = [affine_map<(%s) -> (%s)>,"
                 " affine_map<(%s) -> ()>], iterator_types = [%s]}"
                 " ins(%%%s : %s) outs(%%%s_sum : memref<f32>) {"
                 % (dims, dims, dims, ", ".join(['"reduction"'] * rank), name,
                    memref, name))
    lines.append("    ^bb0(%%x: %s, %%acc: f32):" % element)
    x = "%x"
    if element != "f32":
        lines.append("      %%xf = arith.extf %%x : %s to f32" % element)
        x = "%xf"
    lines.append("      %%i = linalg.index %d : index" % (rank - 1))
    lines.append("      %w = arith.remui %i, %c7 : index")
    lines.append("      %w32 = arith.index_cast %w : index to i32")
    lines.append("      %wf = arith.uitofp %w32 : i32 to f32")
    lines.append("      %%p = arith.mulf %s, %%wf : f32" % x)
    lines.append("      %s = arith.addf %acc, %p : f32")
    lines.append("      linalg.yield %s : f32")
    lines.append("    }")
    lines.append("    %%%s_total = memref.load %%%s_sum[] : memref<f32>"
                 % (name, name))
    lines.append("    vector.print %%%s_total : f32" % name)


def with_main(case):
    """`case` with a @main that calls its first kernel function (a public
    func.func holding a pallas_call or mpmd_map, whose arguments and results
    are static float tensors or memrefs) on generated inputs and prints a
    checksum of every result and memref argument passed as an output; `case` itself when it has
    a @main or no such function. So the JAX-shaped kernels of examples/ and
    of the compile-only tests run, and cpu and emulate are compared."""
    if "@main" in case or not re.search(r"mgpu\.(pallas_call|mpmd_map)",
                                        case):
        return case
    # Only the outputs are printed: a write to an input is seen by the
    # caller on the CPU, which runs on the caller's memory, and not through
    # the device copies of the emulator and the GPU.
    outs = set(re.findall(r"%\w+", " ".join(
        re.findall(r"outs\(([^:)]*)", case))))
    for match in SIGNATURE.finditer(case):
        args = re.findall(r"(%\w+)\s*:\s*((?:tensor|memref)<[^>]*>|[^,]+)",
                          match.group(2))
        names = [name for name, _ in args]
        arg_types = shaped(" ".join(t for _, t in args))
        result_types = shaped(match.group(3) or "")
        if not arg_types or result_types is None or \
                any(kind == "memref" for kind, _, _ in result_types):
            continue
        lines = ["  func.func @main() {",
                 "    %c7 = arith.constant 7 : index",
                 "    %c17 = arith.constant 17 : index",
                 "    %c31 = arith.constant 31 : index",
                 "    %zero = arith.constant 0.0 : f32"]
        operands = []
        for i, (kind, shape, element) in enumerate(arg_types):
            fill(lines, "a%d" % i, kind, shape, element, i + 1)
            operands.append("%%a%d%s" % (i, "_t" if kind == "tensor" else ""))
        signature = "(%s) -> (%s)" % (
            ", ".join("%s<%sx%s>" % (k, "x".join(map(str, s)), e)
                      for k, s, e in arg_types),
            ", ".join("tensor<%sx%s>" % ("x".join(map(str, s)), e)
                      for _, s, e in result_types))
        results = ""
        if result_types:
            results = "%%r:%d = " % len(result_types)
        lines.append("    %scall @%s(%s) : %s" % (results, match.group(1),
                                                 ", ".join(operands),
                                                 signature))
        for i, (kind, shape, element) in enumerate(arg_types):
            if kind == "memref" and names[i] in outs:
                checksum(lines, "a%d" % i, shape, element)
        for i, (_, shape, element) in enumerate(result_types):
            lines.append("    %%o%d = bufferization.to_buffer %%r#%d read_only :"
                         " tensor<%sx%s> to memref<%sx%s>"
                         % (i, i, "x".join(map(str, shape)), element,
                            "x".join(map(str, shape)), element))
            checksum(lines, "o%d" % i, shape, element)
        lines += ["    return", "  }"]
        main = "\n".join(lines) + "\n"
        # Inside the module that holds the function, or after it.
        end = case.rstrip().rfind("}")
        if re.search(r"^module", case, re.M) and end >= 0:
            return case[:end] + main + case[end:]
        return case.rstrip() + "\n" + main
    return case


def corpus(source_root):
    """(name, case, weight): every case with an mgpu op, and upstream-style
    GPU programs with a @main (which the emulator runs). JAX-shaped programs
    that run (a pallas_call or mpmd_map and a @main, given or generated)
    weigh 4, the other cases 1."""
    files = []
    for top in ("test", "examples"):
        for directory, _, names in sorted(os.walk(os.path.join(source_root,
                                                               top))):
            for name in sorted(names):
                if not name.endswith(".mlir"):
                    continue
                path = os.path.join(directory, name)
                with open(path) as stream:
                    text = stream.read()
                # Scale tests (a 2^20-program grid) outlast the timeout
                # under the sanitizers: a hang that is not one.
                if "FUZZ-SKIP" in text:
                    continue
                # Files whose cases are split apart are fuzzed case by case.
                for case in text.split("\n// -----\n"):
                    case = strip_comments(case)
                    upstream = "gpu.launch" in case and "@main" in case
                    if "mgpu." not in case and not upstream:
                        continue
                    case = with_main(case)
                    runs = "@main" in case and re.search(
                        r"mgpu\.(pallas_call|mpmd_map)", case)
                    files.append((os.path.relpath(path, source_root), case,
                                  4 if runs else 1))
    return files


def strip_comments(text):
    return "\n".join(line for line in text.splitlines()
                     if not line.lstrip().startswith("//"))


def host_spans(text):
    """Offsets of every `func.func` that launches no kernel (@main and the
    host functions it calls, such as a test's @check), brace to brace."""
    spans = []
    for match in re.finditer(r"func\.func @[\w$.]+", text):
        brace = text.find("{", match.start())
        if brace < 0:
            continue
        depth, end = 0, len(text)
        for i in range(brace, len(text)):
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    end = i + 1
                    break
        body = text[match.start():end]
        if not any(k in body for k in ("mgpu.pallas_call", "mgpu.mpmd_map",
                                       "gpu.launch", "mgpu.launch")):
            spans.append((match.start(), end))
    return spans


def line_offset(lines, i):
    return sum(len(line) + 1 for line in lines[:i])


def mutate(text, rng):
    """One edit of `text`: the mutant, the name of the edit for the report
    and the offset in `text` where it was made."""
    lines = text.splitlines()
    kind = rng.choice(["number", "number", "type", "type", "keyword",
                       "drop", "duplicate", "move", "op"])
    if kind == "op":
        swaps = [(old, new) for a, b in OP_SWAPS for old, new in ((a, b), (b, a))
                 if old in text]
        if swaps:
            old, new = rng.choice(swaps)
            at = [m.start() for m in re.finditer(re.escape(old), text)]
            start = rng.choice(at)
            return (text[:start] + new + text[start + len(old):],
                    "op %s -> %s at %d" % (old, new, start), start)
        kind = "drop"
    if kind in ("number", "type", "keyword"):
        pattern = {"number": NUMBER, "type": TYPE, "keyword": KEYWORD}[kind]
        choices = {"number": NUMBERS, "type": TYPES, "keyword": KEYWORDS}[kind]
        matches = list(pattern.finditer(text))
        if matches:
            match = rng.choice(matches)
            new = rng.choice(choices)
            return (text[:match.start()] + new + text[match.end():],
                    "%s %s -> %s at %d" % (kind, match.group(0), new,
                                            match.start()), match.start())
    if len(lines) < 2:
        return text + "\n}", "append brace", len(text)
    # A memref.dealloc duplicated or moved before a use is a double free or
    # a use after free in the user's own host code, which no backend checks
    # (as in any MLIR host program); such lines are only dropped.
    movable = [k for k in range(len(lines))
               if kind == "drop" or "memref.dealloc" not in lines[k]]
    i = rng.choice(movable)
    if kind == "drop":
        return ("\n".join(lines[:i] + lines[i + 1:]),
                "drop line %d" % (i + 1), line_offset(lines, i))
    if kind == "duplicate":
        return ("\n".join(lines[:i + 1] + lines[i:]),
                "duplicate line %d" % (i + 1), line_offset(lines, i))
    j = rng.randrange(len(lines))
    where = min(line_offset(lines, i), line_offset(lines, j))
    line = lines.pop(i)
    lines.insert(j, line)
    return ("\n".join(lines), "move line %d to %d" % (i + 1, j + 1), where)


def run(command, timeout, env=None):
    try:
        result = subprocess.run(command, capture_output=True, text=True,
                                timeout=timeout, env=env,
                                errors="replace")
        return result.returncode, result.stdout, result.stderr
    except subprocess.TimeoutExpired:
        return None, "", ""


def classify(rc, stdout, stderr, after_passes=True):
    """The class of one command's outcome. A verifier message about the
    input as parsed (`after_passes` false: no pass has run) is a rejection
    of invalid input, not IR a pass broke."""
    if rc is None:
        return "hang"
    if rc < 0 or rc not in (0, 1):
        return "crash"
    if "AddressSanitizer" in stderr or "runtime error:" in stderr:
        return "crash"
    has_error = re.search(r"\berror:", stderr) is not None
    if rc == 0 and has_error:
        return "error-exit-0"
    if rc == 1:
        if "<unknown>:0" in stderr or "loc(unknown)" in stderr:
            return "no-location"
        if after_passes and ("verification failed" in stderr or
                             "failed to verify" in stderr):
            return "invalid-ir"
        return "rejected"
    return "ok"


GRID = re.compile(r"\bgrid\s*=?\s*\[([^\]]*)\]")


def grid_points(text):
    """The most points of any static grid in `text` (pallas_call grids and
    meshes; dynamic sizes count as 1)."""
    most = 1
    for match in GRID.finditer(text):
        points = 1
        for size in re.findall(r"\b\d+\b", match.group(1)):
            points *= int(size)
        most = max(most, points)
    return most


ALLOC = re.compile(r"^(\s*)(%[\w.$-]+) = memref\.alloc\(\) : "
                   r"(memref<((?:\d+x)*)(\w+)>)\s*$", re.M)


def fill_host_allocations(text):
    """`text` with every plain `memref.alloc()` of the host functions
    (host_spans) filled with a constant. An output block the kernel never writes (one wholly past the
    array, a mutated index map) is undefined; read uninitialized, LLVM may
    fold the loads away on one backend (interpret mode inlines the kernel
    and sees no store) and not the other (the emulator writes through its
    runtime): a disagreement of the fuzzer's making."""
    spans = host_spans(text)
    if not spans:
        return text

    def fill(match):
        indent, name, memref, _, element = match.groups()
        if element in ("index",) or re.fullmatch(r"i\d+", element):
            value = "true" if element == "i1" else "5"
        elif re.fullmatch(r"(f|bf)\d+\w*", element):
            value = "0.5"
        else:
            return match.group(0)
        constant = name + "_fuzz_fill"
        return ("%s\n%s%s = arith.constant %s : %s\n"
                "%slinalg.fill ins(%s : %s) outs(%s : %s)"
                % (match.group(0).rstrip(), indent, constant, value, element,
                   indent, constant, element, name, memref))

    # From the last span back, so that the earlier offsets hold.
    for start, end in reversed(spans):
        text = text[:start] + ALLOC.sub(fill, text[start:end]) + text[end:]
    return text


def check_mutant(job):
    index, name, edit, text, host_edit, seed_points, args = job
    work = os.path.join(args.work, "m%d" % index)
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, "mutant.mlir")
    with open(path, "w") as stream:
        stream.write(text)
    opt = os.path.join(args.build, "bin", "mgpu-opt")
    mgpu_run = os.path.join(args.build, "bin", "mgpu-run")
    results = []
    steps = [("verify", [opt, path, "-o", os.devnull])]
    rc, out, err = run(steps[0][1], args.timeout)
    status = classify(rc, out, err, after_passes=False)
    results.append(("verify", steps[0][1], status, err))
    if status == "ok":
        for step, pipeline in (("to-cpu", "--mgpu-to-cpu"),
                               ("to-binary",
                                "--mgpu-to-binary=chip=sm_90a format=isa")):
            command = [opt, pipeline, path, "-o", os.devnull]
            rc, out, err = run(command, args.timeout)
            results.append((step, command, classify(rc, out, err), err))
        # Upstream-style GPU programs run on the emulator only: interpret
        # mode refuses GPU code.
        mgpu = "mgpu." in text
        compiled = all(r[2] == "ok" for r in results
                       if mgpu or r[0] != "to-cpu")
        rng = random.Random("%d-%d" % (args.seed, index))
        # The programs of test/Integration/Emulate race on purpose, to show
        # the emulator's async semantics: the CPU cannot agree with them.
        # A mutant of the host program (@main and the functions it calls)
        # may read uninitialized or out-of-bounds host memory, which no
        # backend defines.
        comparable = "Integration/Emulate" not in name and not host_edit
        if compiled and comparable and "@main" in text and \
                rng.random() < args.run_fraction:
            # Same garbage in uninitialized host memory on both backends, so
            # that a mutant reading it does not look like a disagreement.
            # One emulator worker runs the CTAs in grid order, as interpret
            # mode runs the programs: a mutant whose programs write the same
            # output block (undefined in Pallas) then gets the last one's
            # values on both, not whichever host thread came last.
            env = dict(os.environ, MGPU_WAIT_TIMEOUT="2",
                       MALLOC_PERTURB_="165", MGPU_EMULATE_THREADS="1")
            outputs = {}
            filled = os.path.join(work, "filled.mlir")
            with open(filled, "w") as stream:
                stream.write(fill_host_allocations(text))
            for backend in ("cpu", "emulate") if mgpu else ("emulate",):
                command = [mgpu_run, filled, "-e", "main",
                           "--backend=" + backend]
                rc, out, err = run(command, args.timeout, env)
                status = classify(rc, out, err)
                points = grid_points(text)
                if status == "hang" and (points > 1 << 20 or
                                         points >= 16 * seed_points):
                    status = "slow"
                results.append(("run-" + backend, command, status, err))
                if status == "ok":
                    outputs[backend] = out
            # Lines compared in any order: debug prints of several threads
            # have none (as mgpu-run --emulate-schedules compares them).
            if len(outputs) == 2 and sorted(outputs["cpu"].splitlines()) != \
                    sorted(outputs["emulate"].splitlines()):
                results.append(("compare", ["cpu", "vs", "emulate"],
                                "disagreement",
                                "cpu:\n%s\nemulate:\n%s" % (
                                    outputs["cpu"][:2000],
                                    outputs["emulate"][:2000])))
    findings = [r for r in results
                if r[2] not in ("ok", "rejected", "slow")]
    for step, command, status, err in findings:
        digest = hashlib.sha1(text.encode()).hexdigest()[:10]
        where = os.path.join(args.out, "%s-%s-%s" % (status, step, digest))
        os.makedirs(where, exist_ok=True)
        with open(os.path.join(where, "mutant.mlir"), "w") as stream:
            stream.write(text)
        with open(os.path.join(where, "README"), "w") as stream:
            stream.write("seed file: %s\nedit: %s\ncommand: %s\n\n%s\n"
                         % (name, edit, " ".join(command), err[-6000:]))
    for leftover in (path, os.path.join(work, "filled.mlir")):
        if os.path.exists(leftover):
            os.remove(leftover)
    os.rmdir(work)
    return [(step, status) for step, _, status, _ in results], \
        [(status, step, name, edit) for step, _, status, _ in findings]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--mutants", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--run-fraction", type=float, default=0.2)
    parser.add_argument("--out", default="fuzz-findings")
    parser.add_argument("--work", default="")
    args = parser.parse_args()
    args.build = os.path.abspath(args.build)
    args.out = os.path.abspath(args.out)
    if not args.work:
        args.work = os.path.join(args.out, "work")
    args.work = os.path.abspath(args.work)
    source_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

    seeds = corpus(source_root)
    # Mutants that write files by relative paths (a profile's traces/) write
    # them in the work folder, not in the checkout.
    os.makedirs(args.work, exist_ok=True)
    os.chdir(args.work)
    weights = [weight for _, _, weight in seeds]
    rng = random.Random(args.seed)
    jobs = []
    for index in range(args.mutants):
        name, original, _ = rng.choices(seeds, weights)[0]
        mutant, edit, where = mutate(original, rng)
        host_edit = any(start <= where < end
                        for start, end in host_spans(original))
        jobs.append((index, name, edit, mutant, host_edit,
                     grid_points(original), args))

    counts = collections.Counter()
    findings = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for done, (results, found) in enumerate(
                pool.map(check_mutant, jobs), 1):
            counts.update(status for _, status in results)
            counts.update("%s/%s" % (step, status)
                          for step, status in results)
            findings.extend(found)
            if done % 200 == 0:
                print("fuzz: %d/%d mutants" % (done, args.mutants),
                      flush=True)
    print("fuzz: %d mutants from %d seed cases, %d of them JAX-shaped "
          "programs that run (seed %d)"
          % (args.mutants, len(seeds), sum(w > 1 for w in weights),
             args.seed))
    for status in ("ok", "rejected", "slow", "crash", "hang", "error-exit-0",
                   "no-location", "invalid-ir", "disagreement"):
        print("  %-13s %d" % (status, counts[status]))
    for status, step, name, edit in findings:
        print("finding: %s in %s: %s (%s)" % (status, step, name, edit))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
