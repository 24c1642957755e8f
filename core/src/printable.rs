//! Text from input made safe to print on a terminal or in a CI log ([`printable`]).
//!
//! A model name, a label or a file name comes from a result file, and a message quotes what it
//! found there. Printed as they are, a newline in one starts a line of its own, which GitHub
//! Actions reads as a workflow command (`::error::…`, `::add-mask::…`), and an escape sequence
//! recolours the terminal or retitles its window. Every line benchdeck prints from input goes
//! through [`printable`], which writes such characters as escapes.

use std::borrow::Cow;
use std::fmt::Write as _;

/// `text` with every control character written as an escape (`\n`, `\r`, `\t`, `\u{1b}`), and
/// the characters that reorder text (bidirectional overrides and isolates) likewise.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Control characters (C0, DEL, C1) and the bidirectional formatting characters.
fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_workflow_command_in_a_value_stays_on_its_line() {
        let name = "m\n::error title=Injected::from result data\n";
        assert_eq!(
            printable(name),
            "m\\n::error title=Injected::from result data\\n"
        );
    }

    #[test]
    fn escapes_and_reordering_are_written_out() {
        assert_eq!(printable("\u{1b}[31mred\u{7}"), "\\u{1b}[31mred\\u{7}");
        assert_eq!(printable("a\u{202e}b\u{9b}c"), "a\\u{202e}b\\u{9b}c");
        assert_eq!(printable("tab\there\r"), "tab\\there\\r");
    }

    #[test]
    fn plain_text_is_borrowed_unchanged() {
        let text = "vLLM 0.7 · TTFT p99 ≤ 500 ms — “ok”";
        assert!(matches!(printable(text), Cow::Borrowed(t) if t == text));
    }
}
