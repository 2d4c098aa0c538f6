#!/usr/bin/env python3
"""Plots the tensor-core sweep's records (bench/tc_sweep.py): TFLOP/s per shape of acopy's
best build next to the anchors (cuBLAS; SDPA flash and cuDNN), shapes in order of their
FLOPs, as SVG written by hand (no matplotlib needed).

Usage: python3 bench/plot_tc_sweep.py DIR [--out DIR]   (DIR holds gemm-sweep.json and/or
attention-sweep.json; writes gemm-sweep.svg, attention-sweep.svg)
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tc_sweep_shapes as shapes  # noqa: E402

COLORS = {'acopy': '#d62728', 'cublas': '#1f77b4', 'sdpa_flash': '#2ca02c', 'sdpa_cudnn': '#1f77b4',
          'acopy (model pick)': '#ff9896'}


def series_of(kind, record):
    entries = sorted(record['shapes'], key=lambda e: shapes.gemm_flops(*e['shape']) if kind == 'gemm' else shapes.attn_flops(*e['shape']))
    labels = [shapes.shape_key(e['shape']) for e in entries]
    series = {'acopy': [e.get('best_tflops') for e in entries]}
    if kind == 'gemm':
        rows = {(shapes.shape_key(r['shape']), r['build']): r for r in record['rows'] if r.get('tflops')}
        series['acopy (model pick)'] = [(rows.get((shapes.shape_key(e['shape']), e.get('model_pick'))) or {}).get('tflops') for e in entries]
    for name in (['cublas'] if kind == 'gemm' else ['sdpa_flash', 'sdpa_cudnn']):
        series[name] = [(e['anchors'].get(name) or {}).get('tflops') for e in entries]
    return labels, series


def svg(title, labels, series, ylabel='TFLOP/s'):
    w, h, left, right, top, bottom = max(640, 34 * len(labels) + 120), 420, 60, 20, 40, 130
    values = [v for s in series.values() for v in s if v]
    ymax = max(values or [1]) * 1.1
    x = lambda i: left + (i + 0.5) * (w - left - right) / max(len(labels), 1)  # noqa: E731
    y = lambda v: top + (h - top - bottom) * (1 - v / ymax)  # noqa: E731
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">',
           f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14">{title}</text>',
           f'<line x1="{left}" y1="{y(0)}" x2="{w - right}" y2="{y(0)}" stroke="black"/>',
           f'<line x1="{left}" y1="{top}" x2="{left}" y2="{y(0)}" stroke="black"/>',
           f'<text x="14" y="{(top + y(0)) / 2}" transform="rotate(-90 14 {(top + y(0)) / 2})" text-anchor="middle">{ylabel}</text>']
    step = 10 ** len(str(int(ymax / 5))) / 10 * (5 if ymax / 5 > 10 ** len(str(int(ymax / 5))) / 2 else 1)
    tick = 0.0
    while tick <= ymax and step > 0:
        out.append(f'<line x1="{left - 4}" y1="{y(tick):.1f}" x2="{w - right}" y2="{y(tick):.1f}" stroke="#ddd"/>'
                   f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:g}</text>')
        tick += step
    for i, label in enumerate(labels):
        out.append(f'<text x="{x(i):.1f}" y="{y(0) + 8}" transform="rotate(60 {x(i):.1f} {y(0) + 8})">{label}</text>')
    for j, (name, vals) in enumerate(series.items()):
        color = COLORS.get(name, '#7f7f7f')
        points = [(x(i), y(v)) for i, v in enumerate(vals) if v]
        if len(points) > 1:
            out.append(f'<polyline fill="none" stroke="{color}" stroke-width="1.5" points="' +
                       ' '.join(f'{px:.1f},{py:.1f}' for px, py in points) + '"/>')
        for px, py in points:
            out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" fill="{color}"/>')
        out.append(f'<rect x="{left + 10 + 150 * j}" y="{h - 18}" width="10" height="10" fill="{color}"/>'
                   f'<text x="{left + 24 + 150 * j}" y="{h - 9}">{name}</text>')
    out.append('</svg>')
    return '\n'.join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('dir')
    parser.add_argument('--out')
    args = parser.parse_args()
    out = args.out or args.dir
    made = 0
    for kind in ('gemm', 'attention'):
        path = os.path.join(args.dir, f'{kind}-sweep.json')
        if not os.path.exists(path):
            continue
        record = json.load(open(path))
        labels, series = series_of(kind, record)
        card = (record.get('card') or {}).get('name', '')
        title = f'{"GEMM bf16 in, bf16 out" if kind == "gemm" else "attention forward, bf16 in"}: acopy best build vs anchors ({card})'
        with open(os.path.join(out, f'{kind}-sweep.svg'), 'w') as f:
            f.write(svg(title, labels, series))
        made += 1
    if not made:
        sys.exit(f'plot_tc_sweep.py: no *-sweep.json in {args.dir}')


if __name__ == '__main__':
    main()
