//! Chart PNGs: the build's SVGs rasterised with resvg, so the PNG is the very drawing the SVG
//! (and the canvas, through the same `chart::draw`) shows.
//!
//! The charts name only the generic family `sans-serif`. resvg maps generic families to fixed
//! names (Arial, Times New Roman) and draws no text at all when nothing matches, so
//! [`Rasterizer::new`] points every generic family at a font that is installed. Browsers on
//! Linux draw `sans-serif` in Arial or its metric twin Liberation Sans (Chromium does here, also
//! on the canvas), Windows in Arial and macOS in Helvetica, so those come first; DejaVu Sans
//! (Debian's `fonts-dejavu-core`, on every machine) is the fallback: wider, but complete.

use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use resvg::usvg::fontdb;
use resvg::{tiny_skia, usvg};

/// The PNGs' width in pixels: what link previews ask for (Open Graph's 1,200; Twitter's large
/// card shows 1,200 × 628 at most), 1.25 times the SVG's 960. Twice that took 2.6 times as long to
/// draw and encode, for pixels no preview shows.
pub(crate) const PNG_WIDTH: u32 = 1200;

/// The height in pixels of the PNG of an SVG of `width` × `height`, as [`Rasterizer::png`]
/// makes it at [`PNG_WIDTH`]: what the pages' link previews state without drawing it.
pub(crate) fn png_height((width, height): (u32, u32)) -> u32 {
    scaled_height(PNG_WIDTH, width as f32, height as f32)
}

/// The height of a picture of `svg_width` × `svg_height` scaled to `width`.
fn scaled_height(width: u32, svg_width: f32, svg_height: f32) -> u32 {
    (svg_height * (width as f32 / svg_width)).round().max(1.0) as u32
}

/// Families tried, in order, for `sans-serif`; the first one installed wins. The first four
/// share Arial's metrics, so text is as wide as the browser lays it out.
const SANS_SERIF: [&str; 7] = [
    "Arial",
    "Liberation Sans",
    "Arimo",
    "Helvetica",
    "DejaVu Sans",
    "Noto Sans",
    "FreeSans",
];

/// The system's fonts, loaded once, and the options every SVG is parsed with.
pub struct Rasterizer {
    options: usvg::Options<'static>,
    /// The family `sans-serif` resolves to.
    family: String,
}

impl Rasterizer {
    /// Loads the system's fonts. Fails, naming the package to install, when there is none:
    /// PNGs without their titles, ticks and legends would be worse than no PNGs.
    pub fn new() -> Result<Self> {
        let mut options = usvg::Options::default();
        let db = options.fontdb_mut();
        db.load_system_fonts();
        let family = pick_family(db.faces().flat_map(|f| f.families.iter().map(|(n, _)| n)))
            .ok_or_else(|| {
                anyhow!(
                    "no font found for the chart PNGs (searched the system font folders, such as \
                     /usr/share/fonts), and a chart without its text is no use; install one: on \
                     Debian `apt-get install fonts-dejavu-core` (or `fonts-liberation`, which has \
                     the browsers' Arial metrics)"
                )
            })?;
        db.set_sans_serif_family(family.clone());
        // `serif` is resvg's last resort for any family it cannot find; the charts are drawn in
        // a sans-serif face everywhere else, so fall back to that.
        db.set_serif_family(family.clone());
        db.set_cursive_family(family.clone());
        db.set_fantasy_family(family.clone());
        options.font_family = family.clone();
        options.font_resolver.select_fallback = fallback_selector();
        Ok(Rasterizer { options, family })
    }

    /// The font family text is drawn in.
    pub fn family(&self) -> &str {
        &self.family
    }

    /// `svg` as a PNG `width` device pixels wide (the height keeps the aspect ratio).
    /// `what` names the chart in errors.
    pub fn png(&self, svg: &str, width: u32, what: &str) -> Result<Vec<u8>> {
        let tree = usvg::Tree::from_str(svg, &self.options)
            .with_context(|| format!("cannot read the SVG of {what}"))?;
        let size = tree.size();
        if !(size.width() > 0.0 && size.height() > 0.0) {
            bail!("the SVG of {what} has no size");
        }
        let scale = width as f32 / size.width();
        let height = scaled_height(width, size.width(), size.height());
        let mut pixmap = tiny_skia::Pixmap::new(width, height)
            .with_context(|| format!("cannot make a {width}x{height} image for {what}"))?;
        resvg::render(
            &tree,
            tiny_skia::Transform::from_scale(scale, scale),
            &mut pixmap.as_mut(),
        );
        encode(pixmap).with_context(|| format!("cannot encode the PNG of {what}"))
    }

    /// Rasterises `svg` and writes it to `path`.
    pub fn write(&self, svg: &str, width: u32, path: &Path, what: &str) -> Result<()> {
        let png = self.png(svg, width, what)?;
        std::fs::write(path, png).with_context(|| format!("cannot write `{}`", path.display()))
    }
}

/// `pixmap` as a PNG, compressed by `fdeflate` (png's `Fast`), which the PNG crate calls
/// extremely fast; tiny-skia's own encoder took 140–190 ms for a 1920 × 920 chart, more than
/// drawing it.
fn encode(pixmap: tiny_skia::Pixmap) -> Result<Vec<u8>> {
    let (width, height) = (pixmap.width(), pixmap.height());
    let rgba = pixmap.take_demultiplied();
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&rgba)?;
    writer.finish()?;
    Ok(bytes)
}

/// Families tried, in order, for a character the text's font lacks (`✓` is not in Arial).
const FALLBACK: [&str; 4] = ["DejaVu Sans", "Noto Sans", "FreeSans", "Liberation Sans"];

/// Picks the font for a character the text's font lacks. resvg's own choice is the first face
/// in its list that has the character, whatever it looks like (here a bold sans-serif `406 ms ✓`
/// came out in DejaVu Math's upright serif); this one keeps the weight, style and width and
/// prefers [`FALLBACK`]'s sans-serif faces, then any sans-serif face, then anything.
fn fallback_selector() -> usvg::FallbackSelectionFn<'static> {
    let resvg_choice = usvg::FontResolver::default_fallback_selector();
    Box::new(move |c, used, db| {
        let base = db.face(*used.first()?)?;
        let same_look = |f: &fontdb::FaceInfo| {
            f.weight == base.weight && f.style == base.style && f.stretch == base.stretch
        };
        let sans = |f: &fontdb::FaceInfo| {
            !f.monospaced
                && !f
                    .families
                    .iter()
                    .any(|(n, _)| ["Serif", "Math", "Mono"].iter().any(|w| n.contains(w)))
        };
        let named = |f: &fontdb::FaceInfo, want: &str| f.families.iter().any(|(n, _)| n == want);
        // resvg's chooser takes the first face it is not told to skip: narrow it down tier by
        // tier by skipping every face outside the tier.
        let mut tiers: Vec<Vec<fontdb::ID>> = FALLBACK
            .iter()
            .map(|want| {
                db.faces()
                    .filter(|f| !(same_look(f) && named(f, want)))
                    .map(|f| f.id)
                    .collect()
            })
            .collect();
        tiers.push(
            db.faces()
                .filter(|f| !(same_look(f) && sans(f)))
                .map(|f| f.id)
                .collect(),
        );
        tiers.push(db.faces().filter(|f| !sans(f)).map(|f| f.id).collect());
        tiers.push(Vec::new());
        for skip in tiers {
            let exclude: Vec<fontdb::ID> = used.iter().copied().chain(skip).collect();
            if let Some(id) = resvg_choice(c, &exclude, db) {
                return Some(id);
            }
        }
        None
    })
}

/// The first of [`SANS_SERIF`] among `installed`, else the first installed family (any text
/// beats none), else `None`.
fn pick_family<'a>(installed: impl Iterator<Item = &'a String>) -> Option<String> {
    let installed: Vec<&String> = installed.collect();
    SANS_SERIF
        .iter()
        .find(|want| installed.iter().any(|have| have.eq_ignore_ascii_case(want)))
        .map(|f| f.to_string())
        .or_else(|| installed.first().map(|f| f.to_string()))
}

/// Width and height of a PNG, from its header.
pub(crate) fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if bytes.len() < 24 || !bytes.starts_with(SIGNATURE) || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let be =
        |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    Some((be(16), be(20)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arial_metrics_are_preferred_and_any_font_beats_none() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let have = names(&["DejaVu Serif", "DejaVu Sans", "Liberation Sans"]);
        assert_eq!(pick_family(have.iter()).as_deref(), Some("Liberation Sans"));
        let have = names(&["DejaVu Serif", "Noto Sans", "DejaVu Sans"]);
        assert_eq!(pick_family(have.iter()).as_deref(), Some("DejaVu Sans"));
        let have = names(&["Some Display Face"]);
        assert_eq!(
            pick_family(have.iter()).as_deref(),
            Some("Some Display Face")
        );
        assert_eq!(pick_family(names(&[]).iter()), None);
    }

    #[test]
    fn a_chart_svg_becomes_a_png_twice_as_wide_with_its_text_drawn() {
        let rasterizer = Rasterizer::new().expect("a system font (fonts-dejavu-core)");
        let svg = |text: &str| {
            format!(
                r##"<svg width="100" height="50" viewBox="0 0 100 50" xmlns="http://www.w3.org/2000/svg">
<rect x="0" y="0" width="100" height="50" fill="#FFFFFF" stroke="none"/>
<text x="5" y="10" dy="0.76em" text-anchor="start" font-family="sans-serif" font-size="20" fill="#000000">
{text}
</text>
</svg>"##
            )
        };
        let with_text = rasterizer.png(&svg("Mean"), 200, "a test chart").unwrap();
        assert_eq!(png_size(&with_text), Some((200, 100)));
        // The same picture without text differs: the text was drawn, in some font.
        let without = rasterizer.png(&svg(""), 200, "a test chart").unwrap();
        assert_ne!(with_text, without);
    }

    #[test]
    fn bad_svg_is_an_error_naming_the_chart() {
        let rasterizer = Rasterizer::new().expect("a system font");
        let err = rasterizer
            .png("<svg", 10, "chart `x` of report `y`")
            .unwrap_err();
        assert!(
            format!("{err:#}").contains("chart `x` of report `y`"),
            "{err:#}"
        );
    }

    #[test]
    fn png_sizes_come_from_the_header() {
        assert_eq!(png_size(b"not a png"), None);
        let mut header = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        header.extend(1920u32.to_be_bytes());
        header.extend(1080u32.to_be_bytes());
        assert_eq!(png_size(&header), Some((1920, 1080)));
    }
}
