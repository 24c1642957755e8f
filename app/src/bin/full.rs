//! Entry point of the whole app: takes over the page the build rendered by rendering all of it
//! again. `/local/` loads it from the start (dropped files are read and shown as a report there);
//! the islands' app of a published page downloads it when a reader drops files
//! (`islands/full.rs`), and hands them over with [`open_dropped`].

/// The allocator: talc, as in the islands' app (`main.rs`).
#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    #[cfg(feature = "csr")]
    benchdeck_app::start();
}

/// Opens `files` (dropped on the page of the islands' app that downloaded this one) on
/// `/local/`, once the app has taken the page over.
#[cfg(feature = "csr")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn open_dropped(files: js_sys::Array) {
    use wasm_bindgen::JsCast;
    let files = files
        .iter()
        .filter_map(|f| f.dyn_into::<web_sys::File>().ok())
        .collect();
    benchdeck_app::open_dropped(files);
}
