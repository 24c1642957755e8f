//! The `charts-ready` performance mark: set when every chart on the page is on screen as it will
//! stay: drawn on its canvas when it is in view or near it, or, further down the page, showing
//! the build's drawing of it (the canvas takes over when the reader scrolls near). The page-load
//! benchmark and the end-to-end tests wait for it. A page shown later without a reload (a
//! followed link, dropped files) clears the mark and sets it again when its own charts settle.

use std::cell::Cell;

use leptos::prelude::{StoredValue, UpdateValue};

thread_local! {
    static EXPECTED: Cell<Option<usize>> = const { Cell::new(None) };
    static SETTLED: Cell<usize> = const { Cell::new(0) };
    static MARKED: Cell<bool> = const { Cell::new(false) };
}

/// The page has `count` charts to show (0 marks it ready at once).
pub fn expect_charts(count: usize) {
    unmark();
    EXPECTED.with(|e| e.set(Some(count)));
    SETTLED.with(|d| d.set(0));
    check();
}

/// The page does not know yet what it will draw (dropped files being read): not ready.
pub fn pending() {
    unmark();
    EXPECTED.with(|e| e.set(None));
}

fn unmark() {
    MARKED.with(|m| m.set(false));
    // Cleared whoever set it: the islands' app, before the whole app took the page over.
    if let Some(performance) = crate::browser::window().and_then(|w| w.performance()) {
        performance.clear_marks_with_mark_name("charts-ready");
    }
}

/// One chart's part in the mark: it counts once, when it is first drawn or first found to be
/// out of view, whichever comes first.
#[derive(Clone, Copy)]
pub struct ChartReady(StoredValue<bool>);

impl Default for ChartReady {
    /// A chart that has not settled yet.
    fn default() -> ChartReady {
        ChartReady(StoredValue::new(false))
    }
}

impl ChartReady {
    /// The chart shows what it will show until the reader comes near: counted (once).
    pub fn settle(self) {
        let first = self.0.try_update_value(|s| !std::mem::replace(s, true));
        if first == Some(true) {
            SETTLED.with(|d| d.set(d.get() + 1));
            check();
        }
    }
}

fn check() {
    let expected = EXPECTED.with(Cell::get);
    let settled = SETTLED.with(Cell::get);
    if expected.is_some_and(|e| settled >= e) && !MARKED.with(|m| m.replace(true)) {
        if let Some(performance) = crate::browser::window().and_then(|w| w.performance()) {
            performance.mark("charts-ready").ok();
        }
    }
}
