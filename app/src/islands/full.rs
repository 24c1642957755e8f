//! The whole app, downloaded when a reader drops files on a published page: it takes the page
//! over and opens them on `/local/` (`open_dropped` in `src/bin/full.rs`). trunk builds it beside
//! the islands' app as an ES module that no page loads by itself (`app/index.html`); the page's
//! loader knows where it is and imports it when asked.

use std::cell::Cell;

use benchdeck_core::site::OPEN_DROPPED_FUNCTION as OPEN_DROPPED;
use js_sys::{Array, Function, Promise, Reflect};
use leptos::prelude::window_event_listener;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::DragEvent;

use crate::browser;

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
            if let Err(error) = load_full(files).await {
                ASKED.set(false);
                web_sys::console::error_2(
                    &"benchdeck: the app for dropped files did not load:".into(),
                    &error,
                );
            }
        });
    });
    // Listeners for the page's whole life.
    std::mem::forget((over, drop));
}
