//! The hidden page `/_bench/scatter/`: how fast the app draws the synthetic 100,000-point scatter
//! (`benchdeck_core::chart::synthetic::scatter`) on a canvas, and how fast the tooltip finds the
//! nearest point. Not linked from anywhere; `cargo xtask bench` opens it in headless Chromium
//! next to the same data drawn by uPlot (`xtask/bench/`), and anyone can open it in a browser.
//!
//! In order, each timed with `performance.now()` and recorded with `performance.measure`
//! (`benchdeck:<step>`): the first draw on a fresh canvas, redraws of the whole chart (what a
//! resize or a colour-scheme change does), and redraws after hiding and showing the second series
//! (a legend click); then the first `Frame::nearest` call (which builds its index) and 1,000
//! lookups at random pixels. A draw counts up to its pixels: every timing ends with a one-pixel
//! `getImageData`, which makes the browser rasterise what was drawn (the uPlot page does the
//! same). Between draws the page waits for two animation frames, as between a reader's clicks.
//!
//! The results are JSON in `<pre id="bench-results">` (`error` is set when something failed),
//! and `charts-ready` is marked once they are there.

use crate::state::effect::effect;
use benchdeck_core::chart::synthetic::{self, XorShift};
use benchdeck_core::chart::{ChartSpec, DrawOptions, Frame, Theme, ThemeName};
use leptos::html::Canvas;
use leptos::prelude::*;
use serde::Serialize;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use web_sys::{HtmlCanvasElement, Performance};

use crate::browser::data::js_message;

/// Points in the scatter.
const POINTS: usize = 100_000;
/// Whole-chart redraws after the first draw.
const REDRAWS: usize = 10;
/// Redraws after a legend click (hide, show, hide...).
const TOGGLES: usize = 10;
/// Nearest-point lookups timed after the index is built.
const QUERIES: usize = 1_000;
/// How far from a point (CSS pixels) the pointer may be for its tooltip: the chart's value.
const HOVER_RADIUS: i32 = 28;

/// What the page measured; `xtask/bench/uplot-bench.js` writes the same shape.
#[derive(Debug, Default, Serialize)]
struct Results {
    /// `benchdeck`.
    library: &'static str,
    /// Points drawn by a full draw.
    points: usize,
    /// Canvas size, CSS pixels.
    size: (u32, u32),
    /// The page's `devicePixelRatio`.
    device_pixel_ratio: f64,
    /// Making the spec in wasm (not a draw).
    generate_ms: f64,
    /// The first draw, on a fresh canvas.
    first_ms: f64,
    /// Each whole-chart redraw.
    redraw_ms: Vec<f64>,
    /// Each redraw after hiding or showing the second series (hide first).
    toggle_ms: Vec<f64>,
    /// The part of each draw above (first, redraws, toggles) spent in the closing
    /// `getImageData`, where the browser rasterises what the drawing calls recorded.
    raster_ms: Vec<f64>,
    /// Tooltip lookups.
    nearest: Option<Nearest>,
    /// Sum of `x + y` over every point, series by series: the uPlot page computes it the same
    /// way, so equal sums mean both drew the same data.
    checksum: f64,
    /// What failed, if anything did.
    error: Option<String>,
}

/// Timings of `Frame::nearest`.
#[derive(Debug, Default, Serialize)]
struct Nearest {
    /// The first call on a fresh frame: builds the bucket index, then looks up one point.
    build_ms: f64,
    /// Lookups timed after that.
    queries: usize,
    /// Their total time.
    total_ms: f64,
    /// Per lookup, microseconds.
    per_query_us: f64,
    /// How many found a point within the hover radius.
    found: usize,
}

/// The benchmark page.
#[component]
pub fn ScatterBench() -> impl IntoView {
    crate::browser::ready::expect_charts(1);
    let canvas = NodeRef::<Canvas>::new();
    let (results, set_results) = signal(String::new());
    let started = StoredValue::new(false);
    let ready = crate::browser::ready::ChartReady::default();
    effect(move || {
        let Some(canvas) = canvas.get() else {
            return;
        };
        if started.get_value() {
            return;
        }
        started.set_value(true);
        wasm_bindgen_futures::spawn_local(async move {
            let mut out = Results {
                library: "benchdeck",
                points: POINTS,
                size: synthetic::SIZE,
                ..Results::default()
            };
            if let Err(e) = run(&canvas, &mut out).await {
                out.error = Some(e);
            }
            let json = serde_json::to_string_pretty(&out)
                .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
            set_results.set(json);
            ready.settle();
        });
    });
    let (width, height) = synthetic::SIZE;
    view! {
        <section class="bench">
            <h1>"Scatter drawing benchmark (synthetic data)"</h1>
            <p>{format!(
                "{} synthetic points drawn {} times on a {width}×{height} canvas, then {QUERIES} \
                 nearest-point lookups. The results appear below when done.",
                benchdeck_core::format::number(POINTS as f64),
                1 + REDRAWS + TOGGLES,
            )}</p>
            <div style=format!("width: {width}px")>
                <canvas node_ref=canvas></canvas>
            </div>
            <pre id="bench-results">{results}</pre>
        </section>
    }
}

/// Runs every step, filling `out` as it goes.
async fn run(canvas: &HtmlCanvasElement, out: &mut Results) -> Result<(), String> {
    let window = crate::browser::window().ok_or("no window")?;
    let performance = window.performance().ok_or("no performance API")?;
    out.device_pixel_ratio = window.device_pixel_ratio();

    let (spec, ms) = timed(&performance, "generate", || synthetic::scatter(POINTS));
    out.generate_ms = ms;
    out.checksum = checksum(&spec);
    next_frame().await;

    let (drawn, ms) = timed(&performance, "first", || {
        paint(&performance, canvas, &spec, 0)
    });
    let (frame, raster) = drawn?;
    out.first_ms = ms;
    out.raster_ms.push(raster);
    if frame.targets.len() != POINTS {
        return Err(format!(
            "{} points were drawn, not {POINTS}",
            frame.targets.len()
        ));
    }
    for i in 0..REDRAWS {
        next_frame().await;
        let (drawn, ms) = timed(&performance, &format!("redraw:{i}"), || {
            paint(&performance, canvas, &spec, 0)
        });
        out.raster_ms.push(drawn?.1);
        out.redraw_ms.push(ms);
    }
    for i in 0..TOGGLES {
        next_frame().await;
        // Bit 1: the second series is hidden on even steps and shown again on odd ones.
        let hidden = if i % 2 == 0 { 0b10 } else { 0 };
        let (drawn, ms) = timed(&performance, &format!("toggle:{i}"), || {
            paint(&performance, canvas, &spec, hidden)
        });
        out.raster_ms.push(drawn?.1);
        out.toggle_ms.push(ms);
    }
    next_frame().await;
    out.nearest = Some(nearest(&performance, &frame));
    Ok(())
}

/// Sum of `x + y` over the points, in drawing order.
fn checksum(spec: &ChartSpec) -> f64 {
    let mut sum = 0.0;
    for p in spec.series.iter().flat_map(|s| &s.points) {
        sum += p.x + p.y.unwrap_or(0.0);
    }
    sum
}

/// Times the first lookup on `frame` (it builds the index) and then [`QUERIES`] more at
/// pixels drawn from the same generator as the native benchmark's.
fn nearest(performance: &Performance, frame: &Frame) -> Nearest {
    let (width, height) = synthetic::SIZE;
    let mut rng = XorShift::new(synthetic::SEED ^ 0x9e37);
    let queries: Vec<(i32, i32)> = (0..QUERIES + 1)
        .map(|_| {
            (
                (rng.unit() * f64::from(width)) as i32,
                (rng.unit() * f64::from(height)) as i32,
            )
        })
        .collect();
    let (x, y) = queries[0];
    let (_, build_ms) = timed(performance, "nearest:build", || {
        frame.nearest(x, y, HOVER_RADIUS)
    });
    let (found, total_ms) = timed(performance, "nearest:queries", || {
        queries[1..]
            .iter()
            .filter(|&&(x, y)| frame.nearest(x, y, HOVER_RADIUS).is_some())
            .count()
    });
    Nearest {
        build_ms,
        queries: QUERIES,
        total_ms,
        per_query_us: total_ms * 1000.0 / QUERIES as f64,
        found,
    }
}

/// Runs `f`, recorded as `performance.measure("benchdeck:<name>")`; returns its result and
/// its time in milliseconds.
fn timed<T>(performance: &Performance, name: &str, f: impl FnOnce() -> T) -> (T, f64) {
    let name = format!("benchdeck:{name}");
    let (start, end) = (format!("{name}:start"), format!("{name}:end"));
    performance.mark(&start).ok();
    let t0 = performance.now();
    let out = f();
    let t1 = performance.now();
    performance.mark(&end).ok();
    performance
        .measure_with_start_mark_and_end_mark(&name, &start, &end)
        .ok();
    (out, t1 - t0)
}

/// Resolves after two animation frames, so the previous drawing reaches the screen first.
async fn next_frame() {
    for _ in 0..2 {
        let promise = js_sys::Promise::new(&mut |resolve: js_sys::Function, _| {
            let queued = crate::browser::window()
                .map(|w| w.request_animation_frame(&resolve).is_ok())
                .unwrap_or(false);
            if !queued {
                resolve.call0(&JsValue::NULL).ok();
            }
        });
        JsFuture::from(promise).await.ok();
    }
}

/// Draws `spec` with the series in `hidden` left out, exactly as the chart component does
/// (`crate::browser::canvas::paint`), then reads back one pixel so the browser rasterises the drawing
/// before the clock stops. Returns the frame and the time that read-back took, milliseconds.
fn paint(
    performance: &Performance,
    canvas: &HtmlCanvasElement,
    spec: &ChartSpec,
    hidden: u64,
) -> Result<(Frame, f64), String> {
    let (width, height) = synthetic::SIZE;
    let options = DrawOptions {
        theme: Theme::named(ThemeName::Light),
        hidden,
        ..DrawOptions::default()
    };
    let frame = crate::browser::canvas::paint(
        canvas,
        spec,
        (f64::from(width), f64::from(height)),
        &options,
    )?;
    let context = crate::browser::canvas::context_2d(canvas)?;
    let t0 = performance.now();
    context
        .get_image_data(0.0, 0.0, 1.0, 1.0)
        .map_err(|e| js_message(&e))?;
    Ok((frame, performance.now() - t0))
}
