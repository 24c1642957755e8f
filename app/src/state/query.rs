//! The page's address as shared state: the wizard's answers and each chart's view live in the
//! query string, so a reload or a shared link shows the same thing. Writers change only their own
//! keys and replace the history entry (no new one per slider step).

/// The value of `key` in the page's query.
pub fn get(key: &str) -> Option<String> {
    params()?.get(key)
}

/// Sets each key to its value, or removes it when the value is empty; other keys, the path and
/// the hash stay.
pub fn set(pairs: &[(&str, String)]) {
    let (Some(window), Some(params)) = (crate::browser::window(), params()) else {
        return;
    };
    for (key, value) in pairs {
        if value.is_empty() {
            params.delete(key);
        } else {
            params.set(key, value);
        }
    }
    let location = window.location();
    let query = String::from(params.to_string());
    let url = format!(
        "{}{}{}{}",
        location.pathname().unwrap_or_default(),
        if query.is_empty() { "" } else { "?" },
        query,
        location.hash().unwrap_or_default()
    );
    let current = format!(
        "{}{}{}",
        location.pathname().unwrap_or_default(),
        location.search().unwrap_or_default(),
        location.hash().unwrap_or_default()
    );
    if url != current {
        if let Ok(history) = window.history() {
            history
                .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
                .ok();
        }
    }
}

fn params() -> Option<web_sys::UrlSearchParams> {
    let search = crate::browser::window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search).ok()
}
