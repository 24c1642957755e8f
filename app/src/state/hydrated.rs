//! Taking over the page the build rendered. [`can_hydrate`] decides whether the browser's first
//! render will match the build's HTML (then the app hydrates it in place) or not (then it renders
//! afresh); [`mark`] flags `<html>` once the app runs, which shows the controls that need it
//! (`.js-only` in `style/main.css`: hidden, but with their space kept, until then).

use crate::state::effect::effect;
#[cfg(feature = "hydrate")]
use benchdeck_core::site::Route;
use leptos::prelude::*;

/// The class `<html>` gets once the app has taken over the page.
#[cfg(feature = "hydrate")]
const HYDRATED_CLASS: &str = "hydrated";

/// Whether the app's first render in the browser is the HTML the build wrote into `root`: the
/// build rendered this very page (not the host's 404 page answering an embed address, not the
/// hidden benchmark page), with no reader's view in the address (the build renders every
/// chart and the wizard as published), and the data arrived.
#[cfg(feature = "hydrate")]
pub fn can_hydrate(root: &web_sys::HtmlElement, route: &Route, initial: &crate::Initial) -> bool {
    let rendered = root.first_child().is_some();
    let data = match route {
        Route::Home => initial.index.is_some(),
        Route::Report { .. } | Route::Embed { .. } => initial.report.is_some(),
        Route::Local => true,
        Route::NotFound => !crate::state::route::is_embed_address(),
        Route::ScatterBench => false,
    };
    rendered && data && !crate::state::query::has_view()
}

/// Flags `<html>` as taken over by the app.
#[cfg(feature = "hydrate")]
pub fn mark() {
    if let Some(root) = crate::browser::document().and_then(|d| d.document_element()) {
        root.class_list().add_1(HYDRATED_CLASS).ok();
    }
}

/// `false` while the page is the build's HTML, `true` once the app runs it: for controls that
/// stay in place but are disabled until then (the wizard's answers and requirements).
pub fn live() -> ReadSignal<bool> {
    let (live, set_live) = signal(false);
    // Effects run in the browser only, after the page was hydrated or rendered.
    effect(move || set_live.set(true));
    live
}
