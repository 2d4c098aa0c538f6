use super::*;

fn diag(severity: Severity, line: u32, message: &str) -> Diagnostic {
    Diagnostic {
        severity,
        position: Some(Position {
            file: "t.mlir".into(),
            line,
            column: 3,
        }),
        message: message.to_string(),
        rule: None,
        notes: Vec::new(),
        detail: None,
    }
}

fn messages(outcome: &Outcome) -> Vec<String> {
    outcome
        .problems
        .iter()
        .map(|p| format!("{}:{}: {}", p.line, p.column, p.message))
        .collect()
}

fn parse_problems(buffer: &str) -> Vec<String> {
    parse_expectations(buffer)
        .expect_err("expected a parse failure")
        .iter()
        .map(|p| format!("{}:{}: {}", p.line, p.column, p.message))
        .collect()
}

#[test]
fn severity_display() {
    assert_eq!(Severity::Error.to_string(), "error");
    assert_eq!(Severity::Warning.to_string(), "warning");
    assert_eq!(Severity::Remark.to_string(), "remark");
    assert_eq!(Severity::Note.to_string(), "note");
}

#[test]
fn each_severity_matches_only_itself() {
    let buffer = "\
a // expected-error {{e}}
b // expected-warning {{w}}
c // expected-remark {{r}}
d // expected-note {{n}}
";
    let exps = parse_expectations(buffer).unwrap();
    let sevs: Vec<_> = exps.iter().map(|e| (e.severity, e.line)).collect();
    assert_eq!(
        sevs,
        [
            (Severity::Error, 1),
            (Severity::Warning, 2),
            (Severity::Remark, 3),
            (Severity::Note, 4)
        ]
    );
    let ok = check(
        buffer,
        &[
            diag(Severity::Error, 1, "e"),
            diag(Severity::Warning, 2, "w"),
            diag(Severity::Remark, 3, "r"),
            diag(Severity::Note, 4, "n"),
        ],
    );
    assert!(ok.is_ok(), "{:?}", ok.problems);
    assert!(ok.expectations.iter().all(|e| e.matched));

    // Same lines and texts but the wrong severity: near misses, then unproduced.
    let bad = check(buffer, &[diag(Severity::Warning, 1, "e")]);
    assert_eq!(
        messages(&bad),
        [
            "1:6: 'warning' diagnostic emitted when expecting a 'error'",
            "1:6: expected error \"e\" was not produced",
            "2:6: expected warning \"w\" was not produced",
            "3:6: expected remark \"r\" was not produced",
            "4:6: expected note \"n\" was not produced",
        ]
    );
}

#[test]
fn designators() {
    let buffer = "\
// expected-error @+2 {{plus}}
// expected-error@+1 {{plus-nospace}}
op1
op2
// expected-error @-1 {{minus}}
// expected-error@-4{{minus-nospace}}
// expected-remark @above {{above}}
// expected-note@below {{below}}
// expected-warning @below {{below2}}
op3
// expected-error @unknown {{somewhere}}
";
    let exps = parse_expectations(buffer).unwrap();
    let got: Vec<_> = exps
        .iter()
        .map(|e| (e.pattern.text().to_string(), e.line, e.source_line))
        .collect();
    let want: Vec<_> = [
        ("plus", 3, 1),
        ("plus-nospace", 3, 2),
        ("minus", 4, 5),
        ("minus-nospace", 2, 6),
        ("above", 4, 7),
        ("below", 10, 8),
        ("below2", 10, 9),
        ("somewhere", 0, 11),
    ]
    .iter()
    .map(|(t, l, s)| (t.to_string(), *l, *s))
    .collect();
    assert_eq!(got, want);
}

#[test]
fn above_and_below_skip_directive_lines() {
    let buffer = "\
op
// expected-error {{own line}}
// expected-error @above {{refers to op}}
";
    let exps = parse_expectations(buffer).unwrap();
    assert_eq!(exps[0].line, 2);
    assert_eq!(exps[1].line, 1);
}

#[test]
fn no_designator_means_own_line() {
    let buffer = "x\n  foo.bar // expected-error {{bad op}}\n";
    let exps = parse_expectations(buffer).unwrap();
    assert_eq!(exps.len(), 1);
    assert_eq!((exps[0].line, exps[0].source_line), (2, 2));
    assert_eq!(exps[0].source_column, 14);
    assert!(check(buffer, &[diag(Severity::Error, 2, "bad op")]).is_ok());
    assert!(!check(buffer, &[diag(Severity::Error, 1, "bad op")]).is_ok());
}

#[test]
fn substring_match() {
    let buffer = "// expected-error @+1 {{must be positive}}\nop\n";
    let ok = check(
        buffer,
        &[diag(
            Severity::Error,
            2,
            "'x.op' attribute must be positive, got -1",
        )],
    );
    assert!(ok.is_ok(), "{:?}", ok.problems);
    let bad = check(buffer, &[diag(Severity::Error, 2, "must be negative")]);
    assert_eq!(
        messages(&bad),
        [
            "2:3: unexpected error: must be negative",
            "1:4: expected error \"must be positive\" was not produced",
        ]
    );
}

#[test]
fn text_may_contain_braces() {
    let buffer = "// expected-error {{got {a} and }}}}\n";
    let exps = parse_expectations(buffer).unwrap();
    assert_eq!(exps[0].pattern.text(), "got {a} and }}");
    assert!(check(
        buffer,
        &[diag(Severity::Error, 1, "we got {a} and }} there")]
    )
    .is_ok());
}

#[test]
fn unexpected_diagnostic() {
    let out = check("op\n", &[diag(Severity::Warning, 1, "foo")]);
    assert!(!out.is_ok());
    assert_eq!(messages(&out), ["1:3: unexpected warning: foo"]);
    assert_eq!(
        out.problems[0].render("t.mlir"),
        "t.mlir:1:3: error: unexpected warning: foo"
    );
}

#[test]
fn out_of_buffer_diagnostics() {
    let unknown = Diagnostic {
        severity: Severity::Error,
        position: None,
        message: "lost".into(),
        rule: None,
        notes: Vec::new(),
        detail: None,
    };
    // Not matched by an expectation on the same line number.
    let out = check(
        "// expected-error {{lost}}\n",
        std::slice::from_ref(&unknown),
    );
    assert_eq!(
        messages(&out),
        [
            "0:0: unexpected error: lost",
            "1:4: expected error \"lost\" was not produced"
        ]
    );
    // Non-errors outside the buffer are unexpected too.
    let note = Diagnostic {
        severity: Severity::Note,
        ..unknown.clone()
    };
    assert_eq!(
        messages(&check("", std::slice::from_ref(&note))),
        ["0:0: unexpected note: lost"]
    );
    // `@unknown` accepts it.
    assert!(check("// expected-error @unknown {{lost}}\n", &[unknown]).is_ok());
    // ... but not an in-buffer diagnostic.
    assert!(!check(
        "// expected-error @unknown {{lost}}\n",
        &[diag(Severity::Error, 1, "lost")]
    )
    .is_ok());
}

#[test]
fn missing_expected_diagnostic() {
    let buffer = "op\n// expected-error @above {{never}}\n";
    let out = check(buffer, &[]);
    assert_eq!(
        messages(&out),
        ["2:4: expected error \"never\" was not produced"]
    );
    assert!(!out.expectations[0].matched);
}

#[test]
fn two_expectations_on_one_line_are_one_to_one() {
    let buffer = "\
// expected-error @+2 {{same}}
// expected-error @+1 {{same}}
op
";
    assert!(check(
        buffer,
        &[
            diag(Severity::Error, 3, "same"),
            diag(Severity::Error, 3, "same")
        ]
    )
    .is_ok());
    let one = check(buffer, &[diag(Severity::Error, 3, "same")]);
    assert_eq!(
        messages(&one),
        ["2:4: expected error \"same\" was not produced"]
    );
    let three = check(
        buffer,
        &[
            diag(Severity::Error, 3, "same"),
            diag(Severity::Error, 3, "same"),
            diag(Severity::Error, 3, "same"),
        ],
    );
    assert_eq!(messages(&three), ["3:3: unexpected error: same"]);
}

#[test]
fn two_expectations_different_texts_any_order() {
    let buffer = "op // expected-error {{first}}\n// expected-error @-1 {{second}}\n";
    let out = check(
        buffer,
        &[
            diag(Severity::Error, 1, "second"),
            diag(Severity::Error, 1, "first"),
        ],
    );
    assert!(out.is_ok(), "{:?}", out.problems);
}

#[test]
fn error_with_attached_note() {
    let buffer = "\
// expected-error @+2 {{use of undefined value}}
// expected-note @+2 {{defined here}}
use
def
";
    let diags = [
        diag(Severity::Error, 3, "use of undefined value"),
        diag(Severity::Note, 4, "defined here"),
    ];
    assert!(check(buffer, &diags).is_ok());
    assert_eq!(
        messages(&check(buffer, &diags[..1])),
        ["2:4: expected note \"defined here\" was not produced"]
    );
}

#[test]
fn malformed_designators() {
    assert_eq!(
        parse_problems("// expected-error @+x {{foo}}\n"),
        ["1:4: expected-error directive has invalid designator '@+x' (expected '@+N', '@-N', '@above', '@below' or '@unknown')"]
    );
    assert_eq!(
        parse_problems("// expected-warning@sideways {{foo}}\n")[0],
        "1:4: expected-warning directive has invalid designator '@sideways' (expected '@+N', '@-N', '@above', '@below' or '@unknown')"
    );
    assert_eq!(
        parse_problems("\n// expected-error @-2 {{foo}}\n"),
        ["2:4: expected-error directive designator points to line 0, before the start of the file"]
    );
    assert_eq!(
        parse_problems("// expected-error @+5 {{foo}}\nop\n"),
        ["1:4: expected-error directive designator points to line 6, past the end of the file (2 lines)"]
    );
    assert_eq!(
        parse_problems("// expected-note @above {{foo}}\n"),
        ["1:4: expected-note directive with '@above' has no preceding non-directive line"]
    );
    assert_eq!(
        parse_problems("op\n// expected-remark @below {{foo}}\n"),
        ["2:4: expected-remark directive with '@below' has no following non-directive line"]
    );
}

#[test]
fn malformed_braces() {
    assert_eq!(
        parse_problems("// expected-error @+1 {{\nop\n"),
        ["1:4: expected-error directive is missing '}}' at the end of the line"]
    );
    assert_eq!(
        parse_problems("// expected-error foo}}\n"),
        ["1:4: expected-error directive is missing '{{' before its message"]
    );
    assert_eq!(
        parse_problems("// expected-error {{foo}} trailing\n"),
        ["1:4: expected-error directive is missing '}}' at the end of the line"]
    );
    // `check` reports it and still uses the well-formed directives.
    let out = check(
        "// expected-error {{foo\nop // expected-error {{bar}}\n",
        &[diag(Severity::Error, 2, "bar")],
    );
    assert_eq!(
        messages(&out),
        ["1:4: expected-error directive is missing '}}' at the end of the line"]
    );
}

#[test]
fn non_directives_are_ignored() {
    // Not in a comment, other words, trailing whitespace and CRLF.
    let buffer = "\"expected-error @+x\"\n// expected-errors are fine\n// expected-foo {{x}}\n// expected-error {{ok}}  \r\n";
    let exps = parse_expectations(buffer).unwrap();
    assert_eq!(exps.len(), 1);
    assert_eq!((exps[0].line, exps[0].pattern.text()), (4, "ok"));
}

#[test]
fn regex_directives() {
    let buffer = "op // expected-error-re {{value {{[0-9]+}} is (not) valid}}\n";
    let exps = parse_expectations(buffer).unwrap();
    assert!(matches!(exps[0].pattern, Pattern::Regex { .. }));
    assert_eq!(exps[0].pattern.text(), "value {{[0-9]+}} is (not) valid");
    assert!(check(
        buffer,
        &[diag(Severity::Error, 1, "the value 42 is (not) valid!")]
    )
    .is_ok());
    // Literal parts are escaped: "(not)" is not a group.
    assert!(!check(buffer, &[diag(Severity::Error, 1, "value 42 is not valid")]).is_ok());
    assert!(!check(
        buffer,
        &[diag(Severity::Error, 1, "value x is (not) valid")]
    )
    .is_ok());

    let with_designator = "// expected-warning-re@+1 {{^a.c$}}\nop\n";
    assert!(check(with_designator, &[diag(Severity::Warning, 2, "x ^a.c$ y")]).is_ok());
    // `.` and `^` / `$` are literal outside `{{...}}`.
    assert!(!check(with_designator, &[diag(Severity::Warning, 2, "abc")]).is_ok());

    let anchored = "// expected-note-re {{{{^}}x{{[a-z]$}}}}\n";
    assert!(check(anchored, &[diag(Severity::Note, 1, "xy")]).is_ok());
    assert!(!check(anchored, &[diag(Severity::Note, 1, "axy")]).is_ok());
}

#[test]
fn malformed_regex_directives() {
    assert_eq!(
        parse_problems("// expected-error-re {{a {{[0-9] b}}\n"),
        ["1:4: expected-error-re directive: found start of regex with no end '}}'"]
    );
    let bad = parse_problems("// expected-error-re {{a {{(}} b}}\n");
    assert_eq!(bad.len(), 1);
    assert!(
        bad[0].starts_with("1:4: expected-error-re directive: invalid regex '('"),
        "{bad:?}"
    );
}

/// Offsets at and past the ends of i64 are located errors, not a wrapped
/// line number or a panic.
#[test]
fn huge_designator_offsets() {
    assert_eq!(
        parse_problems("op\n// expected-error @+9223372036854775807 {{foo}}\n"),
        ["2:4: expected-error directive designator points to line 9223372036854775809, past the end of the file (2 lines)"]
    );
    assert_eq!(
        parse_problems("op\n// expected-error @-9223372036854775807 {{foo}}\n"),
        ["2:4: expected-error directive designator points to line -9223372036854775805, before the start of the file"]
    );
    assert_eq!(
        parse_problems("// expected-error @+99999999999999999999 {{foo}}\n"),
        ["1:4: expected-error directive has invalid designator '@+99999999999999999999' (expected '@+N', '@-N', '@above', '@below' or '@unknown')"]
    );
}

#[test]
fn notes_are_checked_after_their_diagnostic() {
    let mut error = diag(Severity::Error, 1, "bad");
    error.notes.push(diag(Severity::Note, 2, "because"));
    let buffer = "a // expected-error {{bad}}\nb // expected-note {{because}}\n";
    assert!(check(buffer, std::slice::from_ref(&error)).is_ok());
    // Without its directive the note is unexpected, though the error matched.
    assert_eq!(
        messages(&check(
            "a // expected-error {{bad}}\n",
            std::slice::from_ref(&error)
        )),
        ["2:3: unexpected note: because"]
    );
}

#[test]
fn renders_as_mlir_opt_and_places_chunks_in_the_whole_input() {
    let mut error = diag(Severity::Error, 2, "bad");
    error.position.as_mut().unwrap().file = String::new();
    let mut note = diag(Severity::Note, 0, "see current operation: x");
    note.position.as_mut().unwrap().file = "-".into();
    error.notes.push(note);
    error.notes.push(diag(Severity::Note, 4, "elsewhere"));
    error.place_in("in.mlir", 10);
    assert_eq!(error.render("f"), "in.mlir:12:3: error: bad");
    // Line 0 (no line) stays 0; another file keeps its lines.
    assert_eq!(
        error.notes[0].render("f"),
        "in.mlir:0:3: note: see current operation: x"
    );
    assert!(error.notes[0].is_op_dump() && !error.is_op_dump());
    assert_eq!(error.notes[1].render("f"), "t.mlir:4:3: note: elsewhere");
    assert_eq!(
        error.to_string(),
        "in.mlir:12:3: error: bad\nin.mlir:0:3: note: see current operation: x\nt.mlir:4:3: note: elsewhere"
    );
    let unknown = Diagnostic {
        position: None,
        ..diag(Severity::Warning, 1, "lost")
    };
    assert_eq!(unknown.render("f"), "f: warning: lost");
    let mut renamed = diag(Severity::Error, 1, "x");
    renamed.position.as_mut().unwrap().file = "-".into();
    renamed.rename_buffer("a.mlir");
    assert_eq!(renamed.render("f"), "a.mlir:1:3: error: x");
}
