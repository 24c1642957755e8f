//! Lenient JSON for files written by Python's `json.dump`.
//!
//! Python writes the bare tokens `NaN`, `Infinity` and `-Infinity`, which are not JSON. They are
//! read as the strings `"NaN"`, `"Infinity"` and `"-Infinity"` (outside strings only), and
//! [`crate::number::json_number`] reads those strings back as numbers. A UTF-8 byte order mark is
//! skipped. Files in JSON Lines form (one object per line, as `--append-result` writes) are split
//! by line so every error names its line.
//!
//! A document is parsed as it is first: valid JSON has no bare token outside strings, so quoting
//! them would change nothing. Only when that fails is it parsed again through [`Quoted`], which
//! quotes the tokens as the parser reads (the text is never copied), and that parse's result or
//! error is the answer: the same as parsing [`quote_non_finite`]'s copy.

mod quoted;

use std::borrow::Cow;

use serde::de::DeserializeOwned;
use serde_json::Value;

pub use quoted::Quoted;

use crate::model::Location;

/// A JSON syntax error with its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where it is: a line and column.
    pub location: Location,
    /// What serde_json said, made readable.
    pub message: String,
}

/// Strips a UTF-8 byte order mark.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Quotes the bare `NaN`, `Infinity` and `-Infinity` tokens that Python emits. Text without them
/// is returned as is (no copy).
pub fn quote_non_finite(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    // Fast path: nothing to do for the usual file.
    if memchr_any(bytes) {
        Cow::Owned(rewrite(text))
    } else {
        Cow::Borrowed(text)
    }
}

fn memchr_any(bytes: &[u8]) -> bool {
    bytes.windows(3).any(|w| w == b"NaN" || w == b"Inf")
}

fn rewrite(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 64);
    let mut in_string = false;
    let mut escaped = false;
    let mut last = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            i += 1;
            continue;
        }
        if b == b'"' {
            in_string = true;
            i += 1;
            continue;
        }
        let token = [&b"-Infinity"[..], b"Infinity", b"NaN"]
            .into_iter()
            .find(|t| bytes[i..].starts_with(t));
        if let Some(t) = token {
            out.push_str(&text[last..i]);
            out.push('"');
            out.push_str(&text[i..i + t.len()]);
            out.push('"');
            i += t.len();
            last = i;
            continue;
        }
        i += 1;
    }
    out.push_str(&text[last..]);
    out
}

/// Parses one JSON document leniently. `line_offset` is added to reported line numbers (for
/// JSON Lines, where each document starts on its own line).
pub fn parse(text: &str, line_offset: u64) -> Result<Value, SyntaxError> {
    parse_as(text, line_offset)
}

/// Parses one JSON document leniently into `T` (see [`parse`]): as it is, and through
/// [`Quoted`] when that fails.
pub fn parse_as<T: DeserializeOwned>(text: &str, line_offset: u64) -> Result<T, SyntaxError> {
    let text = strip_bom(text);
    serde_json::from_str(text)
        .or_else(|_| {
            let quoted = Quoted::new(text.as_bytes());
            serde_json::from_reader(std::io::BufReader::with_capacity(1 << 16, quoted))
        })
        .map_err(|e| SyntaxError {
            location: Location::Line {
                line: e.line() as u64 + line_offset,
                column: Some(e.column() as u64),
            },
            message: readable(&e),
        })
}

fn readable(e: &serde_json::Error) -> String {
    let text = e.to_string();
    // serde_json appends " at line L column C"; the location is reported separately.
    let text = match text.rfind(" at line ") {
        Some(i) => &text[..i],
        None => &text,
    };
    format!("invalid JSON: {text}")
}

/// One non-empty line of a JSON Lines file, parsed.
pub struct JsonLine {
    /// 1-based line number.
    pub line: u64,
    /// The parsed document, or why it could not be parsed.
    pub value: Result<Value, SyntaxError>,
}

/// True when the text holds more than one top-level JSON value, one per line.
pub fn looks_like_json_lines(text: &str) -> bool {
    let mut lines = strip_bom(text)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty());
    match (lines.next(), lines.next()) {
        (Some(a), Some(b)) => a.starts_with('{') && a.ends_with('}') && b.starts_with('{'),
        _ => false,
    }
}

/// Splits a JSON Lines file and parses every non-empty line.
pub fn parse_lines(text: &str) -> Vec<JsonLine> {
    lines(text)
        .map(|(line, l)| JsonLine {
            line,
            value: parse(l, line - 1),
        })
        .collect()
}

/// The non-empty lines of a JSON Lines file, each with its 1-based number, for reading one
/// document at a time.
pub fn lines(text: &str) -> impl Iterator<Item = (u64, &str)> {
    strip_bom(text)
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i as u64 + 1, l))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_non_finite_tokens_are_quoted_outside_strings() {
        let v = parse(
            r#"{"a": NaN, "b": Infinity, "c": -Infinity, "d": "NaN Infinity"}"#,
            0,
        )
        .unwrap();
        assert_eq!(v["a"], "NaN");
        assert_eq!(v["b"], "Infinity");
        assert_eq!(v["c"], "-Infinity");
        assert_eq!(v["d"], "NaN Infinity");
    }

    #[test]
    fn escaped_quotes_do_not_confuse_the_rewrite() {
        let v = parse(r#"{"a": "say \"NaN\"", "b": NaN}"#, 0).unwrap();
        assert_eq!(v["a"], "say \"NaN\"");
        assert_eq!(v["b"], "NaN");
    }

    /// What `parse` gave when it parsed `quote_non_finite`'s copy of the whole text.
    fn parse_of_the_copy(text: &str) -> Result<Value, SyntaxError> {
        serde_json::from_str(&quote_non_finite(strip_bom(text))).map_err(|e| SyntaxError {
            location: Location::Line {
                line: e.line() as u64,
                column: Some(e.column() as u64),
            },
            message: readable(&e),
        })
    }

    #[test]
    fn parsing_without_the_copy_gives_the_same_values_and_errors() {
        let doc = "\u{feff}{\"a\": NaN, \"b\": [1, -Infinity, 2.5e3, \"x\\\"NaN\"],\n \"c\": \
                   {\"d\": Infinity, \"é\": null, \"f\": [true, false, -0]}, \"g\": \"Inf\"}";
        let mut cases: Vec<String> = (0..=doc.len())
            .filter(|&i| doc.is_char_boundary(i))
            .map(|i| doc[..i].to_string())
            .collect();
        for (i, c) in doc.char_indices() {
            for replacement in ["", "N", "}", "\"", ",", "-", "I"] {
                let mut mutated = doc.to_string();
                mutated.replace_range(i..i + c.len_utf8(), replacement);
                cases.push(mutated);
            }
        }
        for case in &cases {
            assert_eq!(parse(case, 0), parse_of_the_copy(case), "{case:?}");
        }
    }

    #[test]
    fn bom_is_skipped() {
        assert!(parse("\u{feff}{\"a\": 1}", 0).is_ok());
    }

    #[test]
    fn syntax_errors_name_line_and_column() {
        let e = parse("{\n  \"a\": 1,\n  \"b\": ]\n}", 0).unwrap_err();
        assert_eq!(
            e.location,
            Location::Line {
                line: 3,
                column: Some(8)
            }
        );
        assert!(e.message.starts_with("invalid JSON: "), "{}", e.message);
    }

    #[test]
    fn json_lines_keep_their_line_numbers() {
        let text = "{\"a\": 1}\r\n\r\n{\"a\": }\n{\"a\": 3}";
        assert!(looks_like_json_lines(text));
        let lines = parse_lines(text);
        assert_eq!(
            lines.iter().map(|l| l.line).collect::<Vec<_>>(),
            vec![1, 3, 4]
        );
        let err = lines[1].value.as_ref().unwrap_err();
        assert!(matches!(err.location, Location::Line { line: 3, .. }));
    }
}
