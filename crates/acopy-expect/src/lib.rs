//! Diagnostics without MLIR: the one [`Diagnostic`] type that acopy hands to
//! users (`diagnostic.rs`: severity, position, message, rule id, notes, a
//! remark's data (`detail.rs`), and
//! mlir-opt's spelling of them), and `--verify-diagnostics` for `acopy-opt`
//! as a pure library (this file).
//!
//! This follows the behaviour of MLIR's `SourceMgrDiagnosticVerifierHandler`:
//! the input buffer carries directives such as
//!
//! ```text
//! // expected-error @+1 {{some text}}
//! // expected-warning@below {{other text}}
//! // expected-note-re {{value {{[0-9]+}} defined here}}
//! ```
//!
//! and every diagnostic produced while processing the buffer has to be
//! announced by exactly one such directive, while every directive has to be
//! satisfied by a diagnostic.
//!
//! # Directive syntax
//!
//! `expected-<severity>[-re] [@<designator>] {{<text>}}`, where `<severity>`
//! is one of `error`, `warning`, `remark`, `note`, spaces (or tabs) around the
//! designator are optional and the closing `}}` must end the line (trailing
//! whitespace is ignored). The text runs from the first `{{` to the final
//! `}}`, so it may itself contain braces. Like in MLIR, a directive is
//! recognised anywhere on a line, usually inside a `//` comment.
//!
//! Designators:
//! * none: the directive's own line;
//! * `@+N` / `@-N`: N lines below / above the directive;
//! * `@above`: the closest preceding line that is not itself a directive line;
//! * `@below`: the closest following line that is not itself a directive line
//!   (so several stacked `@below` directives all refer to the same line);
//! * `@unknown`: a diagnostic whose location is not in this buffer (its
//!   [`Diagnostic::position`] is `None`). Such expectations have `line == 0`.
//!
//! Plain text matches when the diagnostic message *contains* it. With `-re`
//! the text is literal except for `{{...}}` blocks, which are regular
//! expressions (syntax of the `regex` crate); the whole pattern is searched
//! for in the message (not anchored).
//!
//! # Checking
//!
//! [`check`] takes diagnostics whose positions are in the buffer (lines of
//! the buffer) or `None`; a caller maps other files to `None`. A diagnostic's
//! notes are checked after it, as MLIR's verifier handler does.
//!
//! Each diagnostic is matched against the first not-yet-matched expectation
//! with the same line and severity whose pattern matches; expectations are
//! consumed one-to-one, so two identical directives need two diagnostics.
//! A diagnostic without such an expectation produces:
//! * `'<sev>' diagnostic emitted when expecting a '<other>'` at the
//!   directive's location, if a directive on the same line matches the text
//!   but has another severity (MLIR's "near miss");
//! * otherwise `unexpected <sev>: <message>` at the diagnostic's location.
//!   Diagnostics outside the buffer (of any severity) are reported at
//!   line 0, column 0, which the driver should treat as "unknown location".
//!
//! Every expectation left unmatched produces
//! `expected <sev> "<text>" was not produced` at the directive's location.
//! Malformed directives are reported as problems too (see
//! [`parse_expectations`]); [`check`] keeps going with the well-formed ones.
//!
//! Problems are returned in this order: malformed directives (by line),
//! then diagnostic problems (in diagnostic order), then unproduced
//! expectations (by line).

use std::fmt;

mod detail;
mod diagnostic;

pub use detail::{
    AutoLimit, AutoStages, Detail, MulticastSlots, PipelinedLoop, TileSlots, WaitScheme,
};
pub use diagnostic::{Diagnostic, Position, Severity};

/// What an expectation's text is matched with.
#[derive(Debug, Clone)]
pub enum Pattern {
    /// The diagnostic message must contain this text.
    Substring(String),
    /// `-re` form: `text` as written in the directive, compiled to `regex`.
    Regex { text: String, regex: regex::Regex },
}

impl Pattern {
    /// The text between the outer `{{` and `}}`, as written.
    pub fn text(&self) -> &str {
        match self {
            Pattern::Substring(text) | Pattern::Regex { text, .. } => text,
        }
    }

    /// Whether `message` satisfies this pattern.
    pub fn is_match(&self, message: &str) -> bool {
        match self {
            Pattern::Substring(text) => message.contains(text.as_str()),
            Pattern::Regex { regex, .. } => regex.is_match(message),
        }
    }

    /// Builds a `-re` pattern: literal text with `{{regex}}` blocks.
    pub fn regex(text: &str) -> Result<Pattern, String> {
        let mut source = String::new();
        let mut rest = text;
        while let Some(start) = rest.find("{{") {
            source.push_str(&regex::escape(&rest[..start]));
            rest = &rest[start + 2..];
            let end = rest
                .find("}}")
                .ok_or_else(|| "found start of regex with no end '}}'".to_string())?;
            let block = &rest[..end];
            if let Err(err) = regex::Regex::new(block) {
                return Err(format!("invalid regex '{block}': {err}"));
            }
            source.push('(');
            source.push_str(block);
            source.push(')');
            rest = &rest[end + 2..];
        }
        source.push_str(&regex::escape(rest));
        let regex = regex::Regex::new(&source).map_err(|err| format!("invalid regex: {err}"))?;
        Ok(Pattern::Regex {
            text: text.to_string(),
            regex,
        })
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Pattern::Substring(a), Pattern::Substring(b)) => a == b,
            (Pattern::Regex { text: a, .. }, Pattern::Regex { text: b, .. }) => a == b,
            _ => false,
        }
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// One `expected-*` directive.
#[derive(Debug, Clone, PartialEq)]
pub struct Expectation {
    pub severity: Severity,
    /// 1-based line the diagnostic is expected on; 0 for `@unknown`.
    pub line: u32,
    pub pattern: Pattern,
    /// 1-based line of the directive itself.
    pub source_line: u32,
    /// 1-based (byte) column where `expected-` starts.
    pub source_column: u32,
    /// Set by [`check`] once a diagnostic has consumed this expectation.
    pub matched: bool,
}

/// A verification failure, printed by the driver as
/// `file:line:col: error: message` (line 0 means an unknown location).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: error: {message}")]
pub struct Problem {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl Problem {
    fn new(line: u32, column: u32, message: impl Into<String>) -> Problem {
        Problem {
            line,
            column,
            message: message.into(),
        }
    }

    /// `file:line:col: error: message`.
    pub fn render(&self, file: &str) -> String {
        format!("{file}:{self}")
    }
}

/// Result of [`check`].
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub problems: Vec<Problem>,
    /// The well-formed expectations, with `matched` filled in.
    pub expectations: Vec<Expectation>,
}

impl Outcome {
    pub fn is_ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Parses all directives of `buffer`. Any malformed directive (bad
/// designator, missing `{{` or `}}`, a target line outside the buffer, a
/// dangling `@above`/`@below`, a bad `-re` regex) makes this return the list
/// of problems instead. Malformed-looking text is only reported when it
/// follows `//` on its line; elsewhere it is ignored, as in MLIR.
pub fn parse_expectations(buffer: &str) -> Result<Vec<Expectation>, Vec<Problem>> {
    let (expectations, problems) = parse_all(buffer);
    if problems.is_empty() {
        Ok(expectations)
    } else {
        Err(problems)
    }
}

/// Verifies `diagnostics` (and their notes) against the directives in `buffer`.
pub fn check(buffer: &str, diagnostics: &[Diagnostic]) -> Outcome {
    let (mut expectations, mut problems) = parse_all(buffer);
    let mut pending: Vec<&Diagnostic> = diagnostics.iter().rev().collect();
    while let Some(diag) = pending.pop() {
        pending.extend(diag.notes.iter().rev());
        match_one(diag, &mut expectations, &mut problems);
    }
    for e in expectations.iter().filter(|e| !e.matched) {
        problems.push(Problem::new(
            e.source_line,
            e.source_column,
            format!(
                "expected {} \"{}\" was not produced",
                e.severity,
                e.pattern.text()
            ),
        ));
    }

    Outcome {
        problems,
        expectations,
    }
}

/// Matches one diagnostic to the first expectation it satisfies, or records
/// why none does.
fn match_one(diag: &Diagnostic, expectations: &mut [Expectation], problems: &mut Vec<Problem>) {
    let in_buffer = diag.position.is_some();
    let line = diag.position.as_ref().map_or(0, |position| position.line);
    let on_line = |e: &Expectation| e.line == line && (e.line != 0 || !in_buffer);

    if let Some(e) = expectations.iter_mut().find(|e| {
        !e.matched && on_line(e) && e.severity == diag.severity && e.pattern.is_match(&diag.message)
    }) {
        e.matched = true;
        return;
    }

    let text_matches = |e: &&Expectation| {
        on_line(e) && e.severity != diag.severity && e.pattern.is_match(&diag.message)
    };
    let near_miss = expectations
        .iter()
        .filter(text_matches)
        .find(|e| !e.matched)
        .or_else(|| expectations.iter().find(text_matches));
    if let Some(e) = near_miss {
        problems.push(Problem::new(
            e.source_line,
            e.source_column,
            format!(
                "'{}' diagnostic emitted when expecting a '{}'",
                diag.severity, e.severity
            ),
        ));
    } else {
        let (line, column) = diag
            .position
            .as_ref()
            .map_or((0, 0), |position| (position.line, position.column));
        problems.push(Problem::new(
            line,
            column,
            format!("unexpected {}: {}", diag.severity, diag.message),
        ));
    }
}

// ---------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Designator {
    Here,
    Offset(i64),
    Above,
    Below,
    Unknown,
}

#[derive(Debug)]
struct RawDirective<'a> {
    severity: Severity,
    is_regex: bool,
    designator: Designator,
    text: &'a str,
    /// 0-based byte offset of `expected-`.
    offset: usize,
}

#[derive(Debug)]
enum LineScan<'a> {
    Nothing,
    Directive(RawDirective<'a>),
    Malformed { offset: usize, message: String },
}

fn column_of(offset: usize) -> u32 {
    u32::try_from(offset + 1).unwrap_or(u32::MAX)
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

fn skip_blanks(s: &str) -> &str {
    s.trim_start_matches([' ', '\t'])
}

/// An expectation and the line it points at; `None`: an `@below` directive
/// still waiting for its line.
type Pending = (Expectation, Option<u32>);

fn parse_all(buffer: &str) -> (Vec<Expectation>, Vec<Problem>) {
    let mut lines: Vec<&str> = buffer.split('\n').collect();
    if buffer.ends_with('\n') {
        lines.pop();
    }
    let num_lines = i64::try_from(lines.len()).unwrap_or(i64::MAX);

    let mut pending: Vec<Pending> = Vec::new();
    let mut problems = Vec::new();
    let mut last_plain_line: Option<u32> = None;

    for (index, raw_line) in lines.iter().enumerate() {
        let line_no = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let line = raw_line.strip_suffix('\r').unwrap_or(raw_line);

        let directive = match scan_line(line) {
            LineScan::Directive(d) => d,
            scan => {
                if let LineScan::Malformed { offset, message } = scan {
                    problems.push(Problem::new(line_no, column_of(offset), message));
                }
                // A line without a directive: resolves `@below`, anchors `@above`.
                last_plain_line = Some(line_no);
                for (_, target) in pending.iter_mut().filter(|(_, t)| t.is_none()) {
                    *target = Some(line_no);
                }
                continue;
            }
        };
        let at = DirectiveAt {
            line_no,
            num_lines,
            last_plain_line,
        };
        match expectation_of(&directive, &at) {
            Ok(one) => pending.push(one),
            Err(problem) => problems.push(problem),
        }
    }

    let expectations = resolve_below(pending, &mut problems);
    problems.sort_by_key(|p| (p.line, p.column));
    (expectations, problems)
}

/// Where a directive stands in the file, for resolving its designator.
struct DirectiveAt {
    /// Its own line (1-based).
    line_no: u32,
    num_lines: i64,
    /// The last line above it without a directive, the anchor of `@above`.
    last_plain_line: Option<u32>,
}

/// The expectation a well-formed directive states, or why it states none.
fn expectation_of(directive: &RawDirective<'_>, at: &DirectiveAt) -> Result<Pending, Problem> {
    let pattern = directive_pattern(directive, at.line_no)?;
    let target = directive_target(directive, at)?;
    Ok((
        Expectation {
            severity: directive.severity,
            line: 0,
            pattern,
            source_line: at.line_no,
            source_column: column_of(directive.offset),
            matched: false,
        },
        target,
    ))
}

fn directive_pattern(directive: &RawDirective<'_>, line_no: u32) -> Result<Pattern, Problem> {
    if !directive.is_regex {
        return Ok(Pattern::Substring(directive.text.to_string()));
    }
    Pattern::regex(directive.text).map_err(|err| {
        let name = directive_name(directive.severity, directive.is_regex);
        Problem::new(
            line_no,
            column_of(directive.offset),
            format!("{name} directive: {err}"),
        )
    })
}

/// The line a directive's designator points at (`Some(0)`: any line;
/// `None`: the next line without a directive, not seen yet).
fn directive_target(
    directive: &RawDirective<'_>,
    at: &DirectiveAt,
) -> Result<Option<u32>, Problem> {
    let line_no = at.line_no;
    let num_lines = at.num_lines;
    let column = column_of(directive.offset);
    let name = directive_name(directive.severity, directive.is_regex);
    let problem = |message: String| Problem::new(line_no, column, message);
    match directive.designator {
        Designator::Here => Ok(Some(line_no)),
        Designator::Unknown => Ok(Some(0)),
        Designator::Offset(delta) => {
            // In i128: the line plus an offset of up to i64::MAX must not wrap.
            let target = i128::from(line_no) + i128::from(delta);
            if target < 1 {
                return Err(problem(format!(
                    "{name} directive designator points to line {target}, before the start of the file"
                )));
            }
            if target > i128::from(num_lines) {
                return Err(problem(format!(
                    "{name} directive designator points to line {target}, past the end of the file ({num_lines} lines)"
                )));
            }
            Ok(Some(u32::try_from(target).unwrap_or(u32::MAX)))
        }
        Designator::Above => at.last_plain_line.map(Some).ok_or_else(|| {
            problem(format!(
                "{name} directive with '@above' has no preceding non-directive line"
            ))
        }),
        Designator::Below => Ok(None),
    }
}

/// The expectations with their lines; an `@below` left without a following
/// line is a problem instead.
fn resolve_below(pending: Vec<Pending>, problems: &mut Vec<Problem>) -> Vec<Expectation> {
    let mut expectations = Vec::with_capacity(pending.len());
    for (mut e, target) in pending {
        match target {
            Some(line) => {
                e.line = line;
                expectations.push(e);
            }
            None => problems.push(Problem::new(
                e.source_line,
                e.source_column,
                format!(
                    "{} directive with '@below' has no following non-directive line",
                    directive_name(e.severity, matches!(e.pattern, Pattern::Regex { .. }))
                ),
            )),
        }
    }
    expectations
}

fn directive_name(severity: Severity, is_regex: bool) -> String {
    format!("expected-{severity}{}", if is_regex { "-re" } else { "" })
}

/// Finds the directive of one line. The first well-formed occurrence wins;
/// otherwise the first malformed occurrence inside a `//` comment is
/// reported.
fn scan_line(line: &str) -> LineScan<'_> {
    let comment_start = line.find("//");
    let mut malformed = None;
    let mut search_from = 0;
    while let Some(found) = line[search_from..].find("expected-") {
        let offset = search_from + found;
        search_from = offset + "expected-".len();
        match parse_directive(line, offset) {
            Ok(Some(d)) => return LineScan::Directive(d),
            Ok(None) => {}
            Err(message) => {
                let in_comment = comment_start.is_some_and(|c| c < offset);
                if malformed.is_none() && in_comment {
                    malformed = Some(LineScan::Malformed { offset, message });
                }
            }
        }
    }
    malformed.unwrap_or(LineScan::Nothing)
}

/// Parses the directive starting at `line[offset..]` (which starts with
/// `expected-`). `Ok(None)`: not a directive at all (e.g. `expected-foo`).
fn parse_directive(line: &str, offset: usize) -> Result<Option<RawDirective<'_>>, String> {
    let after = &line[offset + "expected-".len()..];
    let Some(severity) = Severity::ALL
        .into_iter()
        .find(|s| after.starts_with(s.as_str()))
    else {
        return Ok(None);
    };
    let mut rest = &after[severity.as_str().len()..];
    let mut is_regex = false;
    if let Some(r) = rest.strip_prefix("-re") {
        if !r.starts_with(is_word_char) {
            is_regex = true;
            rest = r;
        }
    }
    if rest.starts_with(is_word_char) {
        // `expected-errors`, `expected-error-foo`, ...: not a directive.
        return Ok(None);
    }
    let name = directive_name(severity, is_regex);

    rest = skip_blanks(rest);
    let mut designator = Designator::Here;
    if let Some(d) = rest.strip_prefix('@') {
        let word_len = d
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '+' || c == '-' || c == '_'))
            .unwrap_or(d.len());
        let word = &d[..word_len];
        designator = match word {
            "above" => Designator::Above,
            "below" => Designator::Below,
            "unknown" => Designator::Unknown,
            _ => parse_offset(word).ok_or_else(|| {
                format!(
                    "{name} directive has invalid designator '@{word}' \
                     (expected '@+N', '@-N', '@above', '@below' or '@unknown')"
                )
            })?,
        };
        rest = skip_blanks(&d[word_len..]);
    }

    let Some(body) = rest.strip_prefix("{{") else {
        return Err(format!(
            "{name} directive is missing '{{{{' before its message"
        ));
    };
    let body = body.trim_end();
    let Some(text) = body.strip_suffix("}}") else {
        return Err(format!(
            "{name} directive is missing '}}}}' at the end of the line"
        ));
    };
    Ok(Some(RawDirective {
        severity,
        is_regex,
        designator,
        text,
        offset,
    }))
}

fn parse_offset(word: &str) -> Option<Designator> {
    let (sign, digits) = if let Some(d) = word.strip_prefix('+') {
        (1, d)
    } else if let Some(d) = word.strip_prefix('-') {
        (-1, d)
    } else {
        return None;
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: i64 = digits.parse().ok()?;
    Some(Designator::Offset(sign * n))
}

#[cfg(test)]
mod tests;
