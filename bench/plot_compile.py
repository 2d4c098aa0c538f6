#!/usr/bin/env python3
"""Plots compile time per copy against the number of copies, acopy and upstream.

Usage: bench/plot_compile.py OUT.png RESULTS.jsonl [RESULTS.jsonl ...]
Only pass-level cells (`lower`) are drawn; to-PTX cells are left out.
The inputs are what `bench/compile.sh` appends with COMPILE_JSON=FILE (one JSON
object per cell: path, start, level, copies, CPU seconds of both tools). One
line per route and tool: acopy solid, upstream dashed, CPU µs per copy on the
y axis, copies (log scale) on the x axis. A flat line is linear scaling.
Needs matplotlib (pip install matplotlib); only the bench plots use it.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out, sources = sys.argv[1], sys.argv[2:]
    cells = {}
    for source in sources:
        with open(source) as f:
            for line in f:
                if line.strip():
                    cell = json.loads(line)
                    if cell["level"] != "lower":
                        continue
                    key = (cell["path"], cell["start"], cell["level"])
                    # A later file's measurement of the same size replaces an earlier one.
                    cells.setdefault(key, {})[cell["copies"]] = cell
    fig, ax = plt.subplots(figsize=(8, 5))
    for index, (key, by_size) in enumerate(sorted(cells.items())):
        sizes = sorted(by_size)
        color = f"C{index}"
        label = " ".join(key[:2])
        ax.plot(sizes, [by_size[n]["acopy_cpu_s"] / n * 1e6 for n in sizes], "o-", color=color,
                label=f"acopy {label}")
        ax.plot(sizes, [by_size[n]["upstream_cpu_s"] / n * 1e6 for n in sizes], "s--", color=color,
                label=f"upstream {label}")
    ax.set_xscale("log")
    ax.set_xlabel("copies in the module")
    ax.set_ylabel("CPU µs per copy")
    ax.set_ylim(bottom=0)
    ax.set_title("Compile time per copy (acopy-opt --acopy-lower vs mlir-opt --convert-nvgpu-to-nvvm)")
    ax.legend(fontsize=7)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
