//! Entry point of the browser app: take over the page the build rendered.

/// The allocator: talc, a few KB smaller in the wasm than Rust's default (dlmalloc) and faster.
#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    #[cfg(feature = "csr")]
    benchdeck_app::start();
}
