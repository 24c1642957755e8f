//! [`Quoted`]: a JSON text read with Python's bare `NaN`, `Infinity` and `-Infinity` quoted, as
//! the parser asks for the bytes: the stream [`super::quote_non_finite`] would write, without
//! a copy of the text.

use std::io::{self, Read};

/// Each bare token and what the parser reads instead.
const TOKENS: [(&[u8], &[u8]); 3] = [
    (b"-Infinity", b"\"-Infinity\""),
    (b"Infinity", b"\"Infinity\""),
    (b"NaN", b"\"NaN\""),
];

/// A JSON text whose bare non-finite tokens outside strings read as strings.
pub struct Quoted<'a> {
    /// The text not yet read.
    rest: &'a [u8],
    in_string: bool,
    /// The last byte read was a backslash inside a string.
    escaped: bool,
    /// What is left to give of a quoted token.
    pending: &'static [u8],
}

impl<'a> Quoted<'a> {
    /// Reads `text` from its start.
    pub fn new(text: &'a [u8]) -> Self {
        Quoted {
            rest: text,
            in_string: false,
            escaped: false,
            pending: b"",
        }
    }

    /// How many bytes at the start of the rest go through unchanged (at least one), or zero when
    /// a token starts there: it is taken off the rest and its quoted form becomes pending.
    fn next_run(&mut self) -> usize {
        let rest = self.rest;
        if self.in_string {
            if self.escaped {
                self.escaped = false;
                return 1;
            }
            return match rest.iter().position(|&b| b == b'"' || b == b'\\') {
                Some(0) if rest[0] == b'"' => {
                    self.in_string = false;
                    1
                }
                Some(0) => {
                    self.escaped = true;
                    1
                }
                Some(i) => i,
                None => rest.len(),
            };
        }
        if rest[0] == b'"' {
            self.in_string = true;
            return 1;
        }
        if let Some((token, quoted)) = TOKENS.iter().find(|(t, _)| rest.starts_with(t)) {
            self.rest = &rest[token.len()..];
            self.pending = quoted;
            return 0;
        }
        // Up to the next byte that may open a string or a token.
        rest[1..]
            .iter()
            .position(|&b| matches!(b, b'"' | b'-' | b'I' | b'N'))
            .map_or(rest.len(), |i| i + 1)
    }
}

impl Read for Quoted<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut written = 0;
        while written < buf.len() {
            let room = buf.len() - written;
            if !self.pending.is_empty() {
                let n = self.pending.len().min(room);
                buf[written..written + n].copy_from_slice(&self.pending[..n]);
                self.pending = &self.pending[n..];
                written += n;
                continue;
            }
            if self.rest.is_empty() {
                break;
            }
            let n = self.next_run().min(room);
            buf[written..written + n].copy_from_slice(&self.rest[..n]);
            self.rest = &self.rest[n..];
            written += n;
        }
        Ok(written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Everything `Quoted` gives, read `chunk` bytes at a time.
    fn read_all(text: &str, chunk: usize) -> String {
        let mut quoted = Quoted::new(text.as_bytes());
        let mut out = Vec::new();
        let mut buf = vec![0; chunk];
        loop {
            let n = quoted.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            out.extend_from_slice(&buf[..n]);
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn gives_what_the_copy_holds_whatever_the_reads() {
        for text in [
            r#"{"a": NaN, "b": [Infinity, -Infinity, -1.5], "c": "NaN \"Inf\" \\", "d": N}"#,
            r#"["-", "\\\"NaN", NaNNaN, -Infinit, Infinity-Infinity, "é NaN ü"]"#,
            "NaN",
            "\"unterminated NaN",
            "",
        ] {
            let expected = super::super::quote_non_finite(text).into_owned();
            for chunk in [1, 2, 3, 5, 8, 64] {
                assert_eq!(
                    read_all(text, chunk),
                    expected,
                    "{text:?} in reads of {chunk}"
                );
            }
        }
    }
}
