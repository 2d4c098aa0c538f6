#!/usr/bin/env python3
"""Collects every PTX file the lit suite produces, for ptxas on the GPU machine.

It reads each `RUN:` line under tests/ that runs acopy-opt with `--emit=ptx`, runs
that acopy-opt command (the part before the first pipe) with `%s` replaced by the
test file, and saves the PTX as <out>/<test>.<n>.<chip>.ptx, where <chip> is the
PTX `.target`. Only the chips given by --chips are kept (default: all; the issue
asks for at least sm_80, sm_90, sm_90a and sm_100a). bench/ptxas_all.sh then assembles each with ptxas for its own chip.

Usage: bench/collect_ptx.py [--out bench/ptx-corpus] [--acopy-opt target/debug/acopy-opt]
"""
import argparse
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="bench/ptx-corpus")
    parser.add_argument("--acopy-opt", default="target/debug/acopy-opt")
    parser.add_argument("--chips", default="all", help="comma-separated, or all")
    args = parser.parse_args()
    chips = None if args.chips == "all" else set(args.chips.split(","))
    os.makedirs(args.out, exist_ok=True)
    kept, skipped = 0, 0
    scratch = tempfile.mkdtemp(prefix="collect-ptx-")
    for test in sorted(glob.glob("tests/**/*.mlir", recursive=True)):
        if "/gpu/" in test:
            continue
        runs = [m.group(1) for m in re.finditer(r"^//\s*RUN:\s*(.*)$", open(test).read(), re.M)]
        for n, run in enumerate(runs):
            if "--emit=ptx" not in run or run.lstrip().startswith("not "):
                continue
            command = run.split("|")[0].replace("%s", test).replace("%S", os.path.dirname(test))
            # %t: lit's per-test temporary path; never let it land in the working tree.
            command = command.replace("%t", os.path.join(scratch, f"t{n}")).strip()
            words = shlex.split(command)
            if not words or words[0] not in ("acopy-opt", "%acopy-opt"):
                continue
            words[0] = args.acopy_opt
            words = [w for w in words if w not in ("2>&1",)]
            result = subprocess.run(words, capture_output=True, text=True)
            if result.returncode != 0:
                skipped += 1
                continue
            output = result.stdout
            if "-o" in words[:-1] and words[words.index("-o") + 1] != "-":
                with open(words[words.index("-o") + 1]) as written:
                    output = written.read()
            # One PTX text per gpu.module: split cases, then the per-module headers.
            pieces = re.split(r"^// -----\n|^(?=// acopy-opt: gpu\.module)", output, flags=re.M)
            for index, ptx in enumerate(p for p in pieces if p and ".target" in p):
                target = re.search(r"^\.target\s+(\w+)", ptx, re.M)
                if not target or (chips is not None and target.group(1) not in chips):
                    continue
                name = f"{os.path.splitext(test.replace('/', '_'))[0]}.{n}.{index}.{target.group(1)}.ptx"
                open(os.path.join(args.out, name), "w").write(ptx)
                kept += 1
    print(f"collect_ptx: {kept} PTX files in {args.out} ({skipped} RUN lines failed to produce PTX)")
    if kept == 0:
        sys.exit(1)


if __name__ == "__main__":
    main()
