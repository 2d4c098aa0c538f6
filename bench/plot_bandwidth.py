#!/usr/bin/env python3
"""Plots ratio_to_copy against the tile shape, per path, from the GPU suite's JSON.

Usage: bench/plot_bandwidth.py [bench/results/gpu-h200.json] [bench/results/bandwidth.png]
Needs matplotlib (pip install matplotlib); only this script uses it.

The reference compiler's points are its measurements on an H200 recorded on
2026-11-30 (the numbers below), as ratios to the device copy
measured in that run (4244 GB/s): its TMA 2-D tile kernels and its cp.async
kernels, whose tiles were 1-D; those are drawn at the 2-D tile of equal bytes
(32 KiB = 64x128 f32, 16 KiB = 32x128 f32).
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

REFERENCE_COPY_GBPS = 4244.0
REFERENCE = {
    "tma": {"64x128": 4047.0, "128x128": 4028.0},
    "cp_async": {"64x128": 3956.0, "32x128": 4016.0},
}
TILES = ["32x128", "64x128", "128x128", "64x256"]


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else "bench/results/gpu-h200.json"
    target = sys.argv[2] if len(sys.argv) > 2 else "bench/results/bandwidth.png"
    results = json.load(open(source))
    rows = [row for row in results["bandwidth"] if row.get("tile")]
    copy = next(row for row in results["bandwidth"] if row["kernel"] == "device_copy")
    figure, axes = plt.subplots(figsize=(7, 4.2))
    axes.axhline(1.0, color="black", linewidth=1,
                 label=f"device-to-device copy ({copy['gbps']:.0f} GB/s = 1.0)")
    styles = {"tma": ("tab:blue", "o"), "cp_async": ("tab:orange", "s")}
    for kernel, (color, marker) in styles.items():
        points = sorted(((TILES.index(r["tile"]), r["ratio_to_copy"]) for r in rows if r["kernel"] == kernel))
        axes.plot([x for x, _ in points], [y for _, y in points], marker=marker, color=color,
                  label=f"acopy {kernel.replace('_', '.')}")
        reference = REFERENCE[kernel]
        axes.scatter([TILES.index(t) for t in reference], [g / REFERENCE_COPY_GBPS for g in reference.values()],
                     marker="x", s=70, color=color, label=f"reference compiler {kernel.replace('_', '.')}")
    checked = [r for r in rows if r["kernel"] == "tma_dyn_start"]
    if checked:
        axes.scatter([TILES.index(r["tile"]) for r in checked], [r["ratio_to_copy"] for r in checked],
                     marker="^", s=60, color="tab:green", label="acopy tma, run-time start check", zorder=3)
    axes.axhline(0.97, color="tab:blue", linestyle=":", linewidth=1, label="goal TMA 0.97")
    axes.axhline(0.96, color="tab:orange", linestyle=":", linewidth=1, label="goal cp.async 0.96")
    axes.set_xticks(range(len(TILES)), [f"{t} f32" for t in TILES])
    axes.set_xlabel("tile shape")
    axes.set_ylabel("bandwidth / device copy")
    axes.set_ylim(0.9, 1.01)
    axes.set_title(f"1 GiB f32 streamed through shared memory, {results['device']}, {results['date'][:10]}")
    axes.legend(fontsize=7, loc="lower right")
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(target, dpi=120)
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
