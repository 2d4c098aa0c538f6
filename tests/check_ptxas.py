#!/usr/bin/env python3
"""Assembles every PTX module in a file with ptxas, each for its own `.target`.

Usage (lit's %check-ptxas): check_ptxas.py PTXAS [--allow-perf-loss] FILE CHIP [CHIP...]

FILE is acopy-opt output: one PTX module, several separated by `// -----`
(--split-input-file) or headed `// acopy-opt: gpu.module @NAME` (one input
with several gpu.modules), or MLIR whose gpu.binary ops hold PTX in
`assembly = "..."` strings (an upstream gpu-module-to-binary{format=isa}).
The modules' `.target`s must be exactly the CHIPs given, in order, so a RUN
line pins what it assembles; each module is then assembled with
`ptxas -arch=<its .target>`, warnings as errors, and a "Potential Performance
Loss" (ptxas serializing wgmma) as an error too, unless --allow-perf-loss; with --no-spill,
a spill store or load in any function is an error too. Exits 1 on any mismatch or
ptxas failure, with ptxas's messages; prints one line per module otherwise.
"""

import os
import re
import subprocess
import sys
import tempfile

SEPARATOR = re.compile(r"^// -----$|^(?=// acopy-opt: gpu\.module )", re.MULTILINE)
ASSEMBLY = re.compile(r'assembly = "((?:[^"\\]|\\.)*)"')
TARGET = re.compile(r"^\.target\s+(sm_[0-9]+[a-z]?)\b", re.MULTILINE)
# ptxas's info line when it serializes wgmma (C7514 and its kin).
PERFORMANCE_LOSS = "Potential Performance Loss"
# ptxas -v's spill line with a store or load count other than 0.
SPILLS = re.compile(r"\b(?!0 )\d+ bytes spill (?:stores|loads)")


def mlir_string(text):
    """Decodes an MLIR string literal body (\\XX hex escapes, \\\\, \\", \\n, \\t)."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c != "\\":
            out += c.encode()
            i += 1
            continue
        nxt = text[i + 1 : i + 3]
        if re.fullmatch(r"[0-9A-Fa-f]{2}", nxt):
            out.append(int(nxt, 16))
            i += 3
        else:
            out += {"n": b"\n", "t": b"\t", '"': b'"', "\\": b"\\"}.get(text[i + 1], b"?")
            i += 2
    return out.decode()


def modules(text):
    found = []
    for part in SEPARATOR.split(text):
        blobs = ASSEMBLY.findall(part)
        if blobs:
            found.extend(mlir_string(blob) for blob in blobs)
        elif TARGET.search(part):
            found.append(part)
    return found


def main(argv):
    if len(argv) < 4:
        print("usage: check_ptxas.py PTXAS FILE CHIP [CHIP...]", file=sys.stderr)
        return 2
    # --allow-perf-loss (after the ptxas path, as %check-ptxas passes it): a RUN line
    # whose input serializes wgmma for a reason its test names.
    allow_loss = argv[2:3] == ["--allow-perf-loss"]
    if allow_loss:
        argv = argv[:2] + argv[3:]
    # --no-spill: a RUN line pinning that a kernel fits its registers (ptxas -v's
    # "N bytes spill stores, M bytes spill loads" is 0 and 0 for every function).
    no_spill = argv[2:3] == ["--no-spill"]
    if no_spill:
        argv = argv[:2] + argv[3:]
    ptxas, path, expected = argv[1], argv[2], argv[3:]
    with open(path, encoding="utf-8") as f:
        found = modules(f.read())
    targets = [TARGET.search(m).group(1) for m in found]
    if targets != expected:
        print(f"check_ptxas: {path} has PTX modules for {targets}, expected {expected}", file=sys.stderr)
        return 1
    failed = False
    for index, (module, target) in enumerate(zip(found, targets)):
        with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as tmp:
            tmp.write(module)
        try:
            result = subprocess.run(
                [ptxas, f"-arch={target}", "--warning-as-error"] + (["-v"] if no_spill else [])
                + [tmp.name, "-o", os.devnull],
                capture_output=True,
                text=True,
            )
        finally:
            os.unlink(tmp.name)
        if result.returncode != 0:
            failed = True
            print(f"check_ptxas: module {index} (.target {target}) of {path}: ptxas failed", file=sys.stderr)
            sys.stderr.write(result.stdout + result.stderr)
        elif PERFORMANCE_LOSS in result.stdout + result.stderr and not allow_loss:
            # Not a warning to ptxas, but a kernel whose wgmma ptxas serializes runs
            # each one alone: what asynchronous wgmma is for is lost.
            failed = True
            print(f"check_ptxas: module {index} (.target {target}) of {path}: ptxas reports a performance loss", file=sys.stderr)
            sys.stderr.write(result.stdout + result.stderr)
        elif no_spill and SPILLS.search(result.stdout + result.stderr):
            failed = True
            print(f"check_ptxas: module {index} (.target {target}) of {path}: ptxas spills", file=sys.stderr)
            sys.stderr.write(result.stdout + result.stderr)
        else:
            print(f"ptxas -arch={target}: module {index} assembled")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
