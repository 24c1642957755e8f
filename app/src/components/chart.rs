//! A chart on a canvas (painted by `crate::browser::canvas`, crisp on HiDPI screens), redrawn when its
//! width changes, the colour scheme changes or a series is shown or hidden.
//!
//! Around the canvas: a tooltip for the nearest point (mouse, or arrow keys when the chart has
//! focus), and one row under it: the chart's only legend (buttons that hide and show series; the
//! drawing on the page has none of its own) and a quiet toolbar with the statistic and scale
//! switches and one "Download / embed" menu (SVG written by the build, PNG and CSV of what is
//! shown, the embed code, and the data table, the chart's text alternative).

use benchdeck_core::chart::{
    self, ChartKind, ChartSpec, DrawOptions, Frame, Scale, Target, Theme, ViewState, Zoom,
};
use benchdeck_core::export::{self, PointLabel};
use leptos::html::{Canvas, Div};
use leptos::prelude::*;
use web_sys::{KeyboardEvent, MouseEvent, TouchEvent};

use super::chart_image;
use super::legend::{left_out_by_filter, Legend};
use super::zoom::{ZoomControls, ZoomState};

mod controls;
mod menu;

use controls::{SlaControl, ViewControls};
use menu::ChartMenu;

/// How far from a point (CSS pixels) the pointer may be for its tooltip to show.
const HOVER_RADIUS: i32 = 28;

/// The reader's view of a chart, as the address gives it and kept there: which statistic (an
/// index into `alternatives`), which y scale, which series hidden, where a CDF's SLA line is.
#[derive(Clone, Copy)]
struct ReaderView {
    choice: RwSignal<Option<usize>>,
    y_scale: RwSignal<Scale>,
    hidden: RwSignal<u64>,
    sla: RwSignal<Option<f64>>,
    zoom: RwSignal<Option<Zoom>>,
}

impl ReaderView {
    /// The view the address holds for `spec` (its defaults otherwise), written back to the
    /// address, defaults left out, whenever the reader changes it.
    fn from_address(spec: &ChartSpec, shared_hidden: Option<RwSignal<u64>>) -> ReaderView {
        let view_key = format!("chart-{}", spec.id);
        let saved = saved_view(&spec.id);
        let initial = spec
            .alternatives
            .iter()
            .position(|a| a.y_title == spec.y.title);
        let view = ReaderView {
            choice: RwSignal::new(
                saved
                    .statistic
                    .filter(|&i| i < spec.alternatives.len())
                    .or(initial),
            ),
            y_scale: RwSignal::new(saved.y_scale.unwrap_or(spec.y.scale)),
            hidden: shared_hidden.unwrap_or_else(|| RwSignal::new(saved.hidden)),
            sla: RwSignal::new(saved.sla.or_else(|| spec.x_threshold())),
            zoom: RwSignal::new(saved.zoom.filter(|_| spec.zoomable())),
        };
        let is_cdf = matches!(spec.kind, ChartKind::Cdf);
        let defaults = (initial, spec.y.scale, spec.x_threshold());
        Effect::new(move || {
            let state = ViewState {
                statistic: view.choice.get().filter(|&c| Some(c) != defaults.0),
                y_scale: Some(view.y_scale.get()).filter(|&s| s != defaults.1),
                hidden: view.hidden.get(),
                sla: view.sla.get().filter(|&x| is_cdf && Some(x) != defaults.2),
                zoom: view.zoom.get(),
            };
            crate::state::query::set(&[(view_key.as_str(), state.encode())]);
        });
        view
    }
}

/// The view of chart `id` that the address holds (the defaults when it holds none).
fn saved_view(id: &str) -> ViewState {
    crate::state::query::get(&format!("chart-{id}")).map_or_else(ViewState::default, |t| {
        ViewState::decode_with(&t, &crate::browser::number::parse_f64)
    })
}

/// The series hidden in chart `id` by the address: where a grid's shared legend starts.
pub fn hidden_in_address(id: &str) -> u64 {
    saved_view(id).hidden
}

/// Where a chart is painted and what painting leaves behind.
#[derive(Clone, Copy)]
struct Surface {
    canvas: NodeRef<Canvas>,
    /// Where each point was drawn, for the tooltip.
    frame: StoredValue<Frame>,
    /// The point whose tooltip shows.
    active: RwSignal<Option<Target>>,
    /// Whether the canvas has been painted (until then the build's drawing shows).
    drawn: RwSignal<bool>,
    ready: crate::browser::ready::ChartReady,
    set_error: WriteSignal<Option<String>>,
}

impl Surface {
    /// Paints `spec` at `width` CSS pixels (once the canvas and its width are known), in the
    /// page's colour scheme, with the `hidden` series left out.
    fn paint(self, spec: &ChartSpec, hidden: u64, zoom: Option<Zoom>, width: Option<f64>) {
        let (Some(width), Some(canvas)) = (width, self.canvas.get()) else {
            return;
        };
        let width = width.max(280.0);
        let height = chart::preferred_height(spec, width);
        let options = DrawOptions {
            theme: Theme::named(crate::state::theme::tracked()),
            hidden,
            // The legend is the page's buttons under the chart.
            legend: false,
            zoom,
            direct_labels: true,
        };
        match crate::browser::canvas::paint(&canvas, spec, (width, height), &options) {
            Ok(frame) => {
                self.frame.set_value(frame);
                self.set_error.set(None);
                // The hover index, built while the reader is not doing anything, so that the
                // first hover never waits for it.
                let lookup = self.frame;
                crate::browser::when_idle(move || {
                    lookup.try_with_value(Frame::prepare_lookup);
                });
            }
            Err(e) => self.set_error.set(Some(e)),
        }
        self.active.set(None);
        if !self.drawn.get_untracked() {
            self.drawn.set(true);
            self.ready.settle();
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

/// What the canvas is called for assistive technology: its title and caption, and how to read
/// its values.
fn canvas_label(spec: &ChartSpec) -> String {
    if spec.caption.is_empty() {
        spec.title.clone()
    } else {
        format!(
            "{}. {} Use the arrow keys to read the values.",
            spec.title, spec.caption
        )
    }
}

/// One chart with its caption, controls and data table.
#[component]
pub fn ChartView(
    /// What to draw.
    spec: ChartSpec,
    /// The report it belongs to (for the URL of its SVG file).
    slug: String,
    /// Shown alone in an embed page: no downloads or data table, a link to the report instead.
    #[prop(optional)]
    embed: bool,
    /// The series hidden in every panel of the grid the chart is a panel of, when the grid's
    /// panels share one legend (`grid.rs`): the chart then has none of its own.
    #[prop(default = None)]
    shared_hidden: Option<RwSignal<u64>>,
    /// The columns of its grid a panel spans (`--span`, which the stylesheet reads where the
    /// grid has several columns).
    #[prop(default = 1)]
    span: usize,
) -> impl IntoView {
    let container = NodeRef::<Div>::new();
    let canvas = NodeRef::<Canvas>::new();
    let (error, set_error) = signal(None::<String>);
    // The canvas's width in CSS pixels, reported by a ResizeObserver after the browser's own
    // layout (also when the window is resized): reading it while drawing would force a layout
    // per chart.
    let (width, set_width) = signal(None::<f64>);
    let active = RwSignal::new(None::<Target>);
    let is_cdf = matches!(spec.kind, ChartKind::Cdf);
    let ReaderView {
        choice,
        y_scale,
        hidden,
        sla,
        zoom,
    } = ReaderView::from_address(&spec, shared_hidden);
    let zoomable = spec.zoomable();
    let base = StoredValue::new(spec);
    // A cost chart follows the reader's prices (`prices.rs`).
    let prices = super::Prices::of_page();
    let spec = Memo::new(move |_| {
        let view = base.with_value(|s| {
            let repriced = prices.and_then(|p| p.chart(s));
            repriced
                .as_ref()
                .unwrap_or(s)
                .with_view(choice.get(), Some(y_scale.get()))
        });
        match sla.get() {
            Some(x) if is_cdf => view.with_x_threshold(x),
            _ => view,
        }
    });
    let frame = StoredValue::new(Frame::default());
    let zooming = ZoomState::new(zoom, frame);
    // Series of configurations the page's filter leaves out (`filters.rs`) are hidden too.
    let filtered =
        left_out_by_filter(base.with_value(|s| s.series.iter().map(|x| x.name.clone()).collect()));
    let shown_hidden = Signal::derive(move || hidden.get() | filtered.get());
    // Until the canvas is first drawn, the page shows the chart's SVG as the build drew it (the
    // pre-rendered page's image, at the canvas' size): drawing swaps them without moving text.
    let drawn = RwSignal::new(false);
    let ready = crate::browser::ready::ChartReady::default();
    let near = watch_container(container, set_width, ready);

    let surface = Surface {
        canvas,
        frame,
        active,
        drawn,
        ready,
        set_error,
    };
    Effect::new(move || {
        if near.get() {
            surface.paint(&spec.get(), shown_hidden.get(), zoom.get(), width.get());
        }
    });

    // Dragging on a CDF moves its SLA line to the value under the pointer.
    let drag_sla = move |ev: &MouseEvent| {
        if is_cdf && ev.buttons() & 1 == 1 {
            let x =
                spec.with_untracked(|s| frame.with_value(|f| value_at_pixel(s, f, ev.offset_x())));
            if let Some(x) = x {
                sla.set(Some(x));
            }
        }
    };
    let on_move = move |ev: MouseEvent| {
        drag_sla(&ev);
        if zooming.dragging() {
            zooming.track(&ev);
            active.set(None);
            return;
        }
        let found = frame.with_value(|f| f.nearest(ev.offset_x(), ev.offset_y(), HOVER_RADIUS));
        if found != active.get_untracked() {
            active.set(found);
        }
    };
    // A point that is one run (a trend's) opens its result file on a click or Enter.
    let published = slug != benchdeck_core::site::LOCAL_SLUG;
    let open_run = move |target: Option<Target>| {
        let link = target.and_then(|t| {
            spec.with_untracked(|s| Some(s.series.get(t.series)?.points.get(t.point)?.link.clone()))
        });
        if let Some(link) = link.filter(|l| published && !l.is_empty()) {
            crate::browser::go_to(&crate::browser::data::href(&link));
        }
    };
    let on_click = move |ev: MouseEvent| {
        open_run(frame.with_value(|f| f.nearest(ev.offset_x(), ev.offset_y(), HOVER_RADIUS)));
    };
    let on_key = move |ev: KeyboardEvent| {
        let center = active.get_untracked().map(|t| (t.x, t.y));
        if zoomable && zooming.key(&ev.key(), center) {
            ev.prevent_default();
        } else if ev.key() == "Enter" {
            open_run(active.get_untracked());
        } else {
            read_by_keyboard(&ev, frame, active);
        }
    };

    let (id, caption, label, names) = base.with_value(|s| {
        let names: Vec<_> = s.series.iter().map(|x| (x.name.clone(), x.color)).collect();
        (s.id.clone(), s.caption.clone(), canvas_label(s), names)
    });
    let box_style = base.with_value(box_style);
    let series_count = names.len();
    let tooltip = move || {
        let target = active.get()?;
        let text = spec.with_untracked(|s| export::point_label(s, target.series, target.point))?;
        let width = container.get_untracked().map_or(0, |c| c.client_width());
        Some(view! { <Tooltip target text width/> })
    };
    view! {
        <figure class="chart" id=format!("chart-{id}") data-chart=id.clone() data-series=series_count data-zoomable=zoomable.then_some("") style=(span > 1).then(|| format!("--span: {span}"))>
            <div class="chart-canvas" node_ref=container style=box_style>
                {chart_image::chart_image(&base.read_value(), &slug, drawn.into())}
                <canvas
                    node_ref=canvas
                    class:drawn=move || drawn.get()
                    role="img"
                    tabindex="0"
                    aria-label=label
                    on:mousemove=on_move
                    on:mousedown=move |ev: MouseEvent| {
                        drag_sla(&ev);
                        if zoomable {
                            zooming.start(&ev);
                        }
                    }
                    on:mouseup=move |_| zooming.finish()
                    on:touchstart=move |ev: TouchEvent| if zoomable { zooming.touch_start(&ev) }
                    on:touchmove=move |ev: TouchEvent| if zoomable { zooming.touch_move(&ev) }
                    on:touchend=move |_| zooming.touch_end()
                    on:touchcancel=move |_| zooming.touch_end()
                    on:dblclick=move |_| if zoomable { zooming.reset() }
                    on:click=on_click
                    on:mouseleave=move |_| {
                        zooming.finish();
                        active.set(None);
                    }
                    on:keydown=on_key
                    on:blur=move |_| active.set(None)
                ></canvas>
                {tooltip}
                {zooming.view_box()}
            </div>
            {move || error.get().map(|e| view! { <p class="error-panel" role="alert">"This chart could not be drawn: "{e}</p> })}
            {(!caption.is_empty()).then(|| view! { <figcaption>{caption}</figcaption> })}
            // One row under the chart: its one legend, then a quiet toolbar (the statistic, the
            // scale, one menu for downloads, the embed code and the data table).
            <div class="chart-bar">
                {shared_hidden.is_none().then(|| view! { <Legend names hidden filtered/> })}
                <div class="chart-toolbar">
                    <ViewControls base choice y_scale/>
                    {zoomable.then(|| view! { <ZoomControls state=zooming/> })}
                    {(!embed).then(|| view! { <ChartMenu spec canvas slug id=id.clone() hidden=shown_hidden zoom/> })}
                </div>
            </div>
            {is_cdf.then(|| view! { <SlaControl base spec sla/> })}
        </figure>
    }
}

/// Watches the chart's box: its width goes to `set_width`, and the returned signal turns true
/// once the box comes near the viewport (in a task of its own, so the charts in view at load are
/// drawn one task each, not in one long task). A chart further down settles `ready` at once: it
/// shows the build's drawing until the reader scrolls near.
fn watch_container(
    container: NodeRef<Div>,
    set_width: WriteSignal<Option<f64>>,
    ready: crate::browser::ready::ChartReady,
) -> RwSignal<bool> {
    let near = RwSignal::new(false);
    Effect::new(move || {
        if let Some(container) = container.get() {
            crate::browser::canvas::observe_width(&container, set_width);
            crate::browser::canvas::when_near(&container, move |is_near| {
                if is_near {
                    crate::browser::later(move || {
                        near.try_set(true);
                    });
                } else {
                    ready.settle();
                }
            });
        }
    });
    near
}

/// The drawing's box: its height follows [`chart::preferred_height`] in CSS (`.chart-canvas`:
/// 56% of the width between 260 and 460 px), so the page is laid out at its final size before
/// anything is drawn; kinds whose height does not depend on the width say it here, past the
/// 460 px cap when their rows need it (five metrics of four configurations: 554 px).
fn box_style(spec: &ChartSpec) -> Option<String> {
    match spec.kind {
        ChartKind::HBars { .. } | ChartKind::Stacked { .. } => Some(format!(
            "aspect-ratio: auto; min-height: 0; max-height: none; height: {}px",
            chart::preferred_height(spec, 0.0)
        )),
        _ => None,
    }
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
