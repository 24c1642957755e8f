//! A chart on a canvas: drawn by `benchdeck_core::chart::draw` through plotters-canvas,
//! crisp on HiDPI screens (the backing store is scaled by `devicePixelRatio`) and redrawn when
//! the window is resized or the colour scheme changes.

use benchdeck_core::chart::{self, ChartSpec, DrawOptions, Theme, ThemeName};
use leptos::html::{Canvas, Div};
use leptos::prelude::*;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// Height of a chart relative to its width, and its limits in CSS pixels.
const ASPECT: f64 = 0.56;
const MIN_HEIGHT: f64 = 260.0;
const MAX_HEIGHT: f64 = 460.0;

/// One chart with its caption.
#[component]
pub fn ChartView(
    /// What to draw.
    spec: ChartSpec,
) -> impl IntoView {
    let container = NodeRef::<Div>::new();
    let canvas = NodeRef::<Canvas>::new();
    let (error, set_error) = signal(None::<String>);
    let (size_tick, set_size_tick) = signal(0u32);
    let spec = StoredValue::new(spec);
    let first_draw = StoredValue::new(true);

    let _resize = window_event_listener(leptos::ev::resize, move |_| {
        set_size_tick.update(|t| *t += 1)
    });

    Effect::new(move || {
        size_tick.track();
        let (Some(container), Some(canvas)) = (container.get(), canvas.get()) else {
            return;
        };
        let width = f64::from(container.client_width()).max(280.0);
        let height = (width * ASPECT).clamp(MIN_HEIGHT, MAX_HEIGHT);
        let result = spec.with_value(|spec| paint(&canvas, spec, width, height));
        set_error.set(result.err());
        if first_draw.get_value() {
            first_draw.set_value(false);
            crate::ready::chart_drawn();
        }
    });

    let (id, title, caption) =
        spec.with_value(|s| (s.id.clone(), s.title.clone(), s.caption.clone()));
    let label = if caption.is_empty() {
        title.clone()
    } else {
        format!("{title}. {caption}")
    };
    view! {
        <figure class="chart" id=format!("chart-{id}") data-chart=id.clone()>
            <div class="chart-canvas" node_ref=container>
                <canvas node_ref=canvas role="img" aria-label=label></canvas>
            </div>
            {move || error.get().map(|e| view! { <p class="error-panel" role="alert">"This chart could not be drawn: "{e}</p> })}
            {(!caption.is_empty()).then(|| view! { <figcaption>{caption}</figcaption> })}
        </figure>
    }
}

/// Draws `spec` at `width` × `height` CSS pixels.
fn paint(
    canvas: &HtmlCanvasElement,
    spec: &ChartSpec,
    width: f64,
    height: f64,
) -> Result<(), String> {
    let window = web_sys::window().ok_or("no window")?;
    let ratio = window.device_pixel_ratio().max(1.0);
    canvas.set_width((width * ratio).round() as u32);
    canvas.set_height((height * ratio).round() as u32);
    let style = web_sys::HtmlElement::style(canvas);
    style.set_property("width", &format!("{width}px")).ok();
    style.set_property("height", &format!("{height}px")).ok();
    let context: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .ok_or("the browser gave no 2D canvas")?
        .dyn_into()
        .map_err(|_| "the canvas context is not 2D")?;
    // Lay out in CSS pixels; the transform maps them to device pixels.
    context
        .set_transform(ratio, 0.0, 0.0, ratio, 0.0, 0.0)
        .map_err(|e| crate::data::js_message(&e))?;
    let backend =
        CanvasBackend::with_canvas_object(canvas.clone()).ok_or("the browser gave no 2D canvas")?;
    let root = backend
        .into_drawing_area()
        .shrink((0, 0), (width as u32, height as u32));
    let options = DrawOptions {
        theme: Theme::named(current_theme()),
        hidden: 0,
    };
    chart::draw(&root, spec, &options).map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())?;
    Ok(())
}

/// The reader's colour scheme.
fn current_theme() -> ThemeName {
    let dark = web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches());
    if dark {
        ThemeName::Dark
    } else {
        ThemeName::Light
    }
}
