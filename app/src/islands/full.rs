//! The whole app, downloaded when a reader drops files on a published page: it takes the page
//! over and opens them on `/local/` (`open_dropped` in `src/bin/full.rs`). trunk builds it beside
//! the islands' app as an ES module that no page loads by itself (`app/index.html`); the page's
//! loader knows where it is and imports it when asked. When the download fails, an alert above
//! the page's content says so and why; the page stays as it was, and the next drop tries again.

use std::cell::Cell;

use benchdeck_core::site::OPEN_DROPPED_FUNCTION as OPEN_DROPPED;
use js_sys::{Array, Function, Promise, Reflect};
use leptos::prelude::window_event_listener;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::DragEvent;

use crate::browser::{self, data};

/// The id of the alert that says the whole app did not load, so that a second failure replaces
/// it and a later success removes it.
const FAILURE_ID: &str = "dropped-files-failed";

thread_local! {
    /// Whether the whole app was asked for: it handles the drops from then on.
    static ASKED: Cell<bool> = const { Cell::new(false) };
}

/// Downloads the whole app and hands it `files`, through the page loader's function.
async fn load_full(files: Array) -> Result<JsValue, JsValue> {
    let window = browser::window().ok_or("no window")?;
    let open: Function = Reflect::get(&window, &OPEN_DROPPED.into())?
        .dyn_into()
        .map_err(|_| JsValue::from(format!("the page's loader defines no `{OPEN_DROPPED}`")))?;
    let started: Promise = open.call1(&JsValue::NULL, &files)?.dyn_into()?;
    JsFuture::from(started).await
}

/// Files dropped anywhere on the page go to the whole app, downloaded for them.
pub fn open_drops_in_full_app() {
    let over = window_event_listener(leptos::ev::dragover, |ev: DragEvent| {
        if browser::carries_files(&ev) && !ASKED.get() {
            ev.prevent_default();
        }
    });
    let drop = window_event_listener(leptos::ev::drop, |ev: DragEvent| {
        if !browser::carries_files(&ev) || ASKED.get() {
            return;
        }
        ev.prevent_default();
        let files: Array = ev
            .data_transfer()
            .and_then(|d| d.files())
            .map(|list| (0..list.length()).filter_map(|i| list.get(i)).collect())
            .unwrap_or_default();
        if files.length() == 0 {
            return;
        }
        ASKED.set(true);
        wasm_bindgen_futures::spawn_local(async move {
            match load_full(files).await {
                Ok(_) => remove_failure(),
                Err(error) => {
                    ASKED.set(false);
                    show_failure(&data::js_message(&error));
                }
            }
        });
    });
    // Listeners for the page's whole life.
    std::mem::forget((over, drop));
}

/// Says above the page's content, in view, that the dropped files were not opened and why: the
/// page itself still works, and a new drop tries the download again. Text only: the browser's
/// message may quote an address.
fn show_failure(detail: &str) {
    remove_failure();
    let Some(document) = browser::document() else {
        return;
    };
    let (Some(main), Ok(panel), Ok(heading), Ok(text)) = (
        document.get_element_by_id("main"),
        document.create_element("div"),
        document.create_element("h2"),
        document.create_element("p"),
    ) else {
        return;
    };
    panel.set_id(FAILURE_ID);
    panel.set_class_name("error-panel");
    panel.set_attribute("role", "alert").ok();
    heading.set_text_content(Some("Your files were not opened"));
    text.set_text_content(Some(&format!(
        "The part of benchdeck that reads dropped files could not be downloaded ({detail}). \
         This page still works; check the connection and drop the files again."
    )));
    panel.append_with_node_2(&heading, &text).ok();
    main.prepend_with_node_1(&panel).ok();
    panel.scroll_into_view();
}

/// Removes the alert of an earlier failed download, if there is one.
fn remove_failure() {
    if let Some(panel) = browser::document().and_then(|d| d.get_element_by_id(FAILURE_ID)) {
        panel.remove();
    }
}
