//! Lenient reading of the numbers benchmark tools write.
//!
//! Tools write numbers as JSON numbers, as strings (`"131"`, `"2,973.53"`, `"inf"`), with units
//! (`"36.5 tok/s"`, `"117ms"`, `"64.7%"`), or as placeholders (`N/A`, `-`, `NaN`). This module
//! turns all of them into a [`Reading`] and never guesses: text that is not a number is
//! [`Reading::Invalid`], so the caller can report it with its location.

/// The outcome of reading one cell or JSON value as a number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reading {
    /// A number (possibly ±infinity).
    Value(f64),
    /// An explicit "no value": empty, `null`, `NaN`, `N/A`, `-`, or a redacted value like `0.x`.
    Missing,
    /// Text that is not a number.
    Invalid,
}

impl Reading {
    /// The number, if there is one.
    pub fn value(self) -> Option<f64> {
        match self {
            Reading::Value(v) => Some(v),
            _ => None,
        }
    }
}

/// Reads a number from text. `suffixes` are units that may follow it (`ms`, `%`, `tok/s`).
///
/// Accepts thousands separators (`2,973.53`; a decimal comma such as `0,3` is invalid),
/// surrounding spaces and Markdown emphasis (`**85.1**`),
/// `inf`/`infinity`/`∞` (with sign), and treats `NaN`, `N/A`, `NA`, `-`, `—`, `null`, `None` and
/// redacted values (`0.x`, `117xxxms`) as missing.
pub fn parse_number(text: &str, suffixes: &[&str]) -> Reading {
    let mut s = text.trim().trim_matches('*').trim_matches('`').trim();
    if s.is_empty() {
        return Reading::Missing;
    }
    for suffix in suffixes {
        if let Some(rest) = s.strip_suffix(suffix) {
            s = rest.trim_end();
            break;
        }
    }
    let lower = s.to_ascii_lowercase();
    match lower.as_str() {
        "" | "nan" | "-nan" | "n/a" | "na" | "-" | "—" | "–" | "null" | "none" => {
            return Reading::Missing
        }
        "inf" | "+inf" | "infinity" | "+infinity" | "∞" => return Reading::Value(f64::INFINITY),
        "-inf" | "-infinity" | "-∞" => return Reading::Value(f64::NEG_INFINITY),
        _ => {}
    }
    if is_redacted(&lower) {
        return Reading::Missing;
    }
    let Some(cleaned) = without_grouping(s) else {
        return Reading::Invalid;
    };
    if !cleaned
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'))
    {
        return Reading::Invalid;
    }
    match cleaned.parse::<f64>() {
        Ok(v) if v.is_nan() => Reading::Missing,
        Ok(v) => Reading::Value(v),
        Err(_) => Reading::Invalid,
    }
}

/// `text` without the separators that group its integer digits (`2,973.53`, `1_000`), or
/// `None` when a separator stands anywhere else. A comma is a separator only before groups of
/// exactly three digits, so a decimal comma (`0,3`, `45,50`, `1.234,5`) is no number rather
/// than a thousand times the value.
fn without_grouping(text: &str) -> Option<String> {
    if !text.contains([',', '_']) {
        return Some(text.to_string());
    }
    let unsigned = text.trim_start_matches(['-', '+']);
    let integer_end = unsigned.find(['.', 'e', 'E']).unwrap_or(unsigned.len());
    let (integer, rest) = unsigned.split_at(integer_end);
    if rest.contains([',', '_']) {
        return None;
    }
    let groups: Vec<&str> = integer.split([',', '_']).collect();
    // `0,300` is a decimal comma, never three hundred.
    let first_ok = !integer.contains(',')
        || ((1..=3).contains(&groups[0].len()) && !groups[0].starts_with('0'));
    let digits = |g: &&str| !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit());
    let grouped = groups.iter().all(digits)
        && first_ok
        && (!integer.contains(',') || groups[1..].iter().all(|g| g.len() == 3));
    grouped.then(|| text.replace([',', '_'], ""))
}

/// A value someone redacted by hand: digits mixed with `x` placeholders, like `0.x` or `117xxx`.
fn is_redacted(lower: &str) -> bool {
    let core = lower.trim_end_matches(|c: char| c.is_ascii_alphabetic() && c != 'x');
    core.contains('x')
        && core
            .chars()
            .all(|c| c == 'x' || c.is_ascii_digit() || c == '.' || c == ',')
}

/// Reads a JSON value as a number: numbers, numeric strings (see [`parse_number`]), and `null`.
pub fn json_number(value: &serde_json::Value) -> Reading {
    match value {
        serde_json::Value::Null => Reading::Missing,
        serde_json::Value::Number(n) => n.as_f64().map_or(Reading::Invalid, Reading::Value),
        serde_json::Value::String(s) => parse_number(s, &[]),
        _ => Reading::Invalid,
    }
}

/// A short description of a JSON value for error messages: `a string "abc"`, `an object`.
pub fn describe_json(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Null => "null".to_string(),
        serde_json::Value::Bool(b) => format!("the boolean {b}"),
        serde_json::Value::Number(n) => format!("the number {n}"),
        serde_json::Value::String(s) => {
            let shown: String = s.chars().take(40).collect();
            format!("the string {shown:?}")
        }
        serde_json::Value::Array(_) => "an array".to_string(),
        serde_json::Value::Object(_) => "an object".to_string(),
    }
}

/// What `str::parse::<f64>` would read `text` as, told apart without computing the value.
///
/// The browser app reads the few numbers a reader types (prices, SLAs, the address) with this
/// and the browser's own `parseFloat`, which rounds decimals exactly as Rust does: Rust's
/// decimal reader and its table of powers of five are 17 KB of gzipped wasm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FloatText {
    /// A decimal number (`-1.5e3`, `.5`, `7.`): its value is the decimal correctly rounded.
    Decimal,
    /// `inf` or `infinity` in any case, `negative` with a leading `-`.
    Infinite {
        /// Written with a leading `-`.
        negative: bool,
    },
    /// `nan` in any case, `negative` with a leading `-`.
    NaN {
        /// Written with a leading `-`.
        negative: bool,
    },
}

/// `text` as `str::parse::<f64>` would accept it (no spaces, no separators), or `None` where
/// that fails.
pub fn float_text(text: &str) -> Option<FloatText> {
    let (negative, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if rest.eq_ignore_ascii_case("inf") || rest.eq_ignore_ascii_case("infinity") {
        return Some(FloatText::Infinite { negative });
    }
    if rest.eq_ignore_ascii_case("nan") {
        return Some(FloatText::NaN { negative });
    }
    let bytes = rest.as_bytes();
    let digits = |from: usize| {
        bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let whole = digits(0);
    let mut at = whole;
    let mut fraction = 0;
    if bytes.get(at) == Some(&b'.') {
        fraction = digits(at + 1);
        at += 1 + fraction;
    }
    if whole + fraction == 0 {
        return None;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        let exponent = digits(at);
        if exponent == 0 {
            return None;
        }
        at += exponent;
    }
    (at == bytes.len()).then_some(FloatText::Decimal)
}

#[cfg(test)]
mod tests;
