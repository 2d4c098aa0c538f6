"""Gathers bench/python-gpu.sh's output folder into python-h200.json
({date, device, cases: [{name, path, framework, exact, wrong, elements}],
launch_overhead_us: {acopy, rust, triton}, launch_overhead: the details}) and
python-h200.md (the same as markdown tables), in that folder.
Exits 1 unless every case is exact."""

import datetime
import json
import sys
from pathlib import Path


def main(folder):
    folder = Path(folder)
    cases = [json.loads(p.read_text()) for p in sorted((folder / "python-cases").glob("*.json"))]
    overhead_file = folder / "launch-overhead.json"
    overhead = json.loads(overhead_file.read_text()) if overhead_file.exists() else {}
    result = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "device": overhead.get("device"),
        "cases": cases,
        "launch_overhead_us": overhead.get("launch_overhead_us"),
        "launch_overhead": overhead,
    }
    (folder / "python-h200.json").write_text(json.dumps(result, indent=2) + "\n")
    lines = ["| case | path | framework | exact | wrong / elements |", "|---|---|---|---|---|"]
    for c in cases:
        lines.append(f"| {c['name']} | {c['path']} | {c['framework']} | {c['exact']} | {c['wrong']} / {c['elements']} |")
    if overhead:
        lines += ["", "| launcher | median µs per launch | mean µs |", "|---|---|---|"]
        for name in ("acopy", "acopy_tma_cached_maps", "rust", "triton"):
            row = overhead.get(name, {})
            if "median_us" in row:
                lines.append(f"| {name} | {row['median_us']:.2f} | {row['mean_us']:.2f} |")
            else:
                lines.append(f"| {name} | {row.get('error', 'not run')} | |")
    (folder / "python-h200.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0 if cases and all(c["exact"] for c in cases) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
