"""The MLIR text a frontend writes for acopy, one function per construct: the kernel
skeleton, constants, fresh names, the acopy ops (copy, wait, barrier, descriptor,
swizzled index) and the marked loop, plus the two tensor-core steps the examples share
(mma.sync and wgmma). Every generator of examples/ (gemm/gen.py, gemm/mma_sync.py,
gemm/minimal.py, attention/gen.py) and bench/mma_peak.py builds its text with these,
so each construct is spelled once.

Each function returns text without indentation (or a list of lines, where a construct
is several); the caller places it. docs/dialect.md has the ops' syntax.
"""

THREADS_ATTRIBUTE = 'gpu.known_block_size'
BARRIER = 'memref<1xi64, 3>'


def require(condition, limit):
    """Refuses what a generator cannot build (an option it does not take, options it does
    not combine): ValueError naming the limit, which each generator's main prints as
    `gen.py: error: <limit>` with exit status 1 and nothing written. A raise rather than
    an assert, so that `python -O` refuses the same inputs."""
    if not condition:
        raise ValueError(limit)


def struct(fields, element='f32'):
    """An LLVM struct of `fields` values: wgmma's accumulator type."""
    return '!llvm.struct<(' + ', '.join([element] * fields) + ')>'


# --- the kernel skeleton ---------------------------------------------------------

def kernel(comment, name, chip, args, threads, workgroup=(), attributes=''):
    """The first three lines of a module holding one kernel: `// comment`, the gpu.module
    for `chip`, and the gpu.func `name` with its arguments and workgroup (shared memory)
    attributions as (name, type) pairs, its block size and more `attributes` (text after
    the block size, starting with a comma). Close it with `end_kernel()`."""
    params = ', '.join(f'{arg}: {type_}' for arg, type_ in args)
    shared = ''
    if workgroup:
        shared = ' workgroup(' + ', '.join(f'{arg}: {type_}' for arg, type_ in workgroup) + ')'
    return [
        f'// {comment}',
        f'gpu.module @{name} [#nvvm.target<chip = "{chip}">] {{',
        f'  gpu.func @{name}({params}){shared} kernel attributes '
        f'{{{THREADS_ATTRIBUTE} = array<i32: {threads}, 1, 1>{attributes}}} {{',
    ]


def end_kernel():
    """The lines that close `kernel()`'s function and module, and the file's last newline."""
    return ['    gpu.return', '  }', '}', '']


def constants(values, indent='    ', prefix='%c'):
    """`%c<v> = arith.constant <v> : index` for each value, in the order given."""
    return [f'{indent}{prefix}{value} = arith.constant {value} : index' for value in values]


def constant(name, value, type_='index'):
    return f'{name} = arith.constant {value} : {type_}'


class Names:
    """Lines of a kernel body with fresh SSA names: `op('arith.addi ...', 'x')` appends
    `%x<n> = arith.addi ...` and returns `%x<n>`."""

    def __init__(self):
        self.lines = []
        self.count = 0

    def fresh(self, stem):
        self.count += 1
        return f'%{stem}{self.count}'

    def emit(self, text, indent=4):
        self.lines.append(' ' * indent + text)

    def op(self, text, stem='x', indent=4):
        name = self.fresh(stem)
        self.emit(f'{name} = {text}', indent)
        return name


# --- the acopy ops -------------------------------------------------------------

def copy(src, at, tile, src_type, tile_type, oob='promise_in_bounds', swizzle=0, collective=None,
         barrier=None):
    """Copies the window of `src` at indices `at` (text: '%i, %j') into the shared `tile`.
    oob: 'promise_in_bounds' or 'zeros' (zero-fill what lies outside src); swizzle: 0, 32,
    64 or 128 (TMA's pattern, on both paths); collective: multicast axes ('"x"');
    barrier: the mbarrier a TMA copy outside a marked loop completes on."""
    attributes = f'oob_mode = "{oob}"'
    if swizzle:
        attributes += f', swizzle = {swizzle} : i64'
    if collective:
        attributes += f', collective_axes = [{collective}]'
    on = f' barrier({barrier} : {BARRIER})' if barrier else ''
    return f'acopy.copy_gmem_to_smem {src}[{at}] -> {tile}{on} {{{attributes}}} : {src_type} -> {tile_type}'


def wait(pending=0):
    """Waits until at most `pending` copies of this thread's block are in flight."""
    return f'acopy.wait_gmem_to_smem {{pending = {pending} : i64}}'


def barrier_init(barrier, arrivals=1):
    return f'acopy.barrier_init {barrier} {{arrival_count = {arrivals} : i64}} : {BARRIER}'


def barrier_wait(barrier, parity):
    return f'acopy.barrier_wait {barrier}, {parity} : {BARRIER}'


def descriptor(tile, k, tile_type, major=None):
    """The wgmma descriptor of `tile` at K offset `k` (an index value); major = 'mn' for a
    tile wgmma reads MN-major."""
    attribute = f' {{major = "{major}"}}' if major else ''
    return f'acopy.wgmma_descriptor {tile}[{k}]{attribute} : {tile_type}'


def swizzled_index(result, tile, at, tile_type):
    """`result`#0, #1: where logical (row, col) `at` of a swizzled tile is stored."""
    return f'{result}:2 = acopy.swizzled_index {tile}[{at}] : {tile_type}'


def pipelined_for(iv, lower, upper, step, stages, producer='block', results=None, iter_args=(),
                  types=(), producer_registers=0, release='thread'):
    """The opening and closing lines of an scf.for marked acopy.pipeline: the pass
    multi-buffers the copies of its body (docs/pipelining.md). stages: a count or 'auto';
    producer: 'block' (every thread copies), 'warp' or 'warpgroup' (a producer warp or
    warpgroup the pass adds); producer_registers: what a producer warpgroup's threads
    keep (0: the pass's default); release: 'warp' has each consumer warp release a slot
    with one arrive (with a producer; docs/pipelining.md, "Releases a warp at a time").
    iter_args: (name, initial value) pairs with their `types`; `results` names the loop's
    results (`%acc`, or `%acc:N` for several)."""
    request = '"auto"' if stages == 'auto' else f'{int(stages)} : i64'
    if producer != 'block':
        request += f', producer = "{producer}"'
    if producer_registers:
        request += f', producer_registers = {producer_registers} : i64'
    if release != 'thread':
        request += f', release = "{release}"'
    head = f'scf.for {iv} = {lower} to {upper} step {step}'
    if iter_args:
        carried = ', '.join(f'{name} = {init}' for name, init in iter_args)
        head += f' iter_args({carried}) -> ({", ".join(types)})'
    if results:
        head = f'{results} = {head}'
    return f'{head} {{', f'}} {{acopy.pipeline = {{stages = {request}}}}}'


# --- tensor-core steps ---------------------------------------------------------

MMA_ACC = 'vector<2x2xf32>'


def mma(lines, name, a, b, c, dtype, indent='      '):
    """Appends `name` = a b + c for one 16 x 8 x 16 mma.sync step: nvgpu.mma.sync for f16;
    for bf16, which MLIR 22's nvgpu.mma.sync cannot type, nvvm.mma.sync on the fragments'
    32-bit registers (pairs of bf16), its four f32 results packed back into the
    vector<2x2xf32> accumulator. `a` and `b` are the fragment vectors."""
    if dtype == 'f16':
        lines.append(f'{indent}{name} = nvgpu.mma.sync({a}, {b}, {c}) {{mmaShape = [16, 8, 16]}} : (vector<4x2xf16>, vector<2x2xf16>, {MMA_ACC}) -> {MMA_ACC}')
        return
    regs = []
    for vector, count in ((a, 4), (b, 2)):
        for r in range(count):
            tag = f'{name[1:]}_{vector[1:]}_{r}'
            lines += [
                f'{indent}%v{tag} = vector.extract {vector}[{r}] : vector<2xbf16> from vector<{count}x2xbf16>',
                f'{indent}%w{tag} = vector.bitcast %v{tag} : vector<2xbf16> to vector<1xi32>',
                f'{indent}%r{tag} = vector.extract %w{tag}[0] : i32 from vector<1xi32>',
            ]
            regs.append(f'%r{tag}')
    accs = []
    for h in range(2):
        for e in range(2):
            lines.append(f'{indent}{name}_c{h}{e} = vector.extract {c}[{h}, {e}] : f32 from {MMA_ACC}')
            accs.append(f'{name}_c{h}{e}')
    result = struct(4)
    lines.append(
        f'{indent}{name}_d = nvvm.mma.sync A[{", ".join(regs[:4])}] B[{", ".join(regs[4:])}] C[{", ".join(accs)}] '
        '{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, '
        f'multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}} : (i32, i32, f32) -> {result}')
    for r in range(4):
        lines.append(f'{indent}{name}_d{r} = llvm.extractvalue {name}_d[{r}] : {result}')
    lines.append(f'{indent}{name} = vector.from_elements {name}_d0, {name}_d1, {name}_d2, {name}_d3 : {MMA_ACC}')


def ldmatrix(tile, at, tile_type, tiles, dtype, transpose=False):
    """nvgpu.ldmatrix of `tiles` 8 x 8 matrices from `tile` at the lane's address `at`."""
    return (f'nvgpu.ldmatrix {tile}[{at}] {{numTiles = {tiles} : i32, transpose = {str(transpose).lower()}}} '
            f': {tile_type} -> vector<{tiles}x2x{dtype}>')


def wgmma(a, b, acc, n, dtype, acc_type, b_layout='<col>', accumulate=True):
    """One wgmma m64nNk16 from descriptors `a` and `b` into the f32 accumulator `acc`;
    b_layout '<row>' reads B MN-major. accumulate=False: D = A B, `acc` not read (scale-d
    0), so a first step needs no zeroed accumulator (an llvm.mlir.undef will do)."""
    scale_d = '<one>' if accumulate else '<zero>'
    return (f'nvvm.wgmma.mma_async {a}, {b}, {acc}, <m = 64, n = {n}, k = 16>, D[<f32>, {scale_d}, <wrapped>], '
            f'A[<{dtype}>, <one>, <row>], B[<{dtype}>, <one>, {b_layout}] : {acc_type} -> {acc_type}')
