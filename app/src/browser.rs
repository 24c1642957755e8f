//! The browser, when there is one. The same components run in the browser and natively at build
//! time, when `benchdeck pages` renders every page to HTML (feature `ssr`); there is no window
//! then, and calling into JavaScript off wasm32 would panic. Code that runs while a component is
//! built goes through these instead of `web_sys::window()`; effects and event handlers run in
//! the browser only.
//!
//! Its modules are the app's glue to the browser, holding no state of the page: painting on a
//! canvas ([`canvas`]), fetching the site's data ([`data`]), reading typed numbers ([`number`]), showing a panic ([`panic`]), the
//! `charts-ready` mark ([`ready`]) and putting the app's page in place of the build's ([`takeover`]). The state the components share is in [`crate::state`].

pub mod canvas;
pub mod data;
pub mod number;
#[cfg(feature = "csr")]
pub mod panic;
pub mod ready;
#[cfg(feature = "csr")]
pub mod takeover;

/// The browser's window; `None` when rendering at build time.
pub fn window() -> Option<web_sys::Window> {
    #[cfg(target_arch = "wasm32")]
    {
        web_sys::window()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        None
    }
}

/// The page's document; `None` when rendering at build time.
pub fn document() -> Option<web_sys::Document> {
    window()?.document()
}

/// The elements under `root` that `selector` matches.
pub fn elements(root: &web_sys::Element, selector: &str) -> Vec<web_sys::Element> {
    use wasm_bindgen::JsCast;
    let Ok(list) = root.query_selector_all(selector) else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<web_sys::Element>().ok())
        .collect()
}

/// Sets the page's title (the build wrote the same one into the page's `<head>`).
pub fn set_title(title: &str) {
    if let Some(document) = document() {
        document.set_title(title);
    }
}

/// Goes to `href`, resolved against the page's `<base href>` (the site's root).
pub fn go_to(href: &str) {
    if let Some(window) = window() {
        window.location().assign(href).ok();
    }
}

/// Runs `f` in a task of its own, after what the browser has queued: work split this way never
/// holds the page in one long task (a reader's scroll or click gets in between).
pub fn later(f: impl FnOnce() + 'static) {
    use wasm_bindgen::JsCast;
    let Some(window) = window() else {
        return;
    };
    let callback = wasm_bindgen::closure::Closure::once_into_js(f);
    window
        .set_timeout_with_callback_and_timeout_and_arguments_0(callback.unchecked_ref(), 0)
        .ok();
}

/// Runs `f` when the browser is idle (within a second at the latest), or in a task of its own
/// where it has no idle callbacks (Safari).
pub fn when_idle(f: impl FnOnce() + 'static) {
    use wasm_bindgen::JsCast;
    let Some(window) = window() else {
        return;
    };
    let has_idle = js_sys::Reflect::has(&window, &"requestIdleCallback".into()).unwrap_or(false);
    if !has_idle {
        return later(f);
    }
    let callback = wasm_bindgen::closure::Closure::once_into_js(f);
    let options = web_sys::IdleRequestOptions::new();
    options.set_timeout(1000);
    window
        .request_idle_callback_with_options(callback.unchecked_ref(), &options)
        .ok();
}

/// Resolves when the browser is idle (see [`when_idle`]). The app waits for it before taking over,
/// so that the page the build rendered is painted first and its wasm never competes with that.
#[cfg(feature = "csr")]
pub async fn idle() {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        when_idle(move || {
            resolve.call0(&wasm_bindgen::JsValue::UNDEFINED).ok();
        });
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.ok();
}

/// Whether a drag carries files (not text or a link).
pub fn carries_files(ev: &web_sys::DragEvent) -> bool {
    ev.data_transfer().is_some_and(|d| {
        d.types()
            .iter()
            .any(|t| t.as_string().as_deref() == Some("Files"))
    })
}
