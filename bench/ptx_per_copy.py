#!/usr/bin/env python3
"""PTX instructions per copy: acopy against the hand-written upstream kernel.

Usage: bench/ptx_per_copy.py [--kernels 10] [--per-kernel 100] [--acopy-opt PATH]

For each route of bench/compile_speed.py (cp.async on sm_80, TMA on sm_90;
static and dynamic starts), both inputs are compiled to PTX (acopy-opt
--acopy-lower --emit=ptx; mlir-opt --gpu-lower-to-nvvm-pipeline with
cubin-format=isa) and the instructions inside the kernels' bodies are counted:
every statement ending in `;` that is not a declaration (`.reg`, `.shared`,
`.param`, `.local`) and not a label. The upstream cp.async kernels commit one
group per kernel, while acopy commits one per copy (its contract counts
pending copies), so the upstream count is given one `cp.async.commit_group`
per copy for the comparison, as the printed line says. Prints one line per
route: `ROUTE acopy A (a/copy) upstream U (u/copy) ratio R`.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
import compile_speed  # noqa: E402
from check_ptxas import mlir_string  # noqa: E402  (decodes gpu.binary's assembly strings)

ASSEMBLY = re.compile(r'assembly = "((?:[^"\\]|\\.)*)"')
DECLARATION = re.compile(r"^\s*\.(reg|shared|param|local|const|global)\b")
LABEL = re.compile(r"^\s*\$?[A-Za-z_][\w$]*:\s*$")


def count(ptx):
    """Instructions inside `.entry` bodies, and the number of commit_group among them."""
    total = commits = 0
    depth = 0
    in_entry = False
    for line in ptx.splitlines():
        stripped = line.split("//")[0].strip()
        if stripped.startswith(".entry") or stripped.startswith(".visible .entry"):
            in_entry = True
        if in_entry and "{" in stripped:
            depth += stripped.count("{")
            continue
        if in_entry and "}" in stripped:
            depth -= stripped.count("}")
            if depth == 0:
                in_entry = False
            continue
        if depth > 0 and stripped.endswith(";") and not DECLARATION.match(stripped) and not LABEL.match(stripped):
            total += 1
            if "cp.async.commit_group" in stripped:
                commits += 1
    return total, commits


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}\n{result.stderr[-2000:]}")
    return result.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kernels", type=int, default=10)
    parser.add_argument("--per-kernel", type=int, default=100)
    parser.add_argument("--acopy-opt", default="target/release/acopy-opt")
    args = parser.parse_args()
    n = args.kernels * args.per_kernel
    with tempfile.TemporaryDirectory() as tmp:
        for path in ("cpasync", "tma"):
            for start in ("static", "dynamic"):
                ours = os.path.join(tmp, "acopy.mlir")
                ref = os.path.join(tmp, "upstream.mlir")
                with open(ours, "w") as f:
                    f.write(compile_speed.acopy_input(n, path, start, args.per_kernel))
                with open(ref, "w") as f:
                    f.write(compile_speed.upstream_input(n, path, start, args.per_kernel))
                a_cmd, u_cmd = compile_speed.commands(path, "ptx", args.acopy_opt, ours, ref)
                acopy, _ = count(run(a_cmd))
                upstream_ptx = "\n".join(mlir_string(blob) for blob in ASSEMBLY.findall(run(u_cmd)))
                upstream, upstream_commits = count(upstream_ptx)
                note = ""
                if path == "cpasync":
                    added = n - upstream_commits
                    upstream += added
                    note = f" (+{added} commit_group: one per copy)"
                print(f"{path}-{start} acopy {acopy} ({acopy / n:.2f}/copy) upstream {upstream} "
                      f"({upstream / n:.2f}/copy){note} ratio {acopy / upstream:.2f}", flush=True)


if __name__ == "__main__":
    main()
