//! Taking over the page the build rendered. The app renders the page anew with the same
//! components, off the document, and puts it in place of the build's `<div id="app">` in one
//! step: the reader sees no gap, the layout and the scroll position stay (the same components
//! give the same boxes), and the wasm carries one way of rendering a view instead of two
//! (hydrating every view as well cost about 24 KB of its gzip).
//!
//! The element the reader had focused (a link reached with Tab) keeps the focus: the same
//! element of the new page takes it. The build's drawing of each chart, inline in the page, is kept and moved into the new page
//! ([`take_drawing`]), so no chart flashes empty or fetches its image while its canvas is drawn.

use std::cell::RefCell;
use std::collections::HashMap;

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

thread_local! {
    /// The build's drawings not yet moved into the app's page, by chart id.
    static KEPT: RefCell<HashMap<String, Element>> = RefCell::new(HashMap::new());
}

/// Renders the page with `mount` into a twin of `old` (same id and class) off the document,
/// then puts the twin where `old` was. The build's drawings in `old` are kept for the charts the
/// app renders.
pub fn replace(old: &Element, mount: impl FnOnce(HtmlElement)) {
    keep_drawings(old);
    let Some(twin) = twin_of(old) else {
        return;
    };
    mount(twin.clone());
    let focused = focus_path(old);
    old.replace_with_with_node_1(&twin).ok();
    if let Some(path) = focused {
        refocus(&twin, &path);
    }
    // Drawings no chart took (a chart that failed, a page that changed) go with the old page.
    KEPT.with_borrow_mut(HashMap::clear);
}

/// The build's drawing of chart `id`, moved out of the build's page (once: a chart rendered
/// again shows its image files instead).
pub fn take_drawing(id: &str) -> Option<Element> {
    KEPT.with_borrow_mut(|kept| kept.remove(id))
}

/// Keeps each chart's drawing box (`.chart-image`) under `root`, by its figure's `data-chart`.
fn keep_drawings(root: &Element) {
    let kept = super::elements(root, "figure[data-chart] .chart-image")
        .into_iter()
        .filter_map(|image| {
            let figure = image.closest("figure[data-chart]").ok()??;
            Some((figure.get_attribute("data-chart")?, image))
        })
        .collect::<HashMap<_, _>>();
    KEPT.set(kept);
}

/// An empty element with `old`'s tag, id and class, not in the document.
fn twin_of(old: &Element) -> Option<HtmlElement> {
    let twin = super::document()?.create_element(&old.tag_name()).ok()?;
    twin.set_id(&old.id());
    twin.set_class_name(&old.class_name());
    twin.dyn_into().ok()
}

/// Where the focused element sits under `root`: the index of each element on the way down.
fn focus_path(root: &Element) -> Option<Vec<u32>> {
    let mut at = super::document()?.active_element()?;
    let mut path = Vec::new();
    while &at != root {
        let parent = at.parent_element()?;
        let siblings = parent.children();
        path.push((0..siblings.length()).find(|&i| siblings.item(i).as_ref() == Some(&at))?);
        at = parent;
    }
    path.reverse();
    Some(path)
}

/// Focuses the element at `path` under `root` (see [`focus_path`]), if there is one.
fn refocus(root: &Element, path: &[u32]) {
    let found = path
        .iter()
        .try_fold(root.clone(), |at, &i| at.children().item(i));
    if let Some(element) = found.and_then(|e| e.dyn_into::<HtmlElement>().ok()) {
        // Where the reader scrolled to stays: focusing must not scroll.
        let options = web_sys::FocusOptions::new();
        options.set_prevent_scroll(true);
        element.focus_with_options(&options).ok();
    }
}

/// Moves the children of `from` (a kept drawing box) into `to`.
pub fn move_children(from: &Element, to: &Element) {
    while let Some(child) = from.first_child() {
        if to.append_child(&child).is_err() {
            break;
        }
    }
}
