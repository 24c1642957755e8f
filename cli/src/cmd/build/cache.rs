//! The build cache on disk, in the project's `.benchdeck/cache/` (left out by the `.gitignore`
//! that `benchdeck init` writes, kept between runs by the Pages workflow it writes). It holds:
//!
//! - **the last build's key**, a SHA-256 of everything a build reads: the benchdeck that builds
//!   (its executable's bytes, hashed again only when its size or time changed: a CI runner that
//!   installs the same benchdeck anew keeps its cache), the options, and every report's and
//!   result file's path and bytes. When it is the key of the site `--out` still holds, as it was written (the
//!   paths, sizes and times of its files), nothing is built: a second `benchdeck build` with
//!   nothing changed only reads the files and hashes them;
//! - **each report's page as built**, under a key of the benchdeck, the options, every result
//!   file and the report's own bytes: a report whose key is the same is not built again, and
//!   while the result files, the files published and the last site in `--out` are the same,
//!   its files there (data, runs, charts, pages) are copied instead of written again;
//! - **the link-preview PNGs** ([`PngCache`]), named by the key of the SVG they are drawn from:
//!   a chart drawn the same is not rasterised again.
//!
//! Nothing is trusted beyond its key. A cache that cannot be read (another benchdeck's, a cut
//! file, anything else) is ignored with a note and written anew after the build; a cached PNG
//! that is not a PNG of the expected width is drawn again. A build that fails leaves the cache as
//! it was.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use benchdeck_core::input::InputFile;
use benchdeck_core::site::{wire, ReportPage};
use serde::{Deserialize, Serialize};

use super::super::site::png_cache::PngCache;
use super::options::Options;
use crate::files;
use crate::key::KeyMaker;

/// The cache's folder in a project.
pub(crate) const CACHE_DIR: &str = ".benchdeck/cache";

/// The file holding the last build's key and its reports' pages.
const BUILD_FILE: &str = "build.bin";

/// A SHA-256, as hex.
type Key = String;

/// What the cache holds of the last complete build.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Stored {
    /// The key of everything the build read.
    site: Key,
    /// The site it wrote: `--out`, and its files' fingerprint after writing.
    out: String,
    written: String,
    /// Each report's key and page as built, by the report's path below `reports/`.
    reports: BTreeMap<String, (Key, ReportPage)>,
    /// What every report's key starts from ([`Keyed::base`]), and the result files published.
    base: Key,
    published: Vec<String>,
    /// The benchdeck that built: its executable's size and time, and the key of its bytes.
    builder: (String, Key),
}

/// A project's build cache, as read when the build starts.
pub(crate) struct Cache {
    dir: PathBuf,
    stored: Stored,
    /// The benchdeck building now, as [`Stored::builder`].
    builder: (String, Key),
}

/// A project's inputs and their keys.
pub(crate) struct Keyed {
    /// Every report and result file as read.
    pub reports: files::Inputs,
    pub results: files::Inputs,
    /// The key of them all, with the benchdeck and the options.
    site: Key,
    /// What every report's key starts from: the benchdeck, the options and the result files.
    base: Key,
}

impl Keyed {
    /// Reads `root`'s reports and result files and makes their keys for a build with `options`
    /// by `cache`'s benchdeck.
    pub fn read(root: &Path, options: &Options, cache: &Cache) -> Result<Keyed> {
        let reports = super::super::site::read_reports(&root.join("reports"))?;
        let results = files::read_inputs(&root.join("results"), |_| true)?;
        let base = KeyMaker::default()
            .add(&cache.builder.1)
            .add(format!("{options:?}"));
        let base = add_inputs(base, &results).finish();
        let site = add_inputs(KeyMaker::default().add(&base), &reports).finish();
        Ok(Keyed {
            site,
            base,
            reports,
            results,
        })
    }

    /// The key of `report`'s page.
    fn report_key(&self, report: &InputFile) -> Key {
        KeyMaker::default()
            .add(&self.base)
            .add(&report.path)
            .add(&report.bytes)
            .finish()
    }
}

impl Cache {
    /// The cache of the project in `root`; an empty one, with a note, when it cannot be read.
    pub fn open(root: &Path) -> Cache {
        let dir = root.join(CACHE_DIR);
        let path = dir.join(BUILD_FILE);
        let stored = match std::fs::read(&path) {
            Ok(bytes) => wire::decode(&bytes).unwrap_or_else(|error| {
                eprintln!(
                    "benchdeck: note: ignoring the build cache `{}` ({error}); building \
                     everything",
                    path.display()
                );
                Stored::default()
            }),
            Err(_) => Stored::default(),
        };
        let builder = builder(&stored.builder);
        Cache {
            dir,
            stored,
            builder,
        }
    }

    /// True when `out` holds the site the last build wrote from exactly `inputs`.
    pub fn is_current(&self, inputs: &Keyed, out: &Path) -> bool {
        !self.stored.site.is_empty()
            && self.stored.site == inputs.site
            && self.stored.out == out.display().to_string()
            && self.stored.written == fingerprint_of(out)
    }

    /// The page the cache holds of `report`, when its key is the same.
    pub fn page(&self, inputs: &Keyed, report: &InputFile) -> Option<ReportPage> {
        let (key, page) = self.stored.reports.get(&report.path)?;
        (*key == inputs.report_key(report)).then(|| page.clone())
    }

    /// True when the site in `out` is the last build's, as it was written, from the same
    /// benchdeck, options and result files, publishing `published`: a report whose page is
    /// the cache's has the same files there.
    pub fn holds_last_site(&self, inputs: &Keyed, out: &Path, published: &[String]) -> bool {
        !self.stored.base.is_empty()
            && self.stored.base == inputs.base
            && self.stored.published == published
            && self.stored.out == out.display().to_string()
            && self.stored.written == fingerprint_of(out)
    }

    /// Where the link-preview PNGs are kept.
    pub fn pngs(&self) -> PngCache {
        PngCache::new(self.dir.join("png"))
    }

    /// Keeps what the build of `inputs` into `out` made: its key, `out`'s fingerprint, the
    /// reports' pages as built (by path) and the result files published. Written whole to a new
    /// file that replaces the old.
    pub fn save(
        &self,
        inputs: &Keyed,
        out: &Path,
        pages: impl IntoIterator<Item = (String, ReportPage)>,
        published: Vec<String>,
    ) -> Result<()> {
        let by_path: BTreeMap<&str, &InputFile> = inputs
            .reports
            .files
            .iter()
            .map(|f| (f.path.as_str(), f))
            .collect();
        let reports = pages
            .into_iter()
            .filter_map(|(path, page)| {
                let key = inputs.report_key(by_path.get(path.as_str())?);
                Some((path, (key, page)))
            })
            .collect();
        let stored = Stored {
            site: inputs.site.clone(),
            out: out.display().to_string(),
            written: fingerprint_of(out),
            reports,
            base: inputs.base.clone(),
            published,
            builder: self.builder.clone(),
        };
        let bytes = wire::encode(&stored).map_err(anyhow::Error::msg)?;
        std::fs::create_dir_all(&self.dir)
            .with_context(|| format!("cannot create `{}`", self.dir.display()))?;
        let path = self.dir.join(BUILD_FILE);
        let partial = path.with_extension("bin.partial");
        std::fs::write(&partial, bytes)
            .with_context(|| format!("cannot write `{}`", partial.display()))?;
        std::fs::rename(&partial, &path)
            .with_context(|| format!("cannot write `{}`", path.display()))
    }
}

/// The benchdeck that builds: its executable's size and time, and the key of its bytes (with,
/// in a debug build, the web app it writes instead of its own), read again only when the size
/// or time differ from `last`'s.
fn builder(last: &(String, Key)) -> (String, Key) {
    let exe = std::env::current_exe().ok();
    let meta = exe.as_ref().and_then(|p| std::fs::metadata(p).ok());
    let app = std::env::var_os(crate::bundle::APP_DIR_VAR)
        .filter(|_| cfg!(debug_assertions))
        .map(|dir| format!("{:?}", files::fingerprint(&[PathBuf::from(dir)])));
    let stamp = format!(
        "{} {:?} {:?} {:?}",
        env!("CARGO_PKG_VERSION"),
        meta.as_ref().map(std::fs::Metadata::len),
        meta.and_then(|m| m.modified().ok()),
        app,
    );
    if stamp == last.0 && !last.1.is_empty() {
        return last.clone();
    }
    // An executable that cannot be read makes a key no build shares: nothing is reused.
    let key = match exe.and_then(|p| std::fs::read(p).ok()) {
        Some(bytes) => KeyMaker::default()
            .add(env!("CARGO_PKG_VERSION"))
            .add(bytes)
            .add(format!("{app:?}")),
        None => KeyMaker::default().add(format!("{:?}", std::time::SystemTime::now())),
    };
    (stamp, key.finish())
}

/// The paths, sizes and times of every file below `out`, as a key.
fn fingerprint_of(out: &Path) -> String {
    KeyMaker::default()
        .add(format!("{:?}", files::fingerprint(&[out.to_path_buf()])))
        .finish()
}

/// `key` with every file of `inputs` (path and bytes) and every file not read (path and why).
fn add_inputs(mut key: KeyMaker, inputs: &files::Inputs) -> KeyMaker {
    for file in &inputs.files {
        key = key.add(&file.path).add(&file.bytes);
    }
    for (path, why) in &inputs.skipped {
        key = key.add(path).add(why);
    }
    key
}

#[cfg(test)]
mod tests;
