//! The browser, when there is one. The same components run in the browser and natively at build
//! time, when `benchdeck pages` renders every page to HTML (feature `ssr`); there is no window
//! then, and calling into JavaScript off wasm32 would panic. Code that runs while a component is
//! built goes through these instead of `web_sys::window()`; effects and event handlers run in
//! the browser only.

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

/// Sets the page's title (the build wrote the same one into the page's `<head>`).
pub fn set_title(title: &str) {
    if let Some(document) = document() {
        document.set_title(title);
    }
}
