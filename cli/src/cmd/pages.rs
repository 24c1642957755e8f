//! `benchdeck pages`: finish a built site so it works on any static host.
//!
//! Every page is the app's `index.html` with its own head tags and its body rendered by the
//! app's own components (`benchdeck_app::render`, leptos on the server side), so it reads
//! completely without JavaScript; in the browser the app fetches the page's data, renders the
//! page again with the same components and puts it in place of that HTML:
//!
//! - `<slug>/index.html` per report, with the report's title, description and Open Graph /
//!   Twitter tags whose image is the PNG of its first chart, so deep links load directly and
//!   shared links show a preview;
//! - `embed/<slug>/<id>/index.html` per chart and grid, for `<iframe>`s (not indexed);
//! - `local/index.html`, where the app shows result files a reader dropped;
//! - `404.html`, which GitHub Pages serves for unknown paths: marked so that the app shows its
//!   "page not found" at once; and, in the benchmark build only, the hidden drawing benchmark's
//!   page.
//!
//! Each page gets a Content-Security-Policy ([`csp`]).

mod csp;
mod feeds;
mod head;
mod stylesheet;
mod template;

use std::borrow::Borrow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use benchdeck_app::{Drawings, Initial, APP_ROOT_ID};
use benchdeck_core::chart::{self, inline};
use benchdeck_core::export::alt_text;
use benchdeck_core::site::{
    embed_page_path, report_data_path, ReportPage, Route, SiteIndex, BENCH_PAGE_PATH, INDEX_PATH,
    LOCAL_PAGE_PATH,
};

use head::{preview_base, preview_image, Head};
use rayon::prelude::*;

/// Arguments of `pages`.
#[derive(clap::Args)]
pub struct Args {
    /// The built site (trunk's staging folder when run as its post-build hook).
    #[arg(long, env = "TRUNK_STAGING_DIR")]
    pub(crate) dist: PathBuf,
    /// The site's public address, e.g. `https://user.github.io/repo/`: link-preview crawlers
    /// need absolute image URLs. Without it the URLs are root-relative (from `--public-url`).
    #[arg(long, env = "BENCHDECK_SITE_URL")]
    pub(crate) site_url: Option<String>,
    /// The path the site is served under; trunk passes its `--public-url` to hooks.
    #[arg(long, env = "TRUNK_PUBLIC_URL", default_value = "/")]
    pub(crate) public_url: String,
    /// Also write the hidden drawing benchmark's page (`_bench/scatter/`): for the build
    /// `cargo xtask bench` makes with the app's feature `bench`.
    #[arg(long, env = "BENCHDECK_BENCH_PAGE", value_parser = clap::builder::FalseyValueParser::new())]
    pub(crate) bench_page: bool,
    /// Copy trunk's `index.html` (the template every page starts from) to this path before
    /// the pages replace it: `cargo xtask dist` bundles it into the installable binary.
    #[arg(long, env = "BENCHDECK_SAVE_TEMPLATE")]
    pub(crate) save_template: Option<PathBuf>,
}

/// The placeholder in `app/index.html` that page-specific head tags replace.
const HEAD_MARKER: &str = "<!-- benchdeck:head -->";

/// The element of `app/index.html` that each page's rendered body goes into (and the app
/// takes over).
const APP_ROOT: &str = "<div id=\"app\"></div>";

/// Runs `pages`.
pub fn execute(args: &Args) -> Result<ExitCode> {
    let template = read_template(&args.dist)?;
    if let Some(copy) = &args.save_template {
        std::fs::write(copy, &template)
            .with_context(|| format!("cannot write `{}`", copy.display()))?;
    }
    let options = Options::new(args.site_url.as_deref(), &args.public_url, args.bench_page)?;
    let writer = PageWriter::new(&template, &args.dist, options)?;
    let pages = site_pages(&args.dist, &writer)?;
    write_pages(&args.dist, &pages)?;
    say_written(&pages, &writer.options);
    Ok(ExitCode::SUCCESS)
}

/// Trunk's `index.html` in `dist`, the template every page starts from.
pub(crate) fn read_template(dist: &Path) -> Result<String> {
    let path = dist.join("index.html");
    let template = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read `{}`", path.display()))?;
    for marker in [HEAD_MARKER, APP_ROOT] {
        if !template.contains(marker) {
            bail!(
                "`{}` has no `{marker}`; expected the app's index.html",
                path.display()
            );
        }
    }
    Ok(template)
}

/// Prints what was written: how many pages of each kind, and what the options left out.
pub(crate) fn say_written(pages: &[(String, String)], options: &Options) {
    let base = &options.base;
    if !options.published {
        eprintln!(
            "benchdeck: link previews use root-relative image URLs under `{base}`; give \
             --site-url (BENCHDECK_SITE_URL) for the absolute URLs crawlers need"
        );
    }
    let html = pages.iter().filter(|(p, _)| p.ends_with(".html")).count();
    let count = |prefix: &str| pages.iter().filter(|(p, _)| p.starts_with(prefix)).count();
    eprintln!(
        "benchdeck: wrote {html} pages: the home page, 404.html, {} report entry page(s), {} \
         chart embed page(s), the local files page{}, each with a Content-Security-Policy{}",
        report_entry_pages(pages),
        count("embed/"),
        if options.bench_page {
            " and the benchmark page"
        } else {
            ""
        },
        if options.published {
            "; sitemap.xml, feed.xml and robots.txt"
        } else {
            ""
        }
    );
}

/// How many of `pages` are reports' entry pages (`<slug>/index.html`).
fn report_entry_pages(pages: &[(String, String)]) -> usize {
    pages
        .iter()
        .filter(|(p, _)| {
            p.ends_with("/index.html")
                && !["embed/", LOCAL_PAGE_PATH, BENCH_PAGE_PATH]
                    .iter()
                    .any(|prefix| p.starts_with(prefix))
        })
        .count()
}

/// How pages are written.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    /// Base of the URLs in link previews: the site URL or its root-relative path, with a
    /// trailing `/`.
    base: String,
    /// The path the site is served under (`/`, `/repo/`): the app's links start with it.
    public_url: String,
    /// Whether the site's public address is known (`--site-url`): then `base` is absolute and
    /// pages get canonical links, and the site a sitemap and a feed ([`feeds`]).
    published: bool,
    /// Whether to write the hidden drawing benchmark's page.
    bench_page: bool,
}

impl Options {
    /// The options of a site served under `public_url`, at `site_url` when known;
    /// `bench_page` writes the drawing benchmark's page.
    pub fn new(site_url: Option<&str>, public_url: &str, bench_page: bool) -> Result<Self> {
        let base = preview_base(site_url, public_url)?;
        Ok(Options {
            published: base.contains("://"),
            base,
            public_url: public_url.to_string(),
            bench_page,
        })
    }
}

/// Writes `pages` (path relative to `dist`, content) into `dist`.
pub(crate) fn write_pages(dist: &Path, pages: &[(String, String)]) -> Result<()> {
    for (rel, html) in pages {
        let path = dist.join(rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create `{}`", dir.display()))?;
        }
        std::fs::write(&path, html)
            .with_context(|| format!("cannot write `{}`", path.display()))?;
    }
    Ok(())
}

/// Every page of the site, as (path relative to the site root, HTML), and with `--site-url` the
/// sitemap, the feed and `robots.txt`, from the site index and each report's data that
/// `benchdeck site` wrote in `dist`.
fn site_pages(dist: &Path, writer: &PageWriter) -> Result<Vec<(String, String)>> {
    let index: SiteIndex = read_data_file(&dist.join(INDEX_PATH))?;
    let reports = index
        .reports
        .iter()
        .map(|report| read_data_file(&dist.join(report_data_path(&report.slug))))
        .collect::<Result<Vec<ReportPage>>>()?;
    writer.all(&index, &reports)
}

/// Writes pages from the app's `index.html`: head tags, the body the app's components render,
/// and the Content-Security-Policy.
pub(crate) struct PageWriter {
    /// The app's `index.html` made ready for pages ([`template::page_template`]).
    template: String,
    /// The template's Content-Security-Policy, every page checked against it.
    policy: csp::Policy,
    options: Options,
}

impl PageWriter {
    /// A writer of pages from `template`, trunk's `index.html` (its stylesheets read from
    /// `dist`).
    pub fn new(template: &str, dist: &Path, options: Options) -> Result<Self> {
        let template =
            template::page_template(template, dist, &options.public_url).with_context(|| {
                format!(
                    "cannot make pages from `{}`",
                    dist.join("index.html").display()
                )
            })?;
        let policy = csp::Policy::of_template(&template)
            .context("cannot make the Content-Security-Policy of the pages' template")?;
        Ok(PageWriter {
            template,
            policy,
            options,
        })
    }

    /// How it writes pages.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Every page of the site: the home page, 404.html, each report's ([`PageWriter::report`]),
    /// the local files page, and the drawing benchmark's page and the feeds when the options
    /// say so.
    pub fn all(
        &self,
        index: &SiteIndex,
        reports: &[impl Borrow<ReportPage> + Sync],
    ) -> Result<Vec<(String, String)>> {
        let mut pages = self.index_pages(index)?;
        pages.push(self.not_found()?);
        // Rendered on every core, kept in the reports' order.
        let rendered: Vec<Vec<(String, String)>> = reports
            .par_iter()
            .map(|report| self.report(report.borrow()))
            .collect::<Result<_>>()?;
        pages.extend(rendered.into_iter().flatten());
        pages.push(self.local()?);
        // The hidden drawing benchmark (`app/src/pages/bench.rs`), in the benchmark build
        // only, gets a real page so it loads with status 200; the app alone draws it: it
        // measures drawing.
        if self.options.bench_page {
            let bench = Head::new(
                "Scatter drawing benchmark",
                "benchdeck drawing 100,000 synthetic points",
            );
            pages.push((
                format!("{BENCH_PAGE_PATH}index.html"),
                self.page(bench, None)?,
            ));
        }
        Ok(pages)
    }

    /// The pages that list every report: the home page, and with `--site-url` the sitemap and
    /// the feed (and `robots.txt`).
    pub fn index_pages(&self, index: &SiteIndex) -> Result<Vec<(String, String)>> {
        let mut pages = vec![self.home(index)?];
        if self.options.published {
            pages.extend(feeds::files(index, &self.options.base));
        }
        Ok(pages)
    }

    /// The page with `head`, and the app's rendering of `body` (route, its data, its drawings)
    /// inside `#app`; `None` leaves `#app` empty for the app to fill.
    fn page(&self, mut head: Head<'_>, body: Option<(Route, Initial, Drawings)>) -> Result<String> {
        let options = &self.options;
        if options.published {
            head.feed = (!head.not_found).then(|| format!("{}{}", options.base, feeds::FEED_PATH));
        } else {
            head.canonical = None;
        }
        let body = body.map_or_else(String::new, |(route, initial, drawings)| {
            benchdeck_app::render(route, initial, drawings, &options.public_url)
        });
        let html = self
            .template
            .replacen(HEAD_MARKER, &head.html(), 1)
            .replacen(
                APP_ROOT,
                &format!("<div id=\"{APP_ROOT_ID}\">{body}</div>"),
                1,
            );
        self.policy
            .insert(&html)
            .context("cannot add the Content-Security-Policy of the page's template to the page")
    }

    /// The home page, every report listed.
    fn home(&self, index: &SiteIndex) -> Result<(String, String)> {
        let mut home = Head::new("benchdeck reports", "LLM-serving benchmark reports");
        // No data named for the loader: the islands' app has nothing to do on the home page.
        home.canonical = Some(self.options.base.clone());
        let initial = Initial {
            index: Some(index.clone()),
            report: None,
        };
        let html = self.page(home, Some((Route::Home, initial, Drawings::default())))?;
        Ok(("index.html".to_string(), html))
    }

    /// `404.html`, marked so that the app shows its "page not found" at once.
    fn not_found(&self) -> Result<(String, String)> {
        let mut not_found = Head::new("Page not found", "There is no page at this address");
        not_found.noindex = true;
        not_found.social = false;
        not_found.not_found = true;
        let body = (Route::NotFound, Initial::default(), Drawings::default());
        Ok(("404.html".to_string(), self.page(not_found, Some(body))?))
    }

    /// The page where the app shows result files a reader opened.
    fn local(&self) -> Result<(String, String)> {
        let mut local = Head::new(
            "Your result files",
            "Benchmark result files you opened, read in your browser",
        );
        local.canonical = Some(format!("{}{LOCAL_PAGE_PATH}", self.options.base));
        local.full_app = true;
        let body = (Route::Local, Initial::default(), Drawings::default());
        Ok((
            format!("{LOCAL_PAGE_PATH}index.html"),
            self.page(local, Some(body))?,
        ))
    }

    /// A report's entry page (with its link preview) and an embed page per chart and grid.
    pub fn report(&self, data: &ReportPage) -> Result<Vec<(String, String)>> {
        let report = &data.summary;
        let base = &self.options.base;
        let slug = &report.slug;
        let mut head = Head::new(&report.title, &report.summary);
        // As the app's report page names it (`app/src/pages/report.rs`).
        head.tab_title = Some(format!("{} · benchdeck", report.title));
        head.url = Some(format!("{base}{slug}/"));
        head.canonical.clone_from(&head.url);
        head.image = preview_image(base, data);
        head.data = Some(report_data_path(slug));
        let drawings = drawings(data)?;
        let with_data = Initial {
            index: None,
            report: Some(data.clone()),
        };
        let route = Route::Report { slug: slug.clone() };
        let mut pages = vec![(
            format!("{slug}/index.html"),
            self.page(head, Some((route, with_data.clone(), drawings.entry)))?,
        )];
        let charts = data.charts().map(|c| (&c.id, &c.title));
        let grids = data.grids().map(|g| (&g.id, &g.title));
        for (id, title) in charts.chain(grids) {
            let embed_title = format!("{title} · {}", report.title);
            let mut head = Head::new(&embed_title, &report.summary);
            head.noindex = true;
            head.social = false;
            head.data = Some(report_data_path(slug));
            head.canonical = Some(format!("{base}{}", embed_page_path(slug, id)));
            let route = Route::Embed {
                slug: slug.clone(),
                id: id.clone(),
            };
            pages.push((
                format!("{}index.html", embed_page_path(slug, id)),
                self.page(
                    head,
                    Some((route, with_data.clone(), drawings.embed.clone())),
                )?,
            ));
        }
        Ok(pages)
    }
}

/// The inline drawings of a report's charts: those its entry page carries, and those its embed
/// pages carry.
#[derive(Default)]
struct ReportDrawings {
    entry: Drawings,
    embed: Drawings,
}

/// Every chart of `report` as inline SVG markup for its pages, labelled with the chart's text
/// alternative: drawn as `benchdeck site` draws `charts/<slug>/<id>.svg`, but without the legend
/// inside the drawing, since the page shows the chart's legend under it; and drawn again at a
/// tablet's, a small box's and a phone's width (`chart::PAGE_DRAWINGS`), which the stylesheet
/// shows in boxes of those widths. The entry page leaves out the wide drawing of a grid's panel
/// that shares its row, which no box there shows (`chart::page_drawings`).
fn drawings(report: &ReportPage) -> Result<ReportDrawings> {
    let slug = &report.summary.slug;
    let options = chart::DrawOptions {
        legend: false,
        ..chart::DrawOptions::default()
    };
    let panels: HashMap<&str, (usize, usize)> = report
        .grids()
        .flat_map(|grid| {
            grid.panels.iter().enumerate().map(|(i, panel)| {
                let span = grid.spans.get(i).copied().unwrap_or(1);
                (panel.id.as_str(), (span, grid.columns))
            })
        })
        .collect();
    let mut drawings = ReportDrawings::default();
    for spec in report.charts() {
        let what = || format!("chart `{}` of report `{slug}`", spec.id);
        let draw = |size| {
            chart::to_svg(spec, size, &options).with_context(|| format!("cannot draw {}", what()))
        };
        let label = alt_text(spec);
        let inlined = chart::PAGE_DRAWINGS
            .iter()
            .map(|&(class, width)| {
                let svg = draw(chart::size_at(spec, width))?;
                let markup = inline::inline_svg(&svg, &label)
                    .with_context(|| format!("cannot put {} in its page", what()))?;
                Ok((class, markup))
            })
            .collect::<Result<Vec<_>>>()?;
        let markup = |wanted: &[(&str, u32)]| {
            let chosen: Vec<_> = inlined
                .iter()
                .filter(|(class, _)| wanted.iter().any(|(w, _)| w == class))
                .map(|(class, markup)| (*class, markup.as_str()))
                .collect();
            inline::by_width(&chosen)
        };
        let on_entry = chart::page_drawings(panels.get(spec.id.as_str()).copied());
        drawings.entry.0.insert(spec.id.clone(), markup(on_entry));
        drawings
            .embed
            .0
            .insert(spec.id.clone(), markup(&chart::PAGE_DRAWINGS));
    }
    Ok(drawings)
}

/// The value `benchdeck site` wrote at `path` (`crate::data_file`).
fn read_data_file<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T> {
    let bytes = std::fs::read(path).with_context(|| {
        format!(
            "cannot read `{}`; run `benchdeck site` first",
            path.display()
        )
    })?;
    crate::data_file::unpack(&bytes, path)
}

#[cfg(test)]
mod tests;
