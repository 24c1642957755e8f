//! One event-handler type per event. Leptos compiles the code that attaches a handler (and
//! detaches it) once for every closure type it is given: 43 handlers made about
//! 84 copies. [`handler`] boxes the closure, so each event type's attaching code is compiled
//! once; every `on:…` in the app goes through it.

/// `f` as a boxed handler: write `on:click=handler(move |ev| …)`.
pub fn handler<E: 'static>(f: impl FnMut(E) + 'static) -> Box<dyn FnMut(E)> {
    Box::new(f)
}
