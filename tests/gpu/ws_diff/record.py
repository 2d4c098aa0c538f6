#!/usr/bin/env python3
"""Rebuilds the differential test's record from what acopy-gpu-ws-diff printed.

The runner writes --results-json on the GPU machine; when that file cannot come
back (a device call returns a limited number of files), its log carries the same
facts: one line `<name> <result>: <detail>` per kernel and the `ws-diff: {summary}`
line. This joins them with the kernels' features from cases.json into the record
`{cases: [{name, path, features, result, detail?}], summary}`.

Usage: record.py LOG CASES_JSON OUT_JSON --card NAME --date YYYY-MM-DD --command CMD
Exits 1 when the log lacks a kernel of cases.json or its summary disagrees with
the per-kernel lines.
"""
import argparse
import json
import re
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log")
    parser.add_argument("cases")
    parser.add_argument("out")
    parser.add_argument("--card", required=True)
    parser.add_argument("--date", required=True)
    parser.add_argument("--command", required=True)
    args = parser.parse_args()
    cases = json.load(open(args.cases))["cases"]
    results, summary = {}, None
    for line in open(args.log):
        line = line.rstrip("\n")
        if line.startswith("ws-diff: "):
            summary = json.loads(line[len("ws-diff: "):])
            continue
        found = re.match(r"^(wsd\d+_\w+) (match|mismatch|hang|error|refused): ?(.*)$", line)
        if found:
            results[found.group(1)] = (found.group(2), found.group(3))
    missing = [case["name"] for case in cases if case["name"] not in results]
    if missing or summary is None:
        sys.exit(f"record.py: the log lacks {len(missing)} kernels{' and the summary' if summary is None else ''}")
    rows = []
    for case in cases:
        result, detail = results[case["name"]]
        row = {"name": case["name"], "path": case["path"], "features": case["features"],
               "trips": case["trips"], "result": result}
        if detail:
            row["detail"] = detail
        rows.append(row)
    for result in ("match", "mismatch", "hang", "error", "refused"):
        counted = sum(1 for row in rows if row["result"] == result)
        if counted != summary[result]:
            sys.exit(f"record.py: the summary says {summary[result]} {result}, the lines {counted}")
    record = {
        "date": args.date,
        "card": args.card,
        "command": args.command,
        "builds": ["marked", "s1", "unmarked"],
        "cases": rows,
        "summary": summary,
    }
    with open(args.out, "w") as handle:
        json.dump(record, handle, indent=1)
    print(f"record.py: {len(rows)} kernels, {summary['match']} match -> {args.out}")


if __name__ == "__main__":
    main()
