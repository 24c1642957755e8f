//! Zooming into a line or scatter chart: drag a box with the mouse, or use the toolbar's zoom
//! buttons (touch) or the `+`, `-` and `0` keys on a focused chart (keyboard); a double click,
//! `0` or "Reset zoom" shows the whole chart again. The zoom is part of the chart's view in the
//! address (`chart::ViewState`), so a shared link shows the same box. Turning pixels into data
//! is `benchdeck_core::chart::zoom`'s; this module holds the gestures and the controls.

use benchdeck_core::chart::{Frame, Zoom};
use leptos::prelude::*;
use web_sys::MouseEvent;

/// A box being dragged: where the button went down and where the pointer is (canvas pixels).
#[derive(Clone, Copy, PartialEq)]
struct Drag {
    from: (i32, i32),
    to: (i32, i32),
}

/// A chart's zoom and the drag that may be making a new one.
#[derive(Clone, Copy)]
pub struct ZoomState {
    /// The box shown, `None` for the whole chart.
    pub zoom: RwSignal<Option<Zoom>>,
    drag: RwSignal<Option<Drag>>,
    frame: StoredValue<Frame>,
}

impl ZoomState {
    /// The zoom `zoom` of a chart whose drawing's places are in `frame`.
    pub fn new(zoom: RwSignal<Option<Zoom>>, frame: StoredValue<Frame>) -> ZoomState {
        ZoomState {
            zoom,
            drag: RwSignal::new(None),
            frame,
        }
    }

    /// Whether a box is being dragged (the tooltip then stays away).
    pub fn dragging(&self) -> bool {
        self.drag.with_untracked(Option::is_some)
    }

    /// The primary button went down on the plot: a box starts there.
    pub fn start(&self, ev: &MouseEvent) {
        let at = (ev.offset_x(), ev.offset_y());
        let on_plot = self
            .frame
            .with_value(|f| f.plot.is_some_and(|p| p.contains(at)));
        if ev.button() == 0 && on_plot {
            ev.prevent_default();
            self.drag.set(Some(Drag { from: at, to: at }));
        }
    }

    /// The pointer moved: the box follows it.
    pub fn track(&self, ev: &MouseEvent) {
        if self.dragging() {
            let to = (ev.offset_x(), ev.offset_y());
            self.drag.update(|d| {
                if let Some(d) = d {
                    d.to = to;
                }
            });
        }
    }

    /// The button came up (or the pointer left): the box becomes the zoom, unless it was a
    /// click.
    pub fn finish(&self) {
        let Some(drag) = self.drag.get_untracked() else {
            return;
        };
        self.drag.set(None);
        let zoom = self
            .frame
            .with_value(|f| f.plot.and_then(|p| p.zoom_between(drag.from, drag.to)));
        if zoom.is_some() {
            self.zoom.set(zoom);
        }
    }

    /// `factor` times closer (2) or further (0.5) around `center` (canvas pixels) or the
    /// middle of the plot.
    pub fn step(&self, factor: f64, center: Option<(i32, i32)>) {
        let zoom = self
            .frame
            .with_value(|f| f.plot.and_then(|p| p.zoom_by(factor, center)));
        if zoom.is_some() {
            self.zoom.set(zoom);
        }
    }

    /// Back to the whole chart.
    pub fn reset(&self) {
        self.drag.set(None);
        self.zoom.set(None);
    }

    /// `+`, `-` and `0` on a focused chart; true when the key was one of them.
    pub fn key(&self, key: &str, center: Option<(i32, i32)>) -> bool {
        match key {
            "+" | "=" => self.step(2.0, center),
            "-" | "_" => self.step(0.5, center),
            "0" => self.reset(),
            _ => return false,
        }
        true
    }

    /// The box being dragged, drawn over the chart.
    pub fn view_box(self) -> impl IntoView {
        move || {
            self.drag.get().map(|d| {
                let (left, top) = (d.from.0.min(d.to.0), d.from.1.min(d.to.1));
                let (width, height) = ((d.from.0 - d.to.0).abs(), (d.from.1 - d.to.1).abs());
                let style =
                    format!("left: {left}px; top: {top}px; width: {width}px; height: {height}px");
                view! { <div class="zoom-box" aria-hidden="true" style=style></div> }
            })
        }
    }
}

/// The toolbar's zoom buttons: in, out and, once zoomed, back to the whole chart.
#[component]
pub fn ZoomControls(
    /// The chart's zoom.
    state: ZoomState,
) -> impl IntoView {
    view! {
        <div class="zoom-controls js-only" role="group" aria-label="Zoom">
            <button type="button" class="tool" title="Zoom in (or drag a box over the chart; + key)"
                aria-label="Zoom in" on:click=move |_| state.step(2.0, None)>"+"</button>
            <button type="button" class="tool" title="Zoom out (− key)"
                aria-label="Zoom out" on:click=move |_| state.step(0.5, None)>"−"</button>
            {move || state.zoom.get().is_some().then(|| view! {
                <button type="button" class="tool zoom-reset" title="Show the whole chart (double click, or 0)"
                    on:click=move |_| state.reset()>"Reset zoom"</button>
            })}
        </div>
    }
}
