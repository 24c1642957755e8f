//! The site's stylesheet as its pages carry it: without its comments. They explain the
//! stylesheet to whoever edits `style/main.css`, and they were a seventh of its bytes and a
//! quarter of it gzipped: 2.1 KB of the 41 KB gzip that a report's first paint waited for. Nothing else changes (no minifier: the
//! one trunk has also rewrites the app's HTML template, whose comments `benchdeck pages` reads).

/// `css` without its comments, everything else kept byte for byte. A comment with no whitespace
/// on either side (`a/**/b`, two tokens) leaves `/**/`, which still keeps them apart; a comment
/// alone on its line takes its line break with it.
pub fn without_comments(css: &str) -> String {
    let bytes = css.as_bytes();
    let mut out = String::with_capacity(css.len());
    let (mut i, mut copied, mut quote) = (0, 0, None);
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            // An escape takes the next byte with it, in a string or not (`\/*` is no comment).
            _ if b == b'\\' => i += 2,
            // A string ends at its quote or its line.
            Some(q) => {
                if b == q || b == b'\n' {
                    quote = None;
                }
                i += 1;
            }
            None if b == b'"' || b == b'\'' => {
                quote = Some(b);
                i += 1;
            }
            None if bytes[i..].starts_with(b"/*") => {
                // Unterminated, it runs to the end, as in a browser. `i` and `end` are ASCII
                // positions, so they fall between characters.
                let mut end = find(&bytes[i + 2..], b"*/").map_or(bytes.len(), |e| i + 2 + e + 2);
                out.push_str(&css[copied..i]);
                let indented = out.trim_end_matches([' ', '\t']).len();
                let line_start = matches!(out[..indented].chars().next_back(), None | Some('\n'));
                let before = out.chars().next_back();
                let after = css[end..].chars().next();
                if line_start && after == Some('\n') {
                    end += 1;
                    out.truncate(indented);
                } else if before.is_some_and(|c| !c.is_whitespace())
                    && after.is_some_and(|c| !c.is_whitespace())
                {
                    out.push_str("/**/");
                }
                i = end;
                copied = end;
            }
            None => i += 1,
        }
    }
    out.push_str(&css[copied.min(css.len())..]);
    out
}

/// Where `needle` first occurs in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::without_comments;

    #[test]
    fn comments_go_and_everything_else_stays() {
        let css = "/* head */\n:root {\n  --a: 1; /* why */\n  /* alone */\n  --b: 2;\n}\n";
        assert_eq!(without_comments(css), ":root {\n  --a: 1; \n  --b: 2;\n}\n");
        // Two tokens a comment kept apart stay apart; `.a/**/.b` is still one compound selector.
        assert_eq!(without_comments("a/* x */b"), "a/**/b");
        assert_eq!(without_comments(".a/* x */.b{}"), ".a/**/.b{}");
        assert_eq!(without_comments("a /* x */b"), "a b");
        // Unterminated: to the end, as a browser reads it.
        assert_eq!(without_comments("a { } /* open"), "a { } ");
        assert_eq!(without_comments(""), "");
        assert_eq!(
            without_comments(".a\\/*b {}"),
            ".a\\/*b {}",
            "an escaped slash"
        );
    }

    #[test]
    fn strings_are_not_comments() {
        for css in [
            "a::before { content: \"/* not */\"; }",
            "a::before { content: '/* not */'; }",
            "a::before { content: \"\\\" /* still a string */\"; }",
            "a::before { content: 'é/*ü*/'; } b { }",
            "a { background: url(\"x/*y*/z.svg\") }",
        ] {
            assert_eq!(without_comments(css), css);
        }
        assert_eq!(
            without_comments("a::before { content: \"é\" /* ü */ }"),
            "a::before { content: \"é\"  }"
        );
    }

    #[test]
    fn the_sites_stylesheet_keeps_every_rule_and_loses_a_tenth() {
        let css = include_str!("../../../../style/main.css");
        let stripped = without_comments(css);
        assert!(!stripped.contains("/*") && !stripped.contains("*/"));
        assert!(
            stripped.len() * 10 < css.len() * 9,
            "{} of {} bytes",
            stripped.len(),
            css.len()
        );
        // Every line outside a comment is there, in order.
        let mut rest = stripped.as_str();
        let mut in_comment = false;
        for line in css.lines() {
            let starts = line.trim_start().starts_with("/*");
            if starts || in_comment {
                in_comment = !line.contains("*/");
                continue;
            }
            let code = line.split("/*").next().unwrap().trim_end();
            let at = rest.find(code).unwrap_or_else(|| panic!("lost: {line}"));
            rest = &rest[at + code.len()..];
        }
    }
}
