//! Chart drawing speed on the synthetic 100,000-point scatter (`chart::synthetic::scatter`: two
//! series of 50,000, deterministic, labelled synthetic), the same spec the app's hidden
//! `/_bench/scatter/` page draws on a canvas in the browser:
//!
//! - `chart/svg`: `chart::to_svg`, the whole SVG document as a string;
//! - `chart/bitmap`: `chart::draw` into an RGB buffer through plotters' `BitMapBackend` (text is
//!   not rasterised: plotters needs a font file for that; see [`NoText`]);
//! - `chart/layered`: the same through `chart::dots::DotBatcher`, as the app draws: the dots
//!   become one RGBA layer (painting it is timed; handing it to the browser is not);
//! - `nearest/build`: the first `Frame::nearest` call on a fresh frame, which builds the bucket
//!   index over the 100,000 targets (plus that one query);
//! - `nearest/query`: one lookup at a random pixel with the app's hover radius, index built.
//!
//! Run with `cargo bench -p benchdeck-core --bench chart` (or `cargo xtask bench`).

// `criterion_group!` defines an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;

use benchdeck_core::chart::dots::{DotBatcher, DotLayer};
use benchdeck_core::chart::synthetic::{self, XorShift};
use benchdeck_core::chart::{self, DrawOptions, Frame};
use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use plotters::prelude::*;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};

/// Points in the scatter.
const POINTS: usize = 100_000;
/// How far from a point (CSS pixels) the pointer may be for its tooltip: the app's value.
const HOVER_RADIUS: i32 = 28;

/// A `BitMapBackend` that skips text. Without one of plotters' font features (which need a
/// font file on the machine) the bitmap backend panics on text; a chart has a few dozen labels
/// and the scatter 100,000 dots, so leaving the labels out changes nothing measurable.
struct NoText<'a>(BitMapBackend<'a>);

impl DrawingBackend for NoText<'_> {
    type ErrorType = <BitMapBackend<'static> as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.0.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.fill_polygon(vert, style)
    }

    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        _text: &str,
        _style: &TStyle,
        _pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        Ok(())
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        (w, h): (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.blit_bitmap(pos, (w, h), src)
    }
}

/// Draws `spec` into `buffer` (RGB, `size`), as the bench does.
fn draw_bitmap(
    spec: &chart::ChartSpec,
    buffer: &mut [u8],
    size: (u32, u32),
    options: &DrawOptions,
) -> Frame {
    let root = NoText(BitMapBackend::with_buffer(buffer, size)).into_drawing_area();
    let frame = chart::draw(&root, spec, options).expect("the synthetic scatter draws");
    root.present().expect("an in-memory bitmap presents");
    frame
}

fn drawing(c: &mut Criterion) {
    let spec = synthetic::scatter(POINTS);
    let size = synthetic::SIZE;
    let options = DrawOptions::default();
    let mut group = c.benchmark_group("chart");
    group.sample_size(20);
    group.throughput(Throughput::Elements(POINTS as u64));

    let svg = chart::to_svg(&spec, size, &options).expect("the synthetic scatter draws");
    // Dots on the same pixel are drawn once (`scatter.rs`).
    assert!(
        svg.matches("<circle").count() >= POINTS / 4,
        "the dots are drawn"
    );
    group.bench_function(BenchmarkId::new("svg", "scatter-100k"), |b| {
        b.iter(|| black_box(chart::to_svg(black_box(&spec), size, &options)))
    });

    let mut buffer = vec![0u8; size.0 as usize * size.1 as usize * 3];
    let frame = draw_bitmap(&spec, &mut buffer, size, &options);
    assert_eq!(frame.targets.len(), POINTS);
    group.bench_function(BenchmarkId::new("bitmap", "scatter-100k"), |b| {
        b.iter(|| black_box(draw_bitmap(black_box(&spec), &mut buffer, size, &options)))
    });

    let mut layered = |spec: &chart::ChartSpec| {
        let mut painted = 0;
        let backend = DotBatcher::new(
            NoText(BitMapBackend::with_buffer(&mut buffer, size)),
            1.0,
            |layer: &DotLayer| {
                painted += black_box(layer).rgba.len();
                Ok(())
            },
        );
        let root = backend.into_drawing_area();
        let frame = chart::draw(&root, spec, &options).expect("the synthetic scatter draws");
        root.present().expect("an in-memory bitmap presents");
        drop(root);
        (frame, painted)
    };
    let (frame, painted) = layered(&spec);
    assert!(
        frame.targets.len() == POINTS && painted > 0,
        "the dots became a layer"
    );
    group.bench_function(BenchmarkId::new("layered", "scatter-100k"), |b| {
        b.iter(|| black_box(layered(black_box(&spec))))
    });
    group.finish();
}

fn nearest(c: &mut Criterion) {
    let spec = synthetic::scatter(POINTS);
    let size = synthetic::SIZE;
    let mut buffer = vec![0u8; size.0 as usize * size.1 as usize * 3];
    let frame = draw_bitmap(&spec, &mut buffer, size, &DrawOptions::default());
    let targets = frame.targets.clone();
    let mut rng = XorShift::new(synthetic::SEED ^ 0x9e37);
    let queries: Vec<(i32, i32)> = (0..1000)
        .map(|_| {
            (
                (rng.unit() * f64::from(size.0)) as i32,
                (rng.unit() * f64::from(size.1)) as i32,
            )
        })
        .collect();
    let found = queries
        .iter()
        .filter(|&&(x, y)| frame.nearest(x, y, HOVER_RADIUS).is_some())
        .count();
    assert!(found > 0, "some queries land near the dots");

    let mut group = c.benchmark_group("nearest");
    group.bench_function(BenchmarkId::new("build", "scatter-100k"), |b| {
        b.iter_batched(
            || Frame::new(targets.clone()),
            |fresh| black_box(fresh.nearest(queries[0].0, queries[0].1, HOVER_RADIUS)),
            BatchSize::LargeInput,
        )
    });
    let mut k = 0;
    group.bench_function(BenchmarkId::new("query", "scatter-100k"), |b| {
        b.iter(|| {
            k = (k + 1) % queries.len();
            let (x, y) = queries[k];
            black_box(frame.nearest(black_box(x), black_box(y), HOVER_RADIUS))
        })
    });
    group.finish();
}

criterion_group!(benches, drawing, nearest);
criterion_main!(benches);
