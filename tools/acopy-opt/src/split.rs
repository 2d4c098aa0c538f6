//! `--split-input-file`: cutting the input at `// -----` lines.

/// One case of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// The text, preceded by blank lines so that its line numbers are the
    /// input file's: diagnostics then point into the file the user wrote.
    pub text: String,
}

fn is_separator(line: &str) -> bool {
    line.trim_end() == "// -----"
}

/// Splits `input` into chunks; without `split`, the whole input is one chunk.
pub fn split_input(input: &str, split: bool) -> Vec<Chunk> {
    if !split {
        return vec![Chunk {
            text: input.to_string(),
        }];
    }
    let mut chunks = Vec::new();
    let mut current = String::new();
    for (index, line) in input.split_inclusive('\n').enumerate() {
        if is_separator(line) {
            chunks.push(Chunk {
                text: std::mem::take(&mut current),
            });
            // The next chunk starts on the following line; pad up to it.
            current = "\n".repeat(index + 1);
        } else {
            current.push_str(line);
        }
    }
    chunks.push(Chunk { text: current });
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_line_numbers() {
        let chunks = split_input("a\n// -----\nb\nc\n// -----\nd", true);
        assert_eq!(chunks.len(), 3);
        assert_eq!(chunks[0].text, "a\n");
        assert_eq!(chunks[1].text, "\n\nb\nc\n");
        assert_eq!(chunks[2].text.lines().nth(5), Some("d"));
    }

    #[test]
    fn no_split_is_one_chunk() {
        assert_eq!(split_input("a\n// -----\nb", false).len(), 1);
    }
}
