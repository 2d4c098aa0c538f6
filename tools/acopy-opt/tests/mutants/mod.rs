//! The seeded IR mutator shared by the mutation tests (`robustness.rs`,
//! `verify_lower_agree.rs`): a corpus of every `.mlir` file under `tests/`
//! and `examples/`, and mutants of it drawn from a fixed-seed xorshift
//! generator, so every run is reproducible.

#![allow(dead_code)]

use std::{
    fs,
    path::{Path, PathBuf},
};

// ---------------------------------------------------------------------------
// The generator.

/// xorshift64* (Vigna): small, fast, and the same on every platform.
pub struct Rng(pub u64);

impl Rng {
    /// A generator for one mutant: the campaign seed and the mutant number
    /// mixed with splitmix64, so mutants do not depend on each other.
    pub fn for_case(seed: u64, case: usize) -> Self {
        let mut z = seed
            .wrapping_add((case as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        Rng(if z == 0 { 1 } else { z })
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }
}

// ---------------------------------------------------------------------------
// Reading the IR text.

/// Whether byte `at` of `text` is code: not inside a `//` comment.
pub fn is_code(text: &str, at: usize) -> bool {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    !text[line_start..at].contains("//")
}

/// The code positions where `pattern` starts.
pub fn find_code(text: &str, pattern: &str) -> Vec<usize> {
    text.match_indices(pattern)
        .map(|(at, _)| at)
        .filter(|&at| is_code(text, at))
        .collect()
}

/// The position just after the bracket that closes the one at `open`.
pub fn matching_close(text: &str, open: usize) -> Option<usize> {
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
pub fn memref_types(text: &str) -> Vec<(usize, usize)> {
    find_code(text, "memref<")
        .into_iter()
        .filter_map(|at| matching_close(text, at + "memref".len()).map(|end| (at, end)))
        .collect()
}

/// Splits the inside of `memref<...>` into its top-level comma-separated parts.
pub fn top_level_parts(inner: &str) -> Vec<String> {
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
pub fn split_shape(first: &str) -> (Vec<String>, String) {
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

pub fn join_memref(dims: &[String], element: &str, others: &[String]) -> String {
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
pub fn replace_type(text: &str, rng: &mut Rng, at: (usize, usize), new: &str) -> String {
    let old = &text[at.0..at.1];
    if rng.chance(3, 4) {
        text.replace(old, new)
    } else {
        format!("{}{}{}", &text[..at.0], new, &text[at.1..])
    }
}

pub fn splice(text: &str, start: usize, end: usize, new: &str) -> String {
    format!("{}{}{}", &text[..start], new, &text[end..])
}

// ---------------------------------------------------------------------------
// Mutations. Each returns None when the text has nothing it applies to.

pub const INTEGERS: [&str; 14] = [
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

pub const DIMS: [&str; 17] = [
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

pub const ELEMENTS: [&str; 15] = [
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

pub const SPACES: [&str; 9] = [
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

pub const CHIPS: [&str; 21] = [
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
pub const ATTRIBUTES: [(&str, &[&str]); 8] = [
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

pub const LAUNCH_VALUES: [&str; 7] = ["0", "1", "2", "3", "4", "16", "17"];

/// A random integer literal: a run of digits that is a whole token (not
/// part of a name, a shape or a float).
pub fn mutate_integer(text: &str, rng: &mut Rng) -> Option<(String, String)> {
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
pub fn mutate_shape(text: &str, rng: &mut Rng) -> Option<(String, String)> {
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
pub fn mutate_element(text: &str, rng: &mut Rng) -> Option<(String, String)> {
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
pub fn mutate_space(text: &str, rng: &mut Rng) -> Option<(String, String)> {
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
pub fn mutate_chip(text: &str, rng: &mut Rng) -> Option<(String, String)> {
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
pub fn mutate_attribute(text: &str, rng: &mut Rng) -> Option<(String, String)> {
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
pub fn mutate_segments(text: &str, rng: &mut Rng) -> Option<(String, String)> {
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
pub fn mutate_launch(text: &str, rng: &mut Rng) -> Option<(String, String)> {
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
pub fn mutate_string(text: &str, rng: &mut Rng) -> Option<(String, String)> {
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
pub fn mutate_layout(text: &str, rng: &mut Rng) -> Option<(String, String)> {
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
pub fn list_items(text: &str, open: usize, close: usize) -> Vec<(usize, usize)> {
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
pub fn mutate_operands(text: &str, rng: &mut Rng) -> Option<(String, String)> {
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
pub fn mutate_constant_index(text: &str, rng: &mut Rng) -> Option<(String, String)> {
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
pub fn mutate_location(text: &str, rng: &mut Rng) -> Option<(String, String)> {
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
pub fn mutate_line(text: &str, rng: &mut Rng) -> Option<(String, String)> {
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

pub type Mutation = fn(&str, &mut Rng) -> Option<(String, String)>;

/// The mutations, with their weights.
pub const MUTATIONS: [(Mutation, usize); 14] = [
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

pub fn mutate_once(text: &str, rng: &mut Rng) -> Option<(String, String)> {
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

pub trait NonEmpty {
    fn non_empty(&self) -> Option<&Self>;
}

impl<T> NonEmpty for [T] {
    fn non_empty(&self) -> Option<&Self> {
        (!self.is_empty()).then_some(self)
    }
}

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn collect_corpus(root: &Path) -> Vec<(String, String)> {
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

pub fn env_number(name: &str) -> Option<u64> {
    let value = std::env::var(name).ok()?;
    let value = value.trim();
    let parsed = match value.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => value.parse(),
    };
    Some(parsed.unwrap_or_else(|_| panic!("{name}={value} is not a number")))
}

/// One mutant: its text and what was done to it.
pub fn make_mutant(
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
