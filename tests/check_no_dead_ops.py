#!/usr/bin/env python3
"""Fails when lowered MLIR holds a side-effect-free op whose results are all unused.

Usage (lit's %check-no-dead-ops): check_no_dead_ops.py FILE

The lowering promises lean output (docs/lowering-cp-async.md, "Lean output"):
it erases what it built and did not need. This reads acopy-opt's printed MLIR
(custom form, one op per line), takes each op that defines SSA values and whose
name is one of the side-effect-free families the lowering builds, and reports
it when none of its results is used anywhere in the file. Ops with effects
(`nvvm.mbarrier.arrive`'s state, say) are never reported. Exits 1 and prints
each dead op with its line number; prints the number of ops checked otherwise.
"""

import re
import sys

# The pure ops the lowering builds (passes/src/lower/emitted.rs lists them all), and
# those the pipeliner's rewrite leaves dead when it clones a copy's operands.
PURE = re.compile(
    r"^(arith\.|gpu\.(thread_id|block_dim|block_id|grid_dim|cluster_)|"
    r"memref\.extract_|llvm\.(getelementptr|inttoptr|ptrtoint|addrspacecast|mlir\.)|"
    r"nvvm\.read\.ptx\.sreg\.|nvvm\.mapa\b|index\.|affine\.apply\b|memref\.(subview|cast)\b)"
)
# `%a, %b:2 = op ...`: the results, then the op's name.
DEFINITION = re.compile(r"^\s*((?:%[\w$.-]+(?::\d+)?)(?:\s*,\s*%[\w$.-]+(?::\d+)?)*)\s*=\s*\"?([\w.$-]+)")
USE = re.compile(r"%([\w$.-]+)")
# SSA names are scoped to a function (the printer restarts them in each), so
# each function is checked on its own.
FUNCTION = re.compile(r"^\s*(gpu\.func|func\.func|llvm\.func)\b")


def dead_ops(numbered_lines):
    """The pure ops of one function whose results are all unused."""
    used = set()
    definitions = []
    for number, line in numbered_lines:
        if line.lstrip().startswith("//"):
            continue
        match = DEFINITION.match(line)
        defined = []
        rest = line
        if match:
            defined = [name.split(":")[0][1:] for name in re.split(r"\s*,\s*", match.group(1))]
            rest = line[match.end(1):]
            if PURE.match(match.group(2)):
                definitions.append((number, match.group(2), defined, line.strip()))
        used.update(name.split("#")[0] for name in USE.findall(rest))
    dead = [d for d in definitions if not any(name in used for name in d[2])]
    return len(definitions), dead


def main(path):
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    functions = [[]]
    for number, line in enumerate(lines, 1):
        if FUNCTION.match(line):
            functions.append([])
        functions[-1].append((number, line))
    checked, dead = 0, []
    for function in functions:
        count, found = dead_ops(function)
        checked += count
        dead += found
    for number, _, _, text in dead:
        print(f"{path}:{number}: dead op: {text}")
    if dead:
        return 1
    print(f"{checked} side-effect-free ops checked in {len(functions) - 1} functions, none dead")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
