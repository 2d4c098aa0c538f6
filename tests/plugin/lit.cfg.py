# lit configuration for tests/plugin: acopy's passes in upstream mlir-opt-22
# through libacopy_mlir_plugin.so, compared with acopy-opt on the same inputs.
#
# Its own suite (tests/lit.cfg.py leaves this folder out): scripts/test.sh
# builds the plugin (cargo build -p acopy-capi -p acopy-mlir-plugin) and runs
#   ACOPY_OPT=target/debug/acopy-opt ACOPY_PLUGIN=target/debug/libacopy_mlir_plugin.so \
#     /usr/lib/llvm-22/bin/lit -v tests/plugin
import os
import shutil
import sys

import lit.formats

config.name = "acopy-plugin"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(
    os.environ.get("ACOPY_LIT_OUT", os.path.join(config.test_source_root, "..", "..", "target", "lit")),
    "plugin",
)
config.excludes = ["Inputs", "lit.cfg.py", "compare.py"]

llvm_bin = os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin")


def required(variable, what):
    path = os.environ.get(variable)
    if not path or not os.path.exists(path):
        lit_config.fatal(f"set {variable} to {what} (scripts/test.sh does this)")
    return os.path.abspath(path)


acopy_opt = required("ACOPY_OPT", "the acopy-opt binary")
plugin = required("ACOPY_PLUGIN", "libacopy_mlir_plugin.so (cargo build -p acopy-mlir-plugin)")
mlir_opt = os.path.join(llvm_bin, "mlir-opt")
with_plugin = f"{mlir_opt} --load-dialect-plugin={plugin} --load-pass-plugin={plugin}"

config.environment["PATH"] = os.pathsep.join([llvm_bin, os.environ["PATH"]])
config.environment["NO_COLOR"] = "1"
config.substitutions.append(("%acopy-opt", acopy_opt))
# %mlir-opt-acopy-alone PLUGIN: mlir-opt-22 with another copy of the plugin,
# on an input whose ops need its passes (version-check.test).
config.substitutions.append(
    (
        "%mlir-opt-acopy-alone",
        f"{mlir_opt} {os.path.join(config.test_source_root, '..', '..', 'examples', 'tile_copy_sm80.mlir')} "
        "'--pass-pipeline=builtin.module(acopy-lower)' --load-pass-plugin",
    )
)
config.substitutions.append(("%mlir-opt-acopy", with_plugin))
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%libdir", os.path.dirname(plugin)))
# %compare INPUT 'ACOPY-OPT FLAGS' 'PIPELINE' [mlir-opt flags]: the same IR on
# stdout, the same diagnostics and the same exit status (compare.py).
config.substitutions.append(
    (
        "%compare",
        f'"{sys.executable}" "{os.path.join(config.test_source_root, "compare.py")}" '
        f'"{acopy_opt}" "{mlir_opt}" "{plugin}"',
    )
)
config.substitutions.append(("%python", f'"{sys.executable}"'))
cc = shutil.which("cc") or shutil.which("gcc")
if cc:
    config.substitutions.append(("%cc", cc))
# Another LLVM's mlir-opt, for the version check (Debian 12's mlir-19-tools;
# scripts/test.sh installs it).
if os.path.exists("/usr/lib/llvm-19/bin/mlir-opt"):
    config.available_features.add("mlir-opt-19")
