//! Dropped files kept for the reader's next visit: the `File` objects themselves, in IndexedDB,
//! in this browser's storage for the site (nothing is sent anywhere), under one key. A reload
//! of `/local/` has the worker read them again; "Forget these files" deletes them. The worker
//! keeps them, not the page, so that this code is downloaded only by readers who drop files.
//!
//! IndexedDB's requests are events; [`settled`] turns one into a future. Written on `web-sys`
//! (already the app's binding to the browser) rather than a wrapper crate: three calls need no
//! more, and the wasm stays small.

use js_sys::{Array, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{EventTarget, File, IdbDatabase, IdbTransactionMode};

use benchdeck_core::site::KEPT_FILES_DATABASE as DATABASE;
const STORE: &str = "dropped-files";
const KEY: &str = "files";

/// Keeps `files`, replacing what was kept. A full storage is an error that says so.
pub async fn keep(files: &[File]) -> Result<(), String> {
    let list = Array::new();
    for file in files {
        list.push(file);
    }
    write(|store| store.put_with_key(&list, &KEY.into())).await
}

/// The files kept by an earlier visit (none when there are none).
pub async fn kept() -> Result<Vec<File>, String> {
    let db = database().await?;
    let store = db
        .transaction_with_str(STORE)
        .and_then(|t| t.object_store(STORE))
        .map_err(|e| failure("read", &e))?;
    let request = store.get(&KEY.into()).map_err(|e| failure("read", &e))?;
    settled(&request, "success", "error")
        .await
        .map_err(|e| failure("read", &e))?;
    let value = request.result().map_err(|e| failure("read", &e))?;
    if value.is_undefined() {
        return Ok(Vec::new());
    }
    Ok(Array::from(&value)
        .iter()
        .filter_map(|f| f.dyn_into::<File>().ok())
        .collect())
}

/// Deletes the kept files.
pub async fn forget() -> Result<(), String> {
    write(|store| store.delete(&KEY.into())).await
}

/// Runs `change` in a read-write transaction and waits until it is written (a full storage
/// aborts the transaction with `QuotaExceededError`).
async fn write(
    change: impl FnOnce(&web_sys::IdbObjectStore) -> Result<web_sys::IdbRequest, JsValue>,
) -> Result<(), String> {
    let db = database().await?;
    let transaction = db
        .transaction_with_str_and_mode(STORE, IdbTransactionMode::Readwrite)
        .map_err(|e| failure("keep", &e))?;
    let store = transaction
        .object_store(STORE)
        .map_err(|e| failure("keep", &e))?;
    change(&store).map_err(|e| failure("keep", &e))?;
    settled(&transaction, "complete", "abort")
        .await
        .map_err(|_| {
            let reason = transaction
                .error()
                .map(JsValue::from)
                .unwrap_or(JsValue::NULL);
            failure("keep", &reason)
        })
        .map(|_| ())
}

/// The database, created with its one store on first use.
async fn database() -> Result<IdbDatabase, String> {
    let factory = js_sys::global()
        .unchecked_into::<web_sys::WorkerGlobalScope>()
        .indexed_db()
        .ok()
        .flatten()
        .ok_or_else(|| "this browser offers no storage for the site (IndexedDB)".to_string())?;
    let request = factory
        .open_with_u32(DATABASE, 1)
        .map_err(|e| failure("open the storage", &e))?;
    let upgrade = Closure::<dyn FnMut(web_sys::Event)>::new({
        let request = request.clone();
        move |_| {
            if let Ok(db) = request.result().and_then(|r| r.dyn_into::<IdbDatabase>()) {
                // Only on first use: the store does not exist yet.
                let _ = db.create_object_store(STORE);
            }
        }
    });
    request.set_onupgradeneeded(Some(upgrade.as_ref().unchecked_ref()));
    let opened = settled(&request, "success", "error").await;
    request.set_onupgradeneeded(None);
    drop(upgrade);
    opened.map_err(|e| failure("open the storage", &e))?;
    request
        .result()
        .and_then(|r| r.dyn_into::<IdbDatabase>())
        .map_err(|e| failure("open the storage", &e))
}

/// Waits for `target`'s `ok` event (resolves) or `failed` event (rejects with the event).
async fn settled(target: &EventTarget, ok: &str, failed: &str) -> Result<JsValue, JsValue> {
    let target = target.clone();
    let (ok, failed) = (ok.to_string(), failed.to_string());
    let promise = Promise::new(&mut |resolve, reject| {
        let on_ok = Closure::once_into_js(move |event: JsValue| {
            let _ = resolve.call1(&JsValue::NULL, &event);
        });
        let on_failed = Closure::once_into_js(move |event: JsValue| {
            let _ = reject.call1(&JsValue::NULL, &event);
        });
        let _ = target.add_event_listener_with_callback(&ok, on_ok.unchecked_ref());
        let _ = target.add_event_listener_with_callback(&failed, on_failed.unchecked_ref());
    });
    JsFuture::from(promise).await
}

/// `what` failed, in words: the browser's reason (a `QuotaExceededError` says the storage is
/// full).
fn failure(what: &str, error: &JsValue) -> String {
    let name = error
        .dyn_ref::<web_sys::DomException>()
        .map(|e| e.name())
        .unwrap_or_default();
    if name == "QuotaExceededError" {
        return "the browser's storage for this site is full".to_string();
    }
    let message = error
        .dyn_ref::<web_sys::Event>()
        .map(|_| "the browser refused".to_string())
        .unwrap_or_else(|| js_message(error));
    format!("could not {what}: {message}")
}

/// A JavaScript error's message.
fn js_message(value: &JsValue) -> String {
    value
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| value.as_string())
        .unwrap_or_else(|| format!("{value:?}"))
}
