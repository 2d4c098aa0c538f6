# lit configuration for acopy's FileCheck suites.
#
# Run through `cargo test` (tools/acopy-opt/tests/lit.rs), which builds
# acopy-opt and passes its path in ACOPY_OPT, and ptxas's in ACOPY_PTXAS
# (.venv/bin/ptxas, put there by scripts/install-deps.sh). To run by hand:
#   ACOPY_OPT=target/debug/acopy-opt ACOPY_PTXAS=.venv/bin/ptxas /usr/lib/llvm-22/bin/lit -v tests
import os
import sys

import lit.formats

config.name = "acopy"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(
    os.environ.get("ACOPY_LIT_OUT", os.path.join(config.test_source_root, "..", "target", "lit"))
)
# gpu/ holds kernels for the GPU suite, run on a GPU machine, not by lit.
# plugin/ is its own suite (upstream mlir-opt with acopy's plugin), which
# scripts/test.sh runs after building the plugin.
config.excludes = ["gpu", "plugin", "Inputs", "README.md", "lit.cfg.py", "check_ptxas.py", "check_no_dead_ops.py"]

llvm_bin = os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin")
acopy_opt = os.environ.get("ACOPY_OPT")
if not acopy_opt or not os.path.exists(acopy_opt):
    lit_config.fatal("set ACOPY_OPT to the acopy-opt binary (cargo test does this)")

# FileCheck, not and count come from LLVM; acopy-opt from the cargo build.
config.environment["PATH"] = os.pathsep.join(
    [os.path.dirname(os.path.abspath(acopy_opt)), llvm_bin, config.environment.get("PATH", os.environ["PATH"])]
)
config.substitutions.append(("%acopy-opt", os.path.abspath(acopy_opt)))
# No colour or terminal tricks in diagnostics that FileCheck reads.
config.environment["NO_COLOR"] = "1"

# Every PTX the suite produces is assembled by ptxas: a missing ptxas is a
# failure of the whole run, never a skipped check.
ptxas = os.environ.get("ACOPY_PTXAS")
if not ptxas or not os.access(ptxas, os.X_OK):
    lit_config.fatal(
        f"set ACOPY_PTXAS to an executable ptxas (got {ptxas!r}); "
        "scripts/install-deps.sh installs one in .venv/bin/ptxas"
    )
# libdevice, which gpu-module-to-binary links into a module that calls it
# (math ops lower to __nv_* calls), is found through CUDA_ROOT: the toolkit
# whose bin/ holds ptxas. Tests that need it say `REQUIRES: libdevice`.
toolkit = os.path.dirname(os.path.dirname(os.path.realpath(ptxas)))
if os.path.isfile(os.path.join(toolkit, "nvvm", "libdevice", "libdevice.10.bc")):
    config.environment["CUDA_ROOT"] = toolkit
    config.available_features.add("libdevice")
# %check-ptxas FILE CHIP... : each PTX module in FILE has the given .target and
# assembles for it (tests/check_ptxas.py).
config.substitutions.append(
    (
        "%check-ptxas",
        f'"{sys.executable}" "{os.path.join(config.test_source_root, "check_ptxas.py")}" "{os.path.abspath(ptxas)}"',
    )
)
# %python: the interpreter lit runs under (the examples' generators are Python).
config.substitutions.append(("%python", f'"{sys.executable}"'))
# %check-no-dead-ops FILE : no side-effect-free op in the lowered MLIR of FILE
# is left without a use (tests/check_no_dead_ops.py).
config.substitutions.append(
    (
        "%check-no-dead-ops",
        f'"{sys.executable}" "{os.path.join(config.test_source_root, "check_no_dead_ops.py")}"',
    )
)
