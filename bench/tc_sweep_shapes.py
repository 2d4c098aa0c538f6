"""The shapes and builds of the tensor-core sweep (issue 39): bench/tc_sweep_build.py
builds them here, bench/tc_sweep.py checks and times them on the GPU machine.

GEMM: out = A Bᵀ, A M x K, B N x K (K-major), bf16 in; M and N 512..16384, K 256..16384,
ragged shapes (M, N not multiples of the 128 or 256 tile; K not a multiple of the
64-wide K step) among them, and the issue's shapes (marked). The builds are
examples/gemm/choose.py's BUILDS (one list for the chooser and the sweep).

Attention: (batch, heads, seq, d, causal), bf16 in; acopy's kernel takes batch x heads
folded (BH x S x D, the same bytes as SDPA's contiguous B x H x S x D) and writes bf16 (f32
for the issue's table kernel). The builds are examples/attention/choose.py's BUILDS.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'examples', 'gemm'))
from choose import BUILDS as GEMM_BUILDS  # noqa: E402,F401
# examples/attention/choose.py as a module of the examples folder (`choose` alone is the GEMM's).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'examples'))
from attention import choose as attention_choose  # noqa: E402

# The issue's shapes first (GEMM vs cuBLAS), then the sweep.
ISSUE_GEMM = [(8192, 8192, 8192), (4096, 4096, 4096), (8000, 8000, 8000), (16384, 16384, 1024),
              (8192, 8192, 512), (3000, 5000, 1000)]
GEMM_SHAPES = ISSUE_GEMM + [
    (512, 512, 512), (512, 512, 16384), (512, 8192, 8192), (1024, 1024, 1024), (1024, 1024, 8192),
    (1024, 16384, 4096), (2048, 2048, 256), (2048, 2048, 2048), (4096, 4096, 256), (4096, 4096, 1024),
    (4096, 4096, 16384), (8192, 8192, 2048), (16384, 1024, 4096), (16384, 4096, 4096),
    (16384, 16384, 256), (16384, 16384, 4096),
    # ragged
    (1000, 1000, 1000), (5000, 3000, 1000), (4000, 4000, 4000), (6000, 10000, 3000),
    (2000, 14000, 520), (12000, 12000, 2000),
]

# (batch, heads, seq, d, causal)
ATTN_SHAPES = [
    (1, 32, 4096, 64, False), (1, 32, 4096, 64, True), (1, 32, 4096, 128, False), (1, 32, 4096, 128, True),
    (1, 128, 512, 64, False), (1, 128, 512, 128, True), (4, 32, 1024, 64, True), (4, 32, 1024, 128, False),
    (2, 32, 2048, 64, False), (2, 32, 2048, 128, True), (1, 16, 8192, 64, True), (1, 16, 8192, 128, False),
    (1, 8, 16384, 64, False), (1, 8, 16384, 128, True),
    # ragged sequence lengths
    (1, 32, 1000, 64, True), (1, 16, 3000, 128, False), (1, 8, 5000, 128, True), (2, 64, 1500, 64, False),
]

# The attention builds and their gen.py flags are examples/attention/choose.py's (its
# docstring says what each is); the sweep times every one.
ATTN_BUILDS = attention_choose.BUILDS


def attn_gen_args(build):
    """examples/attention/gen.py's flags after BH S D for `build`."""
    return attention_choose.options(build)


def gemm_name(m, n, k, build):
    """The module gen.py writes: gemm_bf16_MxNxK, _ob16 for a bf16 out."""
    return f'gemm_bf16_{m}x{n}x{k}' + ('_ob16' if GEMM_BUILDS[base_build(build)]['out'] == 'bf16' else '')


def attn_name(b, h, s, d, causal):
    return f'attn_bf16_{b * h}x{s}x{d}' + ('_causal' if causal else '')


def tagged(build, tag):
    """The swept name of `build` compiled by the acopy-opt tagged `tag`
    (bench/tc_sweep_build.py --tag: the same build timed beside another compiler's in one
    process): NAME@TAG, or NAME with no tag."""
    return f'{build}@{tag}' if tag else build


def split_tag(name):
    """(NAME, TAG) of a swept name NAME@TAG, (NAME, '') of an untagged one."""
    build, _, tag = name.partition('@')
    return build, tag


def base_build(name):
    """The build a swept name stands for: NAME of NAME@TAG."""
    return split_tag(name)[0]


def gemm_flops(m, n, k):
    return 2.0 * m * n * k


def attn_flops(b, h, s, d, causal):
    """4 B H S^2 D (Q Kᵀ and P V), half when causal: the convention of SDPA benchmarks,
    the same for acopy and the anchors."""
    return 4.0 * b * h * s * s * d * (0.5 if causal else 1.0)


def shape_key(shape):
    return 'x'.join(str(int(v)) for v in shape[:4] if not isinstance(v, bool)) + ('c' if len(shape) == 5 and shape[4] else '')


def pick(kind_shapes, first_n, keys):
    """The shapes of one kind a build or a run takes: the first `first_n` (all when None),
    then, when `keys` (shape_key names) are given, only those, in the order named, so that a
    run its budget cuts short has timed the shapes named first. A key that no shape of
    either kind has is an error, not a silently smaller run."""
    chosen = kind_shapes[:first_n] if first_n else list(kind_shapes)
    if not keys:
        return chosen
    known = {shape_key(s) for s in GEMM_SHAPES + ATTN_SHAPES}
    unknown = [k for k in keys if k not in known]
    if unknown:
        raise ValueError(f'--shape {unknown[0]}: no sweep shape has this name (bench/tc_sweep_shapes.py)')
    by_key = {shape_key(s): s for s in chosen}
    return [by_key[k] for k in dict.fromkeys(keys) if k in by_key]
