//! Zooming into a line or scatter chart: drag a box with the mouse, pinch with two fingers (the
//! chart follows the fingers, which also move it), or use the toolbar's zoom buttons or the `+`,
//! `-` and `0` keys on a focused chart (keyboard); a double click, `0` or "Reset zoom" shows the
//! whole chart again. One finger still scrolls the page (`touch-action: pan-x pan-y` on a
//! zoomable chart's canvas: the browser leaves two-finger gestures there to the chart). The
//! zoom is part of the chart's view in the address (`chart::ViewState`), so a shared link shows
//! the same box. Turning pixels into data is `benchdeck_core::chart::zoom`'s; this module holds
//! the gestures and the controls.

use benchdeck_core::chart::{Frame, PlotArea, Zoom};
use leptos::prelude::*;
use web_sys::{MouseEvent, TouchEvent};

use crate::components::handler;

/// A box being dragged: where the button went down and where the pointer is (canvas pixels).
#[derive(Clone, Copy, PartialEq)]
struct Drag {
    from: (i32, i32),
    to: (i32, i32),
}

/// Two fingers on the plot: their midpoint and spread when they touched (canvas pixels), and
/// the plot as it was drawn then, which every step of the pinch starts from.
#[derive(Clone, Copy)]
struct Pinch {
    midpoint: (f64, f64),
    spread: f64,
    plot: PlotArea,
}

/// A chart's zoom and the drag or pinch that may be making a new one.
#[derive(Clone, Copy)]
pub struct ZoomState {
    /// The box shown, `None` for the whole chart.
    pub zoom: RwSignal<Option<Zoom>>,
    drag: RwSignal<Option<Drag>>,
    pinch: StoredValue<Option<Pinch>>,
    frame: StoredValue<Frame>,
}

impl ZoomState {
    /// The zoom `zoom` of a chart whose drawing's places are in `frame`.
    pub fn new(zoom: RwSignal<Option<Zoom>>, frame: StoredValue<Frame>) -> ZoomState {
        ZoomState {
            zoom,
            drag: RwSignal::new(None),
            pinch: StoredValue::new(None),
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

    /// Fingers touched the canvas: with two on the plot, a pinch starts.
    pub fn touch_start(&self, ev: &TouchEvent) {
        let Some((midpoint, spread)) = fingers(ev) else {
            self.pinch.set_value(None);
            return;
        };
        let plot = self.frame.with_value(|f| f.plot);
        let on_plot = |p: PlotArea| p.contains((midpoint.0 as i32, midpoint.1 as i32));
        if let Some(plot) = plot.filter(|p| on_plot(*p) && spread >= MIN_SPREAD) {
            ev.prevent_default();
            self.drag.set(None);
            self.pinch.set_value(Some(Pinch {
                midpoint,
                spread,
                plot,
            }));
        }
    }

    /// The fingers moved: the chart is zoomed by how far they spread, and moved with them.
    pub fn touch_move(&self, ev: &TouchEvent) {
        let (Some(pinch), Some((midpoint, spread))) = (self.pinch.get_value(), fingers(ev)) else {
            return;
        };
        ev.prevent_default();
        let zoom = pinch
            .plot
            .pinched(spread / pinch.spread, pinch.midpoint, midpoint);
        if zoom.is_some() && zoom != self.zoom.get_untracked() {
            self.zoom.set(zoom);
        }
    }

    /// A finger came up: the pinch ends where it is.
    pub fn touch_end(&self) {
        self.pinch.set_value(None);
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

/// Fingers closer than this (CSS pixels) are not a pinch: the spread would be all noise.
const MIN_SPREAD: f64 = 12.0;

/// The midpoint of two fingers on the event's canvas (its pixels) and their distance; `None`
/// unless exactly two touch it.
fn fingers(ev: &TouchEvent) -> Option<((f64, f64), f64)> {
    let touches = ev.target_touches();
    if touches.length() != 2 {
        return None;
    }
    let canvas = event_target::<web_sys::Element>(ev);
    let rect = canvas.get_bounding_client_rect();
    let at = |i: u32| {
        touches.get(i).map(|t| {
            (
                f64::from(t.client_x()) - rect.left(),
                f64::from(t.client_y()) - rect.top(),
            )
        })
    };
    let (a, b) = (at(0)?, at(1)?);
    let midpoint = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
    Some((midpoint, (a.0 - b.0).hypot(a.1 - b.1)))
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
                aria-label="Zoom in" on:click=handler(move |_| state.step(2.0, None))>"+"</button>
            <button type="button" class="tool" title="Zoom out (− key)"
                aria-label="Zoom out" on:click=handler(move |_| state.step(0.5, None))>"−"</button>
            {move || state.zoom.get().is_some().then(|| view! {
                <button type="button" class="tool zoom-reset" title="Show the whole chart (double click, or 0)"
                    on:click=handler(move |_| state.reset())>"Reset zoom"</button>
            })}
        </div>
    }
}
