//! Trunk's `index.html`, made into the template every page starts from.
//!
//! Pages are complete without the app, so what a reader needs to see one comes first and the
//! app takes its turn after:
//!
//! - [`without_app_preloads`]: no preload of the app's JavaScript and WebAssembly (a browser
//!   with JavaScript off downloads preloads too: with them, a reader without scripts paid for
//!   430 KB of gzipped wasm that never ran);
//! - [`with_inline_stylesheets`]: the stylesheet inside the page, so the first paint waits for
//!   the page alone, not for a second request after its head is read;
//! - [`with_app_after_load`]: the app's module script fetches and starts the app once the page
//!   has loaded and the browser is idle, so that fetching, compiling and hydrating do not hold up
//!   the page's parsing, first paint and layout.

use std::path::Path;

use anyhow::{bail, Context, Result};

/// The template pages are written from: `template` (trunk's `index.html` in `dist`, served
/// under `public_url`) with the three changes of the module documentation.
pub fn page_template(template: &str, dist: &Path, public_url: &str) -> Result<String> {
    let template = with_inline_stylesheets(&without_app_preloads(template), dist, public_url)?;
    with_app_after_load(&template)
}

/// `template` without trunk's preload links for the app's JavaScript and WebAssembly
/// (`modulepreload`, and `preload` of the `.wasm`).
pub fn without_app_preloads(template: &str) -> String {
    rewrite_links(template, |tag| {
        let app = tag.contains("rel=\"modulepreload\"")
            || (tag.contains("rel=\"preload\"") && tag.contains("type=\"application/wasm\""));
        Ok((!app).then(|| tag.to_string()))
    })
    .expect("dropping links cannot fail")
}

/// `template` with each `<link rel="stylesheet">` replaced by a `<style>` holding the file it
/// names (a path under `public_url`, read from `dist`).
pub fn with_inline_stylesheets(template: &str, dist: &Path, public_url: &str) -> Result<String> {
    rewrite_links(template, |tag| {
        if !tag.contains("rel=\"stylesheet\"") {
            return Ok(Some(tag.to_string()));
        }
        let href = benchdeck_core::html::attribute(tag, "href")
            .with_context(|| format!("the stylesheet link `{tag}` has no href"))?;
        let relative = href
            .strip_prefix(public_url)
            .or_else(|| href.strip_prefix('/'))
            .unwrap_or(href);
        let path = dist.join(relative);
        let css = std::fs::read_to_string(&path).with_context(|| {
            format!(
                "cannot read the stylesheet `{}` that `{tag}` links",
                path.display()
            )
        })?;
        if css.to_ascii_lowercase().contains("</style") {
            bail!(
                "the stylesheet `{}` contains `</style`, which would end it inside the page",
                path.display()
            );
        }
        Ok(Some(format!("<style>{}</style>", css.trim_end())))
    })
}

/// How trunk's module script starts the app.
const INIT_CALL: &str = "const wasm = await init(";

/// What the module script waits for before it starts the app: the page's load (its text,
/// styles and drawings are in), then a moment the browser is idle (at most 300 ms).
const AFTER_LOAD: &str = "await new Promise((start) => {
  const idle = () => ('requestIdleCallback' in window
    ? requestIdleCallback(start, { timeout: 300 }) : setTimeout(start, 1));
  document.readyState === 'complete' ? idle() : addEventListener('load', idle, { once: true });
});
";

/// `template` with the app's module script changed to fetch and start the app once the page has
/// loaded and the browser is idle: fetching, compiling and hydrating then take no time from the
/// page's parsing, layout and first paint (on a phone's two cores, streaming compilation runs
/// beside them).
pub fn with_app_after_load(template: &str) -> Result<String> {
    let Some(start) = template.find(INIT_CALL) else {
        bail!("the app's index.html has no `{INIT_CALL}…`: trunk's loader changed");
    };
    Ok(format!(
        "{}{AFTER_LOAD}{}",
        &template[..start],
        &template[start..]
    ))
}

/// `template` with each `<link …>` tag replaced by what `rewrite` makes of it; `None` removes
/// the tag with the line it stood on.
fn rewrite_links(
    template: &str,
    mut rewrite: impl FnMut(&str) -> Result<Option<String>>,
) -> Result<String> {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("<link ") {
        let Some(len) = rest[start..].find('>') else {
            break;
        };
        let tag = &rest[start..=start + len];
        out.push_str(&rest[..start]);
        let after = &rest[start + len + 1..];
        match rewrite(tag)? {
            Some(replacement) => {
                out.push_str(&replacement);
                rest = after;
            }
            None => {
                let trimmed = out.trim_end_matches([' ', '\t']).len();
                out.truncate(trimmed);
                rest = after.strip_prefix('\n').unwrap_or(after);
            }
        }
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_do_not_preload_the_app() {
        let template = "<head>\n    <link rel=\"stylesheet\" href=\"/m.css\">\n    <link \
                        rel=\"modulepreload\" href=\"/app.js\" crossorigin=\"anonymous\">\n    \
                        <link rel=\"preload\" href=\"/app_bg.wasm\" as=\"fetch\" \
                        type=\"application/wasm\">\n    <link rel=\"preload\" href=\"data/x.bin\" \
                        as=\"fetch\" crossorigin>\n</head>";
        assert_eq!(
            without_app_preloads(template),
            "<head>\n    <link rel=\"stylesheet\" href=\"/m.css\">\n    <link rel=\"preload\" \
             href=\"data/x.bin\" as=\"fetch\" crossorigin>\n</head>"
        );
    }

    #[test]
    fn the_stylesheet_is_inside_the_page() {
        let dist = tempfile::tempdir().unwrap();
        std::fs::write(dist.path().join("main-1.css"), "body { margin: 0 }\n").unwrap();
        let template = "<head>\n    <link rel=\"icon\" href=\"/repo/f.svg\"/>\n    <link \
                        rel=\"stylesheet\" href=\"/repo/main-1.css\" integrity=\"sha384-x\"/>\n</head>";
        assert_eq!(
            with_inline_stylesheets(template, dist.path(), "/repo/").unwrap(),
            "<head>\n    <link rel=\"icon\" href=\"/repo/f.svg\"/>\n    \
             <style>body { margin: 0 }</style>\n</head>"
        );
        // A missing file or one that would end the element is an error naming the file.
        let missing = "<link rel=\"stylesheet\" href=\"/repo/gone.css\">";
        let error = with_inline_stylesheets(missing, dist.path(), "/repo/").unwrap_err();
        assert!(format!("{error:#}").contains("gone.css"), "{error:#}");
        std::fs::write(dist.path().join("main-1.css"), "a{}</STYLE><script>").unwrap();
        let error = with_inline_stylesheets(template, dist.path(), "/repo/").unwrap_err();
        assert!(format!("{error:#}").contains("</style"), "{error:#}");
    }

    #[test]
    fn the_app_starts_after_the_load() {
        let template = "<script type=\"module\">\nimport init from '/r/app.js';\nconst wasm = \
                        await init({ module_or_path: '/r/app_bg.wasm' });\nwindow.x = wasm;\n</script>";
        let page = with_app_after_load(template).unwrap();
        let wait = page.find("addEventListener('load', idle").unwrap();
        let init = page
            .find("const wasm = await init({ module_or_path: '/r/app_bg.wasm' });")
            .unwrap();
        assert!(wait < init, "{page}");
        assert!(page.starts_with("<script type=\"module\">\nimport init from '/r/app.js';\nawait"));
        assert!(page.ends_with("\nwindow.x = wasm;\n</script>"), "{page}");
        let error = with_app_after_load("<script>start()</script>").unwrap_err();
        assert!(
            error.to_string().contains("trunk's loader changed"),
            "{error}"
        );
    }
}
