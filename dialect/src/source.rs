//! Parsing MLIR source safely: text that MLIR 22's parser would crash on, or
//! answer differently from run to run, is refused first with an error at it.
//!
//! [`parse_module`] is what `acopy-opt` uses, and what a frontend that embeds
//! acopy should call instead of melior's `Module::parse`, which also panics
//! on a NUL byte. docs/robustness.md lists each case with its reproducer.
//!
//! The checks work on MLIR's tokens (whitespace, NUL bytes and `//` comments
//! between tokens are skipped the way MLIR's lexer skips them, strings are
//! opaque), so a spelling that MLIR reads as the same tokens is caught too:
//! - nesting deeper than [`MAX_NESTING`]: MLIR's parser (and later the
//!   verifier, the passes and the printer) recurse once per level, and about
//!   5000 levels overflow an 8 MiB stack;
//! - a dense array of `index` (`array<index: ...>`, also through a type alias
//!   `!t = index` and `array<!t: ...>`): `Parser::parseDenseArrayAttr` asks
//!   `index` for a bit width and crashes (SIGSEGV);
//! - an `#nvvm.target` chip that is not `sm_` and a number that fits 31 bits:
//!   the gpu.module verifier reads the number with `getAsInteger` into an
//!   uninitialized `int` and ignores the failure, so its "Minimum NVVM target
//!   SM version is sm_20" error comes and goes from run to run.

use std::{
    collections::HashMap,
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc,
    },
};

use melior::{
    diagnostic::DiagnosticSeverity,
    ir::{Location, Module},
    Context,
};

/// The deepest nesting of `(`, `[`, `{` and `<` (counted together) that
/// [`check_source`] accepts. Real IR stays far below it (a kernel rarely
/// passes 30); the driver runs on a thread whose stack holds this depth
/// through parsing, every pass and printing.
pub const MAX_NESTING: usize = 1000;

/// A problem found in the source, at a 1-based line and byte column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceProblem {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Parses `source` (any bytes: MLIR's parser works on bytes and skips NULs
/// as whitespace) into a module, wrapping top-level ops in an implicit
/// `builtin.module` as mlir-opt does. Problems found by [`check_source`] are
/// reported as errors at their location (in the buffer MLIR names `""`) and
/// the text is not parsed. Returns `None` after emitting the errors.
///
/// A parse that fails always leaves a located error: where MLIR's parser
/// fails without one (a dialect whose ops have no parser, such as one MLIR 22
/// loads from IRDL), [`NO_REASON`] is reported at the start of the input.
pub fn parse_module<'c>(context: &'c Context, source: &[u8]) -> Option<Module<'c>> {
    let errors = Arc::new(AtomicUsize::new(0));
    let counter = errors.clone();
    // Counts and passes on: the caller's handlers still see every diagnostic.
    let handler = context.attach_diagnostic_handler(move |diagnostic| {
        if matches!(diagnostic.severity(), DiagnosticSeverity::Error) {
            counter.fetch_add(1, Ordering::Relaxed);
        }
        false
    });
    let module = parse_checked(context, source);
    context.detach_diagnostic_handler(handler);
    if module.is_none() && errors.load(Ordering::Relaxed) == 0 {
        crate::diagnostics::emit_error(Location::new(context, "", 1, 1), NO_REASON);
    }
    module
}

/// The error of a parse that failed without a diagnostic of its own.
pub const NO_REASON: &str =
    "the input does not parse, and MLIR's parser gave no reason (an op whose dialect has no parser for its custom form?)";

fn parse_checked<'c>(context: &'c Context, source: &[u8]) -> Option<Module<'c>> {
    let problems = check_source(source);
    for problem in &problems {
        let location = Location::new(context, "", problem.line, problem.column);
        crate::diagnostics::emit_error(location, &problem.message);
    }
    if !problems.is_empty() {
        return None;
    }
    // MLIR's lexer reads one byte past the buffer, expecting a NUL there (the
    // C API does not ask LLVM for a terminated buffer): add one, outside the
    // length, so interior NULs stay ordinary bytes.
    let mut buffer = Vec::with_capacity(source.len() + 1);
    buffer.extend_from_slice(source);
    buffer.push(0);
    let text = mlir_sys::MlirStringRef {
        data: buffer.as_ptr().cast(),
        length: source.len(),
    };
    // SAFETY: the context is live and `buffer` outlives the call; MLIR copies
    // what it keeps (locations hold the buffer's name, not its bytes).
    unsafe { Module::from_option_raw(mlir_sys::mlirModuleCreateParse(context.to_raw(), text)) }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A bare identifier or keyword (`array`, `index`, `chip`, `sm_90`).
    Bare,
    /// `#name`: an attribute alias or dialect attribute.
    Hash,
    /// `!name`: a type alias or dialect type.
    Bang,
    /// A string literal, quotes included.
    Str,
    /// `->`.
    Arrow,
    /// `>=` (affine integer sets): not a closing angle bracket.
    GreaterEqual,
    /// Any other single byte.
    Punct(u8),
}

#[derive(Debug, Clone, Copy)]
struct Token<'a> {
    kind: Kind,
    start: usize,
    text: &'a [u8],
}

fn is_id_start(byte: u8) -> bool {
    byte.is_ascii_alphabetic() || byte == b'_'
}

fn is_id_char(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"_$.".contains(&byte)
}

/// The tokens the checks need, skipping what MLIR's lexer skips: spaces,
/// tabs, newlines, CRs, NULs and `//` comments (which end at a newline or
/// CR). Cloning it is how the checks look ahead.
#[derive(Clone)]
struct Tokens<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let bytes = self.bytes;
        let mut i = self.at;
        loop {
            match bytes.get(i)? {
                b' ' | b'\t' | b'\n' | b'\r' | 0 => i += 1,
                b'/' if bytes.get(i + 1) == Some(&b'/') => {
                    while i < bytes.len() && bytes[i] != b'\n' && bytes[i] != b'\r' {
                        i += 1;
                    }
                }
                _ => break,
            }
        }
        let start = i;
        let byte = bytes[i];
        let kind = match byte {
            b'"' => {
                // Backslash escapes; MLIR ends an unterminated string at the
                // end of the line (with an error), so do the same.
                i += 1;
                while i < bytes.len() && !b"\"\n\r".contains(&bytes[i]) {
                    i += if bytes[i] == b'\\' && i + 1 < bytes.len() && bytes[i + 1] != b'\n' {
                        2
                    } else {
                        1
                    };
                }
                if i < bytes.len() && bytes[i] == b'"' {
                    i += 1;
                }
                Kind::Str
            }
            b'#' | b'!' if bytes.get(i + 1).is_some_and(|&b| is_id_char(b)) => {
                i += 1;
                while i < bytes.len() && is_id_char(bytes[i]) {
                    i += 1;
                }
                if byte == b'#' {
                    Kind::Hash
                } else {
                    Kind::Bang
                }
            }
            b'-' if bytes.get(i + 1) == Some(&b'>') => {
                i += 2;
                Kind::Arrow
            }
            b'>' if bytes.get(i + 1) == Some(&b'=') => {
                i += 2;
                Kind::GreaterEqual
            }
            _ if is_id_start(byte) => {
                while i < bytes.len() && is_id_char(bytes[i]) {
                    i += 1;
                }
                Kind::Bare
            }
            _ => {
                i += 1;
                Kind::Punct(byte)
            }
        };
        self.at = i;
        Some(Token {
            kind,
            start,
            text: &bytes[start..i],
        })
    }
}

/// Line and column of byte offsets, computed in one forward pass.
struct Lines<'a> {
    bytes: &'a [u8],
    offset: usize,
    line: usize,
    line_start: usize,
}

impl Lines<'_> {
    /// 1-based line and column of `offset`; offsets must not decrease
    /// between calls.
    fn position(&mut self, offset: usize) -> (usize, usize) {
        while self.offset < offset {
            if self.bytes[self.offset] == b'\n' {
                self.line += 1;
                self.line_start = self.offset + 1;
            }
            self.offset += 1;
        }
        (self.line, offset - self.line_start + 1)
    }
}

fn is_kind(token: Option<Token>, kind: Kind) -> bool {
    token.is_some_and(|t| t.kind == kind)
}

fn is_bare(token: Option<Token>, word: &[u8]) -> bool {
    token.is_some_and(|t| t.kind == Kind::Bare && t.text == word)
}

/// Whether the type starting with `token` is `index`, through aliases.
fn is_index_type<'a>(aliases: &HashMap<&'a [u8], Token<'a>>, mut token: Token<'a>) -> bool {
    for _ in 0..=aliases.len() {
        match token.kind {
            Kind::Bare => return token.text == b"index",
            Kind::Bang => match aliases.get(token.text) {
                Some(&definition) => token = definition,
                None => return false,
            },
            _ => return false,
        }
    }
    false // a cycle of aliases, which the parser rejects
}

/// Finds, in `source`, everything [`parse_module`] refuses to hand to MLIR's
/// parser, in source order. Linear in the size of the source.
pub fn check_source(source: &[u8]) -> Vec<SourceProblem> {
    let tokens = Tokens {
        bytes: source,
        at: 0,
    };
    let mut checker = Checker {
        // An alias definition starts with `!`: a source without one needs
        // no second scan (a tenth of the time to parse a large module).
        aliases: if source.contains(&b'!') {
            alias_definitions(tokens.clone())
        } else {
            HashMap::new()
        },
        depth: 0,
        too_deep: false,
        targets: Vec::new(),
        found: Vec::new(),
    };
    let mut scan = tokens;
    while let Some(token) = scan.next() {
        checker.token(token, scan.clone());
    }
    located(source, checker.found)
}

/// `!name = <type>`: the first token of each alias's definition (the first
/// definition of a name, if it has several).
fn alias_definitions(mut scan: Tokens<'_>) -> HashMap<&[u8], Token<'_>> {
    let mut aliases = HashMap::new();
    while let Some(token) = scan.next() {
        if token.kind == Kind::Bang {
            let mut ahead = scan.clone();
            if is_kind(ahead.next(), Kind::Punct(b'=')) {
                if let Some(definition) = ahead.next() {
                    aliases.entry(token.text).or_insert(definition);
                }
            }
        }
    }
    aliases
}

/// The state of [`check_source`]'s one scan over the tokens.
struct Checker<'a> {
    aliases: HashMap<&'a [u8], Token<'a>>,
    /// How many brackets, braces, parentheses and angle brackets are open.
    depth: usize,
    /// Whether the nesting problem was reported (it is, once).
    too_deep: bool,
    /// The depths of the `#nvvm.target<...>` bodies the scan is inside.
    targets: Vec<usize>,
    /// Each problem at its byte offset.
    found: Vec<(usize, String)>,
}

impl<'a> Checker<'a> {
    /// Checks `token`; `ahead` reads the tokens after it.
    fn token(&mut self, token: Token<'a>, ahead: Tokens<'a>) {
        match token.kind {
            Kind::Punct(b'(' | b'[' | b'{' | b'<') => self.open(token),
            Kind::Punct(b')' | b']' | b'}' | b'>') => self.close(),
            Kind::Bare if token.text == b"array" => self.dense_array(ahead),
            Kind::Bare if token.text == b"chip" && self.targets.last() == Some(&self.depth) => {
                self.target_chip(ahead)
            }
            Kind::Hash => self.target_body(token, ahead),
            Kind::Bang => self.nvgpu_descriptor(token, ahead),
            Kind::Bare
                if token.text == b"llvm.extractvalue" || token.text == b"llvm.insertvalue" =>
            {
                self.aggregate_positions(token, ahead)
            }
            _ => {}
        }
    }

    fn open(&mut self, token: Token<'a>) {
        self.depth += 1;
        if self.depth > MAX_NESTING && !self.too_deep {
            self.too_deep = true;
            self.found.push((
                token.start,
                format!(
                    "nesting deeper than {MAX_NESTING} levels of brackets, braces, \
                     parentheses and angle brackets: acopy refuses it before parsing"
                ),
            ));
        }
    }

    fn close(&mut self) {
        if self.targets.last() == Some(&self.depth) {
            self.targets.pop();
        }
        self.depth = self.depth.saturating_sub(1);
    }

    /// `llvm.extractvalue %v[4294967296]`: MLIR 22's custom parser of
    /// `llvm.extractvalue` and `llvm.insertvalue` reads each position into 32
    /// bits after its range check, and a position of 2^32 or more (mod 2^32 in
    /// range) crashes the process; the positions in the first `[...]` after
    /// the op name are read here, decimal or hex, signed.
    fn aggregate_positions(&mut self, op: Token<'a>, ahead: Tokens<'a>) {
        let mut tokens = ahead.take(64).skip_while(|t| t.kind != Kind::Punct(b'['));
        if tokens.next().is_none() {
            return;
        }
        let mut number: Option<(usize, u128, u32)> = None;
        let mut end = 0;
        let report = |start: usize, found: &mut Vec<(usize, String)>| {
            let name = String::from_utf8_lossy(op.text);
            found.push((
                start,
                format!(
                    "a position of {name} must be below 2^32 (MLIR's parser crashes on larger ones, so acopy refuses it before parsing)"
                ),
            ));
        };
        for token in tokens {
            let contiguous = token.start == end;
            end = token.start + token.text.len();
            match (token.kind, number) {
                (Kind::Punct(digit @ b'0'..=b'9'), Some((start, value, radix))) if contiguous => {
                    let digit = u128::from(digit - b'0');
                    number = Some((
                        start,
                        value.saturating_mul(u128::from(radix)) + digit,
                        radix,
                    ));
                }
                (Kind::Punct(digit @ b'0'..=b'9'), _) => {
                    number = Some((token.start, u128::from(digit - b'0'), 10));
                }
                (Kind::Bare, Some((start, 0, 10)))
                    if contiguous && token.text.starts_with(b"x") =>
                {
                    let hex = std::str::from_utf8(&token.text[1..]).unwrap_or("");
                    let value = u128::from_str_radix(hex, 16).unwrap_or(u128::MAX);
                    number = Some((start, value, 16));
                }
                (Kind::Bare, Some((start, value, 16))) if contiguous => {
                    let hex = std::str::from_utf8(token.text).unwrap_or("");
                    let more = u128::from_str_radix(hex, 16).map_or(u128::MAX, |more| {
                        value
                            .saturating_mul(16u128.saturating_pow(hex.len() as u32))
                            .saturating_add(more)
                    });
                    number = Some((start, more, 16));
                }
                _ => {
                    if let Some((start, value, _)) = number.take() {
                        if value >= 1 << 32 {
                            report(start, &mut self.found);
                        }
                    }
                    if token.kind == Kind::Punct(b']') {
                        return;
                    }
                }
            }
        }
    }

    /// `array<index: ...>`, also through an alias of `index`.
    fn dense_array(&mut self, mut ahead: Tokens<'a>) {
        if !is_kind(ahead.next(), Kind::Punct(b'<')) {
            return;
        }
        if let Some(element) = ahead.next().filter(|&t| is_index_type(&self.aliases, t)) {
            self.found.push((
                element.start,
                "a dense array cannot hold index elements: use array<i64: ...> \
                 (MLIR's parser crashes on array<index ...>, so acopy refuses it \
                 before parsing)"
                    .to_string(),
            ));
        }
    }

    /// `chip = "..."` directly in an `#nvvm.target` body: `sm_` and a number.
    fn target_chip(&mut self, mut ahead: Tokens<'a>) {
        let (true, Some(literal)) = (
            is_kind(ahead.next(), Kind::Punct(b'=')),
            ahead.next().filter(|t| t.kind == Kind::Str),
        ) else {
            return;
        };
        let chip = unescape(literal.text);
        if !has_sm_number(&chip) {
            let name = String::from_utf8_lossy(&chip).into_owned();
            self.found.push((
                literal.start,
                format!(
                    "{} (the chip of an #nvvm.target must be sm_ and a number)",
                    acopy_target::TargetError::Unknown { name }
                ),
            ));
        }
    }

    /// `!nvgpu.tensormap.descriptor<tensor = memref<...>` and
    /// `!nvgpu.warpgroup.descriptor<tensor = memref<...>>`: MLIR 22's verifiers
    /// of the ops that use them ask the element's bit width, which crashes the
    /// process for an element that is neither an integer nor a float.
    fn nvgpu_descriptor(&mut self, token: Token<'a>, mut ahead: Tokens<'a>) {
        if token.text != b"!nvgpu.tensormap.descriptor"
            && token.text != b"!nvgpu.warpgroup.descriptor"
        {
            return;
        }
        let opens = is_kind(ahead.next(), Kind::Punct(b'<'))
            && is_bare(ahead.next(), b"tensor")
            && is_kind(ahead.next(), Kind::Punct(b'='))
            && is_bare(ahead.next(), b"memref")
            && is_kind(ahead.next(), Kind::Punct(b'<'));
        // The lexer splits `64x64xf16` into the digits and `x64xf16`; the
        // element is what follows the shape's last `x`.
        let Some(shape) = ahead
            .find(|t| !matches!(t.kind, Kind::Punct(b'0'..=b'9' | b'?')))
            .filter(|t| opens && t.kind == Kind::Bare)
        else {
            return;
        };
        let element = element_of(shape.text);
        if !is_int_or_float(element) {
            self.found.push((
                shape.start,
                format!(
                    "{} takes a memref of integer or float elements, not {}: MLIR 22's \
                     verifier crashes on others, so acopy refuses it before parsing",
                    String::from_utf8_lossy(token.text),
                    String::from_utf8_lossy(element)
                ),
            ));
        }
    }

    /// `#nvvm.target<` or `#nvvm<target<`: the body is one level below the
    /// `<` that is next.
    fn target_body(&mut self, token: Token<'a>, mut ahead: Tokens<'a>) {
        let opens = if token.text == b"#nvvm.target" {
            is_kind(ahead.next(), Kind::Punct(b'<'))
        } else {
            token.text == b"#nvvm"
                && is_kind(ahead.next(), Kind::Punct(b'<'))
                && is_bare(ahead.next(), b"target")
                && is_kind(ahead.next(), Kind::Punct(b'<'))
        };
        if opens {
            let levels = if token.text == b"#nvvm" { 2 } else { 1 };
            self.targets.push(self.depth + levels);
        }
    }
}

/// The element type's name at the end of a shape token: `x64xf16` (the lexer
/// took the leading digits apart) or `f16` gives `f16`, `x64xcomplex` gives
/// `complex`.
fn element_of(shape: &[u8]) -> &[u8] {
    let mut rest = shape.strip_prefix(b"x").unwrap_or(shape);
    loop {
        let digits = rest
            .iter()
            .take_while(|b| b.is_ascii_digit() || **b == b'?')
            .count();
        match rest.get(digits) {
            Some(b'x') if digits > 0 => rest = &rest[digits + 1..],
            _ => return rest,
        }
    }
}

/// Whether a builtin type name is an integer (`i8`, `si32`, `ui4`) or a float
/// (`f16`, `bf16`, `tf32`, `f8E4M3FN`, ...) type.
fn is_int_or_float(name: &[u8]) -> bool {
    let digits = |rest: &[u8]| !rest.is_empty() && rest.iter().all(u8::is_ascii_digit);
    match name {
        [b'i', rest @ ..] => digits(rest),
        [b's' | b'u', b'i', rest @ ..] => digits(rest),
        b"bf16" | b"tf32" => true,
        [b'f', rest @ ..] => rest.first().is_some_and(u8::is_ascii_digit),
        _ => false,
    }
}

/// The problems in source order, each at its line and column.
fn located(source: &[u8], mut found: Vec<(usize, String)>) -> Vec<SourceProblem> {
    found.sort_by_key(|(offset, _)| *offset);
    let mut lines = Lines {
        bytes: source,
        offset: 0,
        line: 1,
        line_start: 0,
    };
    found
        .into_iter()
        .map(|(offset, message)| {
            let (line, column) = lines.position(offset);
            SourceProblem {
                line,
                column,
                message,
            }
        })
        .collect()
}

/// Whether upstream reads a definite SM number from `chip`: it skips three
/// bytes and reads the digits after them into an `int`.
fn has_sm_number(chip: &[u8]) -> bool {
    let Some(rest) = chip.strip_prefix(b"sm_") else {
        return false;
    };
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    digits > 0
        && std::str::from_utf8(&rest[..digits])
            .ok()
            .and_then(|d| d.parse::<i32>().ok())
            .is_some()
}

/// The bytes a string literal (quotes included) stands for: MLIR's escapes
/// are `\\`, `\"`, `\n`, `\t` and two hex digits.
fn unescape(literal: &[u8]) -> Vec<u8> {
    let inner = literal
        .strip_prefix(b"\"")
        .map(|l| l.strip_suffix(b"\"").unwrap_or(l))
        .unwrap_or(literal);
    let mut out = Vec::with_capacity(inner.len());
    let mut i = 0;
    while i < inner.len() {
        if inner[i] != b'\\' || i + 1 >= inner.len() {
            out.push(inner[i]);
            i += 1;
            continue;
        }
        let hex = |b: u8| (b as char).to_digit(16);
        match inner[i + 1] {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'\\' | b'"' => out.push(inner[i + 1]),
            high => {
                if let (Some(h), Some(l)) = (hex(high), inner.get(i + 2).and_then(|&b| hex(b))) {
                    out.push((h * 16 + l) as u8);
                    i += 1;
                } else {
                    out.push(high);
                }
            }
        }
        i += 2;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn positions(text: &str) -> Vec<(usize, usize)> {
        check_source(text.as_bytes())
            .iter()
            .map(|p| (p.line, p.column))
            .collect()
    }

    #[test]
    fn finds_index_arrays_between_any_tokens() {
        assert_eq!(positions("x = array<index: 1>"), [(1, 11)]);
        assert_eq!(positions("x = array <index: 1>"), [(1, 12)]);
        assert_eq!(positions("x = array<\n  index: 1>"), [(2, 3)]);
        assert_eq!(positions("x = array<\r\nindex: 1>"), [(2, 1)]);
        assert_eq!(positions("x = array<\rindex: 1>"), [(1, 12)]);
        assert_eq!(positions("x = array< // c\n index: 1>"), [(2, 2)]);
        assert_eq!(positions("x = array<\0index: 1>"), [(1, 12)]);
        assert_eq!(positions("x = array<index>"), [(1, 11)]);
    }

    #[test]
    fn finds_index_arrays_through_aliases() {
        assert_eq!(positions("!t = index\nx = array<!t: 1>"), [(2, 11)]);
        assert_eq!(
            positions("!u = index\n!t = !u\nx = array<!t: 1>"),
            [(3, 11)]
        );
        assert!(positions("!t = i64\nx = array<!t: 1>").is_empty());
        // A cycle of aliases ends (the parser reports it).
        assert!(positions("!a = !b\n!b = !a\nx = array<!a: 1>").is_empty());
    }

    #[test]
    fn leaves_comments_strings_and_other_arrays_alone() {
        let text = "// array<index: 1>\n s = \"array<index>\", a = array<i64: 1>, \
                    b = array<index_like: 1>, c = !llvm.array<2 x index>, d = array<i32>";
        assert!(check_source(text.as_bytes()).is_empty());
    }

    #[test]
    fn limits_nesting_of_every_bracket_kind() {
        for (open, close) in [("(", ")"), ("[", "]"), ("{", "}"), ("tuple<", ">")] {
            let ok = format!("{}{}", open.repeat(MAX_NESTING), close.repeat(MAX_NESTING));
            assert!(positions(&ok).is_empty(), "{open}");
            let deep = open.repeat(MAX_NESTING + 1);
            let column = open.len() * MAX_NESTING + open.len();
            assert_eq!(positions(&deep), [(1, column)], "{open}");
        }
        // Arrows and `>=` close nothing, and closing past zero does not go negative.
        let arrows = "(".repeat(MAX_NESTING) + &"->".repeat(10) + "((";
        assert_eq!(positions(&arrows).len(), 1);
        let ge = "(".repeat(MAX_NESTING) + &">=".repeat(10) + "((";
        assert_eq!(positions(&ge).len(), 1);
        let closed = ")".repeat(50) + &"(".repeat(MAX_NESTING);
        assert!(positions(&closed).is_empty());
    }

    #[test]
    fn refuses_nvgpu_descriptors_of_other_elements() {
        let ok = "!d = !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>\n\
                  !t = !nvgpu.tensormap.descriptor<tensor = memref<64x64xi8, 3>, swizzle = none>";
        assert!(check_source(ok.as_bytes()).is_empty());
        let bad = "!d = !nvgpu.warpgroup.descriptor<tensor = memref<64x64xcomplex<f32>, 3>>";
        let problems = check_source(bad.as_bytes());
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0].message.contains("not complex"),
            "{}",
            problems[0].message
        );
        assert!(is_int_or_float(b"f8E4M3FN") && is_int_or_float(b"ui32"));
        assert!(
            !is_int_or_float(b"index") && !is_int_or_float(b"i") && !is_int_or_float(b"vector")
        );
    }

    #[test]
    fn checks_nvvm_target_chips() {
        for good in [
            "sm_90",
            "sm_75",
            "sm_91",
            "sm_90a",
            "sm_5",
            "sm_2147483647",
            "\\73m_90",
        ] {
            let text = format!("#nvvm.target<O = 3, chip = \"{good}\">");
            assert!(positions(&text).is_empty(), "{good}");
        }
        for bad in [
            "unknown",
            "",
            "sm_",
            "sm_x",
            "compute_90",
            "sm_2147483648",
            "sm_10000000000000000000",
            "\\00",
        ] {
            let text = format!("#nvvm.target<O = 3, chip = \"{bad}\">");
            assert_eq!(positions(&text), [(1, 28)], "{bad}");
        }
        assert_eq!(positions("#nvvm.target<\n chip\n =\n \"x\">"), [(4, 2)]);
        assert_eq!(positions("#nvvm<target<chip = \"x\">>"), [(1, 21)]);
        // Another dialect's target, and a key that is not `chip`, are not checked.
        assert!(positions("#rocdl.target<chip = \"gfx90a\">").is_empty());
        assert!(positions("#nvvm.target<features = \"x\">").is_empty());
    }

    /// A dialect loaded from IRDL has ops whose custom form MLIR 22 fails to
    /// parse without a word: the failure still gets a located error.
    #[test]
    fn a_silent_parse_failure_gets_a_located_error() {
        let registry = melior::dialect::DialectRegistry::new();
        melior::utility::register_all_dialects(&registry);
        let context = Context::new();
        context.append_dialect_registry(&registry);
        context.get_or_load_dialect("irdl");
        let irdl = "irdl.dialect @mute { irdl.operation @op { irdl.operands() } }";
        let definition = Module::parse(&context, irdl).expect("IRDL parses");
        assert!(melior::utility::load_irdl_dialects(&definition));
        let seen = crate::tests::collect_diagnostics(&context);
        // The generic form parses; the custom form fails in the parser.
        assert!(parse_module(&context, b"\"mute.op\"() : () -> ()").is_some());
        assert!(seen.lock().unwrap().is_empty());
        assert!(parse_module(&context, b"\n  mute.op").is_none());
        assert_eq!(
            *seen.lock().unwrap(),
            [(
                "Error".to_string(),
                // The start of the buffer MLIR names "" (as check_source's errors).
                Location::new(&context, "", 1, 1).to_string(),
                NO_REASON.to_string()
            )]
        );
        // A failure MLIR explains gets only its own error.
        seen.lock().unwrap().clear();
        assert!(parse_module(&context, b"\"mute.op\"(").is_none());
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 1, "{seen:?}");
        assert_ne!(seen[0].2, NO_REASON);
    }

    #[test]
    fn reports_the_unknown_chip_message() {
        let problems = check_source(b"#nvvm.target<chip = \"gfx\">");
        assert!(problems[0]
            .message
            .starts_with("unknown chip \"gfx\"; acopy supports: sm_80"));
    }
}
