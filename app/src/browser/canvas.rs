//! Painting a chart on a `<canvas>`: the one place that sizes the backing store for HiDPI
//! screens, makes the plotters backend and calls `benchdeck_core::chart::draw`. Used by the
//! chart component and by the hidden benchmark page, so the benchmark times what readers get.
//!
//! Long runs of dots (a scatter of per-request samples) go through core's
//! [`DotBatcher`](benchdeck_core::chart::dots::DotBatcher): they arrive here as one RGBA image,
//! put on a scratch canvas and drawn onto the chart with `drawImage`, in their place between the
//! grid and the annotations.

use std::cell::RefCell;

use benchdeck_core::chart::dots::{DotBatcher, DotLayer};
use benchdeck_core::chart::{self, ChartSpec, DrawOptions, Frame};
use leptos::prelude::{on_cleanup, Set, WriteSignal};
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use send_wrapper::SendWrapper;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

use crate::browser::data::js_message;

/// The fewest device pixels per CSS pixel of a downloaded PNG.
const PNG_DENSITY: f64 = 2.0;

/// Draws `spec` at `width` × `height` CSS pixels, at the screen's pixel density, and returns
/// where its points are.
pub fn paint(
    canvas: &HtmlCanvasElement,
    spec: &ChartSpec,
    size: (f64, f64),
    options: &DrawOptions,
) -> Result<Frame, String> {
    let window = crate::browser::window().ok_or("no window")?;
    paint_at(
        canvas,
        spec,
        size,
        options,
        window.device_pixel_ratio().max(1.0),
    )
}

/// Draws `spec` at `width` × `height` CSS pixels with `ratio` device pixels to each.
fn paint_at(
    canvas: &HtmlCanvasElement,
    spec: &ChartSpec,
    (width, height): (f64, f64),
    options: &DrawOptions,
    ratio: f64,
) -> Result<Frame, String> {
    canvas.set_width((width * ratio).round() as u32);
    canvas.set_height((height * ratio).round() as u32);
    let style = web_sys::HtmlElement::style(canvas);
    style.set_property("width", &format!("{width}px")).ok();
    style.set_property("height", &format!("{height}px")).ok();
    let context = context_2d(canvas)?;
    // Lay out in CSS pixels; the transform maps them to device pixels.
    context
        .set_transform(ratio, 0.0, 0.0, ratio, 0.0, 0.0)
        .map_err(|e| js_message(&e))?;
    let backend =
        CanvasBackend::with_canvas_object(canvas.clone()).ok_or("the browser gave no 2D canvas")?;
    let backend = DotBatcher::new(backend, ratio, |layer: &DotLayer| blit(&context, layer))
        .clip_to((width as u32, height as u32));
    let root = backend
        .into_drawing_area()
        .shrink((0, 0), (width as u32, height as u32));
    let frame = chart::draw(&root, spec, options).map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())?;
    Ok(frame)
}

/// A PNG (`data:` URL) of `spec` drawn at `size` CSS pixels on a canvas of its own, at twice
/// that in device pixels or the screen's density if higher (sharp in a blog post or a slide):
/// the download, which unlike the page's canvas carries its legend.
pub fn png_url(spec: &ChartSpec, size: (f64, f64), options: &DrawOptions) -> Option<String> {
    let window = crate::browser::window()?;
    let document = window.document()?;
    let canvas: HtmlCanvasElement = document.create_element("canvas").ok()?.dyn_into().ok()?;
    let height = chart::preferred_height(spec, size.0).max(size.1);
    let ratio = window.device_pixel_ratio().max(PNG_DENSITY);
    paint_at(&canvas, spec, (size.0, height), options, ratio).ok()?;
    canvas.to_data_url().ok()
}

/// Sets `width` to `container`'s content width in CSS pixels now and whenever it changes, until
/// the calling component is disposed. A ResizeObserver reports widths after the browser has laid
/// the page out, for every chart at once, so drawing never forces a layout (on a report's load
/// that was one forced layout per chart). Height changes (the chart's own) are ignored.
pub fn observe_width(container: &web_sys::HtmlDivElement, width: WriteSignal<Option<f64>>) {
    let last = std::cell::Cell::new(None::<f64>);
    let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        let Some(entry) = entries.iter().last() else {
            return;
        };
        let entry: web_sys::ResizeObserverEntry = entry.unchecked_into();
        let now = entry.content_rect().width().floor();
        if last.replace(Some(now)) != Some(now) {
            width.set(Some(now));
        }
    });
    let Ok(observer) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) else {
        // No observer (a very old browser): one width, read now.
        width.set(Some(f64::from(container.client_width())));
        return;
    };
    observer.observe(container);
    let observer = SendWrapper::new((observer, callback));
    on_cleanup(move || observer.0.disconnect());
}

/// How close to the viewport a chart must come to be drawn: within half a screen above or below.
const NEAR_MARGIN: &str = "50% 0px";

/// Calls `near(true)` once `container` comes within [`NEAR_MARGIN`] of the viewport, then stops
/// watching; calls `near(false)` if the first look finds it further away. Charts further down
/// the page keep showing the build's drawing until the reader scrolls near them.
pub fn when_near(container: &web_sys::HtmlDivElement, near: impl Fn(bool) + 'static) {
    let near = std::rc::Rc::new(near);
    let on_change = near.clone();
    let seen = std::cell::Cell::new(false);
    let callback = Closure::<dyn FnMut(js_sys::Array, web_sys::IntersectionObserver)>::new(
        move |entries: js_sys::Array, observer: web_sys::IntersectionObserver| {
            let Some(entry) = entries.iter().last() else {
                return;
            };
            let entry: web_sys::IntersectionObserverEntry = entry.unchecked_into();
            if entry.is_intersecting() {
                observer.disconnect();
                on_change(true);
            } else if !seen.replace(true) {
                on_change(false);
            }
        },
    );
    let options = web_sys::IntersectionObserverInit::new();
    options.set_root_margin(NEAR_MARGIN);
    let Ok(observer) = web_sys::IntersectionObserver::new_with_options(
        callback.as_ref().unchecked_ref(),
        &options,
    ) else {
        // No observer (a very old browser): draw now.
        return near(true);
    };
    observer.observe(container);
    let observer = SendWrapper::new((observer, callback));
    on_cleanup(move || observer.0.disconnect());
}

/// The canvas's 2D context.
pub fn context_2d(canvas: &HtmlCanvasElement) -> Result<CanvasRenderingContext2d, String> {
    canvas
        .get_context("2d")
        .ok()
        .flatten()
        .ok_or("the browser gave no 2D canvas")?
        .dyn_into()
        .map_err(|_| "the canvas context is not 2D".to_string())
}

/// Puts `layer` on a scratch canvas and draws that onto `context` at the layer's place (CSS
/// pixels; the context's transform scales it back to the layer's device pixels).
fn blit(context: &CanvasRenderingContext2d, layer: &DotLayer) -> Result<(), String> {
    let scratch = scratch_canvas()?;
    let (width, height) = layer.pixels;
    scratch.set_width(width);
    scratch.set_height(height);
    let image = ImageData::new_with_u8_clamped_array_and_sh(Clamped(&layer.rgba), width, height)
        .map_err(|e| js_message(&e))?;
    context_2d(&scratch)?
        .put_image_data(&image, 0.0, 0.0)
        .map_err(|e| js_message(&e))?;
    context
        .draw_image_with_html_canvas_element_and_dw_and_dh(
            &scratch,
            f64::from(layer.origin.0),
            f64::from(layer.origin.1),
            f64::from(layer.size.0),
            f64::from(layer.size.1),
        )
        .map_err(|e| js_message(&e))
}

thread_local! {
    /// The scratch canvas layers are put on, made once: a redraw should not leave a canvas
    /// and its pixels behind for the garbage collector.
    static SCRATCH: RefCell<Option<HtmlCanvasElement>> = const { RefCell::new(None) };
}

/// The scratch canvas, made on first use.
fn scratch_canvas() -> Result<HtmlCanvasElement, String> {
    if let Some(canvas) = SCRATCH.with_borrow(Clone::clone) {
        return Ok(canvas);
    }
    let document = crate::browser::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let canvas: HtmlCanvasElement = document
        .create_element("canvas")
        .map_err(|e| js_message(&e))?
        .dyn_into()
        .map_err(|_| "a new canvas element is not a canvas")?;
    SCRATCH.set(Some(canvas.clone()));
    Ok(canvas)
}
