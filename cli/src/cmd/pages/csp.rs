//! The Content-Security-Policy every built page carries, as a `<meta http-equiv>` tag (GitHub
//! Pages cannot send headers).
//!
//! Scripts may come from the site itself only, plus the page template's inline scripts (trunk's
//! module loader), allowed by the SHA-256 hashes of their text: so a report, a result file or a
//! dropped file that somehow got markup into a page still could not run a script. The hashes are
//! taken from the template alone ([`Policy::of_template`]), never from a finished page, and a
//! finished page that holds any other inline script, more `<script` tags than the template, or an
//! event-handler attribute (`onload=`, `onerror=`…) is refused ([`Policy::insert`]): the build
//! fails rather than publish it. WebAssembly needs `'wasm-unsafe-eval'`;
//! leptos sets `style` attributes, hence `style-src 'unsafe-inline'`; chart downloads are
//! `blob:`/`data:` images.
//!
//! The inline scripts are found with a small scanner that follows the HTML tokenizer where it
//! matters: comments and raw-text elements (`<style>`, `<title>`, …) are skipped, a script ends
//! at the first `</script` followed by whitespace, `/` or `>`, and its text is hashed after the
//! parser's newline normalisation (CR LF and CR become LF), which is what the browser hashes.
//! The one tokenizer state it does not follow (`<!--` then `<script` inside a script) is
//! refused with an error rather than hashed wrongly.

use anyhow::{bail, Result};
use base64::Engine;
use sha2::{Digest, Sha256};

/// The policy's directives after `script-src`'s hashes; see the module documentation.
const REST: &str = "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; \
                    connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'self'; \
                    form-action 'none'";

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
        let rest = &bytes[comment..];
        let mut at = 0;
        while let Some(offset) = find_ascii_ci(&rest[at..], b"<script") {
            let after = rest.get(at + offset + 7);
            if matches!(
                after,
                Some(b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>')
            ) {
                bail!(
                    "the <script> at byte {lt} holds `<!--` and then `<script`, which changes \
                     where the browser ends it; cannot compute its Content-Security-Policy hash \
                     (write `<\\!--` or `<\\script` in the script instead)"
                );
            }
            at += offset + 1;
        }
    }
    Ok(())
}

/// `'sha256-…'`: the CSP source expression allowing `text` as an inline script. The text is
/// hashed as the browser sees it: after newline normalisation (CR LF and lone CR become LF) and
/// with NUL as U+FFFD; for the usual LF-only text these are exactly the bytes in the page.
pub fn hash_source(text: &str) -> String {
    let normalised = text
        .replace("\r\n", "\n")
        .replace('\r', "\n")
        .replace('\0', "\u{FFFD}");
    let digest = Sha256::digest(normalised.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// The policy of the pages written from one template: the hashes of the template's inline
/// scripts, and how many `<script` tags it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    /// `'sha256-…'` of each inline script of the template, in order, once each.
    hashes: Vec<String>,
    /// `<script` tags anywhere in the template, as text (see [`script_tags`]).
    script_tags: usize,
}

impl Policy {
    /// The policy of `template`: its inline scripts hashed. The template is the page before any
    /// report, result or reader text is put in it.
    pub fn of_template(template: &str) -> Result<Policy> {
        let mut hashes: Vec<String> = Vec::new();
        for script in inline_scripts(template)? {
            let hash = hash_source(script.text);
            if !hashes.contains(&hash) {
                hashes.push(hash);
            }
        }
        Ok(Policy {
            hashes,
            script_tags: script_tags(template),
        })
    }

    /// The `content` of the `<meta http-equiv="Content-Security-Policy">` tag.
    pub fn text(&self) -> String {
        let mut script_src = String::from("script-src 'self' 'wasm-unsafe-eval'");
        for hash in &self.hashes {
            script_src.push(' ');
            script_src.push_str(hash);
        }
        format!("default-src 'self'; {script_src}; {REST}")
    }

    /// An error unless everything `html` (a page written from the template) would run is the
    /// template's: no other inline script, no more `<script` tags anywhere (a script inside
    /// markup this scanner reads as text, such as an SVG's `<style>`, still counts), no
    /// event-handler attribute.
    pub fn check(&self, html: &str) -> Result<()> {
        let found = scan(html)?;
        if let Some(script) = found
            .scripts
            .iter()
            .find(|s| !self.hashes.contains(&hash_source(s.text)))
        {
            bail!(
                "the page holds an inline script that is not the template's, at byte {}: `{}`; \
                 a page's body must never run a script of its own",
                script.start,
                excerpt(script.text)
            );
        }
        if let Some(handler) = found.handlers.first() {
            bail!(
                "the page holds an event-handler attribute `{}` on a <{}> at byte {}; a page's \
                 body must never run a script of its own",
                handler.attribute,
                handler.element,
                handler.at
            );
        }
        let tags = script_tags(html);
        if tags > self.script_tags {
            bail!(
                "the page holds {tags} `<script` tags where its template has {}; a page's body \
                 must never hold a script of its own",
                self.script_tags
            );
        }
        Ok(())
    }

    /// `html` (a page written from the template) with the policy as the first element of
    /// `<head>`, so it applies to everything after; an error when the page fails [`Policy::check`].
    pub fn insert(&self, html: &str) -> Result<String> {
        self.check(html)?;
        let policy = self.text();
        let Some(head_end) = head_start_end(html) else {
            bail!("no <head> to put the Content-Security-Policy in");
        };
        // The policy holds only quotes `'`, letters, digits and `-+/=:;* .`; no `"` or `&` that
        // would need escaping in a double-quoted attribute.
        debug_assert!(!policy.contains(['"', '&', '<', '>']));
        let meta =
            format!("\n    <meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\">");
        let mut out = String::with_capacity(html.len() + meta.len());
        out.push_str(&html[..head_end]);
        out.push_str(&meta);
        out.push_str(&html[head_end..]);
        Ok(out)
    }
}

/// How many `<script` tag openings `html` holds anywhere, comments and raw text included:
/// `<script` in any case followed by whitespace, `/` or `>`.
fn script_tags(html: &str) -> usize {
    let bytes = html.as_bytes();
    let mut count = 0;
    let mut at = 0;
    while let Some(offset) = find_ascii_ci(&bytes[at..], b"<script") {
        let next = bytes.get(at + offset + 7);
        if matches!(
            next,
            Some(b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>')
        ) {
            count += 1;
        }
        at += offset + 7;
    }
    count
}

/// The start of `text`, for an error.
fn excerpt(text: &str) -> String {
    let text = text.trim();
    match text.char_indices().nth(60) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// Offset just past the `<head …>` start tag.
fn head_start_end(html: &str) -> Option<usize> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What trunk 0.21 writes: preload links with SRI and an inline module loader.
    const TRUNK_PAGE: &str = r#"<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <base href="/benchdeck/">
    <title>A &lt;report&gt;</title>
    <script type="application/json" id="benchdeck-index">{"reports":[]}</script>
    <link rel="modulepreload" href="/benchdeck/benchdeck-app-1.js" crossorigin="anonymous" integrity="sha384-x">
  </head>
  <body>
<script type="module">
import init, * as bindings from '/benchdeck/benchdeck-app-1.js';
const wasm = await init({ module_or_path: '/benchdeck/benchdeck-app-1_bg.wasm' });
</script></body>
</html>"#;

    #[test]
    fn hashes_match_known_values() {
        // The CSP specification's and MDN's example.
        assert_eq!(
            hash_source("alert('Hello, world.');"),
            "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='"
        );
        assert_eq!(
            hash_source(""),
            "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"
        );
        // The browser hashes the text after newline normalisation.
        assert_eq!(hash_source("a\r\nb\rc"), hash_source("a\nb\nc"));
    }

    #[test]
    fn only_inline_scripts_that_run_are_hashed() {
        let scripts = inline_scripts(TRUNK_PAGE).unwrap();
        assert_eq!(scripts.len(), 1, "{scripts:?}");
        assert!(scripts[0].text.starts_with("\nimport init, * as bindings"));
        assert!(scripts[0].text.ends_with("_bg.wasm' });\n"));
        let html = r#"<head><script src="a.js"></script><script type="text/plain">x</script>
            <SCRIPT TYPE='Module'>m</SCRIPT><script type=text/javascript>j</script>
            <script type="importmap">{}</script><script data-x='>'>q</script></head>"#;
        let texts: Vec<&str> = inline_scripts(html)
            .unwrap()
            .iter()
            .map(|s| s.text)
            .collect();
        assert_eq!(texts, ["m", "j", "{}", "q"]);
    }

    #[test]
    fn script_text_ends_only_at_a_real_end_tag() {
        let body = "let a = '</scripts>'; let b = '</script-x>'; let c = '<\\/script>';";
        let html = format!("<head></head><body><script>{body}</script ></body>");
        let scripts = inline_scripts(&html).unwrap();
        assert_eq!(scripts.len(), 1);
        assert_eq!(scripts[0].text, body);
        // Comments and raw text are not markup: no script in them.
        let html = "<!-- <script>no</script> --><title><script>no</script></title>\
                    <style>/* <script>no</script> */</style><script>yes</script>";
        let texts: Vec<&str> = inline_scripts(html)
            .unwrap()
            .iter()
            .map(|s| s.text)
            .collect();
        assert_eq!(texts, ["yes"]);
    }

    #[test]
    fn unclear_scripts_are_refused_not_hashed_wrongly() {
        let err = inline_scripts("<script>a = 1;").unwrap_err();
        assert!(err.to_string().contains("no </script>"), "{err}");
        let err = inline_scripts("<script>x = '<!--<script>';</script>';</script>").unwrap_err();
        assert!(err.to_string().contains("<!--"), "{err}");
        // `<!--` alone does not change where the script ends.
        let ok = inline_scripts("<script>if (a <!--b) {}</script>").unwrap();
        assert_eq!(ok[0].text, "if (a <!--b) {}");
    }

    #[test]
    fn the_policy_is_the_first_thing_in_head() {
        let html = insert(TRUNK_PAGE).unwrap();
        let head = html.find("<head>").unwrap() + "<head>".len();
        let meta =
            "\n    <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self'; \
                    script-src 'self' 'wasm-unsafe-eval' 'sha256-";
        assert!(html[head..].starts_with(meta), "{html}");
        let script = inline_scripts(TRUNK_PAGE).unwrap()[0].text;
        assert!(html.contains(&hash_source(script)));
        assert!(html.contains(
            "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; \
             worker-src 'self'; object-src 'none'; base-uri 'self'; form-action 'none'\">"
        ));
        // The rest of the page is unchanged.
        let meta_end = head + html[head..].find('>').unwrap() + 1;
        assert_eq!(
            format!("{}{}", &html[..head], &html[meta_end..]),
            TRUNK_PAGE
        );
        // `<header>` is not `<head>`; a page without a head is an error.
        assert!(insert("<html><body><header></header></body></html>").is_err());
        let with_attr = insert("<html><head lang=en><title>t</title></head></html>").unwrap();
        assert!(with_attr.starts_with("<html><head lang=en>\n    <meta http-equiv"));
    }

    /// `html` with the policy of itself as template.
    fn insert(html: &str) -> Result<String> {
        Policy::of_template(html)?.insert(html)
    }

    /// `TRUNK_PAGE` with `body` put in its `<body>`, as a page's rendering is.
    fn with_body(body: &str) -> String {
        TRUNK_PAGE.replacen("<body>", &format!("<body>{body}"), 1)
    }

    #[test]
    fn only_the_templates_scripts_are_allowed_and_a_page_with_another_is_refused() {
        let policy = Policy::of_template(TRUNK_PAGE).unwrap();
        assert!(policy
            .insert(&with_body("<p>Fine: &lt;script&gt;</p>"))
            .is_ok());
        for (body, expected) in [
            (
                "<script>alert(1)</script>",
                "inline script that is not the template's",
            ),
            (
                "<SCRIPT type=module>x()</SCRIPT>",
                "inline script that is not the template's",
            ),
            (
                "<img src=x onerror=alert(1)>",
                "event-handler attribute `onerror` on a <img>",
            ),
            (
                "<svg><g ONLOAD='x()'></g></svg>",
                "event-handler attribute `onload`",
            ),
            // Read as text here, but in an SVG a browser runs it: counted all the same.
            (
                "<svg><style><script>alert(1)</script></style></svg>",
                "3 `<script` tags where its template has 2",
            ),
            ("<!-- <script src=x> -->", "3 `<script` tags"),
        ] {
            let error = policy.insert(&with_body(body)).unwrap_err().to_string();
            assert!(error.contains(expected), "{body}: {error}");
        }
        // The hashes are the template's alone, whatever the page holds.
        assert_eq!(policy.text().matches("'sha256-").count(), 1);
        // A script the template has is allowed where the page repeats it in no new tag.
        let script = inline_scripts(TRUNK_PAGE).unwrap()[0].text;
        assert!(policy.text().contains(&hash_source(script)));
    }
}
