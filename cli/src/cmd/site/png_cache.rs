//! The link-preview PNGs of earlier builds, kept in the build cache (`cmd/build/cache.rs`) and
//! named by the key of the SVG and the width they were drawn from: a chart drawn the same is not
//! rasterised again. What the cache holds is checked before it is used: a file that is not a
//! PNG of the expected width is drawn again.

use std::path::PathBuf;

use anyhow::{Context, Result};

use super::png::png_size;
use crate::key::KeyMaker;

/// A folder of PNGs named by their drawing's key.
pub(crate) struct PngCache {
    dir: PathBuf,
}

impl PngCache {
    /// The PNGs kept in `dir`.
    pub fn new(dir: PathBuf) -> PngCache {
        PngCache { dir }
    }

    /// Where the PNG of `svg` at `width` pixels is kept.
    pub fn path(&self, svg: &str, width: u32) -> PathBuf {
        let key = KeyMaker::default()
            .add(svg)
            .add(width.to_le_bytes())
            .finish();
        self.dir.join(format!("{key}.png"))
    }

    /// The kept PNG of `svg` at `width` pixels, when there is one and it is a PNG that wide.
    pub fn get(&self, svg: &str, width: u32) -> Option<Vec<u8>> {
        let png = std::fs::read(self.path(svg, width)).ok()?;
        png_size(&png)
            .is_some_and(|(w, _)| w == width)
            .then_some(png)
    }

    /// Keeps `png`, drawn from `svg` at `width` pixels.
    pub fn put(&self, svg: &str, width: u32, png: &[u8]) -> Result<()> {
        std::fs::create_dir_all(&self.dir)
            .with_context(|| format!("cannot create `{}`", self.dir.display()))?;
        let path = self.path(svg, width);
        std::fs::write(&path, png).with_context(|| format!("cannot write `{}`", path.display()))
    }

    /// Removes every PNG but those of `kept`: the cache holds what the last build used.
    pub fn keep_only(&self, kept: &[PathBuf]) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.flatten() {
            if !kept.contains(&entry.path()) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}
