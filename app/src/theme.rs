//! Light or dark: the reader's colour scheme, unless the page says otherwise. An embed's
//! `?theme=light|dark` sets `data-theme` on `<html>`, which the stylesheet and the charts follow.

use benchdeck_core::chart::ThemeName;

/// Applies `?theme=light|dark` from the address, if present; other values are ignored.
pub fn apply_from_query() {
    let Some(window) = web_sys::window() else {
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
    let Some(window) = web_sys::window() else {
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
