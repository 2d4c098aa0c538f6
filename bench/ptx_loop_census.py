#!/usr/bin/env python3
"""Counts the PTX instructions of a pipelined kernel's steady-state loop, by class.

  python3 bench/ptx_loop_census.py FILE.ptx... [--json OUT] [--title TEXT]
  python3 bench/ptx_loop_census.py --self-test

A loop is a label L and the text from L to the last branch back to L (a branch to a
label above it): LLVM often places a rotated loop's latch above its header, and the
branch back to the latch is still the last backward branch. The steady-state loop is
the innermost loop that holds both a wait (`cp.async.wait_group`/`wait_all`,
`mbarrier.try_wait`/`test_wait`) and a copy issue (`cp.async.{ca,cg}` or
`cp.async.bulk`): innermost, so that an outer persistent loop is not taken; with a
copy, so that the spin loop around an mbarrier wait is not taken either.

The counts are static: every instruction between L and the backward branch once, the
bodies of inner loops (the per-thread copy and consumer loops, the wait's spin loop)
once each; `inner` says how many of the instructions sit in inner loops. Classes:
  div64   integer div/rem on 64 bits (div.u64, div.s64, rem.u64, rem.s64)
  div32   integer div/rem on 32 bits
  branch  bra, brx (brx.idx: a jump table), call, ret, exit
  cp.async  cp.async.{ca,cg}, commit_group, wait_group, wait_all (sm_80)
  bulk    cp.async.bulk* (TMA), cp.reduce.async.bulk*
  mbarrier  mbarrier.*
  sync    bar/barrier, fence, membar
  ld/st.shared, ld/st.global
  arith   integer and float arithmetic, compares, selects, conversions, moves
  other   the rest (shfl, vote, elect, ...)
  waits   how many wait instructions the loop holds (more than one: the wait count
          is chosen at run time, a switch)
A 64-bit division usually shows as one div64 and one div32: LLVM's bypass of slow
division tests at run time whether both operands fit 32 bits and takes div.u32 then.
A remainder or division by a constant is no div at all (mul.hi and shifts: arith).
Prints a Markdown table, one row per file (its name, without .ptx); --json also writes
the rows. Exits 1 when a file has no such loop or cannot be read (its row says why).
--self-test checks the counting on a hand-written PTX snippet and exits 1 if it is wrong.
"""
import argparse
import json
import re
import sys

CLASSES = ["div64", "div32", "branch", "cp.async", "bulk", "mbarrier", "sync",
           "ld/st.shared", "ld/st.global", "arith", "other"]
ARITH = {"add", "sub", "mul", "mad", "fma", "div", "rem", "abs", "neg", "min", "max",
         "shl", "shr", "and", "or", "xor", "not", "cnot", "setp", "selp", "set", "slct",
         "cvt", "cvta", "mov", "prmt", "popc", "clz", "bfe", "bfi", "brev", "lop3", "shf",
         "mul24", "mad24", "sad", "copysign", "rcp", "sqrt", "rsqrt", "sin", "cos", "lg2",
         "ex2", "testp", "tanh", "bfind", "fns", "dp4a", "dp2a"}
# A label ends with one colon: `cp.async.bulk...shared::cluster` is no label.
LABEL = re.compile(r"^([A-Za-z_$][\w$]*):(?=\s|$)")
BRANCH = re.compile(r"^(?:@!?%?\w+\s+)?bra(?:\.uni)?\s+([\w$.]+)\s*;")
WAIT = re.compile(r"^(cp\.async\.(wait_group|wait_all)|mbarrier\.(try_wait|test_wait))")
COPY = re.compile(r"^cp\.async\.(ca|cg|bulk)")


def classify(op):
    """The class of one opcode (the first token of an instruction, predicate removed)."""
    if re.match(r"^(div|rem)\.[us]64$", op):
        return "div64"
    if re.match(r"^(div|rem)\.[us](32|16)$", op):
        return "div32"
    root = op.split(".")[0]
    if root in ("bra", "brx", "call", "ret", "exit"):
        return "branch"
    if op.startswith(("cp.async.bulk", "cp.reduce.async.bulk")):
        return "bulk"
    if op.startswith("cp.async"):
        return "cp.async"
    if root == "mbarrier":
        return "mbarrier"
    if root in ("bar", "barrier", "fence", "membar"):
        return "sync"
    if root in ("ld", "st") and ".shared" in op:
        return "ld/st.shared"
    if root in ("ld", "st") and ".global" in op:
        return "ld/st.global"
    return "arith" if root in ARITH else "other"


def lines_of(text):
    """(kind, value) per meaningful line: ('label', name) or ('inst', text)."""
    out = []
    for raw in text.splitlines():
        line = raw.split("//", 1)[0].strip()
        if not line or line in ("{", "}") or line.startswith("."):
            continue
        found = LABEL.match(line)
        if found:
            out.append(("label", found.group(1)))
            rest = line[found.end():].strip()
            if rest:
                out.append(("inst", rest))
            continue
        out.append(("inst", line))
    return out


def opcode(inst):
    return re.sub(r"^@!?%?\w+\s+", "", inst).split()[0].rstrip(";")


def loops(items):
    """Every loop: (label, start index, end index) with end the last backward branch."""
    where = {}
    found = {}
    for i, (kind, value) in enumerate(items):
        if kind == "label":
            where[value] = i
            continue
        branch = BRANCH.match(value)
        if branch and branch.group(1) in where and where[branch.group(1)] < i:
            found[branch.group(1)] = (where[branch.group(1)], i)
    return [(label, start, end) for label, (start, end) in found.items()]


def steady_state(items):
    """The innermost loop with a wait and a copy issue, or None."""
    best = None
    for label, start, end in loops(items):
        ops = [opcode(v) for k, v in items[start:end + 1] if k == "inst"]
        if any(WAIT.match(op) for op in ops) and any(COPY.match(op) for op in ops):
            if best is None or end - start < best[2] - best[1]:
                best = (label, start, end)
    return best


def census(text):
    """The steady-state loop's counts, or {'error': why}."""
    items = lines_of(text)
    loop = steady_state(items)
    if loop is None:
        return {"error": "no loop holds both a wait and a copy issue"}
    label, start, end = loop
    inner = [(s, e) for _, s, e in loops(items) if start <= s and e <= end and (s, e) != (start, end)]
    row = {"loop": label, "total": 0, "inner": 0, "waits": 0, **{c: 0 for c in CLASSES}}
    for i in range(start, end + 1):
        kind, value = items[i]
        if kind != "inst":
            continue
        op = opcode(value)
        row[classify(op)] += 1
        row["total"] += 1
        row["waits"] += bool(WAIT.match(op))
        row["inner"] += any(s <= i <= e for s, e in inner)
    row["inner_loops"] = len(inner)
    return row


def table(rows, title=None):
    head = ["kernel", "loop", "total"] + CLASSES + ["waits", "inner loops (insts)"]
    out = [f"**{title}**", ""] if title else []
    out += ["| " + " | ".join(head) + " |", "|" + "---|" * 2 + "---:|" * (len(head) - 2)]
    for name, row in rows:
        if "error" in row:
            out.append(f"| {name} | {row['error']} |" + " |" * (len(head) - 2))
            continue
        cells = [name, row["loop"], str(row["total"])] + [str(row[c]) for c in CLASSES]
        cells += [str(row["waits"]), f"{row['inner_loops']} ({row['inner']})"]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


SELF_TEST = r"""
.visible .entry k(.param .u64 p)
{
	.reg .pred %p<9>;
	// demoted variable
	.shared .align 16 .b8 smem[1024];
	mov.u32 %r1, %tid.x;
	bra.uni $L__HEAD;
$L__LATCH:
	add.s64 %rd1, %rd1, %rd2;
	setp.lt.u64 %p1, %rd1, 100;
	@%p1 bra $L__HEAD;
	bra.uni $L__DONE;
$L__HEAD:
	div.u64 %rd3, %rd1, %rd2;
	rem.s64 %rd4, %rd1, %rd2;
	div.u32 %r2, %r3, %r4;
	div.full.f32 %f1, %f2, %f3;
	brx.idx %r5, $L__TABLE;
	cp.async.cg.shared.global [%rd5], [%rd6], 16;
	cp.async.commit_group;
	cp.async.wait_group 1;
	cp.async.wait_group 0;
	cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd7], [%rd8, {%r1, %r2}], [%rd9];
	mbarrier.arrive.expect_tx.shared.b64 %rd10, [%rd9], %r6;
$L__SPIN:
	mbarrier.try_wait.parity.shared.b64 %p2, [%rd9], %r7;
	@!%p2 bra $L__SPIN;
	bar.sync 0;
	fence.proxy.async.shared::cta;
$L__INNER:
	ld.shared.v4.b32 {%r8, %r9, %r10, %r11}, [%rd11];
	st.shared.b32 [%rd11], %r8;
	add.s32 %r12, %r12, %r8; // a comment
	setp.lt.u32 %p3, %r12, 4;
	@%p3 bra $L__INNER;
	ld.global.b32 %r13, [%rd12];
	shfl.sync.bfly.b32 %r14, %r13, 1, 31, -1;
	bra.uni $L__LATCH;
$L__DONE:
	cp.async.wait_group 0;
$L__AFTER:
	cp.async.cg.shared.global [%rd5], [%rd6], 16;
	@%p4 bra $L__AFTER;
	ret;
}
"""
SELF_WANT = {"loop": "$L__LATCH", "total": 27, "div64": 2, "div32": 1, "branch": 6,
             "cp.async": 4, "bulk": 1, "mbarrier": 2, "sync": 2, "ld/st.shared": 2,
             "ld/st.global": 1, "arith": 5, "other": 1, "waits": 3, "inner": 7, "inner_loops": 2}


def self_test():
    got = census(SELF_TEST)
    wrong = {k: (got.get(k), v) for k, v in SELF_WANT.items() if got.get(k) != v}
    # Without a copy in it, a loop is no steady-state loop; nor is straight-line code.
    no_copy = census(SELF_TEST.replace("cp.async.cg.shared.global [%rd5], [%rd6], 16;\n\tcp.async.commit", "cp.async.commit")
                     .replace("cp.async.bulk.tensor", "nop.bulk"))
    flat = census("mov.u32 %r1, %tid.x;\ncp.async.cg.shared.global [%rd5], [%rd6], 16;\ncp.async.wait_group 0;\n")
    if wrong or "error" not in no_copy or "error" not in flat:
        print(f"self-test FAILED: wrong {wrong}; no-copy {no_copy}; flat {flat}", file=sys.stderr)
        return 1
    print(f"self-test passed: {len(SELF_WANT)} counts of a {SELF_WANT['total']}-instruction loop")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--json", help="also write the rows as JSON here")
    ap.add_argument("--title", help="a bold line above the table")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if not args.files:
        ap.error("give PTX files (or --self-test)")
    rows, status = [], 0
    for path in args.files:
        name = path.rsplit("/", 1)[-1].removesuffix(".ptx")
        try:
            with open(path) as f:
                row = census(f.read())
        except OSError as error:
            row = {"error": f"cannot read: {error.strerror}"}
        if "error" in row:
            print(f"{path}: {row['error']}", file=sys.stderr)
            status = 1
        rows.append((name, row))
    print(table(rows, args.title))
    if args.json:
        with open(args.json, "w") as f:
            json.dump([{"kernel": n, **r} for n, r in rows], f, indent=1)
    return status


if __name__ == "__main__":
    sys.exit(main())
