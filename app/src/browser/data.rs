//! Fetching the site's data, and the URLs of pages and data relative to the site's base.

use std::cell::RefCell;

use benchdeck_core::site::{report_data_path, wire, ReportPage, SiteIndex, INDEX_PATH};
use serde::de::DeserializeOwned;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The id of the element the app renders into and takes over (`app/index.html`).
pub const APP_ROOT_ID: &str = "app";

/// A signal holding `initial` when the page came with its data (rendered by the build, or
/// fetched before taking over), else `None` until `load` finishes, then its output: what a page
/// shows while its data is on the way. The view that shows it takes the value ([`take`]), so a
/// page's data is never copied. (Lighter than leptos' `Suspense` with a resource, which a page
/// that loads once does not need.)
pub fn loaded<T: 'static, F>(initial: Option<T>, load: impl FnOnce() -> F) -> Loaded<T>
where
    F: std::future::Future<Output = T> + 'static,
{
    use leptos::prelude::Set;
    let ready = initial.is_some();
    let value = leptos::prelude::RwSignal::new_local(initial);
    if !ready {
        let load = load();
        wasm_bindgen_futures::spawn_local(async move { value.set(Some(load.await)) });
    }
    value
}

/// What [`loaded`] gives.
pub type Loaded<T> = leptos::prelude::RwSignal<Option<T>, leptos::prelude::LocalStorage>;

/// The value of `loaded` once it is there, taken out of it: for the one view that shows it,
/// which runs again when the value arrives.
pub fn take<T: 'static>(loaded: Loaded<T>) -> Option<T> {
    use leptos::prelude::{Track, UpdateUntracked};
    loaded.track();
    loaded.try_update_untracked(Option::take).flatten()
}

/// The data the page of `route` shows first, fetched before the app takes over the build's HTML;
/// what could not be loaded is left out (the page then loads it again and shows why it failed).
#[cfg(feature = "csr")]
pub async fn initial(route: &benchdeck_core::site::Route) -> crate::Initial {
    use benchdeck_core::site::Route;
    match route {
        Route::Home => crate::Initial {
            index: site_index().await.ok(),
            report: None,
        },
        Route::Report { slug } | Route::Embed { slug, .. } => crate::Initial {
            index: None,
            report: report_page(slug.clone()).await.ok(),
        },
        Route::Local | Route::NotFound | Route::ScatterBench => crate::Initial::default(),
    }
}

/// Why data could not be shown: what was asked for and what went wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadError {
    /// The URL that was fetched.
    pub url: String,
    /// The HTTP status, when the server answered with an error.
    pub status: Option<u16>,
    /// What went wrong, for the reader.
    pub message: String,
}

thread_local! {
    /// The base path the build renders pages for ([`set_base_path`]).
    static BUILD_BASE: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Sets the site's base path for pages rendered at build time (`/`, `/repo/`).
#[cfg(feature = "ssr")]
pub fn set_base_path(base: &str) {
    BUILD_BASE.set(base.to_string());
}

/// The site's base path without a trailing slash (`""` at the root, `/repo` under GitHub Pages):
/// in the browser from `<base href>`, which trunk writes from `--public-url`; at build time
/// as [`set_base_path`] set it.
pub fn base_path() -> String {
    let base = match crate::browser::document() {
        Some(document) => document
            .base_uri()
            .ok()
            .flatten()
            .and_then(|uri| web_sys::Url::new(&uri).ok())
            .map(|u| u.pathname())
            .unwrap_or_default(),
        None => BUILD_BASE.with_borrow(Clone::clone),
    };
    base.trim_end_matches('/').to_string()
}

/// An absolute path inside the site: `href("x/")` is `/repo/x/` under `/repo`.
pub fn href(rel: &str) -> String {
    format!("{}/{}", base_path(), rel)
}

/// The home page's data.
pub async fn site_index() -> Result<SiteIndex, LoadError> {
    fetch_data(&href(INDEX_PATH)).await
}

/// Why a report page cannot be shown.
#[derive(Debug, Clone, PartialEq)]
pub enum ReportError {
    /// No report of this site has that slug.
    NotFound,
    /// The report exists but its data could not be loaded.
    Load(LoadError),
}

/// Loads one report's page data; a slug the build wrote no data for is
/// [`ReportError::NotFound`].
pub async fn report_page(slug: String) -> Result<ReportPage, ReportError> {
    match fetch_data(&href(&report_data_path(&slug))).await {
        Err(LoadError {
            status: Some(404), ..
        }) => Err(ReportError::NotFound),
        other => other.map_err(ReportError::Load),
    }
}

/// Fetches `url` and decodes what `benchdeck site` wrote there (`benchdeck_core::site::wire`).
async fn fetch_data<T: DeserializeOwned>(url: &str) -> Result<T, LoadError> {
    let fail = |message: String| LoadError {
        url: url.to_string(),
        status: None,
        message,
    };
    let window = crate::browser::window().ok_or_else(|| fail("no browser window".into()))?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| fail(format!("the request failed: {}", js_message(&e))))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| fail("the browser returned something other than a response".into()))?;
    if !response.ok() {
        let status = response.status();
        return Err(LoadError {
            status: Some(status),
            ..fail(if status == 404 {
                "not found (404): this build has no such data".into()
            } else {
                format!("the server answered {status}")
            })
        });
    }
    let buffer = response.array_buffer().map_err(|e| fail(js_message(&e)))?;
    let buffer = JsFuture::from(buffer)
        .await
        .map_err(|e| fail(format!("reading the response failed: {}", js_message(&e))))?;
    let array = js_sys::Uint8Array::new(&buffer);
    let gzipped =
        array.length() >= 2 && [array.get_index(0), array.get_index(1)] == wire::GZIP_MAGIC;
    let bytes = if gzipped {
        // The browser's reason ("Failed to fetch") would point at the network.
        gunzip(&buffer).await.map_err(|_| {
            fail(
                "the data is damaged: it does not decompress (cut short, or changed after \
                  the build); rebuild the site"
                    .into(),
            )
        })?
    } else {
        array.to_vec()
    };
    wire::decode(&bytes).map_err(|e| fail(format!("{e}; rebuild the site")))
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// The browser's `DecompressionStream` (web-sys has it only behind its unstable APIs).
    type DecompressionStream;
    #[wasm_bindgen::prelude::wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<DecompressionStream, wasm_bindgen::JsValue>;
}

/// `gzipped` inflated by the browser itself, so the wasm carries no inflater.
async fn gunzip(gzipped: &wasm_bindgen::JsValue) -> Result<Vec<u8>, wasm_bindgen::JsValue> {
    let parts = js_sys::Array::of1(gzipped);
    let blob = web_sys::Blob::new_with_buffer_source_sequence(&parts)?;
    let inflate = DecompressionStream::new("gzip")?;
    let stream = blob.stream().pipe_through(inflate.unchecked_ref());
    let response = web_sys::Response::new_with_opt_readable_stream(Some(&stream))?;
    let buffer = JsFuture::from(response.array_buffer()?).await?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// The message of a JavaScript error value.
pub fn js_message(value: &wasm_bindgen::JsValue) -> String {
    value
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| value.as_string())
        .unwrap_or_else(|| format!("{value:?}"))
}
