//! Trunk's `index.html`, made into the template every page starts from.
//!
//! Pages are complete without the app, so what a reader needs to see one comes first and the
//! app takes its turn after:
//!
//! - [`without_app_preloads`]: no preload of the app's JavaScript and WebAssembly (a browser
//!   with JavaScript off downloads preloads too: with them, a reader without scripts paid for
//!   430 KB of gzipped wasm that never ran);
//! - [`with_inline_stylesheets`]: the stylesheet inside the page, without its comments
//!   (`stylesheet.rs`), so the first paint waits for the page alone, not for a second request
//!   after its head is read;
//! - [`with_app_loader`]: trunk's module script replaced by one that downloads anything of the
//!   app (its JavaScript, its wasm, the page's data) only once the page has loaded and the
//!   browser is idle, so that fetching, compiling and taking over do not hold up the page's
//!   parsing, first paint and layout, and a reader without JavaScript downloads none of it.
//!   When the app cannot start (a file not served, a browser without WebAssembly), an alert
//!   above the page says so and why; the page still reads as the build wrote it.

use std::path::Path;

use anyhow::{bail, Context, Result};
use benchdeck_core::site::OPEN_DROPPED_FUNCTION;

/// The template pages are written from: `template` (trunk's `index.html` in `dist`, served
/// under `public_url`) with the three changes of the module documentation.
pub fn page_template(template: &str, dist: &Path, public_url: &str) -> Result<String> {
    let template = with_inline_stylesheets(&without_app_preloads(template), dist, public_url)?;
    with_app_loader(&template)
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
/// names (a path under `public_url`, read from `dist`), without its comments.
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
        let css = super::stylesheet::without_comments(&css);
        if css.to_ascii_lowercase().contains("</style") {
            bail!(
                "the stylesheet `{}` contains `</style`, which would end it inside the page",
                path.display()
            );
        }
        Ok(Some(format!("<style>{}</style>", css.trim_end())))
    })
}

/// The `<meta name>` that names the data the app fetches for a page (relative to `<base href>`),
/// which the loader asks the browser to download beside the app.
pub const DATA_META: &str = "benchdeck-data";

/// The `<meta name>` of a page that starts the whole app rather than the islands' app
/// (`/local/`, whose report is made from dropped files in the browser; `app/src/islands.rs`).
pub const FULL_APP_META: &str = "benchdeck-full-app";

/// The whole app's JavaScript and wasm, beside the islands' app (`app/index.html`).
const FULL_APP: (&str, &str) = ("benchdeck-full.js", "benchdeck-full_bg.wasm");

/// What trunk's module script imports the app's JavaScript with, and the quote that ends it.
const TRUNK_IMPORT: (&str, &str) = ("import init, * as bindings from '", "'");
/// Where trunk's module script names the app's wasm, and the quote that ends it.
const TRUNK_WASM: (&str, &str) = ("module_or_path: '", "'");

/// `template` with trunk's module script replaced by the page's loader: once the page has loaded
/// and the browser is idle (at most 300 ms), it asks for the page's data (a preload the app's
/// `fetch` then takes), the app's wasm and the app's JavaScript together, and starts the app.
/// Until then nothing of the app is downloaded: on two cores, a module script's import fetched
/// during parsing (and the data's preload) measurably delayed the page's own paint.
/// `TrunkApplicationStarted` is still sent, as trunk's loader does.
pub fn with_app_loader(template: &str) -> Result<String> {
    let changed = || {
        format!(
            "the app's index.html has no `{}…`: trunk's loader changed",
            TRUNK_IMPORT.0
        )
    };
    let import = template.find(TRUNK_IMPORT.0).with_context(changed)?;
    let start = template[..import]
        .rfind("<script type=\"module\">")
        .with_context(changed)?;
    let end = import + template[import..].find("</script>").with_context(changed)?;
    let script = &template[start..end];
    let between = |(open, close): (&str, &str)| -> Result<&str> {
        let from = script.find(open).with_context(changed)? + open.len();
        let len = script[from..].find(close).with_context(changed)?;
        Ok(&script[from..from + len])
    };
    let (javascript, wasm) = (between(TRUNK_IMPORT)?, between(TRUNK_WASM)?);
    Ok(format!(
        "{}<script type=\"module\">\n{}{}",
        &template[..start],
        loader(javascript, wasm),
        &template[end..]
    ))
}

/// The id of the alert the loader puts above the page when the app cannot start.
const APP_FAILED_ID: &str = "app-failed";

/// The loader's text, for the app's `javascript` and `wasm` files, or the whole app's beside
/// them on a page marked with [`FULL_APP_META`]. One text for every page, so one hash in the
/// Content-Security-Policy; without comments, since every page carries it.
///
/// It defines `benchdeckOpenDropped`, with which the islands' app downloads the whole app when
/// a reader drops files (`app/src/islands/full.rs`). When the app cannot start, it says why
/// above the page, as text (the message may quote an address), unless the app crashed, which
/// says so itself; a failed download of the wasm is said once, as the server's answer.
fn loader(javascript: &str, wasm: &str) -> String {
    let folder = &javascript[..javascript.rfind('/').map_or(0, |i| i + 1)];
    let (full_javascript, full_wasm) = (
        format!("{folder}{}", FULL_APP.0),
        format!("{folder}{}", FULL_APP.1),
    );
    format!(
        "await new Promise((start) => {{
  const idle = () => ('requestIdleCallback' in window
    ? requestIdleCallback(start, {{ timeout: 300 }}) : setTimeout(start, 1));
  document.readyState === 'complete' ? idle() : addEventListener('load', idle, {{ once: true }});
}});
const data = document.querySelector('meta[name=\"{DATA_META}\"]');
if (data) {{
  document.head.append(Object.assign(document.createElement('link'),
    {{ rel: 'preload', as: 'fetch', crossOrigin: 'anonymous', href: data.content }}));
}}
const full = document.querySelector('meta[name=\"{FULL_APP_META}\"]') !== null;
const start = async () => {{
  const module_or_path = fetch(full ? '{full_wasm}' : '{wasm}').then((response) => {{
    if (!response.ok) throw new Error(`the server answered ${{response.status}} for ${{response.url}}`);
    return response;
  }});
  module_or_path.catch(() => {{}});
  const bindings = await import(full ? '{full_javascript}' : '{javascript}');
  const wasm = await bindings.default({{ module_or_path }});
  window.wasmBindings = bindings;
  window.{OPEN_DROPPED_FUNCTION} = async (files) => {{
    const app = await import('{full_javascript}');
    await app.default({{ module_or_path: '{full_wasm}' }});
    app.open_dropped(files);
  }};
  dispatchEvent(new CustomEvent('TrunkApplicationStarted', {{ detail: {{ wasm }} }}));
}};
start().catch((error) => {{
  if (document.querySelector('.error-panel.fatal')) return;
  const panel = Object.assign(document.createElement('div'), {{ id: '{APP_FAILED_ID}', className: 'error-panel' }});
  panel.setAttribute('role', 'alert');
  const title = Object.assign(document.createElement('h2'), {{ textContent: \"This page's charts and controls did not start\" }});
  const text = Object.assign(document.createElement('p'), {{ textContent: 'The page reads as published, but its '
    + 'interactive parts could not be loaded (' + ((error && error.message) || error) + '). Reload the page to try again.' }});
  panel.append(title, text);
  (document.getElementById('main') || document.body).prepend(panel);
}});
"
    )
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
        let css = "/* The page. */\nbody { margin: 0 }\n";
        std::fs::write(dist.path().join("main-1.css"), css).unwrap();
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
    fn the_app_is_downloaded_after_the_load() {
        let template = "<body>\n<script type=\"module\">\nimport init, * as bindings from \
                        '/r/app.js';\nconst wasm = await init({ module_or_path: '/r/app_bg.wasm' \
                        });\nwindow.wasmBindings = bindings;\n</script></body>";
        let page = with_app_loader(template).unwrap();
        assert!(
            page.starts_with("<body>\n<script type=\"module\">\nawait new Promise"),
            "{page}"
        );
        assert!(page.ends_with("\n</script></body>"), "{page}");
        // Nothing is imported or fetched before the page's load and an idle moment.
        let wait = page.find("addEventListener('load', idle").unwrap();
        let first_download = ["import ", "import(", "fetch(", "document.head.append"]
            .iter()
            .filter_map(|s| page.find(s))
            .min()
            .unwrap();
        assert!(wait < first_download, "{page}");
        // The islands' app, or on a page marked so the whole app beside it.
        assert!(
            page.contains("fetch(full ? '/r/benchdeck-full_bg.wasm' : '/r/app_bg.wasm')"),
            "{page}"
        );
        assert!(
            page.contains("await import(full ? '/r/benchdeck-full.js' : '/r/app.js')"),
            "{page}"
        );
        assert!(page.contains("meta[name=\"benchdeck-full-app\"]"), "{page}");
        // The whole app, imported when the islands' app asks for it.
        assert!(page.contains("window.benchdeckOpenDropped"), "{page}");
        assert!(page.contains("import('/r/benchdeck-full.js')"), "{page}");
        assert!(page.contains("meta[name=\"benchdeck-data\"]"), "{page}");
        // An app that cannot start is said above the page.
        assert!(page.contains("start().catch((error) => {"), "{page}");
        assert!(page.contains("id: 'app-failed'"), "{page}");
        let error = with_app_loader("<script>start()</script>").unwrap_err();
        assert!(
            error.to_string().contains("trunk's loader changed"),
            "{error}"
        );
    }
}
