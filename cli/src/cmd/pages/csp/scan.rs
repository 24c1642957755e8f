//! The small HTML scanner behind the Content-Security-Policy (see the parent module): the page's
//! inline scripts and their text, its event-handler attributes, its `<script` tags counted
//! anywhere, and where its `<head>` starts. It follows the HTML tokenizer where it matters:
//! comments and raw-text elements (`<style>`, `<title>`, …) are skipped, a script ends at the
//! first `</script` followed by whitespace, `/` or `>`; the one tokenizer state it does not
//! follow (`<!--` then `<script` inside a script) is refused with an error.

use anyhow::{bail, Result};

/// An element found in the page.
#[derive(Debug)]
struct StartTag<'a> {
    /// Lower-case name.
    name: String,
    /// Attributes, names lower-case, values as written (entities are not decoded).
    attrs: Vec<(String, Option<&'a str>)>,
    /// Byte offset just past the tag's `>`.
    end: usize,
}

impl StartTag<'_> {
    fn attr(&self, name: &str) -> Option<Option<&str>> {
        self.attrs.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }
}

/// An inline script that the browser runs.
#[derive(Debug, PartialEq, Eq)]
pub struct InlineScript<'a> {
    /// Byte offset of the text in the page.
    pub start: usize,
    /// The text, exactly as in the page.
    pub text: &'a str,
}

/// An event-handler attribute (`onclick=`…) on an element: inline script a policy without
/// `'unsafe-inline'` would block, and that no page of the site carries.
#[derive(Debug, PartialEq, Eq)]
pub struct Handler {
    /// Byte offset of the element's `<`.
    pub at: usize,
    /// The element's name.
    pub element: String,
    /// The attribute's name.
    pub attribute: String,
}

/// What a page runs: its inline scripts and event-handler attributes.
#[derive(Debug, Default)]
pub struct Scan<'a> {
    /// Inline scripts that run.
    pub scripts: Vec<InlineScript<'a>>,
    /// Event-handler attributes.
    pub handlers: Vec<Handler>,
}

/// Every inline script of `html` that runs: `<script>` elements without `src` whose `type` is
/// absent, empty, `module`, `importmap` or a JavaScript MIME type. Data blocks such as
/// `type="application/json"` are not run, so they need no hash.
pub fn inline_scripts(html: &str) -> Result<Vec<InlineScript<'_>>> {
    Ok(scan(html)?.scripts)
}

/// The inline scripts and event-handler attributes of `html`.
pub fn scan(html: &str) -> Result<Scan<'_>> {
    let mut found = Scan::default();
    let mut at = 0;
    while let Some(offset) = html[at..].find('<') {
        let lt = at + offset;
        let rest = &html[lt..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            at = comment
                .find("-->")
                .map_or(html.len(), |end| lt + 4 + end + 3);
            continue;
        }
        if rest.starts_with("<!") || rest.starts_with("<?") || rest.starts_with("</") {
            // Doctype, processing instruction or end tag: up to the next `>`.
            at = rest.find('>').map_or(html.len(), |end| lt + end + 1);
            continue;
        }
        let Some(tag) = start_tag(html, lt) else {
            at = lt + 1;
            continue;
        };
        at = tag.end;
        for (attribute, _) in tag.attrs.iter().filter(|(name, _)| name.starts_with("on")) {
            found.handlers.push(Handler {
                at: lt,
                element: tag.name.clone(),
                attribute: attribute.clone(),
            });
        }
        let raw_text = matches!(
            tag.name.as_str(),
            "style" | "title" | "textarea" | "xmp" | "iframe" | "noembed" | "noframes" | "noscript"
        );
        if tag.name == "script" {
            let Some(close) = find_end_tag(html, tag.end, "script") else {
                bail!("a <script> at byte {lt} has no </script>");
            };
            let text = &html[tag.end..close];
            check_no_double_escape(text, lt)?;
            if tag.attr("src").is_none() && runs(tag.attr("type").flatten()) {
                found.scripts.push(InlineScript {
                    start: tag.end,
                    text,
                });
            }
            at = html[close..]
                .find('>')
                .map_or(html.len(), |end| close + end + 1);
        } else if raw_text {
            // Their text is not markup: a `<script` inside is just text.
            at = find_end_tag(html, tag.end, &tag.name).unwrap_or(html.len());
        }
    }
    Ok(found)
}

/// True for the `type` values of scripts the browser runs.
fn runs(kind: Option<&str>) -> bool {
    let Some(kind) = kind else { return true };
    let kind = kind.trim().to_ascii_lowercase();
    matches!(
        kind.as_str(),
        "" | "module"
            | "importmap"
            | "speculationrules"
            | "text/javascript"
            | "application/javascript"
            | "application/ecmascript"
            | "application/x-ecmascript"
            | "application/x-javascript"
            | "text/ecmascript"
            | "text/javascript1.0"
            | "text/javascript1.1"
            | "text/javascript1.2"
            | "text/javascript1.3"
            | "text/javascript1.4"
            | "text/javascript1.5"
            | "text/jscript"
            | "text/livescript"
            | "text/x-ecmascript"
            | "text/x-javascript"
    )
}

/// The start tag at `lt` (which holds `<`), if it is one: a letter, then the name, attributes
/// (quoted values may hold `>`) and `>`.
fn start_tag(html: &str, lt: usize) -> Option<StartTag<'_>> {
    let bytes = html.as_bytes();
    if !bytes.get(lt + 1)?.is_ascii_alphabetic() {
        return None;
    }
    let is_space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c');
    let mut i = lt + 1;
    while i < bytes.len() && !is_space(bytes[i]) && bytes[i] != b'/' && bytes[i] != b'>' {
        i += 1;
    }
    let name = html[lt + 1..i].to_ascii_lowercase();
    let mut attrs = Vec::new();
    loop {
        while i < bytes.len() && (is_space(bytes[i]) || bytes[i] == b'/') {
            i += 1;
        }
        match bytes.get(i)? {
            b'>' => {
                return Some(StartTag {
                    name,
                    attrs,
                    end: i + 1,
                })
            }
            _ => {
                let start = i;
                // An attribute name may start with `=`; it ends at space, `/`, `>` or `=`.
                i += 1;
                while i < bytes.len()
                    && !is_space(bytes[i])
                    && !matches!(bytes[i], b'/' | b'>' | b'=')
                {
                    i += 1;
                }
                let attr = html[start..i].to_ascii_lowercase();
                while i < bytes.len() && is_space(bytes[i]) {
                    i += 1;
                }
                if bytes.get(i) != Some(&b'=') {
                    attrs.push((attr, None));
                    continue;
                }
                i += 1;
                while i < bytes.len() && is_space(bytes[i]) {
                    i += 1;
                }
                let value = match bytes.get(i)? {
                    &quote @ (b'"' | b'\'') => {
                        let close = i + 1 + html[i + 1..].find(quote as char)?;
                        let value = &html[i + 1..close];
                        i = close + 1;
                        value
                    }
                    _ => {
                        let start = i;
                        while i < bytes.len() && !is_space(bytes[i]) && bytes[i] != b'>' {
                            i += 1;
                        }
                        &html[start..i]
                    }
                };
                attrs.push((attr, Some(value)));
            }
        }
    }
}

/// Offset of the `</name` that ends a raw-text element whose text starts at `from`: `</name`
/// in any case, followed by whitespace, `/` or `>`.
fn find_end_tag(html: &str, from: usize, name: &str) -> Option<usize> {
    let lower = html.as_bytes();
    let pattern = format!("</{name}");
    let mut at = from;
    while let Some(offset) = find_ascii_ci(&lower[at..], pattern.as_bytes()) {
        let close = at + offset;
        match lower.get(close + pattern.len()) {
            Some(b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>') => return Some(close),
            Some(_) => at = close + 1,
            None => return None,
        }
    }
    None
}

/// Case-insensitive (ASCII) search.
fn find_ascii_ci(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

/// A script text with `<!--` followed later by `<script` and a delimiter puts the tokenizer in
/// its "double escaped" state, where `</script>` does not end the script. Rare and never written
/// by trunk: refused, so a wrong hash is never written.
fn check_no_double_escape(text: &str, lt: usize) -> Result<()> {
    let bytes = text.as_bytes();
    if let Some(comment) = find_ascii_ci(bytes, b"<!--") {
        if script_openings(&bytes[comment..]).next().is_some() {
            bail!(
                "the <script> at byte {lt} holds `<!--` and then `<script`, which changes \
                 where the browser ends it; cannot compute its Content-Security-Policy hash \
                 (write `<\\!--` or `<\\script` in the script instead)"
            );
        }
    }
    Ok(())
}

/// How many `<script` tag openings `html` holds anywhere, comments and raw text included.
pub(super) fn script_tags(html: &str) -> usize {
    script_openings(html.as_bytes()).count()
}

/// Where each `<script` tag opening in `bytes` starts: `<script` in any case followed by
/// whitespace, `/` or `>`.
fn script_openings(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || loop {
        let start = at + find_ascii_ci(&bytes[at..], b"<script")?;
        at = start + 1;
        if matches!(
            bytes.get(start + 7),
            Some(b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>')
        ) {
            return Some(start);
        }
    })
}

/// Offset just past the `<head …>` start tag.
pub(super) fn head_start_end(html: &str) -> Option<usize> {
    let mut at = 0;
    while let Some(offset) = html[at..].find('<') {
        let lt = at + offset;
        if html[lt..].starts_with("<!--") {
            at = html[lt..]
                .find("-->")
                .map_or(html.len(), |end| lt + end + 3);
            continue;
        }
        match start_tag(html, lt) {
            Some(tag) if tag.name == "head" => return Some(tag.end),
            Some(tag) if tag.name == "body" => return None,
            Some(tag) => at = tag.end,
            None => at = lt + 1,
        }
    }
    None
}
