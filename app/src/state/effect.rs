//! One effect function for the whole app. `Effect::new` is generic over its closure, and each use
//! copies leptos' effect loop into the wasm (about 1.4 KB each, a dozen uses); [`effect`] boxes
//! the closure, so the loop is compiled once. `clippy.toml` turns `Effect::new` away elsewhere.

use leptos::prelude::Effect;

/// Runs `f` once the app is live, and again whenever a signal it read changes (as
/// `Effect::new`).
pub fn effect(f: impl FnMut() + 'static) {
    erased(Box::new(f));
}

/// The one copy of the effect loop: not generic, so it is compiled once.
#[allow(clippy::disallowed_methods)]
fn erased(mut f: Box<dyn FnMut()>) {
    Effect::new(move |_| f());
}
