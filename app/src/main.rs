//! Entry point of the published pages' app: make the live parts of the page the build rendered
//! live (`islands.rs`). The whole app (`bin/full.rs`) is downloaded only for dropped files.

/// The allocator: talc, a few KB smaller in the wasm than Rust's default (dlmalloc) and faster.
#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    #[cfg(feature = "csr")]
    benchdeck_app::islands::start();
}
