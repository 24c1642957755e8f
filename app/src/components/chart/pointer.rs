//! What the pointer and the keyboard do on a chart's canvas: the tooltip follows the nearest
//! point (or the arrow keys), a drag on a CDF moves its SLA line, a click or Enter on a trend's
//! point opens its result file, and the zoom gestures and keys go to [`ZoomState`].

use benchdeck_core::chart::{ChartSpec, Frame, Target};
use benchdeck_core::export::{self, PointLabel};
use leptos::html::{Canvas, Div};
use leptos::prelude::*;
use web_sys::{KeyboardEvent, MouseEvent, TouchEvent};

use crate::components::handler;
use crate::components::zoom::ZoomState;

/// How far from a point (CSS pixels) the pointer may be for its tooltip to show.
const HOVER_RADIUS: i32 = 28;

/// A chart canvas's answers to the pointer and the keyboard.
#[derive(Clone, Copy)]
pub(super) struct Pointer {
    /// The chart as shown.
    pub spec: Memo<ChartSpec>,
    /// Where each point was drawn.
    pub frame: StoredValue<Frame>,
    /// The point whose tooltip shows.
    pub active: RwSignal<Option<Target>>,
    pub zooming: ZoomState,
    /// A CDF's SLA line.
    pub sla: RwSignal<Option<f64>>,
    pub is_cdf: bool,
    pub zoomable: bool,
    /// Whether its points' result files are published (not a reader's dropped files).
    pub published: bool,
}

impl Pointer {
    /// The canvas element `node`, answering the pointer, touch and keys; `drawn` marks it once
    /// painted, `label` is what assistive technology calls it.
    pub fn canvas(
        self,
        node: NodeRef<Canvas>,
        drawn: RwSignal<bool>,
        label: String,
    ) -> impl IntoView {
        let (zooming, zoomable, active) = (self.zooming, self.zoomable, self.active);
        view! {
            <canvas
                node_ref=node
                class:drawn=move || drawn.get()
                role="img"
                tabindex="0"
                aria-label=label
                on:mousemove=handler(move |ev: MouseEvent| self.on_move(&ev))
                on:mousedown=handler(move |ev: MouseEvent| self.on_down(&ev))
                on:mouseup=handler(move |_| zooming.finish())
                on:touchstart=handler(move |ev: TouchEvent| if zoomable { zooming.touch_start(&ev) })
                on:touchmove=handler(move |ev: TouchEvent| if zoomable { zooming.touch_move(&ev) })
                on:touchend=handler(move |_| zooming.touch_end())
                on:touchcancel=handler(move |_| zooming.touch_end())
                on:dblclick=handler(move |_| if zoomable { zooming.reset() })
                on:click=handler(move |ev: MouseEvent| self.on_click(&ev))
                on:mouseleave=handler(move |_| {
                    zooming.finish();
                    active.set(None);
                })
                on:keydown=handler(move |ev: KeyboardEvent| self.on_key(&ev))
                on:blur=handler(move |_| active.set(None))
            ></canvas>
        }
    }

    /// The tooltip of the point under the pointer or keyboard focus, in the chart's box
    /// `container`.
    pub fn tooltip(self, container: NodeRef<Div>) -> impl IntoView {
        let Pointer { spec, active, .. } = self;
        move || {
            let target = active.get()?;
            let text =
                spec.with_untracked(|s| export::point_label(s, target.series, target.point))?;
            let width = container.get_untracked().map_or(0, |c| c.client_width());
            Some(view! { <Tooltip target text width/> })
        }
    }

    /// The pointer moves: a drag zooms or moves the SLA line, else the tooltip follows the
    /// nearest point.
    pub fn on_move(&self, ev: &MouseEvent) {
        self.drag_sla(ev);
        if self.zooming.dragging() {
            self.zooming.track(ev);
            self.active.set(None);
            return;
        }
        let found = self.nearest(ev);
        if found != self.active.get_untracked() {
            self.active.set(found);
        }
    }

    /// A button goes down: the SLA line moves there, and a zoom drag starts.
    pub fn on_down(&self, ev: &MouseEvent) {
        self.drag_sla(ev);
        if self.zoomable {
            self.zooming.start(ev);
        }
    }

    /// A click on a point that is one run (a trend's) opens its result file.
    pub fn on_click(&self, ev: &MouseEvent) {
        self.open_run(self.nearest(ev));
    }

    /// Zoom keys, Enter on a run's point, or the arrow keys through the points.
    pub fn on_key(&self, ev: &KeyboardEvent) {
        let center = self.active.get_untracked().map(|t| (t.x, t.y));
        if self.zoomable && self.zooming.key(&ev.key(), center) {
            ev.prevent_default();
        } else if ev.key() == "Enter" {
            self.open_run(self.active.get_untracked());
        } else {
            read_by_keyboard(ev, self.frame, self.active);
        }
    }

    /// Dragging on a CDF moves its SLA line to the value under the pointer.
    fn drag_sla(&self, ev: &MouseEvent) {
        if self.is_cdf && ev.buttons() & 1 == 1 {
            let x = self.spec.with_untracked(|s| {
                self.frame
                    .with_value(|f| value_at_pixel(s, f, ev.offset_x()))
            });
            if let Some(x) = x {
                self.sla.set(Some(x));
            }
        }
    }

    /// The point nearest the pointer, within [`HOVER_RADIUS`].
    fn nearest(&self, ev: &MouseEvent) -> Option<Target> {
        self.frame
            .with_value(|f| f.nearest(ev.offset_x(), ev.offset_y(), HOVER_RADIUS))
    }

    /// Opens the result file of `target`'s run, when it is one run's point and the file is
    /// published.
    fn open_run(&self, target: Option<Target>) {
        let link = target.and_then(|t| {
            self.spec
                .with_untracked(|s| Some(s.series.get(t.series)?.points.get(t.point)?.link.clone()))
        });
        if let Some(link) = link.filter(|l| self.published && !l.is_empty()) {
            crate::browser::go_to(&crate::browser::data::href(&link));
        }
    }
}

/// Arrow keys step through the points (the tooltip follows), Escape hides the tooltip.
fn read_by_keyboard(
    ev: &KeyboardEvent,
    frame: StoredValue<Frame>,
    active: RwSignal<Option<Target>>,
) {
    let step: isize = match ev.key().as_str() {
        "ArrowRight" | "ArrowDown" => 1,
        "ArrowLeft" | "ArrowUp" => -1,
        "Escape" => {
            active.set(None);
            return;
        }
        _ => return,
    };
    ev.prevent_default();
    let next = frame.with_value(|f| step_target(f, active.get_untracked(), step));
    active.set(next);
}

/// The next or previous point in reading order (by x, then series) from `from`.
fn step_target(frame: &Frame, from: Option<Target>, step: isize) -> Option<Target> {
    let mut order: Vec<Target> = frame.targets.clone();
    benchdeck_core::order::sort_by_keys(&mut order, &|t| {
        [f64::from(t.x), t.series as f64, t.point as f64]
    });
    if order.is_empty() {
        return None;
    }
    let len = order.len() as isize;
    let index = match from.and_then(|f| order.iter().position(|t| *t == f)) {
        Some(i) => (i as isize + step).rem_euclid(len),
        None if step > 0 => 0,
        None => len - 1,
    };
    order.get(index as usize).copied()
}

/// The data value under pixel column `px` of a chart with numeric x, interpolated between the
/// drawn points on either side (the frame knows where each point was drawn).
fn value_at_pixel(spec: &ChartSpec, frame: &Frame, px: i32) -> Option<f64> {
    let mut known: Vec<(i32, f64)> = frame
        .targets
        .iter()
        .filter_map(|t| {
            let x = spec.series.get(t.series)?.points.get(t.point)?.x;
            x.is_finite().then_some((t.x, x))
        })
        .collect();
    benchdeck_core::order::sort_by_f64(&mut known, &|(p, _)| f64::from(*p));
    let right = known.partition_point(|(p, _)| *p < px);
    match (known.get(right.wrapping_sub(1)), known.get(right)) {
        (Some(&(p0, x0)), Some(&(p1, x1))) if p1 > p0 => {
            Some(x0 + (x1 - x0) * f64::from(px - p0) / f64::from(p1 - p0))
        }
        (Some(&(_, x)), _) | (None, Some(&(_, x))) => Some(x),
        _ => None,
    }
}

/// The values of the point under the pointer or keyboard focus; also announced to screen readers.
#[component]
fn Tooltip(
    /// Where the point is drawn, in CSS pixels from the canvas' top left.
    target: Target,
    /// What to say.
    text: PointLabel,
    /// The chart's width in CSS pixels: near an edge the tooltip opens away from it.
    width: i32,
) -> impl IntoView {
    let style = format!("left: {}px; top: {}px", target.x, target.y);
    // Half the tooltip's widest (18rem), so it never leaves the chart (or an embed's frame).
    const HALF: i32 = 144;
    let class = if target.x < HALF {
        "chart-tooltip opens-right"
    } else if target.x > width - HALF {
        "chart-tooltip opens-left"
    } else {
        "chart-tooltip"
    };
    view! {
        <div class=class role="status" aria-live="polite" style=style>
            <strong>{text.series}</strong>
            <span>{text.x}</span>
            <span class="value">{text.y}</span>
            {(!text.interval.is_empty()).then(|| view! { <span class="interval">{text.interval}</span> })}
            {(!text.note.is_empty()).then(|| view! { <span class="note">{text.note}</span> })}
            {(!text.source.is_empty()).then(|| view! { <span class="source">{text.source}</span> })}
            {(!text.link.is_empty()).then(|| view! { <span class="note">"Click or press Enter to open its result file"</span> })}
        </div>
    }
}
