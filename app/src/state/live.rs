//! Whether the app runs the page: it has taken over the page the build rendered
//! (`browser/takeover.rs`). [`mark`] flags `<html>` with the class `live`, which shows the
//! controls that need the app (`.js-only` in `style/main.css`: hidden, but with their space
//! kept, until then); [`running`] tells components.

use crate::state::effect::effect;
use leptos::prelude::*;

/// The class `<html>` gets once the app has taken over the page.
#[cfg(feature = "csr")]
const LIVE_CLASS: &str = "live";

/// Flags `<html>` as taken over by the app.
#[cfg(feature = "csr")]
pub fn mark() {
    if let Some(root) = crate::browser::document().and_then(|d| d.document_element()) {
        root.class_list().add_1(LIVE_CLASS).ok();
    }
}

/// `false` while the page is the build's HTML, `true` once the app runs it: for controls that
/// stay in place but are disabled until then (the wizard's answers and requirements).
pub fn running() -> ReadSignal<bool> {
    let (live, set_live) = signal(false);
    // Effects run in the browser only, after the app took over the page.
    effect(move || set_live.set(true));
    live
}
