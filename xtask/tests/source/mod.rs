//! Rust source as the tests of the code's shape read it (`fn_length.rs`, `cycles.rs`): the code
//! alone, with comments, strings (raw ones too) and character literals blanked, and lifetimes
//! told apart from characters.

/// `text` with every comment, string and character literal blanked out (newlines kept, so
/// line numbers hold): what is left is code whose braces can be matched.
pub fn code_only(text: &str) -> Vec<char> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        let end = literal_or_comment_end(&chars, i);
        if end == i {
            out.push(chars[i]);
            i += 1;
        } else {
            out.extend(
                chars[i..end]
                    .iter()
                    .map(|&c| if c == '\n' { '\n' } else { ' ' }),
            );
            i = end;
        }
    }
    out
}

/// Where the comment, string or character literal starting at `i` ends (just past it), or `i`
/// when none starts there.
fn literal_or_comment_end(chars: &[char], i: usize) -> usize {
    let at = |k: usize| chars.get(k).copied().unwrap_or('\0');
    let after_word = i > 0 && (at(i - 1).is_alphanumeric() || at(i - 1) == '_');
    match at(i) {
        '/' if at(i + 1) == '/' => (i..chars.len())
            .find(|&k| chars[k] == '\n')
            .unwrap_or(chars.len()),
        '/' if at(i + 1) == '*' => block_comment_end(chars, i),
        '"' => string_end(chars, i + 1),
        '\'' => char_end(chars, i),
        'b' if !after_word && at(i + 1) == '\'' => char_end(chars, i + 1),
        'b' | 'c' if !after_word && at(i + 1) == 'r' => raw_string_end(chars, i + 2).unwrap_or(i),
        'r' if !after_word => raw_string_end(chars, i + 1).unwrap_or(i),
        _ => i,
    }
}

/// The end of the (possibly nested) block comment opening at `i`.
fn block_comment_end(chars: &[char], i: usize) -> usize {
    let mut depth = 0;
    let mut k = i;
    while k + 1 < chars.len() {
        match (chars[k], chars[k + 1]) {
            ('/', '*') => {
                depth += 1;
                k += 2;
            }
            ('*', '/') => {
                depth -= 1;
                k += 2;
                if depth == 0 {
                    return k;
                }
            }
            _ => k += 1,
        }
    }
    chars.len()
}

/// The end of a string whose text starts at `k` (after its opening quote), escapes skipped.
fn string_end(chars: &[char], mut k: usize) -> usize {
    while k < chars.len() {
        match chars[k] {
            '\\' => k += 2,
            '"' => return k + 1,
            _ => k += 1,
        }
    }
    chars.len()
}

/// The end of a raw string whose hashes (or quote) start at `k`, just after its `r`; none when
/// what follows the `r` is not a raw string (an identifier starting with `r`).
fn raw_string_end(chars: &[char], k: usize) -> Option<usize> {
    let hashes = chars[k..].iter().take_while(|&&c| c == '#').count();
    if chars.get(k + hashes) != Some(&'"') {
        return None;
    }
    let mut j = k + hashes + 1;
    while j < chars.len() {
        if chars[j] == '"'
            && chars[j + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == '#')
                .count()
                == hashes
        {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(chars.len())
}

/// The end of the character literal at `i` (its opening quote), or `i` when the quote opens a
/// lifetime or a label (`'a`, `'static`, `'outer:`).
fn char_end(chars: &[char], i: usize) -> usize {
    match chars.get(i + 1) {
        Some('\\') => (i + 2..chars.len())
            .find(|&k| chars[k] == '\'' && k > i + 2)
            .map_or(chars.len(), |k| k + 1),
        Some(_) if chars.get(i + 2) == Some(&'\'') => i + 3,
        _ => i,
    }
}
