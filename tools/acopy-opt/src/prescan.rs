//! Text that MLIR 22's parser crashes on, refused before parsing.
//!
//! The parser must never see these: it aborts the process instead of
//! reporting an error (docs/robustness.md lists each with its reproducer).
//! - `array<index: …>`: `Parser::parseDenseArrayAttr` accepts `index` as an
//!   element type and then asks it for a bit width, which crashes (SIGSEGV).

/// A problem found in the text, at a 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

fn is_name_char(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"_.$-".contains(&byte)
}

/// Scans `text` (outside comments and string literals) for input the parser
/// would crash on.
pub fn scan(text: &str) -> Vec<Problem> {
    let bytes = text.as_bytes();
    let mut problems = Vec::new();
    let (mut line, mut line_start) = (1, 0);
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                line += 1;
                line_start = i + 1;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                // A comment: skip to the end of the line.
                while i + 1 < bytes.len() && bytes[i + 1] != b'\n' {
                    i += 1;
                }
            }
            b'"' => {
                // A string literal, with backslash escapes; it ends at the
                // closing quote or, unterminated, at the end of the line.
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' && bytes.get(i + 1) != Some(&b'\n') {
                        2
                    } else {
                        1
                    };
                }
                if i < bytes.len() && bytes[i] == b'\n' {
                    continue;
                }
            }
            b'a' if bytes[i..].starts_with(b"array<")
                && (i == 0 || !is_name_char(bytes[i - 1])) =>
            {
                let mut at = i + "array<".len();
                while at < bytes.len() && (bytes[at] == b' ' || bytes[at] == b'\t') {
                    at += 1;
                }
                if bytes[at..].starts_with(b"index")
                    && !bytes
                        .get(at + "index".len())
                        .is_some_and(|&b| is_name_char(b))
                {
                    problems.push(Problem {
                        line,
                        column: at - line_start + 1,
                        message: "a dense array cannot hold index elements: use \
                                  array<i64: ...> (MLIR's parser crashes on array<index ...>, \
                                  so acopy-opt refuses it before parsing)"
                            .to_string(),
                    });
                }
            }
            _ => {}
        }
        i += 1;
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_index_arrays_in_code_only() {
        let text = "// array<index: 1>\n  x = array<index: 1, 2>, s = \"array<index>\"\n y = array< index>\n";
        let found = scan(text);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!((found[0].line, found[0].column), (2, 13));
        assert_eq!((found[1].line, found[1].column), (3, 13));
    }

    #[test]
    fn leaves_other_arrays_alone() {
        let text = "a = array<i64: 1>, b = array<index_like: 1>, c = !llvm.array<2 x index>, d = array<i32>";
        assert!(scan(text).is_empty());
    }
}
