//! Taking over the page the build rendered. The app renders the page anew with the same
//! components, off the document, and puts it in place of the build's `<div id="app">` in one
//! step: the reader sees no gap, the layout and the scroll position stay (the same components
//! give the same boxes), and the wasm carries one way of rendering a view instead of two
//! (hydrating every view as well cost about 24 KB of its gzip).
//!
//! What the reader did to the build's page stays: the element they focused (a link reached
//! with Tab) and the `<details>` they opened are the same elements of the new page. The build's
//! drawing of each chart, inline in the page, is kept and moved into the new page
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
    swap(old, &twin, &twin);
}

/// Renders one island, a live part of a page the app does not otherwise render, with `mount`
/// into a holder off the document, then puts what it rendered (one element, the island's
/// twin) in place of the build's element `old`, as [`replace`] does for a whole page.
pub fn replace_island(old: &Element, mount: impl FnOnce(HtmlElement)) {
    keep_drawings(old);
    let (Some(document), Some(holder)) = (super::document(), holder()) else {
        return;
    };
    mount(holder.clone());
    let Some(twin) = holder.first_element_child() else {
        return;
    };
    let rendered = document.create_document_fragment();
    move_children(&holder, &rendered);
    swap(old, &rendered, &twin);
}

/// An empty element off the document, to render into.
pub fn holder() -> Option<HtmlElement> {
    super::document()?
        .create_element("div")
        .ok()?
        .dyn_into()
        .ok()
}

/// Puts `new` (a node holding `twin`, or `twin` itself) where `old` is, and carries the focus
/// and the open `<details>` from `old` to the same places in `twin`.
fn swap(old: &Element, new: &web_sys::Node, twin: &Element) {
    let focused = super::document()
        .and_then(|d| d.active_element())
        .and_then(|e| path_to(old, &e));
    let opened: Vec<_> = super::elements(old, "details[open]")
        .iter()
        .filter_map(|e| path_to(old, e))
        .collect();
    old.replace_with_with_node_1(new).ok();
    for path in opened {
        if let Some(details) = element_at(twin, &path) {
            details.set_attribute("open", "").ok();
        }
    }
    if let Some(element) = focused.and_then(|path| element_at(twin, &path)) {
        focus(element);
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

/// Where `element` sits under `root`: the index of each element on the way down.
fn path_to(root: &Element, element: &Element) -> Option<Vec<u32>> {
    let mut at = element.clone();
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

/// The element at `path` under `root` (see [`path_to`]), if there is one.
fn element_at(root: &Element, path: &[u32]) -> Option<Element> {
    path.iter()
        .try_fold(root.clone(), |at, &i| at.children().item(i))
}

/// Focuses `element` where the reader scrolled to: focusing must not scroll.
fn focus(element: Element) {
    if let Ok(element) = element.dyn_into::<HtmlElement>() {
        let options = web_sys::FocusOptions::new();
        options.set_prevent_scroll(true);
        element.focus_with_options(&options).ok();
    }
}

/// Moves the children of `from` (a kept drawing box, a holder) into `to`.
pub fn move_children(from: &web_sys::Node, to: &web_sys::Node) {
    while let Some(child) = from.first_child() {
        if to.append_child(&child).is_err() {
            break;
        }
    }
}
