"""The Python package against the installed extension (scripts/test.sh
installs it into .venv first). The examples are the repository's own."""

import threading
from pathlib import Path

import pytest

import acopy

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SM80 = (EXAMPLES / "tile_copy_sm80.mlir").read_text()
SM90 = (EXAMPLES / "tile_copy_sm90.mlir").read_text()

# A barrier-tracked copy on sm_80: rule E1 in strict mode, kept (with a remark)
# in fallback mode.
BARRIER_ON_SM80 = """\
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    %p = arith.constant false
    acopy.barrier_init %bar {arrival_count = 1 : i64} : memref<1xi64, 3>
    acopy.copy_gmem_to_smem %src[%i, %i] -> %dst barrier(%bar : memref<1xi64, 3>) {oob_mode = "promise_in_bounds"} : memref<256x512xf32> -> memref<64x128xf32, 3>
    acopy.barrier_wait %bar, %p : memref<1xi64, 3>
    gpu.return
  }
}
"""

# The same kernel in MLIR's generic form, which still parses.
BARRIER_ON_SM80_GENERIC = """\
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    %p = arith.constant false
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %p) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
}
"""

ACOPY_OPS = ["acopy.copy_gmem_to_smem", "acopy.wait_gmem_to_smem", "acopy.barrier_init",
             "acopy.barrier_wait", "acopy.copy_smem_to_gmem", "acopy.wait_smem_to_gmem"]


def position_of(source, needle):
    """(line, column), 1-based, of the first `needle` in `source`, outside comments."""
    for number, line in enumerate(source.splitlines(), start=1):
        if needle in line.split("//")[0]:
            return number, line.index(needle) + 1
    raise AssertionError(f"{needle!r} is not in the source")


def ptx_target(ptx):
    return next(line.split()[1] for line in ptx.splitlines() if line.startswith(".target"))


def test_sm80_example_compiles_to_cp_async_without_tensor_maps():
    compiled = acopy.compile(SM80)
    [output] = compiled.outputs
    assert (output.module, output.chip) == ("tile_copy", "sm_80")
    assert ptx_target(output.text) == "sm_80"
    assert "cp.async.ca.shared.global" in output.text or "cp.async.cg.shared.global" in output.text
    assert "cp.async.bulk" not in output.text
    # No tensor maps, but the kernel's launch facts (manifest version 2).
    [kernel] = compiled.manifest["kernels"]
    assert compiled.manifest["version"] == 2
    assert (kernel["kernel"], kernel["chip"], kernel["tensor_maps"]) == ("tile_copy", "sm_80", [])
    assert (kernel["block"], kernel["static_shared_memory"], kernel["dynamic_shared_memory"]) == ([32, 8, 1], 64 * 128 * 4, 0)
    assert [a["type"] for a in kernel["args"]] == ["memref<4096x4096xf32>"] * 2
    assert output.manifest == compiled.manifest
    assert compiled.diagnostics == []


def test_sm90_example_compiles_to_tma_with_its_manifest():
    compiled = acopy.compile(SM90)
    [output] = compiled.outputs
    assert (output.module, output.chip) == ("tile_copy", "sm_90")
    assert ptx_target(output.text) == "sm_90"
    assert "cp.async.bulk.tensor.2d.shared::cluster.global" in output.text
    assert "cp.async.bulk.tensor.2d.global.shared::cta" in output.text
    [kernel] = compiled.manifest["kernels"]
    assert (kernel["module"], kernel["kernel"], kernel["chip"]) == ("tile_copy", "tile_copy", "sm_90")
    # acopy-lower appends one tensor map per copied argument (src is 0, dst
    # 1) after the kernel's own parameters, both for the 64x128 f32 tile.
    maps = kernel["tensor_maps"]
    assert [m["arg"] for m in maps] == [0, 1]
    assert [m["param"] for m in maps] == [2, 3]
    for m in maps:
        assert (m["element_type"], m["element_bytes"], m["box"]) == ("f32", 4, [64, 128])
    assert output.manifest == compiled.manifest
    # The PTX takes the tensor maps the manifest describes: 128-byte
    # CUtensorMaps by value, after both 7-word memref descriptors.
    params = [line.strip() for line in output.text.splitlines() if line.strip().startswith(".param")]
    assert len(params) == 2 * 7 + len(maps)
    assert all(p.startswith(".param .align 64 .b8 ") and p.rstrip(",").endswith("[128]") for p in params[14:])
    assert not any("[128]" in p for p in params[:14])


def test_chip_override_wins_over_the_modules_target():
    [output] = acopy.compile(SM90, chip="sm_100a").outputs
    assert output.chip == "sm_100a"
    assert ptx_target(output.text) == "sm_100a"


def test_ptx_is_keyed_by_gpu_module():
    compiled = acopy.compile(SM90)
    assert compiled.ptx == {"tile_copy": compiled.outputs[0].text}
    # A gpu.module with several targets compiles once per chip (acopy ops
    # need one chip per module; a module without them may have several).
    two_chips = """\
gpu.module @plain [#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_90">] {
  gpu.func @k() kernel {
    gpu.return
  }
}
"""
    ptx = acopy.compile(SM90 + two_chips).ptx
    assert sorted(ptx) == ["plain@sm_80", "plain@sm_90", "tile_copy"]
    assert ptx_target(ptx["plain@sm_80"]) == "sm_80"
    assert ptx_target(ptx["plain@sm_90"]) == "sm_90"
    # Each chip's kernel comes with that chip's manifest entry.
    compiled = acopy.compile(SM90 + two_chips)
    for chip in ("sm_80", "sm_90"):
        kernel = compiled.kernel("plain.k", chip=chip)
        assert (kernel.chip, kernel.arg_types, kernel.block) == (chip, (), None)
        [entry] = [o for o in compiled.outputs if o.chip == chip][0].manifest["kernels"]
        assert entry["chip"] == chip
    with pytest.raises(ValueError, match="emit='llvm'"):
        acopy.compile(SM90, emit="llvm").ptx


def test_emit_mlir_and_llvm():
    [mlir] = acopy.compile(SM90, emit="mlir").outputs
    assert mlir.text.startswith("gpu.module @tile_copy")
    assert not [op for op in ACOPY_OPS if op in mlir.text]  # lowered
    assert mlir.chip == "sm_90"  # the compiler's: the module's #nvvm.target
    [llvm] = acopy.compile(SM90, emit="llvm").outputs
    assert "define ptx_kernel void @tile_copy(" in llvm.text
    assert llvm.chip == "sm_90"  # LLVM IR names no chip, but the compiler knows it
    [llvm] = acopy.compile(SM90, emit="llvm", chip="sm_90a").outputs
    assert llvm.chip == "sm_90a"


def test_verify_reports_each_rule_with_its_location():
    diagnostics = acopy.verify(SM90, chip="sm_80", filename="tile.mlir")
    assert [(d.severity, d.rule) for d in diagnostics] == [("error", "E1"), ("error", "A5"), ("error", "A6")]
    load = diagnostics[0]
    assert (load.file, load.line, load.column) == ("tile.mlir", *position_of(SM90, 'acopy.copy_gmem_to_smem '))
    assert "only supported Hopper and newer" in load.message
    store = diagnostics[1]
    assert (store.line, store.column) == position_of(SM90, 'acopy.copy_smem_to_gmem ')
    assert str(load) == f"tile.mlir:{load.line}:{load.column}: error: {load.message}"


def test_verify_of_valid_input_is_empty():
    assert acopy.verify(SM90) == []
    assert acopy.verify(SM80) == []


def test_compile_error_carries_the_diagnostics():
    with pytest.raises(acopy.CompileError) as raised:
        acopy.compile(SM90, chip="sm_80", filename="tile.mlir")
    error = raised.value
    assert isinstance(error, ValueError)
    assert type(error) is acopy.VerificationError
    assert [d.rule for d in error.diagnostics] == ["E1", "A5", "A6"]
    assert error.diagnostics == acopy.verify(SM90, chip="sm_80", filename="tile.mlir")
    assert str(error) == "\n".join(str(d) for d in error.diagnostics)
    assert str(error).startswith("tile.mlir:%d:%d: error: " % position_of(SM90, 'acopy.copy_gmem_to_smem '))


def test_fallback_keeps_a_barrier_copy_on_sm80_with_a_remark():
    with pytest.raises(acopy.CompileError) as raised:
        acopy.compile(BARRIER_ON_SM80)
    assert [d.rule for d in raised.value.diagnostics] == ["E1"]
    compiled = acopy.compile(BARRIER_ON_SM80, fallback=True)
    [remark] = compiled.diagnostics
    assert remark.severity == "remark"
    assert remark.message == "fallback mode keeps this op on sm_80: the barrier tracks completion through cp.async.mbarrier.arrive"
    assert (remark.line, remark.column) == position_of(BARRIER_ON_SM80, 'acopy.copy_gmem_to_smem ')
    assert "cp.async.mbarrier.arrive" in compiled.outputs[0].text
    assert acopy.verify(BARRIER_ON_SM80, fallback=True) == [remark]


def test_the_generic_form_compiles_like_the_custom_form():
    custom = acopy.compile(BARRIER_ON_SM80, fallback=True)
    generic = acopy.compile(BARRIER_ON_SM80_GENERIC, fallback=True)
    assert generic.outputs[0].text == custom.outputs[0].text
    with pytest.raises(acopy.CompileError) as raised:
        acopy.compile(BARRIER_ON_SM80_GENERIC)
    [error] = raised.value.diagnostics
    assert (error.rule, error.line, error.column) == ("E1", *position_of(BARRIER_ON_SM80_GENERIC, '"acopy.copy_gmem_to_smem"'))


def test_a_truncated_custom_form_is_a_located_parse_error():
    source = BARRIER_ON_SM80.replace(" : memref<1xi64, 3>\n    acopy.copy_gmem_to_smem", " :\n")
    with pytest.raises(acopy.CompileError) as raised:
        acopy.compile(source, filename="cut.mlir")
    [error] = raised.value.diagnostics
    assert (error.file, error.line, error.column, error.severity) == ("cut.mlir", 4, 56, "error")
    assert error.message == "expected non-function type"
    assert error.rule is None


@pytest.mark.parametrize("call", [acopy.compile, acopy.verify])
def test_bad_chip_is_a_value_error_not_a_compile_error(call):
    with pytest.raises(ValueError, match=r'unknown chip "sm_9"; acopy supports: sm_80, ') as raised:
        call(SM90, chip="sm_9")
    assert not isinstance(raised.value, acopy.CompileError)
    with pytest.raises(ValueError, match=r'chip "sm_70" is not supported: acopy needs sm_80 or newer'):
        call(SM90, chip="sm_70")


def test_chips_lists_what_chip_accepts():
    assert acopy.CHIPS[0] == "sm_80"
    assert {"sm_80", "sm_90", "sm_90a", "sm_100a"} <= set(acopy.CHIPS)
    # Each is accepted; the cp.async example is valid up to sm_89 only (a
    # barrier-less copy on a TMA chip is E6).
    for chip in acopy.CHIPS:
        rules = {d.rule for d in acopy.verify(SM80, chip=chip)}
        assert (rules == set()) == (int(chip[3:].rstrip("a")) < 90), chip
        assert not rules or "E6" in rules, chip


def test_bad_emit_is_a_value_error():
    with pytest.raises(ValueError, match=r'emit must be "ptx", "llvm" or "mlir", not "sass"'):
        acopy.compile(SM90, emit="sass")


def test_parse_error_is_located():
    with pytest.raises(acopy.CompileError) as raised:
        acopy.compile("module {", filename="broken.mlir")
    # Not a verification finding: the input never parsed.
    assert not isinstance(raised.value, acopy.VerificationError)
    [error] = raised.value.diagnostics
    assert (error.file, error.line, error.rule) == ("broken.mlir", 1, None)
    assert error.message == "expected operation name in quotes"


def test_input_without_a_gpu_module():
    with pytest.raises(acopy.CompileError, match="this input has none: put the kernels in a gpu.module"):
        acopy.compile("module {}")


def test_nul_bytes_are_whitespace_not_the_end_of_the_source():
    # A C-string boundary would cut the source at the NUL and fail to parse.
    with_nul = SM90.replace("module {", "module {\0", 1)
    assert with_nul != SM90
    assert acopy.compile(with_nul).outputs == acopy.compile(SM90).outputs


def test_nul_inside_a_crashing_spelling_is_refused_at_its_position():
    # array<index ...> crashes MLIR's parser, also with a NUL inside; the
    # parser guard refuses it with a located error instead.
    source = "module attributes {x = array<\0index: 1>} {}\n"
    with pytest.raises(acopy.CompileError, match="a dense array cannot hold index elements") as raised:
        acopy.compile(source)
    [error] = raised.value.diagnostics
    assert (error.line, error.column) == (1, source.index("index") + 1)


def test_text_that_is_not_utf8_encodable_is_a_unicode_error():
    with pytest.raises(UnicodeEncodeError):
        acopy.compile("module {\udc80}")


def test_threads_compile_at_once():
    # Each call has its own MLIR context and releases the GIL.
    expected = acopy.compile(SM90).outputs
    results = [None] * 4

    def work(index):
        results[index] = acopy.compile(SM90).outputs

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(results))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * len(results)


# A loop marked for pipelining: one input for both chips.
MARKED_LOOP = """\
gpu.module @m {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}
"""


@pytest.mark.parametrize("chip", ["sm_80", "sm_90"])
def test_a_marked_loop_is_pipelined_with_its_remark_as_data(chip):
    compiled = acopy.compile(MARKED_LOOP, chip=chip, filename="loop.mlir")
    ptx = compiled.outputs[0].text
    tma = chip == "sm_90"
    if tma:
        # Three slots, each with its mbarrier, waited on by parity.
        assert "mbarrier.try_wait.parity" in ptx
        assert ptx.count("mbarrier.init.shared") == 3
    else:
        # The two later tiles' groups stay pending at each wait (the tail
        # commits empty groups), so one constant count: S - 1 = 2.
        assert "cp.async.wait_group \t2;" in ptx
        assert "cp.async.wait_group \t0;" not in ptx
    [remark] = [d for d in compiled.diagnostics if d.severity == "remark"]
    assert (remark.file, remark.line) == ("loop.mlir", position_of(MARKED_LOOP, "scf.for")[0])
    expected = acopy.PipelinedLoop(
        chip=chip,
        path="tma" if tma else "cp_async",
        stages=3,
        requested=3,
        trips=None,
        copies=1,
        tiles=(acopy.TileSlots("memref<8x128xf32, 3>", 4096, 4096, 128 if tma else 16),),
        shared_bytes=3 * 4096 + (3 * 8 + 8 if tma else 0),
        wait_groups=None if tma else (2,),
        barriers=3 if tma else None,
        arrivals=1 if tma else None,
    )
    assert remark.pipelined == expected
    assert compiled.pipelined_loops == [expected]
    assert remark.message.startswith(f"acopy.pipeline: 3 stages, {'TMA' if tma else 'cp.async'} on {chip}; ")


def test_automatic_stages_say_why():
    # 4096-byte tiles: sm_80 wants 24 KiB in flight, 1 + 6 = 7 stages; sm_90 wants
    # 48 KiB, 1 + 12 = 13, so max-stages (8) decides.
    source = MARKED_LOOP.replace("{stages = 3 : i64}", '{stages = "auto"}')
    for chip, stages, limit in [("sm_80", 7, "latency"), ("sm_90", 8, "max_stages")]:
        [loop] = acopy.compile(source, chip=chip).pipelined_loops
        assert (loop.stages, loop.requested) == (stages, stages)
        assert loop.auto["limit"] == limit, loop.auto
        assert loop.auto["in_flight_bytes"] == 4096 * (stages - 1)
        assert loop.wgmma_in_flight is None


def test_a_producer_warp_releases_a_warp_at_a_time_where_asked_and_able():
    # The block of 128 consumers gets a producer warp; release = "warp" has lane 0 of
    # each consumer warp arrive for its 32 lanes on sm_90, while sm_80 (no counted
    # arrive) keeps one arrive a thread and says so.
    source = MARKED_LOOP.replace(
        "kernel {", "kernel attributes {known_block_size = array<i32: 128, 1, 1>} {"
    )
    asked = source.replace("{stages = 3 : i64}", '{stages = 3 : i64, producer = "warp", release = "warp"}')
    plain = source.replace("{stages = 3 : i64}", '{stages = 3 : i64, producer = "warp"}')
    for chip, expected in [("sm_90", True), ("sm_80", False)]:
        [loop] = acopy.compile(asked, chip=chip).pipelined_loops
        assert (loop.producer_block, loop.warp_release) == (160, expected), chip
    [loop] = acopy.compile(plain, chip="sm_90").pipelined_loops
    assert loop.warp_release is False
    ptx = acopy.compile(asked, chip="sm_90").outputs[0].text
    assert "mbarrier.arrive.shared.b64 _, [" in ptx and "], 32;" in ptx


def test_a_refused_marked_loop_names_its_rule():
    # 16 stages are above max-stages (8): rule P1.
    with pytest.raises(acopy.VerificationError) as raised:
        acopy.compile(MARKED_LOOP.replace("stages = 3", "stages = 16"), chip="sm_80")
    assert [d.rule for d in raised.value.errors] == ["P1"]
    assert raised.value.errors[0].pipelined is None
