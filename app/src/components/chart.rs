//! A chart on a canvas (painted by `crate::browser::canvas`, crisp on HiDPI screens), redrawn when its
//! width changes, the colour scheme changes or a series is shown or hidden.
//!
//! Around the canvas: a tooltip for the nearest point (mouse, or arrow keys when the chart has
//! focus), and one row under it: the chart's only legend (buttons that hide and show series; the
//! drawing on the page has none of its own) and a quiet toolbar with the statistic and scale
//! switches and one "Download / embed" menu (SVG written by the build, PNG and CSV of what is
//! shown, the embed code, and the data table, the chart's text alternative).

use crate::state::effect::effect;
use benchdeck_core::chart::{
    self, ChartKind, ChartSpec, DrawOptions, Frame, Scale, Target, Theme, ViewState, Zoom,
};
use leptos::html::{Canvas, Div};
use leptos::prelude::*;

use super::chart_image;
use super::legend::{left_out_by_filter, Legend};
use super::zoom::{ZoomControls, ZoomState};

mod controls;
mod menu;
mod pointer;

use controls::{SlaControl, ViewControls};
use menu::ChartMenu;
use pointer::Pointer;

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
        effect(move || {
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
    /// A surface not painted yet.
    fn new(
        canvas: NodeRef<Canvas>,
        frame: StoredValue<Frame>,
        active: RwSignal<Option<Target>>,
        set_error: WriteSignal<Option<String>>,
    ) -> Self {
        Surface {
            canvas,
            frame,
            active,
            drawn: RwSignal::new(false),
            ready: crate::browser::ready::ChartReady::default(),
            set_error,
        }
    }

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
    let spec = shown_spec(base, choice, y_scale, sla);
    let frame = StoredValue::new(Frame::default());
    let zooming = ZoomState::new(zoom, frame);
    // Series of configurations the page's filter leaves out (`filters.rs`) are hidden too.
    let filtered =
        left_out_by_filter(base.with_value(|s| s.series.iter().map(|x| x.name.clone()).collect()));
    let shown_hidden = Signal::derive(move || hidden.get() | filtered.get());
    // Until the canvas is first drawn, the page shows the chart's SVG as the build drew it (the
    // pre-rendered page's image, at the canvas' size): drawing swaps them without moving text.
    let surface = Surface::new(canvas, frame, active, set_error);
    let near = watch_container(container, set_width, surface.ready);
    effect(move || {
        if near.get() {
            surface.paint(&spec.get(), shown_hidden.get(), zoom.get(), width.get());
        }
    });
    let drawn = surface.drawn;

    let pointer = Pointer {
        spec,
        frame,
        active,
        zooming,
        sla,
        is_cdf,
        zoomable,
        published: slug != benchdeck_core::site::LOCAL_SLUG,
    };

    let (id, caption, label, names) = base.with_value(|s| {
        let names: Vec<_> = s.series.iter().map(|x| (x.name.clone(), x.color)).collect();
        (s.id.clone(), s.caption.clone(), canvas_label(s), names)
    });
    let box_style = base.with_value(box_style);
    let series_count = names.len();
    view! {
        <figure class="chart" id=format!("chart-{id}") data-chart=id.clone() data-series=series_count data-zoomable=zoomable.then_some("") style=(span > 1).then(|| format!("--span: {span}"))>
            <div class="chart-canvas" node_ref=container style=box_style>
                {chart_image::chart_image(&base.read_value(), &slug, drawn.into())}
                {pointer.canvas(canvas, drawn, label)}
                {pointer.tooltip(container)}
                {zooming.view_box()}
            </div>
            {move || error.get().map(draw_error)}
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

/// The panel saying why the chart could not be drawn.
fn draw_error(error: String) -> impl IntoView {
    view! { <p class="error-panel" role="alert">"This chart could not be drawn: "{error}</p> }
}

/// The chart as the reader sees it: `base` at the reader's prices (a cost chart follows them,
/// `prices.rs`), statistic and y scale, and a CDF with its SLA line.
fn shown_spec(
    base: StoredValue<ChartSpec>,
    choice: RwSignal<Option<usize>>,
    y_scale: RwSignal<Scale>,
    sla: RwSignal<Option<f64>>,
) -> Memo<ChartSpec> {
    let prices = super::Prices::of_page();
    let is_cdf = base.with_value(|s| matches!(s.kind, ChartKind::Cdf));
    Memo::new(move |_| {
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
    })
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
    effect(move || {
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
