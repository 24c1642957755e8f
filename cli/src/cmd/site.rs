//! `benchdeck site`: build the site's data from `reports/` and `results/`.
//!
//! Writes under `--out` (trunk's staging folder when run as its pre-build hook), at the paths
//! `benchdeck_core::site` defines: `data/index.bin` and `data/reports/<slug>.bin` for the app;
//! every chart (grid panels and whole grids too) as `charts/<slug>/<id>.svg`, and the report's
//! link-preview chart also as `.png` (a reader's PNG download is drawn in the browser); each
//! report's runs, normalised, as `data/runs/<slug>.json` and `.csv`; and the raw result files the
//! reports use, under `results/`, when [`publish`] allows (result files that gave runs, of a type
//! the site serves, without secrets); every other file of `results/` is listed as not published.
//! Errors are printed as `file:line: error: ...`; they fail the build unless `--keep-going`
//! (used while serving, so the page can show them instead).

mod drawings;
pub(crate) mod png;
pub(crate) mod png_cache;
mod publish;
mod secrets;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use benchdeck_core::assemble::{build_site, BuiltSite};
use benchdeck_core::export::{combined, runs_csv, runs_json};
use benchdeck_core::format::plural;
use benchdeck_core::import::{is_readme, ImportedFile};
use benchdeck_core::input::InputFile;
use benchdeck_core::model::Run;
use benchdeck_core::printable::printable;
use benchdeck_core::site::{
    report_data_path, result_file_path, runs_csv_path, runs_json_path, ReportPage, INDEX_PATH,
};

use crate::files;
use drawings::{write_pngs, write_svgs, PngJob};
pub(crate) use png::{png_height, PNG_WIDTH};
use rayon::prelude::*;

/// Arguments of `site`.
#[derive(clap::Args)]
pub struct Args {
    /// Folder of Markdown reports (`BENCHDECK_REPORTS` when set: `cargo xtask scale` builds a
    /// site from another folder through trunk's hook).
    #[arg(long, env = "BENCHDECK_REPORTS", default_value = "reports")]
    pub(crate) reports: PathBuf,
    /// Folder of result files (`BENCHDECK_RESULTS` when set).
    #[arg(long, env = "BENCHDECK_RESULTS", default_value = "results")]
    pub(crate) results: PathBuf,
    /// Where to write the data (a `data/` folder is created inside).
    #[arg(long, env = "TRUNK_STAGING_DIR")]
    pub(crate) out: PathBuf,
    /// Write the data even when there are errors (they are shown on the pages).
    #[arg(long, env = "BENCHDECK_KEEP_GOING")]
    pub(crate) keep_going: bool,
    /// Publish result files that hold what looks like a secret (a token, a key) all the same.
    #[arg(long, env = "BENCHDECK_PUBLISH_SECRETS", value_parser = clap::builder::FalseyValueParser::new())]
    pub(crate) publish_secrets: bool,
}

/// Runs `site`.
pub fn execute(args: &Args) -> Result<ExitCode> {
    let reports = read_reports(&args.reports)?;
    let results = files::read_inputs(&args.results, |_| true)?;
    let data = SiteData::new(
        build_site(&reports.files, &results.files),
        &results,
        args.publish_secrets,
    );
    let written = data.write_all(&args.out, &results.files, Pngs::Previews(None))?;
    Ok(data.report(&written, args.keep_going))
}

/// Every report (`*.md`) below `folder`; one not read is a warning printed here.
pub(crate) fn read_reports(folder: &Path) -> Result<files::Inputs> {
    // A README beside the reports says what they are; it is no report of its own.
    let is_report = |p: &Path| {
        p.extension().is_some_and(|e| e == "md")
            && !is_readme(&p.file_name().unwrap_or_default().to_string_lossy())
    };
    let reports = files::read_inputs(folder, is_report)?;
    for (path, why) in &reports.skipped {
        eprintln!("benchdeck: warning: reports/{}: {why}", printable(path));
    }
    Ok(reports)
}

/// Whether the build rasterises the PNG of each report's link-preview chart (crawlers take no
/// SVG), or leaves every PNG to whoever serves the site (`benchdeck serve` makes one when it is
/// asked for).
/// The previews' PNGs are taken from the build cache where it holds them.
#[derive(Clone, Copy)]
pub(crate) enum Pngs<'a> {
    Previews(Option<&'a png_cache::PngCache>),
    OnRequest,
}

/// A built site as it is written: its pages linking only to the result files published, the
/// files each page's runs come from (all it uses, published or not), and what is published.
pub(crate) struct SiteData {
    pub site: BuiltSite,
    /// Per page, in the order of `site.pages`.
    sources: Vec<Vec<String>>,
    pub publication: publish::Publication,
}

/// What [`SiteData::write`] wrote.
#[derive(Debug, Default)]
pub(crate) struct Written {
    /// The reports whose data was written.
    pub pages: usize,
    /// The PNGs written, how many of them were drawn (the rest came from the build cache), and
    /// how long that took.
    pub pngs: usize,
    pub pngs_drawn: usize,
    pub png_time: Duration,
    /// The font family the PNGs' text is drawn in.
    pub font: String,
    /// The result files published, when they were written.
    pub published: Option<usize>,
}

impl SiteData {
    /// Decides what `site` publishes of `results` (see [`publish`]) and strips the links to the
    /// rest.
    pub fn new(mut site: BuiltSite, results: &files::Inputs, publish_secrets: bool) -> Self {
        let publication = publish::plan(
            &site.pages,
            &site.imports,
            &results.files,
            &results.skipped,
            publish_secrets,
        );
        // Each page's runs come from every file it uses; its links only to the published ones.
        let sources = site.pages.iter().map(|p| p.sources.clone()).collect();
        publication.strip_links(&mut site.pages);
        SiteData {
            site,
            sources,
            publication,
        }
    }

    /// Writes the whole site's data into `out`.
    pub fn write_all(&self, out: &Path, results: &[InputFile], pngs: Pngs) -> Result<Written> {
        self.write(out, |_| true, Some(results), pngs)
    }

    /// Writes the site's index and the data of the pages `pick` chooses into `out`, and the
    /// published result files when given `results` (the files the build read).
    pub fn write(
        &self,
        out: &Path,
        pick: impl Fn(&ReportPage) -> bool + Sync,
        results: Option<&[InputFile]>,
        pngs: Pngs,
    ) -> Result<Written> {
        write_data_file(out, INDEX_PATH, &self.site.index)?;
        let mut written = Written::default();
        // Each report's files are its own: written on every core.
        let picked: Vec<(&ReportPage, &Vec<String>)> = (self.site.pages.iter().zip(&self.sources))
            .filter(|(page, _)| pick(page))
            .collect();
        let jobs: Vec<Vec<PngJob>> = picked
            .par_iter()
            .map(|(page, sources)| {
                write_data_file(out, &report_data_path(&page.summary.slug), page)?;
                write_runs(out, &page.summary.slug, sources, &self.site.imports)?;
                write_svgs(out, page)
            })
            .collect::<Result<_>>()?;
        let jobs: Vec<PngJob> = jobs.into_iter().flatten().collect();
        written.pages = picked.len();
        if let Pngs::Previews(cache) = pngs {
            let start = Instant::now();
            // The cache keeps what this build used, unless some reports were not written.
            let whole = picked.len() == self.site.pages.len();
            let drawn = write_pngs(&jobs, cache, whole)?;
            written.font = drawn.font;
            written.pngs_drawn = drawn.count;
            written.png_time = start.elapsed();
            written.pngs = jobs.len();
        }
        if let Some(results) = results {
            written.published = Some(write_sources(out, &self.publication.published, results)?);
        }
        Ok(written)
    }

    /// Prints the build's errors, warnings, what was not published and what was written; the
    /// exit code is a failure when there are errors, unless `keep_going`.
    pub fn report(&self, written: &Written, keep_going: bool) -> ExitCode {
        let site = &self.site;
        let errors: Vec<_> = site.errors().collect();
        for error in &errors {
            eprintln!("{error}");
        }
        let warnings: Vec<_> = site.warnings().collect();
        if !warnings.is_empty() {
            eprintln!(
                "benchdeck: {} problem{} in result files no report names (shown on their \
                 automatic pages; they do not fail the build):",
                warnings.len(),
                plural(warnings.len())
            );
            for warning in &warnings {
                eprintln!("  {warning}");
            }
        }
        for line in self.publication.report() {
            eprintln!("{}", printable(&line));
        }
        eprintln!(
            "benchdeck: {}, {} error{}",
            written.describe(site),
            errors.len(),
            plural(errors.len())
        );
        if errors.is_empty() || keep_going {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        }
    }
}

impl Written {
    /// "6 reports (6 written), 80 result files (147 runs, 80 published), 83 charts as SVG, 6
    /// link-preview PNGs (0.3 s, Liberation Sans)": what was written of `site`.
    fn describe(&self, site: &BuiltSite) -> String {
        let runs: usize = site.imports.iter().map(|f| f.runs.len()).sum();
        let published = self
            .published
            .map_or_else(String::new, |n| format!(", {n} published"));
        let pngs = if self.pngs_drawn > 0 {
            format!(
                ", {} link-preview PNG{} ({} drawn in {:.1} s, {})",
                self.pngs,
                plural(self.pngs),
                self.pngs_drawn,
                self.png_time.as_secs_f64(),
                self.font
            )
        } else if self.pngs > 0 {
            format!(
                ", {} link-preview PNG{} (from the build cache)",
                self.pngs,
                plural(self.pngs)
            )
        } else {
            " (PNGs when asked for)".to_string()
        };
        let charts: usize = site
            .pages
            .iter()
            .map(|p| p.charts().count() + p.grids().count())
            .sum();
        format!(
            "{} report{} ({} written), {} result file{} ({runs} runs{published}), {charts} \
             chart{} as SVG{pngs}",
            site.pages.len(),
            plural(site.pages.len()),
            self.pages,
            site.imports.len(),
            plural(site.imports.len()),
            plural(charts),
        )
    }
}

/// The runs a page draws on: those of its source files, in the order the report selected them.
fn page_runs<'a>(sources: &[String], imports: &'a [ImportedFile]) -> Vec<&'a Run> {
    sources
        .iter()
        .filter_map(|source| imports.iter().find(|f| &f.file == source))
        .flat_map(|f| f.runs.iter())
        .collect()
}

/// Writes the runs of page `slug` (from its `sources`), normalised and with repeats combined as
/// the page shows them: `data/runs/<slug>.json` (the canonical model, as `inspect --json` shows
/// each run, with its intervals) and `data/runs/<slug>.csv` (one row per run).
fn write_runs(root: &Path, slug: &str, sources: &[String], imports: &[ImportedFile]) -> Result<()> {
    let runs = page_runs(sources, imports);
    let combined = combined(&runs);
    let runs: Vec<&Run> = combined.iter().map(AsRef::as_ref).collect();
    write_text(root, &runs_json_path(slug), &runs_json(&runs))?;
    write_text(root, &runs_csv_path(slug), &runs_csv(runs.iter().copied()))
}

/// Copies every file of `published` (paths relative to `results/`) to `results/<path>`, from the
/// bytes the build read. Returns how many. A path that is not a plain relative path inside
/// `results/` (absolute, with `..`, `.` or empty segments) is refused: nothing outside `results/`
/// is published.
fn write_sources(
    root: &Path,
    published: &std::collections::BTreeSet<String>,
    results: &[InputFile],
) -> Result<usize> {
    let by_path: BTreeMap<&str, &InputFile> =
        results.iter().map(|f| (f.path.as_str(), f)).collect();
    for source in published {
        if !publish::is_plain_relative(source) {
            bail!(
                "the result file `{source}` is not a plain path inside results/; refusing to \
                 publish it"
            );
        }
        let Some(input) = by_path.get(source.as_str()) else {
            bail!("the result file `{source}` is to be published but the build did not read it");
        };
        let path = root.join(result_file_path(source));
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create `{}`", dir.display()))?;
        }
        std::fs::write(&path, &input.bytes)
            .with_context(|| format!("cannot write `{}`", path.display()))?;
    }
    Ok(published.len())
}

/// Writes `value` as one of the app's data files (`crate::data_file`).
fn write_data_file(root: &Path, rel: &str, value: &impl serde::Serialize) -> Result<()> {
    let bytes = crate::data_file::pack(value).with_context(|| format!("cannot write `{rel}`"))?;
    write_bytes(root, rel, &bytes)
}

fn write_text(root: &Path, rel: &str, text: &str) -> Result<()> {
    write_bytes(root, rel, text.as_bytes())
}

fn write_bytes(root: &Path, rel: &str, bytes: &[u8]) -> Result<()> {
    let path = root.join(rel);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create `{}`", dir.display()))?;
    }
    std::fs::write(&path, bytes).with_context(|| format!("cannot write `{}`", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use benchdeck_core::chart::{self, DrawOptions};
    use benchdeck_core::site::{chart_card_svg_paths, chart_png_path, chart_svg_path};

    /// A site of one report with two charts, built from the vLLM test fixture into `out/`.
    fn build_fixture_site() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let (reports, results) = (dir.path().join("reports"), dir.path().join("results"));
        std::fs::create_dir_all(reports.join("sub")).unwrap();
        std::fs::create_dir_all(results.join("vllm")).unwrap();
        std::fs::write(
            results.join("vllm/llama.jsonl"),
            include_str!("../../../tests/fixtures/vllm/llama-appended.jsonl"),
        )
        .unwrap();
        // Not used by the report: not published.
        std::fs::write(results.join("unused.csv"), "a,b\n1,2\n").unwrap();
        std::fs::write(
            reports.join("sub/rates.md"),
            "---\ntitle: Rates\nresults: [\"vllm/*.jsonl\"]\n---\n\n```chart\nid: ttft\n\
             title: Mean TTFT\nmetric: ttft\nstat: mean\n```\n\n```chart\nid: e2e\n\
             title: Mean E2E\nmetric: e2e\nstat: mean\n```\n",
        )
        .unwrap();
        let args = Args {
            reports,
            results,
            out: dir.path().join("out"),
            keep_going: true,
            publish_secrets: false,
        };
        execute(&args).unwrap();
        dir
    }

    #[test]
    fn the_site_has_each_charts_svg_the_previews_png_and_each_reports_runs_and_files() {
        let dir = build_fixture_site();
        let out = dir.path().join("out");
        let svg = std::fs::read_to_string(out.join(chart_svg_path("rates", "ttft"))).unwrap();
        assert!(svg.starts_with("<svg width=\"960\""), "{svg:.80}");
        let png = std::fs::read(out.join(chart_png_path("rates", "ttft"))).unwrap();
        let (width, height) = png::png_size(&png).unwrap();
        assert_eq!(width, 1200);
        assert!(height > 250 && height <= 675, "{height}");
        // Exactly the size the pages' link previews state without reading the PNG.
        let svg_height: u32 = benchdeck_core::html::attribute(&svg, "height")
            .and_then(|h| h.parse().ok())
            .unwrap();
        assert_eq!(height, png_height((960, svg_height)));
        // Only the link-preview chart (the first) has a PNG: a reader's is drawn in the browser.
        assert!(out.join(chart_svg_path("rates", "e2e")).is_file());
        assert!(!out.join(chart_png_path("rates", "e2e")).exists());

        let json = std::fs::read_to_string(out.join(runs_json_path("rates"))).unwrap();
        let runs: Vec<Run> = serde_json::from_str(&json).unwrap();
        let csv = std::fs::read_to_string(out.join(runs_csv_path("rates"))).unwrap();
        assert!(!runs.is_empty());
        assert_eq!(csv.lines().count(), runs.len() + 1, "{csv}");
        assert_eq!(csv, runs_csv(&runs));
        assert!(runs.iter().all(|r| r.provenance.file == "vllm/llama.jsonl"));

        let published = out.join(result_file_path("vllm/llama.jsonl"));
        assert_eq!(
            std::fs::read_to_string(published).unwrap(),
            include_str!("../../../tests/fixtures/vllm/llama-appended.jsonl")
        );
        assert!(!out.join(result_file_path("unused.csv")).exists());

        // The home page's card shows the first chart drawn at a phone's width, light and dark.
        let [light, dark] = chart_card_svg_paths("rates", "ttft")
            .map(|p| std::fs::read_to_string(out.join(p)).unwrap());
        let width = format!("<svg width=\"{}\"", chart::NARROW_WIDTH);
        assert!(
            light.starts_with(&width) && dark.starts_with(&width),
            "{light:.80}"
        );
        assert!(light.contains("Mean TTFT") && dark.contains("Mean TTFT"));
        assert_ne!(light, dark, "the dark card is in the dark theme");
    }

    #[test]
    fn a_card_names_its_lines_in_its_legend_only() {
        use chart::{Axis, ChartKind, ChartSpec, Point, Series};
        // Two lines rising to the card's top right corner.
        let line = |name: &str, color, slope: f64| Series {
            name: name.into(),
            color,
            points: (0..6)
                .map(|i| Point {
                    x: f64::from(i),
                    y: Some(10.0 + slope * f64::from(i)),
                    ..Point::default()
                })
                .collect(),
        };
        let spec = ChartSpec {
            id: "c".into(),
            title: "Mean TTFT".into(),
            caption: String::new(),
            kind: ChartKind::Lines,
            x: Axis::new("Request rate (req/s)", ""),
            y: Axis::new("Mean TTFT", "ms"),
            series: vec![line("vLLM", 0, 100.0), line("SGLang", 1, 90.0)],
            annotations: Vec::new(),
            alternatives: Vec::new(),
        };
        let names = |options: &DrawOptions| {
            let svg = chart::to_svg(&spec, (chart::NARROW_WIDTH, 300), options).unwrap();
            let text = |t: &str| t.rsplit('>').next().map_or("", str::trim).to_string();
            svg.split("</text>").filter(|t| text(t) == "vLLM").count()
        };
        assert_eq!(names(&drawings::card_options(chart::ThemeName::Light)), 1);
        assert_eq!(
            names(&DrawOptions::default()),
            2,
            "a file's drawing names the line twice"
        );
    }

    #[test]
    fn result_files_outside_results_are_never_published() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = [InputFile {
            path: "../secret".into(),
            bytes: b"secret".to_vec(),
        }];
        let published = |path: &str| std::iter::once(path.to_string()).collect();
        let err = write_sources(dir.path(), &published("../secret"), &inputs).unwrap_err();
        assert!(err.to_string().contains("not a plain path"), "{err}");
        let err = write_sources(dir.path(), &published("elsewhere.json"), &inputs).unwrap_err();
        assert!(err.to_string().contains("did not read"), "{err}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn only_plain_relative_paths_are_published() {
        for ok in ["a.json", "vllm/run 1.jsonl", "a/b/c.csv", "..a/b..c"] {
            assert!(publish::is_plain_relative(ok), "{ok}");
        }
        for bad in [
            "",
            "/etc/passwd",
            "../secret",
            "a/../../b",
            "a/./b",
            "a//b",
            "a/",
            "c:/x",
            "a\\..\\b",
        ] {
            assert!(!publish::is_plain_relative(bad), "{bad}");
        }
    }
}
