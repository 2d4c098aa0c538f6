//! `--split-input-file`: cutting the input at `// -----` lines.

/// One case of the input: a slice of it and the line it starts on. The
/// driver parses the slice alone and moves its diagnostics down by
/// `lines_before`, so they point into the file the user wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk<'a> {
    /// How many lines of the input come before the chunk.
    pub lines_before: usize,
    pub bytes: &'a [u8],
}

fn is_separator(line: &[u8]) -> bool {
    line.trim_ascii_end() == b"// -----"
}

/// Splits `input` into chunks; without `split`, the whole input is one chunk.
pub fn split_input(input: &[u8], split: bool) -> Vec<Chunk<'_>> {
    if !split {
        return vec![Chunk {
            lines_before: 0,
            bytes: input,
        }];
    }
    let mut chunks = Vec::new();
    let (mut start, mut lines_before) = (0, 0);
    let mut offset = 0;
    for (index, line) in input.split_inclusive(|&byte| byte == b'\n').enumerate() {
        if is_separator(line) {
            chunks.push(Chunk {
                lines_before,
                bytes: &input[start..offset],
            });
            // The next chunk starts on the following line.
            start = offset + line.len();
            lines_before = index + 1;
        }
        offset += line.len();
    }
    chunks.push(Chunk {
        lines_before,
        bytes: &input[start..],
    });
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_line_numbers() {
        let chunks = split_input(b"a\n// -----\nb\nc\n// -----\nd", true);
        assert_eq!(chunks.len(), 3);
        let parts: Vec<(usize, &[u8])> = chunks.iter().map(|c| (c.lines_before, c.bytes)).collect();
        assert_eq!(parts, [(0, &b"a\n"[..]), (2, b"b\nc\n"), (5, b"d")]);
    }

    #[test]
    fn no_split_is_one_chunk() {
        assert_eq!(split_input(b"a\n// -----\nb", false).len(), 1);
    }

    #[test]
    fn splits_bytes_that_are_not_utf8() {
        let chunks = split_input(b"\xff\0\n// -----  \n\xfe", true);
        assert_eq!(chunks.len(), 2);
        assert_eq!(
            (chunks[0].lines_before, chunks[0].bytes),
            (0, &b"\xff\0\n"[..])
        );
        assert_eq!((chunks[1].lines_before, chunks[1].bytes), (2, &b"\xfe"[..]));
    }
}
