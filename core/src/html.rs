//! Escaping text for HTML: the one function every place that writes HTML by hand uses (report
//! tables and inline values, entry pages' meta tags), so no report or data text can become markup.

/// Escapes `text` for HTML content and for attribute values in double or single quotes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn markup_and_quotes_become_entities() {
        assert_eq!(
            super::escape(r#"<img src=x onerror="a('b')"> & co"#),
            "&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt; &amp; co"
        );
    }
}
