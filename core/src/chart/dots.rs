//! Many dots, painted as one picture.
//!
//! [`DotBatcher`] wraps a drawing backend, collects the filled circles drawn through it, and
//! hands each long run of them to a `blit` callback as one anti-aliased RGBA [`DotLayer`]
//! instead of making one backend call per circle. On a canvas every circle costs a fill style,
//! a path, an arc and a fill in JavaScript, so a 100,000-point scatter takes a tenth of a
//! second; as a layer it is one `putImageData` and one `drawImage`. Every other call passes
//! straight through, and a pending run is painted before it, so the drawing order (grid, dots,
//! then annotations on top) is kept. Short runs (line markers) are drawn as circles, as before.
//!
//! [`DotLayer::paint`] is pure: it composites the dots "source over" into a premultiplied
//! buffer, exactly in the order they were drawn, with each disc's rim anti-aliased by its
//! coverage of the pixel.

use std::collections::HashMap;
use std::fmt;

use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};

/// Runs of at least this many filled circles are painted as a layer; shorter ones are drawn
/// one by one (a few hundred circles cost less than making an image).
pub const MIN_RUN: usize = 512;

/// A filled circle waiting to be painted, in backend pixels.
#[derive(Clone, Copy)]
pub struct Dot {
    /// Centre.
    pub center: BackendCoord,
    /// Radius.
    pub radius: u32,
    /// Colour and opacity.
    pub color: BackendColor,
}

/// Dots painted into an image that covers their bounding box.
#[derive(Debug, Clone, PartialEq)]
pub struct DotLayer {
    /// The top-left corner, in backend pixels.
    pub origin: BackendCoord,
    /// The covered size, in backend pixels.
    pub size: (u32, u32),
    /// The image size in device pixels: `size` times the scale, rounded up.
    pub pixels: (u32, u32),
    /// Row-major RGBA, not premultiplied (what `ImageData` takes).
    pub rgba: Vec<u8>,
}

/// The largest layer painted, in device pixels (64 MB of RGBA); larger runs are clipped to it.
const MAX_PIXELS: u64 = 1 << 24;

impl DotLayer {
    /// Paints `dots` in order at `scale` device pixels per backend pixel (the page's
    /// `devicePixelRatio`), clipped to `bounds` (the backend's size). `None` when no dot is
    /// visible.
    pub fn paint(dots: &[Dot], scale: f64, bounds: (u32, u32)) -> Option<DotLayer> {
        let scale = if scale.is_finite() && scale > 0.0 {
            scale
        } else {
            1.0
        };
        let visible = |d: &&Dot| d.color.alpha > 0.0;
        let reach = |d: &Dot| i64::from(d.radius) + 1;
        let (mut left, mut top) = (i64::MAX, i64::MAX);
        let (mut right, mut bottom) = (i64::MIN, i64::MIN);
        for d in dots.iter().filter(visible) {
            let (x, y) = (i64::from(d.center.0), i64::from(d.center.1));
            left = left.min(x - reach(d));
            top = top.min(y - reach(d));
            right = right.max(x + reach(d));
            bottom = bottom.max(y + reach(d));
        }
        let (left, top) = (left.max(0), top.max(0));
        let (right, bottom) = (
            right.min(i64::from(bounds.0)),
            bottom.min(i64::from(bounds.1)),
        );
        if left >= right || top >= bottom {
            return None;
        }
        let size = ((right - left) as u32, (bottom - top) as u32);
        let mut pixels = (
            (f64::from(size.0) * scale).ceil() as u32,
            (f64::from(size.1) * scale).ceil() as u32,
        );
        if u64::from(pixels.0) * u64::from(pixels.1) > MAX_PIXELS {
            let shrink = (MAX_PIXELS as f64 / (f64::from(pixels.0) * f64::from(pixels.1))).sqrt();
            pixels = (
                (f64::from(pixels.0) * shrink) as u32,
                (f64::from(pixels.1) * shrink) as u32,
            );
        }
        // When the layer was shrunk, paint at the scale that fits it, so every dot keeps its place.
        let scale = scale
            .min(f64::from(pixels.0) / f64::from(size.0))
            .min(f64::from(pixels.1) / f64::from(size.1));
        let mut canvas = Premultiplied::new(pixels);
        let mut stamps = Stamps::default();
        for d in dots.iter().filter(visible) {
            let center = (
                (f64::from(d.center.0) - left as f64) * scale,
                (f64::from(d.center.1) - top as f64) * scale,
            );
            let stamp = stamps.get(f64::from(d.radius) * scale, center);
            canvas.composite(stamp, center, d.color);
        }
        Some(DotLayer {
            origin: (left as i32, top as i32),
            size,
            pixels,
            rgba: canvas.into_straight_rgba(),
        })
    }

    /// The straight RGBA of device pixel `(x, y)`; transparent outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        if x >= self.pixels.0 || y >= self.pixels.1 {
            return [0; 4];
        }
        let i = (y as usize * self.pixels.0 as usize + x as usize) * 4;
        [
            self.rgba[i],
            self.rgba[i + 1],
            self.rgba[i + 2],
            self.rgba[i + 3],
        ]
    }
}

/// `a * b / 255`, rounded, for bytes.
fn mul255(a: u32, b: u32) -> u32 {
    let t = a * b + 128;
    (t + (t >> 8)) >> 8
}

/// An RGBA buffer with premultiplied colour, where compositing is a multiply and an add.
struct Premultiplied {
    width: usize,
    height: usize,
    rgba: Vec<u8>,
}

impl Premultiplied {
    fn new((width, height): (u32, u32)) -> Premultiplied {
        let (width, height) = (width as usize, height as usize);
        Premultiplied {
            width,
            height,
            rgba: vec![0; width * height * 4],
        }
    }

    /// Composites `stamp`, centred on `center` (device pixels), in `color`, over the buffer.
    fn composite(&mut self, stamp: &Stamp, center: (f64, f64), color: BackendColor) {
        let alpha = (color.alpha.clamp(0.0, 1.0) * 255.0).round() as u32;
        let (r, g, b) = (
            u32::from(color.rgb.0),
            u32::from(color.rgb.1),
            u32::from(color.rgb.2),
        );
        let x0 = center.0.floor() as i64 + stamp.offset;
        let y0 = center.1.floor() as i64 + stamp.offset;
        for sy in 0..stamp.side {
            let y = y0 + sy as i64;
            if y < 0 || y >= self.height as i64 {
                continue;
            }
            let row = &stamp.coverage[sy * stamp.side..(sy + 1) * stamp.side];
            for (sx, &coverage) in row.iter().enumerate() {
                let x = x0 + sx as i64;
                if coverage == 0 || x < 0 || x >= self.width as i64 {
                    continue;
                }
                let sa = mul255(u32::from(coverage), alpha);
                let i = (y as usize * self.width + x as usize) * 4;
                let px = &mut self.rgba[i..i + 4];
                if sa == 255 {
                    // Inside an opaque disc (most of its pixels): the colour replaces what was there.
                    px.copy_from_slice(&[r as u8, g as u8, b as u8, 255]);
                    continue;
                }
                if sa == 0 {
                    continue;
                }
                let keep = 255 - sa;
                px[0] = (mul255(r, sa) + mul255(u32::from(px[0]), keep)).min(255) as u8;
                px[1] = (mul255(g, sa) + mul255(u32::from(px[1]), keep)).min(255) as u8;
                px[2] = (mul255(b, sa) + mul255(u32::from(px[2]), keep)).min(255) as u8;
                px[3] = (sa + mul255(u32::from(px[3]), keep)).min(255) as u8;
            }
        }
    }

    /// The buffer with its colour divided back by alpha.
    fn into_straight_rgba(mut self) -> Vec<u8> {
        for px in self.rgba.chunks_exact_mut(4) {
            let a = u32::from(px[3]);
            if a != 0 && a != 255 {
                for c in &mut px[..3] {
                    *c = ((u32::from(*c) * 255 + a / 2) / a).min(255) as u8;
                }
            }
        }
        self.rgba
    }
}

/// A disc's coverage of the pixels around its centre, 0 to 255 per pixel.
struct Stamp {
    /// Pixels per side of the square.
    side: usize,
    /// Where the square starts, relative to the pixel holding the centre.
    offset: i64,
    /// Row-major coverage.
    coverage: Vec<u8>,
}

/// Sub-pixel positions a stamp is made for, per axis: centres are rounded to 1/8 pixel.
const SUBPIXEL: f64 = 8.0;

/// Stamps by radius and sub-pixel position of the centre. With a whole-number scale every
/// centre falls on a pixel corner, so one stamp per radius serves the whole layer.
#[derive(Default)]
struct Stamps(HashMap<(u64, u8, u8), Stamp>);

impl Stamps {
    fn get(&mut self, radius: f64, center: (f64, f64)) -> &Stamp {
        let fraction = |v: f64| ((v - v.floor()) * SUBPIXEL).round().min(SUBPIXEL - 1.0) as u8;
        let key = (radius.to_bits(), fraction(center.0), fraction(center.1));
        self.0.entry(key).or_insert_with(|| {
            let (fx, fy) = (f64::from(key.1) / SUBPIXEL, f64::from(key.2) / SUBPIXEL);
            let offset = -(radius.ceil() as i64) - 1;
            let side = (2 * (radius.ceil() as i64) + 3) as usize;
            let mut coverage = Vec::with_capacity(side * side);
            for sy in 0..side {
                for sx in 0..side {
                    // The distance from this pixel's centre to the disc's centre.
                    let dx = (offset + sx as i64) as f64 + 0.5 - fx;
                    let dy = (offset + sy as i64) as f64 + 0.5 - fy;
                    let inside = (radius + 0.5 - dx.hypot(dy)).clamp(0.0, 1.0);
                    coverage.push((inside * 255.0).round() as u8);
                }
            }
            Stamp {
                side,
                offset,
                coverage,
            }
        })
    }
}

/// A backend error, or the blit callback's.
#[derive(Debug)]
pub enum BatchError<E> {
    /// The wrapped backend failed.
    Backend(E),
    /// Painting a layer failed: the callback's message.
    Blit(String),
}

impl<E: fmt::Display> fmt::Display for BatchError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::Backend(e) => e.fmt(f),
            BatchError::Blit(message) => write!(f, "painting dots as an image failed: {message}"),
        }
    }
}

impl<E: std::error::Error> std::error::Error for BatchError<E> {}

/// Maps the wrapped backend's error into the batcher's.
fn backend<E: std::error::Error + Send + Sync>(
    e: DrawingErrorKind<E>,
) -> DrawingErrorKind<BatchError<E>> {
    match e {
        DrawingErrorKind::DrawingError(e) => DrawingErrorKind::DrawingError(BatchError::Backend(e)),
        DrawingErrorKind::FontError(e) => DrawingErrorKind::FontError(e),
    }
}

/// A backend that paints long runs of filled circles as one [`DotLayer`] through `blit`.
///
/// Call `present` (as `DrawingArea::present` does) when the drawing is done: it paints the last
/// run.
pub struct DotBatcher<DB, F> {
    inner: DB,
    scale: f64,
    blit: F,
    pending: Vec<Dot>,
    bounds: Option<(u32, u32)>,
}

impl<DB, F> DotBatcher<DB, F>
where
    DB: DrawingBackend,
    F: FnMut(&DotLayer) -> Result<(), String>,
{
    /// Wraps `inner`; `scale` is device pixels per backend pixel, `blit` puts a layer's image at
    /// its origin and size (backend pixels) on whatever `inner` draws on.
    pub fn new(inner: DB, scale: f64, blit: F) -> DotBatcher<DB, F> {
        DotBatcher {
            inner,
            scale,
            blit,
            pending: Vec::new(),
            bounds: None,
        }
    }

    /// Clips layers to `size` (backend pixels) rather than the backend's own size, for a
    /// backend whose size is in device pixels while its coordinates are not (a HiDPI canvas).
    pub fn clip_to(mut self, size: (u32, u32)) -> DotBatcher<DB, F> {
        self.bounds = Some(size);
        self
    }

    /// Paints the pending run: as a layer when it is long, circle by circle when short.
    fn flush(&mut self) -> Result<(), DrawingErrorKind<BatchError<DB::ErrorType>>> {
        let run = std::mem::take(&mut self.pending);
        if run.len() < MIN_RUN {
            for d in &run {
                self.inner
                    .draw_circle(d.center, d.radius, &d.color, true)
                    .map_err(backend)?;
            }
        } else if let Some(layer) = DotLayer::paint(
            &run,
            self.scale,
            self.bounds.unwrap_or_else(|| self.inner.get_size()),
        ) {
            (self.blit)(&layer).map_err(|m| DrawingErrorKind::DrawingError(BatchError::Blit(m)))?;
        }
        // Keep the allocation for the next run.
        self.pending = run;
        self.pending.clear();
        Ok(())
    }
}

/// Every drawing call but a filled circle paints the pending run first.
impl<DB, F> DrawingBackend for DotBatcher<DB, F>
where
    DB: DrawingBackend,
    F: FnMut(&DotLayer) -> Result<(), String>,
{
    type ErrorType = BatchError<DB::ErrorType>;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.ensure_prepared().map_err(backend)
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.flush()?;
        self.inner.present().map_err(backend)
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.flush()?;
        self.inner.draw_pixel(point, color).map_err(backend)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.flush()?;
        self.inner.draw_line(from, to, style).map_err(backend)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.flush()?;
        self.inner
            .draw_rect(upper_left, bottom_right, style, fill)
            .map_err(backend)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.flush()?;
        self.inner.draw_path(path, style).map_err(backend)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        if fill {
            self.pending.push(Dot {
                center,
                radius,
                color: style.color(),
            });
            return Ok(());
        }
        self.flush()?;
        self.inner
            .draw_circle(center, radius, style, fill)
            .map_err(backend)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.flush()?;
        self.inner.fill_polygon(vert, style).map_err(backend)
    }

    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.flush()?;
        self.inner.draw_text(text, style, pos).map_err(backend)
    }

    fn estimate_text_size<TStyle: BackendTextStyle>(
        &self,
        text: &str,
        style: &TStyle,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        self.inner.estimate_text_size(text, style).map_err(backend)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.flush()?;
        self.inner.blit_bitmap(pos, size, src).map_err(backend)
    }
}

#[cfg(test)]
mod tests;
