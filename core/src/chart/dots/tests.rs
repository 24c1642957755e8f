//! The dot layer: coverage, order, translucency and scale of `DotLayer::paint`, and the call
//! order `DotBatcher` keeps on a recording backend.

use std::cell::RefCell;
use std::rc::Rc;

use plotters::prelude::*;

use super::*;
use crate::chart::{self, synthetic, DrawOptions};

fn dot(x: i32, y: i32, rgb: (u8, u8, u8), alpha: f64) -> Dot {
    Dot {
        center: (x, y),
        radius: 3,
        color: BackendColor { alpha, rgb },
    }
}

const RED: (u8, u8, u8) = (200, 30, 40);
const BLUE: (u8, u8, u8) = (20, 60, 220);

#[test]
fn one_opaque_dot_is_solid_inside_soft_at_the_rim_and_empty_outside() {
    let layer = DotLayer::paint(&[dot(10, 10, RED, 1.0)], 1.0, (100, 100)).unwrap();
    // The box reaches one pixel past the radius.
    assert_eq!(layer.origin, (6, 6));
    assert_eq!((layer.size, layer.pixels), ((8, 8), (8, 8)));
    // Pixel (9, 9) of the backend is just up-left of the centre (a pixel corner).
    let at = |x: u32, y: u32| layer.pixel(x - 6, y - 6);
    assert_eq!(at(9, 9), [200, 30, 40, 255]);
    assert_eq!(at(10, 10), [200, 30, 40, 255]);
    let rim = at(12, 9)[3];
    let beyond = at(13, 9)[3];
    assert!(rim > 200 && beyond < 128, "rim {rim}, beyond {beyond}");
    assert_eq!(at(6, 6)[3], 0, "corner of the box");
    // Symmetric about the centre: pixels (9 - k) and (10 + k) mirror each other.
    for k in 0..4 {
        assert_eq!(at(9 - k, 9), at(10 + k, 9));
        assert_eq!(at(9, 9 - k), at(9, 10 + k));
    }
}

#[test]
fn later_dots_cover_earlier_ones() {
    let red_then_blue = DotLayer::paint(
        &[dot(10, 10, RED, 1.0), dot(11, 10, BLUE, 1.0)],
        1.0,
        (100, 100),
    )
    .unwrap();
    let blue_then_red = DotLayer::paint(
        &[dot(11, 10, BLUE, 1.0), dot(10, 10, RED, 1.0)],
        1.0,
        (100, 100),
    )
    .unwrap();
    let (x, y) = (10 - 6, 9 - 6);
    assert_eq!(red_then_blue.pixel(x, y), [20, 60, 220, 255]);
    assert_eq!(blue_then_red.pixel(x, y), [200, 30, 40, 255]);
}

#[test]
fn translucent_dots_keep_their_colour_and_build_up_alpha() {
    let once = DotLayer::paint(&[dot(10, 10, BLUE, 0.45)], 1.0, (100, 100)).unwrap();
    let [r, g, b, a] = once.pixel(4, 4);
    assert_eq!(a, 115, "0.45 of 255");
    for (got, want) in [(r, 20), (g, 60), (b, 220)] {
        assert!(got.abs_diff(want) <= 2, "{got} vs {want}");
    }
    let twice = DotLayer::paint(
        &[dot(10, 10, BLUE, 0.45), dot(10, 10, BLUE, 0.45)],
        1.0,
        (100, 100),
    )
    .unwrap();
    // 1 - 0.55² of 255.
    assert_eq!(twice.pixel(4, 4)[3], 178);
}

#[test]
fn the_scale_sizes_the_image_in_device_pixels() {
    let layer = DotLayer::paint(&[dot(10, 10, RED, 1.0)], 2.0, (100, 100)).unwrap();
    assert_eq!((layer.size, layer.pixels), ((8, 8), (16, 16)));
    // Radius 6 device pixels around device (8, 8) of the image.
    assert_eq!(layer.pixel(8, 8)[3], 255);
    assert_eq!(layer.pixel(8, 12)[3], 255);
    assert_eq!(layer.pixel(8, 15)[3], 0);
    // Fractional scales land centres between pixels and still paint every dot.
    let layer = DotLayer::paint(&[dot(10, 10, RED, 1.0)], 1.25, (100, 100)).unwrap();
    assert_eq!(layer.pixels, (10, 10));
    assert_eq!(layer.pixel(5, 5)[3], 255);
}

#[test]
fn nothing_visible_makes_no_layer_and_layers_stay_inside_the_bounds() {
    assert!(DotLayer::paint(&[], 1.0, (100, 100)).is_none());
    assert!(DotLayer::paint(&[dot(10, 10, RED, 0.0)], 1.0, (100, 100)).is_none());
    assert!(DotLayer::paint(&[dot(-50, 10, RED, 1.0)], 1.0, (100, 100)).is_none());
    let edge = DotLayer::paint(&[dot(1, 98, RED, 1.0)], 1.0, (100, 100)).unwrap();
    assert_eq!((edge.origin, edge.size), ((0, 94), (5, 6)));
    // A nonsense scale paints at 1.
    let layer = DotLayer::paint(&[dot(10, 10, RED, 1.0)], f64::NAN, (100, 100)).unwrap();
    assert_eq!(layer.pixels, (8, 8));
}

/// A backend that writes down what it is asked to draw.
struct Recorder {
    calls: Rc<RefCell<Vec<String>>>,
}

impl DrawingBackend for Recorder {
    type ErrorType = std::io::Error;

    fn get_size(&self) -> (u32, u32) {
        (640, 360)
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        Ok(())
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.calls.borrow_mut().push("present".into());
        Ok(())
    }

    fn draw_pixel(
        &mut self,
        _: BackendCoord,
        _: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.calls.borrow_mut().push("pixel".into());
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        _: BackendCoord,
        _: BackendCoord,
        _: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.calls.borrow_mut().push("line".into());
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        _: BackendCoord,
        _: u32,
        _: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        let call = if fill { "dot" } else { "ring" };
        self.calls.borrow_mut().push(call.into());
        Ok(())
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        _: &str,
        _: &S,
        _: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.calls.borrow_mut().push("text".into());
        Ok(())
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        _: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        Ok((7 * text.len() as u32, 12))
    }
}

/// The blit callback of the recording tests.
type Blit = Box<dyn FnMut(&DotLayer) -> Result<(), String>>;

/// Runs `draw` on a batcher over a [`Recorder`]; the calls that reached the recorder, with
/// `layer <n>` where a layer of `n` backend pixels wide was blitted.
fn record(draw: impl FnOnce(DotBatcher<Recorder, Blit>)) -> Vec<String> {
    let calls = Rc::new(RefCell::new(Vec::new()));
    let blits = Rc::clone(&calls);
    let blit: Blit = Box::new(move |layer| {
        blits.borrow_mut().push(format!("layer {}", layer.size.0));
        Ok(())
    });
    draw(DotBatcher::new(
        Recorder {
            calls: Rc::clone(&calls),
        },
        1.0,
        blit,
    ));
    let calls = calls.borrow().clone();
    calls
}

#[test]
fn long_runs_become_one_layer_in_drawing_order() {
    let red = BackendColor {
        alpha: 1.0,
        rgb: RED,
    };
    let calls = record(|mut b| {
        b.draw_line((0, 0), (10, 0), &red).unwrap();
        for i in 0..MIN_RUN as i32 {
            b.draw_circle((10 + i % 100, 10), 3, &red, true).unwrap();
        }
        b.draw_line((0, 5), (10, 5), &red).unwrap();
        b.draw_circle((5, 5), 3, &red, true).unwrap();
        b.draw_circle((5, 5), 3, &red, false).unwrap();
        b.draw_circle((6, 6), 3, &red, true).unwrap();
        b.present().unwrap();
    });
    assert_eq!(
        calls,
        ["line", "layer 107", "line", "dot", "ring", "dot", "present"]
    );
}

#[test]
fn blit_failures_are_drawing_errors_with_the_message() {
    let red = BackendColor {
        alpha: 1.0,
        rgb: RED,
    };
    let mut batcher = DotBatcher::new(
        Recorder {
            calls: Rc::default(),
        },
        1.0,
        |_: &DotLayer| Err("the canvas is gone".to_string()),
    );
    for i in 0..MIN_RUN as i32 {
        batcher.draw_circle((i % 50, 10), 3, &red, true).unwrap();
    }
    let error = batcher.present().unwrap_err().to_string();
    assert!(error.contains("the canvas is gone"), "{error}");
}

#[test]
fn a_large_scatter_is_blitted_with_its_annotations_still_drawn_on_top() {
    let spec = synthetic::scatter(20_000);
    let calls = record(|b| {
        let root = b.into_drawing_area();
        chart::draw(&root, &spec, &DrawOptions::default()).unwrap();
        root.present().unwrap();
    });
    let layers: Vec<usize> = calls
        .iter()
        .enumerate()
        .filter(|(_, c)| c.starts_with("layer"))
        .map(|(i, _)| i)
        .collect();
    // Both series' dots follow one another: one layer; the few circles left are the legend's.
    assert_eq!(layers.len(), 1, "{calls:?}");
    assert!(calls.iter().filter(|c| *c == "dot").count() < 10);
    assert!(calls[..layers[0]].iter().any(|c| c == "line"), "axes first");
    assert_eq!(calls.last().map(String::as_str), Some("present"));
}

#[test]
fn a_layer_too_large_to_paint_is_shrunk_with_its_dots_in_place() {
    // 5,000 × 5,000 backend pixels at scale 4 would be 400 M device pixels.
    let dots = [dot(10, 10, RED, 1.0), dot(4990, 4990, BLUE, 1.0)];
    let layer = DotLayer::paint(&dots, 4.0, (5000, 5000)).unwrap();
    assert!(u64::from(layer.pixels.0) * u64::from(layer.pixels.1) <= 1 << 24);
    let scale = f64::from(layer.pixels.0) / f64::from(layer.size.0);
    let at = |(x, y): (i32, i32)| {
        (
            ((f64::from(x) - f64::from(layer.origin.0)) * scale) as u32,
            ((f64::from(y) - f64::from(layer.origin.1)) * scale) as u32,
        )
    };
    let (x, y) = at((4990, 4990));
    assert_eq!(
        layer.pixel(x, y),
        [20, 60, 220, 255],
        "the far dot is where it belongs"
    );
    let (x, y) = at((10, 10));
    assert_eq!(layer.pixel(x, y), [200, 30, 40, 255]);
}
