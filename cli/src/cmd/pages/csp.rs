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
//! The inline scripts are found by a small scanner that follows the HTML tokenizer where it
//! matters (`csp/scan.rs`), and each text is hashed after the parser's newline normalisation
//! (CR LF and CR become LF), which is what the browser hashes.

mod scan;

use anyhow::{bail, Result};
use base64::Engine;
use sha2::{Digest, Sha256};

pub use scan::inline_scripts;
use scan::{head_start_end, scan, script_tags};

/// The policy's directives after `script-src`'s hashes; see the module documentation.
const REST: &str = "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; \
                    connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'self'; \
                    form-action 'none'";

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

/// The start of `text`, for an error.
fn excerpt(text: &str) -> String {
    let text = text.trim();
    match text.char_indices().nth(60) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
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
