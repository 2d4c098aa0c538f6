//! Mutation robustness: acopy-opt must never crash, whatever IR it is given.
//!
//! The corpus is every `.mlir` file under `tests/` (except the generated
//! `tests/gpu/ptx/`) and `examples/`. Each mutant is one corpus file with 1 to
//! 3 small, IR-aware mutations (integer literals, memref shapes, element types,
//! memory spaces, layouts, chips, acopy attributes, operands,
//! `operandSegmentSizes`, launch attributes, symbol names, locations, dropped
//! or duplicated lines), drawn from a hand-written xorshift generator with a
//! fixed seed, so a CI run is reproducible. Every mutant goes through
//! acopy-opt with [`FLAG_SETS`]; a run fails when it is killed by a signal,
//! hangs, exits with anything but 0 or 1, prints an abort or panic text, or
//! exits 1 without an `error:` line (see [`classify`]), or when acopy-lower
//! turned input that verified into IR that does not ([`invalid_output`]).
//!
//! Environment:
//! - `ACOPY_FUZZ_SEED` (decimal or `0x` hex): the campaign's seed;
//! - `ACOPY_FUZZ_CASES`: how many mutants (default [`DEFAULT_CASES`]);
//! - `ACOPY_FUZZ_CASE`: run only this mutant number, and save it under
//!   `target/robustness/` even when it passes (to reproduce one);
//! - `ACOPY_FUZZ_LOG`: a file to append each run's exit status and errors to
//!   (to look for wrong diagnostics, which are no crash);
//! - `ACOPY_FUZZ_BIN`: the acopy-opt to test instead of this build's (for
//!   example `target/release/acopy-opt`).
//!
//! A failing mutant is written to `target/robustness/` with the command that
//! fails on it. docs/robustness.md describes the campaign and its findings.

use std::{
    fs,
    io::Read,
    os::unix::process::ExitStatusExt,
    path::{Path, PathBuf},
    process::{Command, ExitStatus, Stdio},
    sync::{
        atomic::{AtomicUsize, Ordering},
        Mutex,
    },
    thread,
    time::{Duration, Instant},
};

const DEFAULT_SEED: u64 = 0xacc0_5eed_2026;
const DEFAULT_CASES: usize = 500;
const THREADS: usize = 2;
const TIMEOUT: Duration = Duration::from_secs(20);

/// The command lines every mutant is run with (after the input file).
const FLAG_SETS: [&[&str]; 9] = [
    &[],
    &["--acopy-verify"],
    &["--acopy-lower"],
    // Reads the tensor maps back out of the lowered IR (or the input's).
    &["--acopy-lower", "--tma-manifest=MANIFEST"],
    &["--acopy-lower", "--emit=ptx"],
    &["--acopy-lower", "--emit=llvm"],
    &["--acopy-lower", "--acopy-fallback", "--emit=ptx"],
    &["--chip=sm_80", "--acopy-lower", "--emit=ptx"],
    &["--chip=sm_100a", "--acopy-lower", "--emit=ptx"],
];

/// Texts that only a crash prints.
const CRASH_TEXTS: [&str; 8] = [
    "LLVM ERROR",
    "panicked",
    "Assertion",
    "Cannot select",
    "PLEASE submit a bug report",
    "Stack dump",
    "internal error",
    "UNREACHABLE",
];

// ---------------------------------------------------------------------------
// The generator.

/// xorshift64* (Vigna): small, fast, and the same on every platform.
struct Rng(u64);

impl Rng {
    /// A generator for one mutant: the campaign seed and the mutant number
    /// mixed with splitmix64, so mutants do not depend on each other.
    fn for_case(seed: u64, case: usize) -> Self {
        let mut z = seed
            .wrapping_add((case as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        Rng(if z == 0 { 1 } else { z })
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// True with probability `num / den`.
    fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }
}

// ---------------------------------------------------------------------------
// Reading the IR text.

/// Whether byte `at` of `text` is code: not inside a `//` comment.
fn is_code(text: &str, at: usize) -> bool {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    !text[line_start..at].contains("//")
}

/// The code positions where `pattern` starts.
fn find_code(text: &str, pattern: &str) -> Vec<usize> {
    text.match_indices(pattern)
        .map(|(at, _)| at)
        .filter(|&at| is_code(text, at))
        .collect()
}

/// The position just after the bracket that closes the one at `open`.
fn matching_close(text: &str, open: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let (open_char, close_char) = match bytes[open] {
        b'<' => (b'<', b'>'),
        b'(' => (b'(', b')'),
        b'[' => (b'[', b']'),
        b'{' => (b'{', b'}'),
        _ => return None,
    };
    let mut depth = 0usize;
    let mut in_string = false;
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        if in_string {
            in_string = b != b'"';
            continue;
        }
        match b {
            b'"' => in_string = true,
            // `->` inside a type is not a closing bracket.
            b'>' if close_char == b'>' && i > 0 && bytes[i - 1] == b'-' => {}
            _ if b == open_char => depth += 1,
            _ if b == close_char => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// Every `memref<...>` type in code, as byte ranges.
fn memref_types(text: &str) -> Vec<(usize, usize)> {
    find_code(text, "memref<")
        .into_iter()
        .filter_map(|at| matching_close(text, at + "memref".len()).map(|end| (at, end)))
        .collect()
}

/// Splits the inside of `memref<...>` into its top-level comma-separated parts.
fn top_level_parts(inner: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut current = String::new();
    for c in inner.chars() {
        match c {
            '<' | '(' | '[' | '{' => depth += 1,
            '>' | ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(current.trim().to_string());
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    parts.push(current.trim().to_string());
    parts
}

/// A memref type's shape (`["64", "?"]`) and element type, from its first part.
fn split_shape(first: &str) -> (Vec<String>, String) {
    let mut dims = Vec::new();
    let mut rest = first;
    loop {
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '?'))
            .unwrap_or(rest.len());
        if end > 0 && rest[end..].starts_with('x') {
            dims.push(rest[..end].to_string());
            rest = &rest[end + 1..];
        } else {
            return (dims, rest.to_string());
        }
    }
}

fn join_memref(dims: &[String], element: &str, others: &[String]) -> String {
    let mut text = String::from("memref<");
    for dim in dims {
        text.push_str(dim);
        text.push('x');
    }
    text.push_str(element);
    for other in others {
        text.push_str(", ");
        text.push_str(other);
    }
    text.push('>');
    text
}

/// Replaces `old` (at `at`) with `new`: every occurrence of `old` in the text
/// most of the time, so the types of values and their uses stay consistent
/// and the mutant gets past the parser, and only this one otherwise.
fn replace_type(text: &str, rng: &mut Rng, at: (usize, usize), new: &str) -> String {
    let old = &text[at.0..at.1];
    if rng.chance(3, 4) {
        text.replace(old, new)
    } else {
        format!("{}{}{}", &text[..at.0], new, &text[at.1..])
    }
}

fn splice(text: &str, start: usize, end: usize, new: &str) -> String {
    format!("{}{}{}", &text[..start], new, &text[end..])
}

// ---------------------------------------------------------------------------
// Mutations. Each returns None when the text has nothing it applies to.

const INTEGERS: [&str; 14] = [
    "0",
    "1",
    "-1",
    "3",
    "7",
    "48",
    "255",
    "256",
    "257",
    "1048576",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999",
];

const DIMS: [&str; 17] = [
    "0",
    "1",
    "2",
    "3",
    "7",
    "16",
    "17",
    "48",
    "64",
    "128",
    "255",
    "256",
    "257",
    "1048576",
    "1099511627776",
    "9223372036854775807",
    "?",
];

const ELEMENTS: [&str; 15] = [
    "f32",
    "f16",
    "bf16",
    "i8",
    "i16",
    "i32",
    "i64",
    "f64",
    "i1",
    "index",
    "f8E4M3FN",
    "i4",
    "i128",
    "complex<f32>",
    "vector<4xf32>",
];

const SPACES: [&str; 9] = [
    "",
    "1",
    "3",
    "5",
    "7",
    "#gpu.address_space<workgroup>",
    "#gpu.address_space<global>",
    "#gpu.address_space<private>",
    "\"shared\"",
];

const CHIPS: [&str; 21] = [
    "sm_80",
    "sm_86",
    "sm_87",
    "sm_89",
    "sm_90",
    "sm_90a",
    "sm_100",
    "sm_100a",
    "sm_101a",
    "sm_103a",
    "sm_110a",
    "sm_120",
    "sm_120a",
    "sm_121a",
    "sm_75",
    "sm_70",
    "sm_91",
    "sm_50",
    "",
    "gfx90a",
    "sm_99999999999999999999",
];

/// acopy attributes and values to give them (valid, invalid and ill-typed).
const ATTRIBUTES: [(&str, &[&str]); 8] = [
    (
        "oob_mode",
        &[
            "\"promise_in_bounds\"",
            "\"zeros\"",
            "\"undefined\"",
            "\"nan\"",
            "\"\"",
            "1 : i64",
            "unit",
        ],
    ),
    (
        "collective_axes",
        &[
            "[]",
            "[\"x\"]",
            "[\"y\"]",
            "[\"z\"]",
            "[\"x\", \"y\"]",
            "[\"y\", \"x\"]",
            "[\"x\", \"y\", \"z\"]",
            "[\"x\", \"x\"]",
            "[\"w\"]",
            "\"x\"",
            "[1 : i64]",
        ],
    ),
    (
        "leader_tracked",
        &[
            "\"replicated\"",
            "\"partitioned\"",
            "\"bogus\"",
            "\"\"",
            "true",
        ],
    ),
    (
        "swizzle",
        &[
            "0 : i64",
            "32 : i64",
            "64 : i64",
            "128 : i64",
            "256 : i64",
            "16 : i64",
            "-1 : i64",
            "128 : i32",
            "\"128\"",
            "9223372036854775807 : i64",
        ],
    ),
    (
        "reduction_op",
        &[
            "\"add\"", "\"min\"", "\"max\"", "\"umin\"", "\"umax\"", "\"smin\"", "\"smax\"",
            "\"inc\"", "\"dec\"", "\"and\"", "\"or\"", "\"xor\"", "\"mul\"", "\"\"", "1 : i64",
        ],
    ),
    (
        "partition_axis",
        &[
            "0 : i64",
            "1 : i64",
            "2 : i64",
            "4 : i64",
            "5 : i64",
            "-1 : i64",
            "9223372036854775807 : i64",
            "1 : i32",
        ],
    ),
    (
        "pending",
        &[
            "0 : i64",
            "1 : i64",
            "7 : i64",
            "-1 : i64",
            "255 : i64",
            "256 : i64",
            "9223372036854775807 : i64",
            "0 : i32",
        ],
    ),
    (
        "arrival_count",
        &[
            "0 : i64",
            "1 : i64",
            "3 : i64",
            "-1 : i64",
            "1048575 : i64",
            "1099511627776 : i64",
            "9223372036854775807 : i64",
        ],
    ),
];

const LAUNCH_VALUES: [&str; 7] = ["0", "1", "2", "3", "4", "16", "17"];

/// A random integer literal: a run of digits that is a whole token (not
/// part of a name, a shape or a float).
fn mutate_integer(text: &str, rng: &mut Rng) -> Option<(String, String)> {
    let bytes = text.as_bytes();
    let is_name = |b: u8| b.is_ascii_alphanumeric() || b"_%@#.$^".contains(&b);
    let mut literals = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() && (i == 0 || !is_name(bytes[i - 1])) {
            let mut end = i;
            while end < bytes.len() && bytes[end].is_ascii_digit() {
                end += 1;
            }
            let start = if i > 0 && bytes[i - 1] == b'-' {
                i - 1
            } else {
                i
            };
            if (end == bytes.len() || !(is_name(bytes[end]) || bytes[end] == b'x'))
                && is_code(text, i)
            {
                literals.push((start, end));
            }
            i = end;
        } else {
            i += 1;
        }
    }
    let &(start, end) = rng.pick(literals.as_slice().non_empty()?);
    let new = rng.pick(&INTEGERS);
    Some((
        splice(text, start, end, new),
        format!("integer {} -> {new}", &text[start..end]),
    ))
}

/// A memref shape: one dimension changed, two swapped, one dropped or added.
fn mutate_shape(text: &str, rng: &mut Rng) -> Option<(String, String)> {
    let types = memref_types(text);
    let &(start, end) = rng.pick(types.as_slice().non_empty()?);
    let old = &text[start..end];
    let parts = top_level_parts(&old["memref<".len()..old.len() - 1]);
    let (mut dims, element) = split_shape(&parts[0]);
    match rng.below(5) {
        0 | 1 if !dims.is_empty() => {
            let at = rng.below(dims.len());
            dims[at] = rng.pick(&DIMS).to_string();
        }
        2 if dims.len() > 1 => {
            let a = rng.below(dims.len());
            let b = rng.below(dims.len());
            dims.swap(a, b);
        }
        3 if !dims.is_empty() => {
            dims.remove(rng.below(dims.len()));
        }
        _ => {
            let count = if rng.chance(1, 4) { 3 } else { 1 };
            for _ in 0..count {
                let at = rng.below(dims.len() + 1);
                dims.insert(at, rng.pick(&DIMS).to_string());
            }
        }
    }
    let new = join_memref(&dims, &element, &parts[1..]);
    Some((
        replace_type(text, rng, (start, end), &new),
        format!("shape {old} -> {new}"),
    ))
}

/// An element type: of one memref type, or every use of one type name.
fn mutate_element(text: &str, rng: &mut Rng) -> Option<(String, String)> {
    let new_element = rng.pick(&ELEMENTS);
    if rng.chance(1, 4) {
        // Every whole-word use of one scalar type, memrefs and constants alike.
        let old = *rng.pick(&["f32", "f16", "bf16", "i8", "i64", "f64", "index"]);
        let bytes = text.as_bytes();
        let mut out = String::new();
        let mut last = 0;
        for (at, _) in text.match_indices(old) {
            let before = at.checked_sub(1).map(|i| bytes[i]);
            let after = bytes.get(at + old.len()).copied();
            let word = |b: Option<u8>| b.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_');
            if word(before) || word(after) || !is_code(text, at) {
                continue;
            }
            out.push_str(&text[last..at]);
            out.push_str(new_element);
            last = at + old.len();
        }
        if last == 0 {
            return None;
        }
        out.push_str(&text[last..]);
        return Some((out, format!("every {old} -> {new_element}")));
    }
    let types = memref_types(text);
    let &(start, end) = rng.pick(types.as_slice().non_empty()?);
    let old = &text[start..end];
    let parts = top_level_parts(&old["memref<".len()..old.len() - 1]);
    let (dims, _) = split_shape(&parts[0]);
    let new = join_memref(&dims, new_element, &parts[1..]);
    Some((
        replace_type(text, rng, (start, end), &new),
        format!("element {old} -> {new}"),
    ))
}

/// A memref's memory space: removed, added or changed.
fn mutate_space(text: &str, rng: &mut Rng) -> Option<(String, String)> {
    let types = memref_types(text);
    let &(start, end) = rng.pick(types.as_slice().non_empty()?);
    let old = &text[start..end];
    let mut parts = top_level_parts(&old["memref<".len()..old.len() - 1]);
    let is_layout = |part: &str| {
        part.starts_with("strided") || part.starts_with("affine_map") || part.starts_with("#map")
    };
    if parts.len() > 1 && !is_layout(&parts[parts.len() - 1]) {
        parts.pop();
    }
    let space = rng.pick(&SPACES);
    if !space.is_empty() {
        parts.push(space.to_string());
    }
    let (dims, element) = split_shape(&parts[0]);
    let new = join_memref(&dims, &element, &parts[1..]);
    Some((
        replace_type(text, rng, (start, end), &new),
        format!("memory space {old} -> {new}"),
    ))
}

/// A gpu.module's chip: another name, no target, the default target, or two.
fn mutate_chip(text: &str, rng: &mut Rng) -> Option<(String, String)> {
    let targets: Vec<(usize, usize)> = find_code(text, "#nvvm.target")
        .into_iter()
        .map(|at| {
            let after = at + "#nvvm.target".len();
            let end = if text[after..].starts_with('<') {
                matching_close(text, after).unwrap_or(after)
            } else {
                after
            };
            (at, end)
        })
        .collect();
    let &(start, end) = rng.pick(targets.as_slice().non_empty()?);
    let old = &text[start..end];
    let chip = rng.pick(&CHIPS);
    let new = match rng.below(8) {
        0 => {
            // No target at all: `gpu.module @m [#nvvm.target<...>]` -> `gpu.module @m`.
            let open = text[..start].rfind('[')?;
            let close = matching_close(text, open)?;
            return Some((
                splice(text, open, close, ""),
                format!("target list {} removed", &text[open..close]),
            ));
        }
        1 => "#nvvm.target".to_string(),
        2 => format!("{old}, #nvvm.target<chip = \"{chip}\">"),
        3 => format!("#nvvm.target<O = 3, chip = \"{chip}\", features = \"+ptx60\">"),
        _ => format!("#nvvm.target<chip = \"{chip}\">"),
    };
    Some((
        splice(text, start, end, &new),
        format!("target {old} -> {new}"),
    ))
}

/// An acopy op's attribute: a new value, removed, or added.
fn mutate_attribute(text: &str, rng: &mut Rng) -> Option<(String, String)> {
    let (name, values) = rng.pick(&ATTRIBUTES);
    let value = rng.pick(values);
    let present = find_code(text, &format!("{name} = "));
    if !present.is_empty() && rng.chance(3, 4) {
        let &at = rng.pick(&present);
        let value_start = at + name.len() + 3;
        // The value ends at the first `,` or `}` outside brackets.
        let bytes = text.as_bytes();
        let mut depth = 0i32;
        let mut end = value_start;
        while end < bytes.len() {
            match bytes[end] {
                b'[' | b'<' | b'(' => depth += 1,
                b']' | b'>' | b')' => depth -= 1,
                b',' | b'}' if depth == 0 => break,
                _ => {}
            }
            end += 1;
        }
        let old = &text[at..end];
        if rng.chance(1, 4) {
            // Drop it, with the comma before or after it.
            let (start, end) = if text[..at].trim_end().ends_with(',') {
                (text[..at].trim_end().len() - 1, end)
            } else if text[end..].starts_with(", ") {
                (at, end + 2)
            } else {
                (at, end)
            };
            return Some((splice(text, start, end, ""), format!("removed {old}")));
        }
        let new = format!("{name} = {value}");
        return Some((splice(text, at, end, &new), format!("{old} -> {new}")));
    }
    // Add it to an acopy op: into its attribute dictionary, or as a new one.
    let ops = find_code(text, "\"acopy.");
    let &at = rng.pick(ops.as_slice().non_empty()?);
    let open = at + text[at..].find('(')?;
    let close = matching_close(text, open)?;
    let rest = &text[close..];
    let spaces = rest.len() - rest.trim_start().len();
    let new = format!("{name} = {value}");
    let mutated = if rest.trim_start().starts_with('{') {
        splice(
            text,
            close + spaces + 1,
            close + spaces + 1,
            &format!("{new}, "),
        )
    } else {
        splice(text, close, close, &format!(" {{{new}}}"))
    };
    Some((mutated, format!("added {new}")))
}

/// One `operandSegmentSizes` entry changed, or one dropped or added.
fn mutate_segments(text: &str, rng: &mut Rng) -> Option<(String, String)> {
    let lists = find_code(text, "operandSegmentSizes = array<i32:");
    let &at = rng.pick(lists.as_slice().non_empty()?);
    let start = at + "operandSegmentSizes = array<i32:".len();
    let end = start + text[start..].find('>')?;
    let mut entries: Vec<String> = text[start..end]
        .split(',')
        .map(|e| e.trim().to_string())
        .collect();
    match rng.below(6) {
        0 => {
            entries.pop();
        }
        1 => entries.push("0".to_string()),
        _ => {
            let i = rng.below(entries.len());
            entries[i] = rng
                .pick(&["0", "1", "2", "3", "5", "6", "-1", "2147483647"])
                .to_string();
        }
    }
    let new = format!(" {}", entries.join(", "));
    Some((
        splice(text, start, end, &new),
        format!("operandSegmentSizes [{}] -> [{new} ]", &text[start..end]),
    ))
}

/// `nvvm.cluster_dim`, `gpu.known_block_size`, `nvvm.reqntid`: a value
/// changed, or a cluster or block size added to a kernel without one.
fn mutate_launch(text: &str, rng: &mut Rng) -> Option<(String, String)> {
    let names = ["nvvm.cluster_dim", "gpu.known_block_size", "nvvm.reqntid"];
    let name = rng.pick(&names);
    let present = find_code(text, &format!("{name} = array<i32:"));
    if !present.is_empty() && rng.chance(2, 3) {
        let &at = rng.pick(&present);
        let start = at + name.len() + " = array<i32:".len();
        let end = start + text[start..].find('>')?;
        let mut entries: Vec<String> = text[start..end]
            .split(',')
            .map(|e| e.trim().to_string())
            .collect();
        if rng.chance(1, 8) {
            entries.pop();
        } else if rng.chance(1, 3) {
            for entry in entries.iter_mut() {
                *entry = rng.pick(&LAUNCH_VALUES).to_string();
            }
        } else {
            let i = rng.below(entries.len());
            entries[i] = rng.pick(&LAUNCH_VALUES).to_string();
        }
        let new = format!(" {}", entries.join(", "));
        return Some((
            splice(text, start, end, &new),
            format!("{name} [{}] -> [{new} ]", &text[start..end]),
        ));
    }
    let kernels = find_code(text, " kernel");
    let &at = rng.pick(kernels.as_slice().non_empty()?);
    let after = at + " kernel".len();
    let values: Vec<&str> = (0..3).map(|_| *rng.pick(&LAUNCH_VALUES)).collect();
    let attribute = format!("{name} = array<i32: {}>", values.join(", "));
    let rest = &text[after..];
    let mutated = if let Some(stripped) = rest.strip_prefix(" attributes {") {
        let open = text.len() - stripped.len();
        splice(text, open, open, &format!("{attribute}, "))
    } else if rest.starts_with(" {") {
        splice(text, after, after, &format!(" attributes {{{attribute}}}"))
    } else {
        return None;
    };
    Some((mutated, format!("added {attribute}")))
}

/// A symbol name or a string literal made empty, not UTF-8 or odd.
fn mutate_string(text: &str, rng: &mut Rng) -> Option<(String, String)> {
    let bytes = text.as_bytes();
    if rng.chance(1, 2) {
        // A symbol, renamed everywhere (its definition and its uses).
        let symbols: Vec<(usize, usize)> = find_code(text, "@")
            .into_iter()
            .filter_map(|at| {
                let end = at
                    + 1
                    + text[at + 1..]
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .unwrap_or(text.len() - at - 1);
                (end > at + 1 && bytes[at + 1].is_ascii_alphabetic()).then_some((at, end))
            })
            .collect();
        let &(start, end) = rng.pick(symbols.as_slice().non_empty()?);
        let old = &text[start..end];
        let new = rng.pick(&["@\"\"", "@\"\\FF\"", "@\"a b\"", "@\"\\00x\""]);
        return Some((
            replace_type(text, rng, (start, end), new),
            format!("symbol {old} -> {new}"),
        ));
    }
    let quotes = find_code(text, "\"");
    let strings: Vec<(usize, usize)> = quotes.chunks_exact(2).map(|p| (p[0], p[1])).collect();
    let &(open, close) = rng.pick(strings.as_slice().non_empty()?);
    let new = rng.pick(&["", "\\FF", "\\00", "x\\22y", "\u{e9}"]);
    Some((
        splice(text, open + 1, close, new),
        format!("string \"{}\" -> \"{new}\"", &text[open + 1..close]),
    ))
}

/// A memref's layout: a `strided<...>` layout with odd strides and offset,
/// of the type's rank.
fn mutate_layout(text: &str, rng: &mut Rng) -> Option<(String, String)> {
    const STRIDES: [&str; 11] = [
        "1",
        "2",
        "?",
        "0",
        "16",
        "64",
        "128",
        "4096",
        "-1",
        "1048576",
        "9223372036854775807",
    ];
    let types = memref_types(text);
    let &(start, end) = rng.pick(types.as_slice().non_empty()?);
    let old = &text[start..end];
    let mut parts = top_level_parts(&old["memref<".len()..old.len() - 1]);
    let (dims, element) = split_shape(&parts[0]);
    let strides: Vec<&str> = dims.iter().map(|_| *rng.pick(&STRIDES)).collect();
    let offset = rng.pick(&["0", "?", "1", "7", "1048576", "9223372036854775807"]);
    let layout = format!("strided<[{}], offset: {offset}>", strides.join(", "));
    if parts.len() > 1 && parts[1].starts_with("strided") {
        parts[1] = layout;
    } else {
        parts.insert(1, layout);
    }
    let new = join_memref(&dims, &element, &parts[1..]);
    Some((
        replace_type(text, rng, (start, end), &new),
        format!("layout {old} -> {new}"),
    ))
}

/// Splits `text[open + 1..close - 1]` (inside brackets) at top-level commas,
/// as byte ranges.
fn list_items(text: &str, open: usize, close: usize) -> Vec<(usize, usize)> {
    let mut items = Vec::new();
    let mut depth = 0i32;
    let mut start = open + 1;
    for (i, b) in text.as_bytes()[open + 1..close - 1].iter().enumerate() {
        let at = open + 1 + i;
        match b {
            b'<' | b'(' | b'[' | b'{' => depth += 1,
            b'>' | b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                items.push((start, at));
                start = at + 1;
            }
            _ => {}
        }
    }
    if text[start..close - 1].trim().is_empty() {
        return items;
    }
    items.push((start, close - 1));
    items
}

/// An acopy copy's index operands: one more or one fewer, with its type and
/// `operandSegmentSizes` kept consistent, or src and dst swapped.
fn mutate_operands(text: &str, rng: &mut Rng) -> Option<(String, String)> {
    let mut ops = find_code(text, "\"acopy.copy_gmem_to_smem\"(");
    ops.extend(find_code(text, "\"acopy.copy_smem_to_gmem\"("));
    let &at = rng.pick(ops.as_slice().non_empty()?);
    let open = at + text[at..].find('(')?;
    let close = matching_close(text, open)?;
    let operands = list_items(text, open, close);
    let segments_at = close + text[close..].find("operandSegmentSizes = array<i32:")?;
    let segments_start = segments_at + "operandSegmentSizes = array<i32:".len();
    let segments_end = segments_start + text[segments_start..].find('>')?;
    let mut segments: Vec<i64> = text[segments_start..segments_end]
        .split(',')
        .map(|e| e.trim().parse().ok())
        .collect::<Option<_>>()?;
    let types_open = segments_end + text[segments_end..].find(": (")? + 2;
    let types_close = matching_close(text, types_open)?;
    let types = list_items(text, types_open, types_close);
    if operands.len() != types.len() || operands.len() < 2 || segments.len() < 3 {
        return None;
    }
    let item = |(a, b): (usize, usize)| text[a..b].trim().to_string();
    let mut new_operands: Vec<String> = operands.iter().map(|&r| item(r)).collect();
    let mut new_types: Vec<String> = types.iter().map(|&r| item(r)).collect();
    let indices = usize::try_from(segments[2]).ok()?;
    if 2 + indices > new_operands.len() {
        return None;
    }
    let description = match rng.below(3) {
        0 if indices > 0 => {
            new_operands.remove(2 + indices - 1);
            new_types.remove(2 + indices - 1);
            segments[2] -= 1;
            "one index fewer"
        }
        1 => {
            new_operands.swap(0, 1);
            new_types.swap(0, 1);
            "src and dst swapped"
        }
        _ => {
            let index = if indices > 0 {
                new_operands[2].clone()
            } else {
                return None;
            };
            new_operands.insert(2 + indices, index);
            new_types.insert(2 + indices, "index".to_string());
            segments[2] += 1;
            "one index more"
        }
    };
    let segments: Vec<String> = segments.iter().map(i64::to_string).collect();
    // Splice from the back so earlier positions stay valid.
    let mut out = splice(text, types_open + 1, types_close - 1, &new_types.join(", "));
    out = splice(
        &out,
        segments_start,
        segments_end,
        &format!(" {}", segments.join(", ")),
    );
    out = splice(&out, open + 1, close - 1, &new_operands.join(", "));
    Some((out, description.to_string()))
}

/// An acopy copy's index operand replaced by a new `arith.constant`, so that
/// window starts far outside (or at the edge of) src reach the checks.
fn mutate_constant_index(text: &str, rng: &mut Rng) -> Option<(String, String)> {
    let mut ops = find_code(text, "\"acopy.copy_gmem_to_smem\"(");
    ops.extend(find_code(text, "\"acopy.copy_smem_to_gmem\"("));
    let &at = rng.pick(ops.as_slice().non_empty()?);
    let open = at + text[at..].find('(')?;
    let close = matching_close(text, open)?;
    let operands = list_items(text, open, close);
    if operands.len() < 3 {
        return None;
    }
    let (start, end) = operands[2 + rng.below(operands.len() - 2)];
    let value = *rng.pick(&[
        "0",
        "1",
        "-1",
        "16",
        "64",
        "192",
        "256",
        "4096",
        "2147483647",
        "2147483648",
        "4294967296",
        "9223372036854775807",
        "-9223372036854775808",
    ]);
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let name = format!("%fuzz{}", rng.below(1000));
    let mut out = splice(text, start, end, &format!(" {name}"));
    out = splice(
        &out,
        line_start,
        line_start,
        &format!("    {name} = arith.constant {value} : index\n"),
    );
    Some((out, format!("index {} -> {value}", text[start..end].trim())))
}

/// An op given an odd location: diagnostics must still print, with a file
/// position or without one.
fn mutate_location(text: &str, rng: &mut Rng) -> Option<(String, String)> {
    let ends = find_code(text, "-> ()\n");
    let &at = rng.pick(ends.as_slice().non_empty()?);
    let end = at + "-> ()".len();
    let location = rng.pick(&[
        "loc(unknown)",
        "loc(\"\":0:0)",
        "loc(\"\\FF\":1:1)",
        "loc(\"other.mlir\":4294967295:4294967295)",
        "loc(fused[unknown, \"f\":1:2])",
        "loc(\"name\"(unknown))",
        "loc(callsite(unknown at \"caller\":3:4))",
    ]);
    Some((
        splice(text, end, end, &format!(" {location}")),
        format!("location {location}"),
    ))
}

/// One line of code dropped or duplicated.
fn mutate_line(text: &str, rng: &mut Rng) -> Option<(String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let code: Vec<usize> = (0..lines.len())
        .filter(|&i| {
            let line = lines[i].trim();
            !line.is_empty() && !line.starts_with("//")
        })
        .collect();
    let &chosen = rng.pick(code.as_slice().non_empty()?);
    let duplicate = rng.chance(1, 2);
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        if i != chosen || duplicate {
            out.push_str(line);
            out.push('\n');
        }
        if i == chosen && duplicate {
            out.push_str(line);
            out.push('\n');
        }
    }
    let verb = if duplicate { "duplicated" } else { "dropped" };
    Some((
        out,
        format!("{verb} line {}: {}", chosen + 1, lines[chosen].trim()),
    ))
}

type Mutation = fn(&str, &mut Rng) -> Option<(String, String)>;

/// The mutations, with their weights.
const MUTATIONS: [(Mutation, usize); 14] = [
    (mutate_integer, 3),
    (mutate_shape, 3),
    (mutate_element, 2),
    (mutate_space, 2),
    (mutate_chip, 2),
    (mutate_attribute, 4),
    (mutate_segments, 1),
    (mutate_launch, 2),
    (mutate_layout, 2),
    (mutate_operands, 2),
    (mutate_constant_index, 2),
    (mutate_string, 1),
    (mutate_location, 1),
    (mutate_line, 1),
];

fn mutate_once(text: &str, rng: &mut Rng) -> Option<(String, String)> {
    let total: usize = MUTATIONS.iter().map(|(_, w)| w).sum();
    for _ in 0..20 {
        let mut roll = rng.below(total);
        for (mutation, weight) in MUTATIONS {
            if roll < weight {
                if let Some(result) = mutation(text, rng) {
                    if result.0 != text {
                        return Some(result);
                    }
                }
                break;
            }
            roll -= weight;
        }
    }
    None
}

trait NonEmpty {
    fn non_empty(&self) -> Option<&Self>;
}

impl<T> NonEmpty for [T] {
    fn non_empty(&self) -> Option<&Self> {
        (!self.is_empty()).then_some(self)
    }
}

// ---------------------------------------------------------------------------
// Running acopy-opt and judging the result.

/// Why a run counts as a crash, or None when it ended cleanly.
fn classify(status: Option<ExitStatus>, stderr: &str) -> Option<String> {
    let Some(status) = status else {
        return Some(format!("no exit within {} s (a hang)", TIMEOUT.as_secs()));
    };
    if let Some(signal) = status.signal() {
        return Some(format!("killed by signal {signal}"));
    }
    if let Some(text) = CRASH_TEXTS.iter().find(|t| stderr.contains(*t)) {
        return Some(format!("stderr contains \"{text}\""));
    }
    match status.code() {
        Some(0) => None,
        Some(1) if stderr.contains("error:") => None,
        Some(1) => Some("exit status 1 without an `error:` diagnostic".to_string()),
        // Every command line here is valid, so bad usage means the driver
        // turned a problem with the input into a usage error.
        Some(2) => Some("exit status 2 (bad usage) for a valid command line".to_string()),
        other => Some(format!("exit status {other:?}")),
    }
}

/// On input that parsed and verified, an upstream op's verifier error after
/// `--acopy-lower` means acopy produced IR that does not verify: the error
/// names an op of another dialect (`'nvvm.cp.async.shared.global' op ...`).
fn invalid_output(stderr: &str) -> Option<String> {
    stderr.lines().find_map(|line| {
        let message = line.split_once("error: ")?.1;
        let op = message.strip_prefix('\'')?.split_once("' op ")?.0;
        (op.contains('.') && !op.starts_with("acopy.") && !op.contains(' '))
            .then(|| format!("the lowered IR does not verify: {message}"))
    })
}

/// The acopy-opt under test: this build's, or `ACOPY_FUZZ_BIN` (a release
/// build, say, where undefined behaviour shows differently).
fn binary() -> PathBuf {
    std::env::var_os("ACOPY_FUZZ_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_acopy-opt")),
        PathBuf::from,
    )
}

struct RunResult {
    status: Option<ExitStatus>,
    stderr: String,
}

fn run_opt(input: &Path, flags: &[&str], stderr_path: &Path) -> RunResult {
    let stderr_file = fs::File::create(stderr_path).expect("cannot create the stderr file");
    let mut child = Command::new(binary())
        .arg(input)
        .args(flags)
        .env("NO_COLOR", "1")
        .env_remove("ACOPY_LOG")
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr_file)
        .spawn()
        .expect("acopy-opt could not be started");
    let started = Instant::now();
    let status = loop {
        match child.try_wait().expect("cannot wait for acopy-opt") {
            Some(status) => break Some(status),
            None if started.elapsed() > TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            None => thread::sleep(Duration::from_millis(2)),
        }
    };
    let mut stderr = String::new();
    if let Ok(mut file) = fs::File::open(stderr_path) {
        let mut bytes = Vec::new();
        let _ = file.read_to_end(&mut bytes);
        stderr = String::from_utf8_lossy(&bytes).into_owned();
    }
    RunResult { status, stderr }
}

struct Failure {
    case: usize,
    file: String,
    mutations: Vec<String>,
    flags: Vec<String>,
    reason: String,
    stderr: String,
    saved: PathBuf,
}

#[derive(Default)]
struct Tally {
    mutants: usize,
    runs: usize,
    exit0: usize,
    exit1: usize,
    rejected_at_parse: usize,
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn collect_corpus(root: &Path) -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if !path.ends_with("gpu/ptx") {
                    walk(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "mlir") {
                out.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    walk(&root.join("tests"), &mut paths);
    walk(&root.join("examples"), &mut paths);
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let name = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .display()
                .to_string();
            let text = fs::read_to_string(&path).expect("corpus file is not readable");
            (name, text)
        })
        .collect()
}

fn env_number(name: &str) -> Option<u64> {
    let value = std::env::var(name).ok()?;
    let value = value.trim();
    let parsed = match value.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => value.parse(),
    };
    Some(parsed.unwrap_or_else(|_| panic!("{name}={value} is not a number")))
}

/// One mutant: its text and what was done to it.
fn make_mutant(
    corpus: &[(String, String)],
    seed: u64,
    case: usize,
) -> (String, String, Vec<String>) {
    let mut rng = Rng::for_case(seed, case);
    let (name, original) = rng.pick(corpus);
    let mut text = original.clone();
    let mut applied = Vec::new();
    for _ in 0..1 + rng.below(3) {
        if let Some((mutated, description)) = mutate_once(&text, &mut rng) {
            text = mutated;
            applied.push(description);
        }
    }
    (name.clone(), text, applied)
}

/// Runs one mutant through every flag set; returns its failures.
fn check_case(
    corpus: &[(String, String)],
    seed: u64,
    case: usize,
    work: &Path,
    out_dir: &Path,
    tally: &Mutex<Tally>,
    keep: bool,
) -> Vec<Failure> {
    let (file, text, mutations) = make_mutant(corpus, seed, case);
    if keep {
        let saved = out_dir.join(format!("case-{case}.mlir"));
        fs::write(&saved, &text).expect("cannot save the mutant");
        println!("case {case}: {file} mutated by: {}", mutations.join("; "));
        println!("saved as {}", saved.display());
    }
    let input = work.join("mutant.mlir");
    fs::write(&input, &text).expect("cannot write the mutant");
    let split = text.contains("// -----");
    let mut failures = Vec::new();
    let mut runs = 0;
    let (mut exit0, mut exit1) = (0, 0);
    let mut rejected_at_parse = false;
    // Whether the plain run (parse, op checks, verifier) accepted the mutant.
    let mut parsed = false;
    let log = std::env::var_os("ACOPY_FUZZ_LOG");
    let log = log.as_deref();
    for (index, flags) in FLAG_SETS.iter().enumerate() {
        let manifest = format!("--tma-manifest={}", work.join("manifest.json").display());
        let mut flags: Vec<&str> = flags
            .iter()
            .map(|flag| {
                if *flag == "--tma-manifest=MANIFEST" {
                    manifest.as_str()
                } else {
                    flag
                }
            })
            .collect();
        if split {
            flags.push("--split-input-file");
        }
        let result = run_opt(&input, &flags, &work.join("stderr.txt"));
        runs += 1;
        if let Some(log) = log {
            // Campaign triage: every error a run printed, without its position.
            let errors: Vec<&str> = result
                .stderr
                .lines()
                .filter_map(|line| line.split_once("error: ").map(|(_, message)| message))
                .collect();
            let line = format!(
                "case {case}\t{file}: {}\t{}\t{:?}\t{}\n",
                mutations.join("; "),
                flags.join(" "),
                result.status.and_then(|s| s.code()),
                errors.join(" | ")
            );
            let _ = fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(log)
                .and_then(|mut file| std::io::Write::write_all(&mut file, line.as_bytes()));
        }
        match result.status.and_then(|s| s.code()) {
            Some(0) => exit0 += 1,
            Some(1) => exit1 += 1,
            _ => {}
        }
        let mut verdict = classify(result.status, &result.stderr);
        if verdict.is_none() && index > 0 && parsed && flags.contains(&"--acopy-lower") {
            verdict = invalid_output(&result.stderr);
        }
        if index == 0 {
            parsed = result.status.and_then(|s| s.code()) == Some(0);
        }
        if let Some(reason) = verdict {
            let saved = out_dir.join(format!("case-{case}.mlir"));
            fs::write(&saved, &text).expect("cannot save the failing mutant");
            failures.push(Failure {
                case,
                file: file.clone(),
                mutations: mutations.clone(),
                flags: flags.iter().map(|s| s.to_string()).collect(),
                reason,
                stderr: result.stderr,
                saved,
            });
        }
        // The plain run only parses and checks the ops: when that fails, every
        // other run fails the same way before any pass (one chunk only).
        if index == 0 && !split && result.status.and_then(|s| s.code()) == Some(1) {
            rejected_at_parse = true;
            break;
        }
    }
    let mut tally = tally.lock().expect("tally lock");
    tally.mutants += 1;
    tally.runs += runs;
    tally.exit0 += exit0;
    tally.exit1 += exit1;
    tally.rejected_at_parse += usize::from(rejected_at_parse);
    failures
}

/// A short name for a crash, to group many mutants that hit the same bug:
/// the panic location or the first abort line.
fn signature(failure: &Failure) -> String {
    let lines: Vec<&str> = failure.stderr.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if line.contains("panicked at") {
            let message = lines.get(i + 1).copied().unwrap_or("");
            let at = line.split("panicked at").nth(1).unwrap_or("").trim();
            return format!(
                "panic at {at} {}",
                message.chars().take(100).collect::<String>()
            );
        }
        if CRASH_TEXTS.iter().any(|t| line.contains(t)) {
            return line.chars().take(160).collect();
        }
    }
    failure.reason.clone()
}

/// Prints every failing mutant, grouped by case, and a summary by crash.
fn report(failures: &[Failure], seed: u64) {
    let mut cases: Vec<usize> = failures.iter().map(|f| f.case).collect();
    cases.dedup();
    for &case in cases.iter().take(25) {
        let runs: Vec<&Failure> = failures.iter().filter(|f| f.case == case).collect();
        let first = runs[0];
        println!(
            "\nFAILED case {case}: {} mutated by: {}\n  mutant: {}\n  \
             again: ACOPY_FUZZ_SEED={seed:#x} ACOPY_FUZZ_CASE={case} cargo test -p acopy-opt --test robustness",
            first.file,
            first.mutations.join("; "),
            first.saved.display(),
        );
        for run in &runs {
            println!(
                "  {}: {} {} {}",
                run.reason,
                binary().display(),
                run.saved.display(),
                run.flags.join(" ")
            );
        }
        let stderr: Vec<&str> = first.stderr.lines().take(25).collect();
        println!(
            "  --- stderr of the first ---\n{}\n  ---",
            stderr.join("\n")
        );
    }
    if cases.len() > 25 {
        println!("\n... and {} more failing cases", cases.len() - 25);
    }
    let mut signatures: Vec<(String, usize, usize)> = Vec::new();
    for failure in failures {
        let key = signature(failure);
        match signatures.iter_mut().find(|(k, _, _)| *k == key) {
            Some(entry) => entry.1 += 1,
            None => signatures.push((key, 1, failure.case)),
        }
    }
    if !signatures.is_empty() {
        println!("\nfailures by kind (runs, first case):");
        for (key, count, case) in &signatures {
            println!("  {count:5}  case {case:6}  {key}");
        }
    }
}

#[test]
fn mutants_never_crash_acopy_opt() {
    let root = workspace_root();
    let corpus = collect_corpus(&root);
    assert!(
        corpus.len() >= 20,
        "the corpus has only {} files: is tests/ there?",
        corpus.len()
    );
    let seed = env_number("ACOPY_FUZZ_SEED").unwrap_or(DEFAULT_SEED);
    let cases = env_number("ACOPY_FUZZ_CASES").map_or(DEFAULT_CASES, |n| n as usize);
    let only = env_number("ACOPY_FUZZ_CASE").map(|n| n as usize);
    let root = root.canonicalize().unwrap_or(root);
    let out_dir = root.join("target/robustness");
    fs::create_dir_all(&out_dir).expect("cannot create target/robustness");
    if only.is_none() {
        // Mutants saved by an earlier campaign would read as this one's.
        for entry in fs::read_dir(&out_dir).into_iter().flatten().flatten() {
            if entry.file_name().to_string_lossy().starts_with("case-") {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
    let case_list: Vec<usize> = match only {
        Some(case) => vec![case],
        None => (0..cases).collect(),
    };

    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let tally = Mutex::new(Tally::default());
    let failures = Mutex::new(Vec::new());
    thread::scope(|scope| {
        for worker in 0..THREADS {
            let (corpus, case_list, next, tally, failures, out_dir) =
                (&corpus, &case_list, &next, &tally, &failures, &out_dir);
            let keep = only.is_some();
            scope.spawn(move || {
                let work = out_dir.join(format!("work-{}-{worker}", std::process::id()));
                fs::create_dir_all(&work).expect("cannot create a work directory");
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&case) = case_list.get(i) else { break };
                    let found = check_case(corpus, seed, case, &work, out_dir, tally, keep);
                    failures.lock().expect("failures lock").extend(found);
                }
                let _ = fs::remove_dir_all(&work);
            });
        }
    });

    let tally = tally.into_inner().expect("tally lock");
    let mut failures = failures.into_inner().expect("failures lock");
    failures.sort_by_key(|f| f.case);
    println!(
        "robustness: seed {seed:#x}, {} mutants of {} corpus files, {} runs ({} exit 0, {} exit 1; \
         {} mutants rejected by the parser or the op checks), {:.1} s",
        tally.mutants,
        corpus.len(),
        tally.runs,
        tally.exit0,
        tally.exit1,
        tally.rejected_at_parse,
        started.elapsed().as_secs_f64()
    );
    report(&failures, seed);
    assert!(
        failures.is_empty(),
        "{} acopy-opt runs crashed (details above; the mutants are in {})",
        failures.len(),
        out_dir.display()
    );
    // Guard against a vacuous campaign: mutants must reach the passes.
    if only.is_none() && cases >= 50 {
        assert!(
            tally.exit0 * 10 >= tally.runs,
            "under 10% of the runs succeeded: the mutations no longer reach the passes"
        );
    }
}

/// The judge itself: each kind of crash is recognised, clean ends are not.
#[test]
fn classify_recognises_crashes() {
    let exit = |code: i32| Some(ExitStatus::from_raw(code << 8));
    assert_eq!(classify(exit(0), ""), None);
    assert_eq!(classify(exit(1), "x.mlir:3:5: error: bad\n"), None);
    assert!(classify(exit(1), "").is_some());
    assert!(classify(exit(2), "acopy-opt: error: internal error: x").is_some());
    assert!(classify(exit(134), "").is_some());
    assert!(classify(Some(ExitStatus::from_raw(6)), "").is_some()); // SIGABRT
    assert!(classify(None, "").is_some());
    let unverified = "x.mlir:1:2: error: 'nvvm.cp.async.shared.global' op expected size 4";
    assert!(invalid_output(unverified).is_some());
    assert!(invalid_output("x.mlir:1:2: error: 'acopy.barrier_init' op bad").is_none());
    assert!(invalid_output("x.mlir:1:2: error: Async copies only support").is_none());
    for text in CRASH_TEXTS {
        assert!(classify(exit(1), &format!("error: x\n{text}\n")).is_some());
    }
}

/// The mutations are deterministic and change the text.
#[test]
fn mutants_are_reproducible() {
    let corpus = collect_corpus(&workspace_root());
    // Many draws: the mutations themselves must never panic.
    for case in 0..2000 {
        make_mutant(&corpus, DEFAULT_SEED ^ 0x55, case);
    }
    for case in 0..50 {
        let a = make_mutant(&corpus, DEFAULT_SEED, case);
        let b = make_mutant(&corpus, DEFAULT_SEED, case);
        assert_eq!(a.1, b.1, "case {case} differs between two draws");
    }
    let changed = (0..50)
        .filter(|&case| {
            let (name, text, _) = make_mutant(&corpus, DEFAULT_SEED, case);
            corpus.iter().any(|(n, t)| *n == name && *t != text)
        })
        .count();
    assert!(
        changed >= 45,
        "only {changed} of 50 mutants differ from their file"
    );
}
