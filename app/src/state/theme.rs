//! Light or dark: the reader's colour scheme, unless the page says otherwise. An embed's
//! `?theme=light|dark` sets `data-theme` on `<html>`, which the stylesheet and the charts follow.
//! The charts redraw when the reader's scheme changes while the page is open ([`provide`]).

use benchdeck_core::chart::ThemeName;
use leptos::prelude::*;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::JsCast;

/// The theme now, shared through context.
#[derive(Clone, Copy)]
struct Current(RwSignal<ThemeName>);

/// Creates the theme signal and follows the reader's colour scheme; called once by the app.
pub fn provide() {
    let theme = RwSignal::new(current());
    provide_context(Current(theme));
    let scheme = crate::browser::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten());
    if let Some(scheme) = scheme {
        let on_change = Closure::<dyn FnMut()>::new(move || theme.set(current()));
        scheme
            .add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref())
            .ok();
        // A listener for the app's whole life.
        on_change.forget();
    }
}

/// The theme the page is shown in, tracked: a chart drawing with it redraws when it changes.
pub fn tracked() -> ThemeName {
    use_context::<Current>().map_or_else(current, |c| c.0.get())
}

/// Applies `?theme=light|dark` from the address, if present; other values are ignored.
#[cfg(feature = "csr")]
pub fn apply_from_query() {
    let Some(window) = crate::browser::window() else {
        return;
    };
    let search = window.location().search().unwrap_or_default();
    let theme = web_sys::UrlSearchParams::new_with_str(&search)
        .ok()
        .and_then(|q| q.get("theme"));
    if let (Some(theme @ ("light" | "dark")), Some(root)) = (
        theme.as_deref(),
        window.document().and_then(|d| d.document_element()),
    ) {
        root.set_attribute("data-theme", theme).ok();
    }
}

/// The theme the page is shown in: `data-theme` on `<html>` when set, else the reader's scheme.
pub fn current() -> ThemeName {
    let Some(window) = crate::browser::window() else {
        return ThemeName::Light;
    };
    let fixed = window
        .document()
        .and_then(|d| d.document_element())
        .and_then(|root| root.get_attribute("data-theme"));
    let dark = match fixed.as_deref() {
        Some("dark") => true,
        Some("light") => false,
        _ => window
            .match_media("(prefers-color-scheme: dark)")
            .ok()
            .flatten()
            .is_some_and(|m| m.matches()),
    };
    if dark {
        ThemeName::Dark
    } else {
        ThemeName::Light
    }
}
