"""Runs one input through acopy-opt and through upstream mlir-opt with the
acopy plugin, and fails unless both print the same IR, the same diagnostics
(file:line:col: severity: message lines; mlir-opt adds the source line and a
caret under each, which are left out) and exit with the same status.
With --verify-diagnostics both must pass the input's expected-* comments.

Usage: compare.py ACOPY_OPT MLIR_OPT PLUGIN INPUT 'ACOPY-OPT FLAGS' 'PIPELINE' [FLAG...]
FLAG... (--split-input-file, --verify-diagnostics) go to both tools.
"""
import re
import shlex
import subprocess
import sys

DIAGNOSTIC = re.compile(r"^(?:[^ :][^:]*|):\d+:\d+: (?:error|warning|remark|note): .*$")


# mlir-opt prints the `// -----` separator between the outputs of
# --split-input-file chunks even when a chunk failed and printed nothing;
# acopy-opt prints none after a failed chunk. The IR is what is compared.
SEPARATOR = "// -----"


def run(command):
    done = subprocess.run(command, capture_output=True)
    errors = done.stderr.decode("utf-8", "replace").splitlines()
    output = [line for line in done.stdout.decode("utf-8", "replace").splitlines() if line != SEPARATOR]
    return done.returncode, "\n".join(output), [line for line in errors if DIAGNOSTIC.match(line)]


def main():
    acopy_opt, mlir_opt, plugin, source, acopy_flags, pipeline, *shared = sys.argv[1:]
    ours = run([acopy_opt, source, *shlex.split(acopy_flags), *shared])
    theirs = run(
        [
            mlir_opt,
            f"--load-dialect-plugin={plugin}",
            f"--load-pass-plugin={plugin}",
            source,
            f"--pass-pipeline={pipeline}",
            *shared,
        ]
    )
    failed = False
    for what, index in (("exit status", 0), ("IR on stdout", 1), ("diagnostics", 2)):
        # acopy-opt writes its output only when every chunk succeeded
        # (tests/driver/output-transaction.mlir); mlir-opt prints the chunks
        # that did. Their IR is compared when the run succeeded.
        if index == 1 and ours[0] != 0:
            continue
        if ours[index] != theirs[index]:
            failed = True
            print(f"{source}: {what} differs\n--- acopy-opt {acopy_flags}\n{ours[index]}\n+++ mlir-opt {pipeline}\n{theirs[index]}")
    if not ours[1] and not ours[2] and ours[0] == 0 and "--verify-diagnostics" not in shared:
        print(f"{source}: acopy-opt printed nothing: the comparison would prove nothing")
        failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
