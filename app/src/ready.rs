//! The `charts-ready` performance mark: set when every chart on the page has been drawn. The
//! page-load benchmark and the end-to-end tests wait for it. A page shown later without a reload
//! (a followed link, dropped files) clears the mark and sets it again when its own charts are
//! drawn.

use std::cell::Cell;

thread_local! {
    static EXPECTED: Cell<Option<usize>> = const { Cell::new(None) };
    static DRAWN: Cell<usize> = const { Cell::new(0) };
    static MARKED: Cell<bool> = const { Cell::new(false) };
}

/// The page has `count` charts to draw (0 marks it ready at once).
pub fn expect_charts(count: usize) {
    unmark();
    EXPECTED.with(|e| e.set(Some(count)));
    DRAWN.with(|d| d.set(0));
    check();
}

/// The page does not know yet what it will draw (dropped files being read): not ready.
pub fn pending() {
    unmark();
    EXPECTED.with(|e| e.set(None));
}

fn unmark() {
    if MARKED.with(|m| m.replace(false)) {
        if let Some(performance) = crate::browser::window().and_then(|w| w.performance()) {
            performance.clear_marks_with_mark_name("charts-ready");
        }
    }
}

/// One chart finished its first drawing.
pub fn chart_drawn() {
    DRAWN.with(|d| d.set(d.get() + 1));
    check();
}

fn check() {
    let expected = EXPECTED.with(Cell::get);
    let drawn = DRAWN.with(Cell::get);
    if expected.is_some_and(|e| drawn >= e) && !MARKED.with(|m| m.replace(true)) {
        if let Some(performance) = crate::browser::window().and_then(|w| w.performance()) {
            performance.mark("charts-ready").ok();
        }
    }
}
