#!/usr/bin/env python3
"""Merges one pipelined-loop device session into bench/results/pipeline-h200.json.

Inputs (bench/RESULTS.md, "pipelined loops", says which run gave which):
  --cases      acopy-gpu-pipeline's JSON with the exactness matrix (cases[])
  --bandwidth  acopy-gpu-pipeline's JSON with bandwidth[] (and the device copy)
  --anchors    JSON files with anchors[] (pipeline_anchors.py, pipeline_anchors_pallas.py,
               bench/upstream_pipeline/run.py), all from the bandwidth's run
  --ptxas      tests/gpu/pipeline/ptx/ptxas-v.log (registers, spills per module)
  --upstream-compile  bench/upstream_pipeline/ptx/results.txt (what upstream refused)
The reference of a kernel is its fastest anchor configuration; every bandwidth row
gets ratio_to_reference. tile_bytes counts all tiles a stage copies (the axpy's two
inputs), in acopy's rows and the anchors' alike (runs before the tile-size benchmark
recorded one axpy input). The tile-size matrix has its own merge,
bench/pipeline_tiles_merge.py. Prints the tables and the goals as Markdown.
"""
import argparse
import json
import re
from collections import defaultdict


def ptxas_rows(path):
    rows, module = [], None
    for line in open(path):
        if line.startswith("== "):
            module = line[3:].strip()
        found = re.search(r"Used (\d+) registers", line)
        if found and module:
            rows.append({"module": module, "registers": int(found.group(1))})
        spill = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if spill and module:
            pending = {"spill_stores": int(spill.group(1)), "spill_loads": int(spill.group(2))}
            rows.append({"module": module, **pending})
    merged = defaultdict(dict)
    for row in rows:
        merged[row["module"]].update(row)
    return list(merged.values())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", required=True)
    ap.add_argument("--bandwidth", required=True)
    ap.add_argument("--anchors", nargs="+", required=True)
    ap.add_argument("--ptxas", required=True)
    ap.add_argument("--upstream-compile")
    ap.add_argument("--out", default="bench/results/pipeline-h200.json")
    args = ap.parse_args()
    cases_run = json.load(open(args.cases))
    bw_run = json.load(open(args.bandwidth))
    anchors = []
    for path in args.anchors:
        anchors += [a for a in json.load(open(path))["anchors"] if a.get("exact", True)]
    reference = {}
    for kernel in ("pipe_reduce", "pipe_axpy"):
        best = max((a for a in anchors if a["kernel"] == kernel), key=lambda a: a["gbps"])
        reference[kernel] = best["gbps"]
        reference[kernel + "_anchor"] = {k: best[k] for k in ("name", "stages", "blocks_per_sm", "tile_bytes") if k in best}
    bandwidth = []
    for row in bw_run["bandwidth"]:
        ref = reference["pipe_reduce" if row["kernel"] == "pipe_reduce" else "pipe_axpy"]
        bandwidth.append({**row, "ratio_to_reference": row["gbps"] / ref})
    out = {
        "date": "2026-12-02",
        "device": bw_run["device"],
        "seed": cases_run["seed"],
        "cases_run": {"child_processes": cases_run.get("child_processes"), "seconds": cases_run.get("cases_seconds")},
        "cases": [{k: c[k] for k in ("name", "path", "stages", "trips", "exact", "lb", "step", "block")} for c in cases_run["cases"]],
        "bandwidth": bandwidth,
        "device_copy_gbps": bw_run["device_copy_gbps"],
        "anchors": anchors,
        "reference": reference,
        "ptxas": ptxas_rows(args.ptxas),
    }
    if args.upstream_compile:
        out["upstream_compile"] = open(args.upstream_compile).read().splitlines()
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
    report(out)


def best_acopy(out, kernel, path, stages, bps):
    rows = [r for r in out["bandwidth"] if r["kernel"] == kernel and r["path"] == path
            and r["stages"] == stages and r["blocks_per_sm"] == bps]
    return max((r["gbps"] for r in rows), default=None)


def best_anchor(out, kernel, prefix, stages, bps, tile=None):
    rows = [a for a in out["anchors"] if a["kernel"] == kernel and a["name"].startswith(prefix)
            and a["stages"] == stages and a["blocks_per_sm"] == bps and (tile is None or a["tile_bytes"] == tile)]
    return max((a["gbps"] for a in rows), default=None)


def fmt(v):
    return "—" if v is None else f"{v:.0f}"


def report(out):
    exact = sum(c["exact"] for c in out["cases"])
    print(f"cases: {exact} of {len(out['cases'])} exact")
    print(f"reference: {out['reference']}")
    print("\n| kernel | path | blocks/SM | threads | S=1 | S=2 | S=3 | S=4 | S=3 / S=1 | S=3 / reference |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    table = defaultdict(dict)
    for r in out["bandwidth"]:
        table[(r["kernel"], r["path"], r["blocks_per_sm"], r["block"])][r["stages"]] = r
    for key in sorted(table):
        v = table[key]
        print(f"| {key[0]}{'' if 'store' not in key[0] else ''} | {key[1]} | {key[2]} | {key[3]} | "
              + " | ".join(fmt(v[s]["gbps"]) for s in (1, 2, 3, 4))
              + f" | {v[3]['gbps'] / v[1]['gbps']:.2f} | {v[3]['ratio_to_reference']:.2f} |")
    print("\n| kernel | S | blocks/SM | acopy TMA | acopy cp.async | Triton same tile | Triton 32 KiB | Pallas same tile | Pallas 32 KiB | upstream cp.async | TMA / best of Triton, Pallas (same tile) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for kernel, tile in (("pipe_reduce", 8192), ("pipe_axpy", 8192)):
        for bps in (1, 2):
            for s in (1, 2, 3, 4):
                tma = best_acopy(out, kernel, "tma", s, bps)
                cpa = best_acopy(out, kernel, "cp_async", s, bps)
                tri = best_anchor(out, kernel, "triton", s, bps, tile)
                tri32 = best_anchor(out, kernel, "triton", s, bps, 32768)
                pal = best_anchor(out, kernel, "pallas", s, bps, tile)
                pal32 = best_anchor(out, kernel, "pallas", s, bps, 32768)
                up = best_anchor(out, kernel, "upstream", s, bps)
                peers = [x for x in (tri, pal) if x]
                ratio = f"{tma / max(peers):.2f}" if peers and tma else "—"
                print(f"| {kernel} | {s} | {bps} | {fmt(tma)} | {fmt(cpa)} | {fmt(tri)} | {fmt(tri32)} | {fmt(pal)} | {fmt(pal32)} | {fmt(up)} | {ratio} |")


if __name__ == "__main__":
    main()
