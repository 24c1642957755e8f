//! The grammar of inline values: `name(arg, ...)` nested at most [`MAX_DEPTH`] deep, where an
//! argument is an expression or a bare word (a number as written may group thousands with `,`).

/// Where the word at the start of `text` ends: at `,`, `(` or `)`, except that a comma
/// grouping thousands (`5,028`: a digit before, three digits and no fourth after) is part of it.
/// One pass over the word: whether it is a number so far is carried along, so a long value costs
/// time in proportion to its length.
fn word_end(text: &str) -> usize {
    let bytes = text.as_bytes();
    // Only a word that is a number so far (`5,028`, `~1,048`, `$1,230`), not `h100,256`.
    let mut numeric = true;
    for (i, &b) in bytes.iter().enumerate() {
        let grouping = b == b',' && numeric && i > 0 && bytes[i - 1].is_ascii_digit() && {
            let after = &bytes[i + 1..];
            after.len() >= 3
                && after[..3].iter().all(u8::is_ascii_digit)
                && !after.get(3).is_some_and(u8::is_ascii_digit)
        };
        if matches!(b, b',' | b'(' | b')') && !grouping {
            return i;
        }
        numeric = numeric && (b.is_ascii_digit() || b"$,.~<> ".contains(&b));
    }
    text.len()
}

/// A parsed expression: a function applied to arguments, or a bare word.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Expr {
    Call(String, Vec<Expr>),
    Word(String),
}

/// The arguments `args` as bare words, or `usage` when one is a call: for the functions whose
/// arguments are names and options, not expressions (`fit`, `window`, `stable`, `breaking`).
pub(super) fn words<'a>(args: &'a [Expr], usage: &str) -> Result<Vec<&'a str>, String> {
    args.iter()
        .map(|a| match a {
            Expr::Word(w) => Ok(w.as_str()),
            Expr::Call(..) => Err(usage.to_string()),
        })
        .collect()
}

/// Parses `name(arg, ...)`, where an argument is an expression or a word (anything without
/// `,`, `(` or `)`).
pub(super) fn parse(text: &str) -> Result<Expr, String> {
    let (expr, rest) = parse_at(text, 0)?;
    if !rest.trim().is_empty() {
        return Err(format!("unexpected `{}` after the expression", rest.trim()));
    }
    Ok(expr)
}

/// Expressions nest at most this deep (`ratio(max(…), max(…))` is 2).
const MAX_DEPTH: usize = 16;

/// One expression at the start of `text`, `depth` calls deep, and the text after it.
fn parse_at(text: &str, depth: usize) -> Result<(Expr, &str), String> {
    if depth > MAX_DEPTH {
        return Err(format!("expressions nest at most {MAX_DEPTH} deep"));
    }
    let text = text.trim_start();
    let end = word_end(text);
    let word = text[..end].trim();
    if word.is_empty() {
        return Err("expected a value or a function such as `value(ttft:p50, vllm, 10)`".into());
    }
    let rest = &text[end..];
    let Some(mut rest) = rest.strip_prefix('(') else {
        return Ok((Expr::Word(word.to_string()), rest));
    };
    let mut args = Vec::new();
    loop {
        let (arg, after) = parse_at(rest, depth + 1)?;
        args.push(arg);
        let after = after.trim_start();
        if let Some(next) = after.strip_prefix(',') {
            rest = next;
        } else if let Some(next) = after.strip_prefix(')') {
            return Ok((Expr::Call(word.to_ascii_lowercase(), args), next));
        } else {
            return Err(format!("`{word}(`: expected `,` or `)`"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_their_thousands_and_words_end_at_commas() {
        assert_eq!(word_end("5,028, x"), 5);
        assert_eq!(word_end("~1,048)"), 6);
        assert_eq!(word_end("h100,256"), 4);
        assert_eq!(word_end("1,0000"), 1);
    }

    #[test]
    fn a_long_value_is_read_to_its_end() {
        // Quadratic reading took minutes for these; linear takes milliseconds (timed in
        // `core/benches/inputs.rs`). Each is read to its end: a number, a name, and thousands
        // run together (an error at the comma).
        for (text, reads) in [
            ("1".repeat(2_000_000), true),
            ("1,000".repeat(400_000), false),
            ("a".repeat(2_000_000), true),
        ] {
            let parsed = parse(&text);
            assert_eq!(parsed.is_ok(), reads, "{} bytes", text.len());
            if let Err(e) = parsed {
                assert!(e.starts_with("unexpected `,0001,000"), "{}", &e[..60]);
            }
        }
    }
}
