#!/usr/bin/env python3
"""Scores a chooser against a sweep record: at each swept shape, the TFLOP/s of the build
it picks over the best build's, and their geometric mean and minimum (what the choosers'
docstrings quote). A GEMM record (shapes M x N x K) scores examples/gemm/choose.py's cost
model (its pick among the record's builds), an attention record (B x H x S x D, causal) examples/attention/choose.py's rule,
among the bf16-out builds (a shape whose pick the record did not time is named and left out). Needs no GPU.
It also prints the pick's TFLOP/s over the anchor's (cuBLAS for GEMM, SDPA's cuDNN backend
for attention) at the scored shapes: their geometric mean and minimum.

A record of builds compiled by several compilers (bench/tc_sweep_build.py --tag: rows named
NAME@TAG) is scored with --tags=A,B,...: each build's row of the first of those tags it was
timed with, as NAME; rows of other tags are left out.

Usage: python3 bench/choose_score.py [bench/results/gemm-sweep.json ...] [--all] [--tags=old,new]
(--all: every shape's line, not only those below 0.9)
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'examples', 'gemm'))
import choose  # noqa: E402
import tc_sweep_shapes  # noqa: E402  (it loads examples/attention/choose.py)


def untagged(rows, tags):
    """The rows with NAME@TAG read as NAME, each (shape, NAME) from the first of `tags` it has
    a row of; untagged rows as they are, rows of tags not in `tags` left out."""
    chosen = {}
    for row in rows:
        name, tag = tc_sweep_shapes.split_tag(row['build'])
        rank = tags.index(tag) if tag in tags else (-1 if not tag else None)
        key = (tuple(row['shape']), name)
        if rank is not None and (key not in chosen or rank < chosen[key][0]):
            chosen[key] = (rank, dict(row, build=name))
    return [row for _, row in chosen.values()]


def picks(path, tags=()):
    """[(shape, the chooser's pick, {build: bf16-out row})] for one sweep record."""
    with open(path) as f:
        record = json.load(f)
    timed = {}
    for row in untagged(record['rows'], list(tags)):
        if row.get('tflops') and row.get('out_dtype', 'bf16') == 'bf16':
            timed.setdefault(tuple(row['shape']), {})[row['build']] = row
    result = []
    for shape, builds in timed.items():
        if len(shape) == 5:
            b, h, s, d, causal = shape
            # A build added since the record was swept may be the pick: not scored then.
            pick = tc_sweep_shapes.attention_choose.choose(b * h, s, d, causal)
        else:
            # Among the record's builds: a build added since it was swept is not scored.
            pick, _ = choose.choose(*shape, out='bf16', among=set(builds))
        result.append((shape, pick, builds))
    return result


def score(path, tags=()):
    """[(shape, the pick, its fraction of the best; None where the record did not time it)]."""
    return [(shape, pick, builds[pick]['tflops'] / max(r['tflops'] for r in builds.values()) if pick in builds else None)
            for shape, pick, builds in picks(path, tags)]


def to_anchor(path, tags=()):
    """[(shape, the pick, its row's ratio_to_cublas or ratio_to_cudnn)] at the shapes whose
    pick the record timed against its anchor."""
    result = []
    for shape, pick, builds in picks(path, tags):
        row = builds.get(pick, {})
        ratio = row.get('ratio_to_cublas', row.get('ratio_to_cudnn'))
        if ratio:
            result.append((shape, pick, ratio))
    return result


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


def main():
    paths = [arg for arg in sys.argv[1:] if not arg.startswith('--')] or ['bench/results/gemm-sweep.json']
    tags = next((arg.split('=', 1)[1].split(',') for arg in sys.argv[1:] if arg.startswith('--tags=')), [])
    for path in paths:
        rows = score(path, tags)
        unscored = [(shape, pick) for shape, pick, fraction in rows if fraction is None]
        for shape, pick in unscored:
            print(f'{path}: {"x".join(map(str, map(int, shape)))}: {pick} not in the record, not scored')
        rows = [row for row in rows if row[2] is not None]
        for shape, pick, fraction in rows:
            if fraction < 0.9 or '--all' in sys.argv:
                print(f'{path}: {"x".join(map(str, map(int, shape)))}: {pick} at {fraction:.3f} of the best')
        fractions = [max(fraction, 1e-3) for _, _, fraction in rows]
        print(f'{path}: the chooser\'s pick at {geomean(fractions):.3f} of the best build (geomean), '
              f'min {min(fractions):.3f}, {len(rows)} shapes')
        ratios = [ratio for _, _, ratio in to_anchor(path, tags)]
        if ratios:
            print(f'{path}: the chooser\'s pick at {geomean(ratios):.3f} of the anchor (geomean), '
                  f'min {min(ratios):.3f}, {len(ratios)} shapes')


if __name__ == '__main__':
    main()
