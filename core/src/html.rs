//! Escaping text for HTML: the one function every place that writes HTML by hand uses (report
//! tables and inline values, entry pages' meta tags), so no report or data text can become markup;
//! and reading an attribute of a tag the build wrote (chart drawings, trunk's page template).

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

/// The value of `name="…"` in `tag`, a start tag written with double quotes (as plotters and
/// trunk write them): the first occurrence after a space.
pub fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let from = tag.find(&key)? + key.len();
    let len = tag[from..].find('"')?;
    Some(&tag[from..from + len])
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
