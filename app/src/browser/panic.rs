//! A panic must never leave a blank page: the hook logs it and shows it in a panel.

use std::panic::PanicHookInfo;

/// Installs the hook (once).
pub fn install() {
    std::panic::set_hook(Box::new(on_panic));
}

fn on_panic(info: &PanicHookInfo<'_>) {
    let message = info.to_string();
    web_sys::console::error_1(&format!("benchdeck crashed: {message}").into());
    let Some(document) = crate::browser::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(body) = document.body() else { return };
    let Ok(panel) = document.create_element("div") else {
        return;
    };
    panel.set_class_name("error-panel fatal");
    panel.set_attribute("role", "alert").ok();
    // Text only: the message may contain user data.
    panel.set_text_content(Some(&format!(
        "benchdeck stopped because of a bug: {message}. Reload the page; if this persists, \
         please report it with this message."
    )));
    body.prepend_with_node_1(&panel).ok();
}
