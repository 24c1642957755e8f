//! One build of a project's site, and, when `serve` asks for the next, only what changed.
//!
//! The first build writes the whole site into a staging folder that replaces `--out` when it is
//! complete (see [`super`]). A [`Session`] keeps what that build made: the result files as read
//! (by path, size and modification time) with their imports, each report's page by its file's
//! bytes, the pages as written and the page template. Its next build reads the result files again
//! only when their fingerprint changed, builds only the reports whose file or imports changed,
//! and writes in place only the pages that differ from the last ones (with their charts, data
//! and embed pages), the site index and the home page. Nothing the reader is not shown is
//! guessed: a page is rewritten exactly when its data differs.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{bail, Result};
use benchdeck_core::assemble::{build_site_from, slug_of, BuiltSite};
use benchdeck_core::import::{import, joined, ImportedFile};
use benchdeck_core::input::InputFile;
use benchdeck_core::site::ReportPage;
use rayon::prelude::*;

use super::super::pages::{self, PageWriter};
use super::super::site::png_cache::PngCache;
use super::super::site::{self, Pngs, SiteData};
use super::cache::{Cache, Keyed};
use super::kept::{copy_reports, remove, report_files};
use super::options::Options;
use super::replace::replace_site;
use crate::{bundle, files};

/// What the last build of a project made, for the next one.
#[derive(Default)]
pub(crate) struct Session {
    /// Whether a build's state is kept for the next one (`serve`); a single `build` keeps
    /// nothing, so it copies no page.
    keep: bool,
    last: Option<Last>,
    /// The build cache on disk (`build`; `serve` keeps its state in memory).
    cache: Option<Cache>,
}

/// The last build's inputs and output.
struct Last {
    /// Where the site was written, and how.
    out: PathBuf,
    options: Options,
    /// The result files as read, their fingerprint, and their imports.
    results: Results,
    /// Each report's file bytes and the page built from them (before links to unpublished
    /// files were taken out), by path below `reports/`.
    reports: HashMap<String, (Vec<u8>, ReportPage)>,
    /// Every page as written, by slug.
    pages: BTreeMap<String, ReportPage>,
    /// The result files published.
    published: BTreeSet<String>,
    /// Writes the pages (it holds the app's page template, which the home page replaced).
    writer: PageWriter,
}

/// The result files of a build.
#[derive(Clone)]
struct Results {
    fingerprint: files::Fingerprint,
    inputs: Arc<files::Inputs>,
    imports: Arc<[ImportedFile]>,
}

/// What a build made: the site's data and pages, and what to keep for the next one.
struct Made {
    data: SiteData,
    results: Results,
    reports: HashMap<String, (Vec<u8>, ReportPage)>,
    /// The reports (by path) whose page came from the build cache.
    from_cache: Vec<String>,
}

impl Session {
    /// A session whose builds each rebuild only what changed since the one before (`serve`).
    pub fn keeping() -> Self {
        Session {
            keep: true,
            ..Session::default()
        }
    }

    /// A session of one build that starts from the build cache of the project in `root` and
    /// leaves its own there (`build`).
    pub fn cached(root: &Path) -> Self {
        Session {
            cache: Some(Cache::open(root)),
            ..Session::default()
        }
    }

    /// Builds the site of `root` into `out`: the whole site the first time (or when `out` or
    /// the options changed), else only what changed since the last build.
    pub fn build(&mut self, root: &Path, out: &Path, options: &Options) -> Result<ExitCode> {
        check_project(root)?;
        let cache = self.cache.take();
        let code = self.build_with(root, out, options, cache.as_ref());
        self.cache = cache;
        code
    }

    /// [`Session::build`] with the build cache, when there is one.
    fn build_with(
        &mut self,
        root: &Path,
        out: &Path,
        options: &Options,
        cache: Option<&Cache>,
    ) -> Result<ExitCode> {
        let keyed = match cache {
            Some(cache) => Some(Keyed::read(root, options, cache)?),
            None => None,
        };
        if let Some((cache, keyed)) = cache.zip(keyed.as_ref()) {
            if cache.is_current(keyed, out) {
                eprintln!(
                    "benchdeck: nothing changed since the last build; the site in {} is as it was",
                    out.display()
                );
                return Ok(ExitCode::SUCCESS);
            }
        }
        let last = self
            .last
            .take()
            .filter(|last| last.out == out && last.options == *options && out.is_dir());
        let cached = cache.zip(keyed.as_ref());
        let made = make(root, options, last.as_ref(), self.keep, cached)?;
        let pages: Option<Vec<(String, ReportPage)>> = cached.map(|_| {
            let pages = made.reports.iter();
            pages
                .map(|(path, (_, page))| (path.clone(), page.clone()))
                .collect()
        });
        let published: Vec<String> = made.data.publication.published.iter().cloned().collect();
        let kept = match cached {
            Some((cache, keyed)) if cache.holds_last_site(keyed, out, &published) => {
                unchanged(&made)
            }
            _ => BTreeSet::new(),
        };
        let code = match last {
            Some(last) => self.update(out, options, last, made)?,
            None => {
                let png_cache = cache.map(Cache::pngs);
                self.replace(out, options, made, png_cache.as_ref(), &kept)?
            }
        };
        if let Some(((cache, keyed), pages)) = cached.zip(pages) {
            if code == ExitCode::SUCCESS {
                if let Err(error) = cache.save(keyed, out, pages, published) {
                    eprintln!("benchdeck: note: the build cache was not kept: {error:#}");
                }
            }
        }
        Ok(code)
    }

    /// The first build: the whole site in a staging folder that replaces `out`; the files of the
    /// reports `kept` are copied from the site in `out` instead of written.
    fn replace(
        &mut self,
        out: &Path,
        options: &Options,
        made: Made,
        png_cache: Option<&PngCache>,
        kept: &BTreeSet<String>,
    ) -> Result<ExitCode> {
        let pngs = pngs(options, png_cache);
        let results = made.results.inputs.files.as_slice();
        let mut writer = None;
        let code = replace_site(out, |staging| {
            bundle::write(staging, &options.public_url)?;
            let kept = copy_reports(out, staging, kept);
            let fresh = |page: &ReportPage| !kept.contains(&page.summary.slug);
            let written = made.data.write(staging, fresh, Some(results), pngs)?;
            let code = made.data.report(&written, options.keep_going);
            if code != ExitCode::SUCCESS {
                return Ok(code);
            }
            let template = pages::read_template(staging)?;
            let page_writer = PageWriter::new(&template, staging, page_options(options)?)?;
            let site = &made.data.site;
            let pages: Vec<&ReportPage> = site.pages.iter().filter(|p| fresh(p)).collect();
            let all = page_writer.all(&site.index, &pages)?;
            pages::write_pages(staging, &all)?;
            pages::say_written(&all, page_writer.options());
            if !kept.is_empty() {
                eprintln!(
                    "benchdeck: {} unchanged report{} copied from the last site",
                    kept.len(),
                    benchdeck_core::format::plural(kept.len())
                );
            }
            writer = Some(page_writer);
            Ok(code)
        })?;
        if let Some(writer) = writer.filter(|_| self.keep) {
            self.last = Some(Last::new(out, options, made, writer));
        }
        Ok(code)
    }

    /// A later build: in place in `out`, only the pages that differ from `last`'s.
    fn update(
        &mut self,
        out: &Path,
        options: &Options,
        last: Last,
        made: Made,
    ) -> Result<ExitCode> {
        let site = &made.data.site;
        let changed: BTreeSet<&str> = site
            .pages
            .iter()
            .filter(|page| last.pages.get(&page.summary.slug) != Some(*page))
            .map(|page| page.summary.slug.as_str())
            .collect();
        let now: BTreeSet<&str> = site.pages.iter().map(|p| p.summary.slug.as_str()).collect();
        for slug in last.pages.keys().map(String::as_str) {
            if changed.contains(slug) || !now.contains(slug) {
                remove_page(out, slug)?;
            }
        }
        let republish = made.data.publication.published != last.published
            || !Arc::ptr_eq(&made.results.inputs, &last.results.inputs);
        if republish {
            remove(&out.join("results"))?;
        }
        let results = republish.then_some(made.results.inputs.files.as_slice());
        let pick = |page: &ReportPage| changed.contains(page.summary.slug.as_str());
        let written = made.data.write(out, pick, results, pngs(options, None))?;
        let code = made.data.report(&written, options.keep_going);
        let mut pages = last.writer.index_pages(&site.index)?;
        for page in site.pages.iter().filter(|page| pick(page)) {
            pages.extend(last.writer.report(page)?);
        }
        pages::write_pages(out, &pages)?;
        eprintln!(
            "benchdeck: rewrote {} of {} report pages{}",
            changed.len(),
            site.pages.len(),
            if republish {
                " and the published result files"
            } else {
                ""
            }
        );
        self.last = Some(Last::new(out, options, made, last.writer));
        Ok(code)
    }
}

impl Last {
    fn new(out: &Path, options: &Options, made: Made, writer: PageWriter) -> Self {
        let site = made.data.site;
        Last {
            out: out.to_path_buf(),
            options: options.clone(),
            results: made.results,
            reports: made.reports,
            pages: site
                .pages
                .into_iter()
                .map(|page| (page.summary.slug.clone(), page))
                .collect(),
            published: made.data.publication.published,
            writer,
        }
    }
}

/// Fails unless `root` is a project folder: a folder with `reports/` or `results/`.
fn check_project(root: &Path) -> Result<()> {
    if !root.is_dir() {
        bail!(
            "`{}` is not a folder; expected a project folder with `reports/` and `results/` \
             (`benchdeck init` makes one)",
            root.display()
        );
    }
    let (reports, results) = (root.join("reports"), root.join("results"));
    if !reports.is_dir() && !results.is_dir() {
        bail!(
            "`{}` has neither `reports/` nor `results/`; put result files in `{}` (or run \
             `benchdeck init`)",
            root.display(),
            results.display()
        );
    }
    Ok(())
}

/// Reads the project (the result files only when their fingerprint changed since `last`; with
/// the build cache, as `cached` read them) and builds its site, reusing `last`'s or the cache's
/// page of every report whose file and imports are the same; with `keep` or the cache, each
/// report's page as built is kept for the next build.
fn make(
    root: &Path,
    options: &Options,
    last: Option<&Last>,
    keep: bool,
    cached: Option<(&Cache, &Keyed)>,
) -> Result<Made> {
    let (reports, results) = match cached {
        Some((_, keyed)) => (keyed.reports.clone(), imported(keyed.results.clone())),
        None => (
            site::read_reports(&root.join("reports"))?,
            read_results(&root.join("results"), last.map(|l| &l.results))?,
        ),
    };
    let same_imports = last.filter(|l| Arc::ptr_eq(&l.results.imports, &results.imports));
    let from_cache = std::sync::Mutex::new(Vec::new());
    let earlier = |input: &InputFile| {
        if let Some((cache, keyed)) = cached {
            let page = cache.page(keyed, input);
            if page.is_some() {
                if let Ok(mut hits) = from_cache.lock() {
                    hits.push(input.path.clone());
                }
            }
            return page;
        }
        let (bytes, page) = same_imports?.reports.get(&input.path)?;
        (*bytes == input.bytes).then(|| page.clone())
    };
    let site = build_site_from(&reports.files, Arc::clone(&results.imports), earlier);
    let reports = if keep || cached.is_some() {
        built_reports(&reports.files, &site)
    } else {
        HashMap::new()
    };
    let data = SiteData::new(site, &results.inputs, options.publish_secrets);
    Ok(Made {
        data,
        results,
        reports,
        from_cache: from_cache.into_inner().unwrap_or_default(),
    })
}

/// The result files below `folder`: `last`'s when their fingerprint is the same, else read and
/// imported again.
fn read_results(folder: &Path, last: Option<&Results>) -> Result<Results> {
    let fingerprint = files::fingerprint(&[folder.to_path_buf()]);
    if let Some(last) = last.filter(|last| last.fingerprint == fingerprint) {
        return Ok(last.clone());
    }
    let mut results = imported(files::read_inputs(folder, |_| true)?);
    results.fingerprint = fingerprint;
    Ok(results)
}

/// Every file of `files` imported, on every core: what [`benchdeck_core::import::import_all`]
/// makes of them.
fn import_everywhere(files: &[InputFile]) -> Vec<ImportedFile> {
    let alone = files
        .par_iter()
        .map(|f| import(&f.path, &f.bytes))
        .collect();
    joined(files, alone)
}

/// `inputs` imported, with no fingerprint.
fn imported(inputs: files::Inputs) -> Results {
    Results {
        fingerprint: files::Fingerprint::default(),
        imports: import_everywhere(&inputs.files).into(),
        inputs: Arc::new(inputs),
    }
}

/// The slugs of the pages that did not change since the last build: the reports whose page came
/// from the cache and the automatic pages (of result files that did not change either).
fn unchanged(made: &Made) -> BTreeSet<String> {
    let site = &made.data.site;
    let reports = made.from_cache.iter().map(|path| slug_of(path));
    let automatic = site
        .pages
        .iter()
        .filter(|p| p.summary.automatic.is_some())
        .map(|p| p.summary.slug.clone());
    reports.chain(automatic).collect()
}

/// Each written report's file bytes and its page as built (before [`SiteData::new`] takes out
/// the links to files it does not publish), by path.
fn built_reports(
    reports: &[InputFile],
    site: &BuiltSite,
) -> HashMap<String, (Vec<u8>, ReportPage)> {
    reports
        .iter()
        .filter_map(|input| {
            let slug = slug_of(&input.path);
            let page = site
                .pages
                .iter()
                .find(|p| p.summary.automatic.is_none() && p.summary.slug == slug)?;
            Some((input.path.clone(), (input.bytes.clone(), page.clone())))
        })
        .collect()
}

/// Whether the previews' PNGs are drawn by the build (or taken from `cache`) or every PNG is made
/// when a reader asks (`serve`).
fn pngs<'a>(options: &Options, cache: Option<&'a PngCache>) -> Pngs<'a> {
    if options.pngs_on_request {
        Pngs::OnRequest
    } else {
        Pngs::Previews(cache)
    }
}

/// The pages' options for `options`.
fn page_options(options: &Options) -> Result<pages::Options> {
    pages::Options::new(options.site_url.as_deref(), &options.public_url, false)
}

/// Removes everything the build wrote for the report `slug`: its data, runs, charts, page and
/// embed pages.
fn remove_page(out: &Path, slug: &str) -> Result<()> {
    for rel in report_files(slug) {
        remove(&out.join(rel))?;
    }
    Ok(())
}
