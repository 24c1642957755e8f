//! How benchdeck scales, measured: the "Scale" section of `docs/PERFORMANCE.md`, written by
//! `cargo xtask bench` and printed alone by `cargo xtask scale --measure` (which puts it into
//! the file too with `--write`).
//!
//! - **Build**: the release site (`trunk build --release` with both hooks, as
//!   `cargo xtask build`) of the repository's own project and of synthetic projects of 3, ¼, ½
//!   and all of `--reports` reports (50, 100 and 200 by default), timed with cargo's cache warm,
//!   with seconds per report and per added report to show whether the time grows linearly.
//! - **Pages** (the child module `pages`): charts-ready (median of cold loads by
//!   `../shared/bench/page-load.cjs`), bytes and gzip bytes of the home page and of one report
//!   page, in the small and the large site; the report page is the same report in both, since
//!   the generator makes report 1 the same in every set. The tab's memory once the page is ready
//!   (`xtask/bench/memory.cjs`: JS heap, WebAssembly memory and DOM nodes after a garbage
//!   collection).
//! - Whether the pages themselves grow with the site: the mean size of an HTML page, small site
//!   and large (each page carries only its own head tags; the app fetches what it shows).

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use anyhow::{Context, Result};

use super::{generate, out_dir, write, Args};
use crate::run::{self, step};
use crate::tools::Toolbox;
use crate::trunk::{self, BuildOptions, Inputs, Profile, Variant};

mod built;
mod figures;
mod pages;

use built::{BuildTime, Site};
use figures::{mb, thousands, GOAL};
use pages::pages_section;

/// Reports in the small synthetic site: as many as the repository has.
const SMALL: usize = 3;

/// `cargo xtask scale --measure`: builds the repository's site and the synthetic ones, measures
/// them, prints the section and, with `--write`, puts it into `docs/PERFORMANCE.md`.
pub fn run(root: &Path, toolbox: &Toolbox, args: &Args) -> Result<()> {
    let text = section(root, toolbox, args, false)?;
    println!("{text}");
    if args.write {
        let path = root.join("docs").join("PERFORMANCE.md");
        let doc = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read `{}`", path.display()))?;
        std::fs::write(&path, replace_section(&doc, &text))
            .with_context(|| format!("cannot write `{}`", path.display()))?;
        step(&format!("wrote the Scale section into {}", path.display()));
    }
    Ok(())
}

/// Builds a site for the benchmarks' scripts, served at `/`, from `inputs` (the repository's
/// folders when `None`), and times it and its hooks (from trunk's log, kept in `dist`'s parent
/// folder as `trunk-<dist name>.log`). Its pages are the published ones, Content-Security-Policy
/// included: the benchmarks' scripts bypass the policy in the browser (Playwright's
/// `bypassCSP`) to evaluate their readiness conditions. With `bench_page`, the app also carries
/// the hidden drawing benchmark page (feature `bench`), which the published site does not.
pub fn build_for_bench(
    root: &Path,
    toolbox: &Toolbox,
    dist: &Path,
    inputs: Option<Inputs<'_>>,
    bench_page: bool,
) -> Result<BuildTime> {
    let parent = dist.parent().unwrap_or(root);
    std::fs::create_dir_all(parent)
        .with_context(|| format!("cannot create `{}`", parent.display()))?;
    let name = dist
        .file_name()
        .map_or_else(|| "site".to_string(), |n| n.to_string_lossy().into_owned());
    let log = parent.join(format!("trunk-{name}.log"));
    let started = Instant::now();
    trunk::build_variant(
        root,
        toolbox,
        &BuildOptions {
            dist,
            public_url: "/",
            site_url: None,
        },
        Variant {
            inputs,
            log: Some(&log),
            bench_page,
            template: None,
            profile: Profile::Release,
        },
    )?;
    let total = started.elapsed().as_secs_f64();
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    Ok(BuildTime {
        total,
        site: hook_seconds(&text, "site"),
        pages: hook_seconds(&text, "pages"),
    })
}

/// Seconds between trunk's `spawned hook … "<name>"]` line and the `finished hook` line after
/// it, from their timestamps (`2026-11-23T20:07:13.657892Z`).
fn hook_seconds(log: &str, name: &str) -> Option<f64> {
    let marker = format!("\"{name}\"]");
    let mut lines = log.lines();
    let start = lines.find(|l| l.contains("spawned hook") && l.contains(&marker))?;
    let end = lines.find(|l| l.contains("finished hook"))?;
    let (a, b) = (seconds_of_day(start)?, seconds_of_day(end)?);
    Some(if b >= a { b - a } else { b + 86_400.0 - a })
}

/// The time of day of a trunk log line, in seconds.
fn seconds_of_day(line: &str) -> Option<f64> {
    let stamp = line.split_whitespace().next()?;
    let time = stamp.split_once('T')?.1.trim_end_matches('Z');
    let mut parts = time.split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    Some(h.parse::<f64>().ok()? * 3600.0 + m.parse::<f64>().ok()? * 60.0 + s.parse::<f64>().ok()?)
}

/// Measures everything and returns the section's Markdown. Unless `warm` (a release build of
/// the app has just run), a first build warms cargo's cache so that no timed build compiles.
pub fn section(root: &Path, toolbox: &Toolbox, args: &Args, warm: bool) -> Result<String> {
    let out = out_dir(root, args.out.as_deref());
    let (largest, runs_per_report) = (args.reports, args.runs_per_report);
    let mut sizes: Vec<usize> = vec![SMALL.min(largest), largest / 4, largest / 2, largest];
    sizes.retain(|&n| n >= 1);
    sizes.sort_unstable();
    sizes.dedup();

    let repo_dir = out.join("repo-site");
    if !warm {
        step("scale: a first build of the repository's site, to warm cargo's cache (not timed)");
        build_for_bench(root, toolbox, &repo_dir, None, false)?;
    }
    step("scale: building the repository's site");
    let time = build_for_bench(root, toolbox, &repo_dir, None, false)?;
    let mut sites = vec![site_stats(
        "repository (`reports/`, `results/`)",
        &repo_dir,
        (
            count_files(&root.join("reports"), "md")?,
            repo_runs(&repo_dir)?,
        ),
        dir_stats(&root.join("results"))?,
        time,
    )?];
    let (synthetic, first_slug) = synthetic_sites(root, toolbox, &out, &sizes, runs_per_report)?;
    sites.extend(synthetic);

    let mut doc = String::new();
    introduction(&mut doc, largest, runs_per_report);
    build_table(&mut doc, &sites);

    let shared_bench = root.join("..").join("shared").join("bench");
    if shared_bench.join("page-load.cjs").is_file() {
        let small = sites
            .iter()
            .find(|s| s.name.starts_with("synthetic") && s.reports == SMALL.min(largest))
            .context("no small synthetic site was built")?;
        let large = sites.last().context("no site was built")?;
        pages_section(
            &mut doc,
            root,
            toolbox,
            &shared_bench,
            (&sites[0], small, large),
            &first_slug,
        )?;
    } else {
        step("scale: page loads skipped, ../shared/bench is absent");
        let _ = writeln!(
            doc,
            "Page loads skipped: `../shared/bench/page-load.cjs` was absent.\n"
        );
    }
    Ok(doc)
}

/// Builds, timed, a synthetic project of each size in `sizes` (reports) under `out`: each
/// site's figures, and the slug of the largest one's first report.
fn synthetic_sites(
    root: &Path,
    toolbox: &Toolbox,
    out: &Path,
    sizes: &[usize],
    runs_per_report: usize,
) -> Result<(Vec<Site>, String)> {
    let mut sites = Vec::new();
    let mut first_slug = String::new();
    for &n in sizes {
        let project = out.join(format!("{n}-reports"));
        let set = generate(n, runs_per_report);
        first_slug.clone_from(&set.slugs[0]);
        write(root, &project, &set)?;
        let dist = project.join("site");
        step(&format!(
            "scale: building the synthetic site of {n} reports ({} runs)",
            set.runs
        ));
        let time = build_for_bench(
            root,
            toolbox,
            &dist,
            Some(Inputs {
                reports: &project.join("reports"),
                results: &project.join("results"),
            }),
            false,
        )?;
        sites.push(site_stats(
            &format!("synthetic, {n} reports"),
            &dist,
            (n, set.runs),
            (set.results.len(), set.result_bytes() as u64),
            time,
        )?);
    }
    Ok((sites, first_slug))
}

/// The section's heading and the paragraph saying what was measured, where and how.
fn introduction(doc: &mut String, largest: usize, runs_per_report: usize) {
    let total_runs = largest * runs_per_report;
    let _ = writeln!(
        doc,
        "## Scale: {largest} synthetic reports, {} runs\n",
        thousands(total_runs as u64)
    );
    let _ = writeln!(
        doc,
        "Measured by `cargo xtask scale --measure` (also part of `cargo xtask bench`) on {} ({}). \
         The large sites are synthetic projects that `cargo xtask scale` writes deterministically \
         (`xtask/src/scale.rs`, labelled synthetic in every file): each report compares two to \
         five made-up configurations over one load sweep (request rate or concurrency, with a \
         queueing knee, failures past capacity and a few crashed points) in one of four formats \
         (`vllm bench serve` and SGLang JSON Lines, GuideLLM 0.7 JSON, tidy CSV), {runs_per_report} \
         runs per report, with a grid, line, percentile, scatter and head-to-head charts, a \
         summary table and inline values. Goals (issue 8): pages within {GOAL}x of their \
         small-site figures; build time growing linearly with the number of reports.\n",
        run::output(Command::new("date").arg("-u").arg("+%Y-%m-%d %H:%M UTC"))
            .unwrap_or_default()
            .trim(),
        crate::measuring::machine()
    );
}

fn build_table(doc: &mut String, sites: &[Site]) {
    let _ = writeln!(doc, "### Build\n");
    let _ = writeln!(
        doc,
        "The release build as `cargo xtask build` runs it (`trunk build --release`), cargo's \
         build cache warm, split by trunk's log into its hooks: `benchdeck site` (import, \
         reports, the data, every chart's SVG, the link-preview PNGs, the runs, the published result files), \
         `benchdeck pages` (an entry page per report and an embed page per chart), and the rest (trunk: the app and worker through wasm-bindgen and \
         wasm-opt, the copy into the dist folder). *Per report* is the two hooks' time over the \
         reports; *per added report* is the whole build's time added from the size above over \
         the reports added. Both stay flat when the build grows linearly.\n"
    );
    let _ = writeln!(
        doc,
        "| site | reports | runs | result files | build | `site` hook | `pages` hook | trunk, the rest | hooks per report | build per added report | files written | bytes written | of which HTML pages |"
    );
    let _ = writeln!(doc, "|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let secs = |v: Option<f64>| v.map_or_else(|| "–".to_string(), |v| format!("{v:.1} s"));
    let mut previous: Option<&Site> = None;
    for s in sites {
        let added = match previous {
            Some(p) if s.reports > p.reports => format!(
                "{:.2} s",
                (s.time.total - p.time.total) / (s.reports - p.reports) as f64
            ),
            _ => "–".to_string(),
        };
        let hooks = match (s.time.site, s.time.pages) {
            (Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
        let _ = writeln!(
            doc,
            "| {} | {} | {} | {} ({}) | {:.1} s | {} | {} | {} | {} | {added} | {} | {} | {} ({}) |",
            s.name,
            s.reports,
            thousands(s.runs as u64),
            thousands(s.result_files as u64),
            mb(s.result_bytes),
            s.time.total,
            secs(s.time.site),
            secs(s.time.pages),
            secs(hooks.map(|h| s.time.total - h)),
            hooks.map_or_else(
                || "–".to_string(),
                |h| format!("{:.2} s", h / s.reports.max(1) as f64)
            ),
            thousands(s.files as u64),
            mb(s.bytes),
            thousands(s.html_pages as u64),
            mb(s.html_bytes),
        );
        if s.name.starts_with("synthetic") {
            previous = Some(s);
        }
    }
    let _ = writeln!(doc);
    // The HTML written, from half the largest size to the largest.
    let synthetic: Vec<&Site> = sites
        .iter()
        .filter(|s| s.name.starts_with("synthetic"))
        .collect();
    if let (Some(large), Some(half)) = (
        synthetic.last(),
        synthetic
            .iter()
            .rev()
            .find(|s| s.reports * 2 == synthetic.last().map_or(0, |l| l.reports)),
    ) {
        let growth = large.html_bytes as f64 / half.html_bytes.max(1) as f64;
        let _ = write!(
            doc,
            "Twice the reports ({} to {}) write {growth:.1}x the HTML ({} to {}).",
            half.reports,
            large.reports,
            mb(half.html_bytes),
            mb(large.html_bytes)
        );
        if growth >= 2.5 {
            let _ = write!(
                doc,
                " That is faster than the reports grow: the pages themselves grew (below)."
            );
        } else {
            let _ = write!(
                doc,
                " That is linear: a page per report and per chart, each the same size whatever \
                 the size of the site."
            );
        }
        let _ = writeln!(doc, "\n");
    }
}

/// Counts and sizes a built site.
fn site_stats(
    name: &str,
    dir: &Path,
    (reports, runs): (usize, usize),
    (result_files, result_bytes): (usize, u64),
    time: BuildTime,
) -> Result<Site> {
    let mut site = Site {
        name: name.to_string(),
        dir: dir.to_path_buf(),
        reports,
        runs,
        result_files,
        result_bytes,
        time,
        files: 0,
        bytes: 0,
        html_bytes: 0,
        html_pages: 0,
    };
    walk(dir, &mut |path, len| {
        site.files += 1;
        site.bytes += len;
        if path.extension().is_some_and(|x| x == "html") {
            site.html_pages += 1;
            site.html_bytes += len;
        }
    })?;
    Ok(site)
}

/// Files and bytes below `dir`.
fn dir_stats(dir: &Path) -> Result<(usize, u64)> {
    let (mut files, mut bytes) = (0, 0);
    walk(dir, &mut |_, len| {
        files += 1;
        bytes += len;
    })?;
    Ok((files, bytes))
}

fn count_files(dir: &Path, ext: &str) -> Result<usize> {
    let mut n = 0;
    walk(dir, &mut |p, _| {
        if p.extension().is_some_and(|x| x == ext) {
            n += 1;
        }
    })?;
    Ok(n)
}

/// Calls `f` with every regular file below `dir` and its length.
fn walk(dir: &Path, f: &mut dyn FnMut(&Path, u64)) -> Result<()> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot list `{}`", dir.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot list `{}`", dir.display()))?;
        let path = entry.path();
        let meta = entry
            .metadata()
            .with_context(|| format!("cannot read `{}`", path.display()))?;
        if meta.is_dir() {
            walk(&path, f)?;
        } else if meta.is_file() {
            f(&path, meta.len());
        }
    }
    Ok(())
}

/// The runs of the repository's site: the sum over its reports of the runs each publishes
/// (`data/runs/<slug>.json`, an array of runs), as the home page counts them.
fn repo_runs(dist: &Path) -> Result<usize> {
    let dir = dist.join("data").join("runs");
    let mut runs = 0;
    for entry in
        std::fs::read_dir(&dir).with_context(|| format!("cannot read `{}`", dir.display()))?
    {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "json") {
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read `{}`", path.display()))?;
            let list: Vec<serde::de::IgnoredAny> =
                serde_json::from_str(&text).with_context(|| format!("`{}`", path.display()))?;
            runs += list.len();
        }
    }
    Ok(runs)
}

/// `doc` with its "## Scale" section replaced by `section` (up to the next `## ` heading), or
/// with `section` put before the criterion table (or at the end) when it has none.
pub fn replace_section(doc: &str, section: &str) -> String {
    replace_named_section(doc, "## Scale", section)
}

/// `doc` with the section whose heading starts with `heading` (`## Scale`) replaced by
/// `section` (up to the next `## ` heading), or with `section` put before the criterion table
/// (or at the end) when it has none.
pub fn replace_named_section(doc: &str, heading: &str, section: &str) -> String {
    let section = section.trim_end().to_string() + "\n\n";
    let next_heading = |from: usize| {
        doc[from..]
            .match_indices("\n## ")
            .next()
            .map_or(doc.len(), |(i, _)| from + i + 1)
    };
    if let Some(start) = doc.find(&format!("\n{heading}")).map(|i| i + 1) {
        let end = next_heading(start + 1);
        format!("{}{section}{}", &doc[..start], &doc[end..])
    } else if let Some(at) = doc.find("\n## Criterion").map(|i| i + 1) {
        format!("{}{section}{}", &doc[..at], &doc[at..])
    } else {
        format!("{}\n\n{section}", doc.trim_end())
    }
}

/// The section of `doc` under `heading` (up to the next `## ` heading), when it has one.
pub fn named_section(doc: &str, heading: &str) -> Option<String> {
    let start = doc.find(&format!("\n{heading}"))? + 1;
    let end = doc[start + 1..]
        .find("\n## ")
        .map_or(doc.len(), |i| start + 1 + i + 1);
    Some(doc[start..end].trim_end().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_named_section_is_found_up_to_the_next_heading() {
        let doc = "# P\n\n## Page\n\nx\n\n## Fresh\n\nkept\n\n## Criterion\n\nc\n";
        assert_eq!(
            named_section(doc, "## Fresh").as_deref(),
            Some("## Fresh\n\nkept")
        );
        assert_eq!(
            named_section(doc, "## Criterion").as_deref(),
            Some("## Criterion\n\nc")
        );
        assert_eq!(named_section(doc, "## Absent"), None);
    }

    #[test]
    fn the_section_is_replaced_or_put_before_the_criterion_table() {
        let doc = "# P\n\n## Page\n\nx\n\n## Criterion benchmarks\n\nc\n";
        let with = replace_section(doc, "## Scale: 1\n\nold\n");
        assert_eq!(
            with,
            "# P\n\n## Page\n\nx\n\n## Scale: 1\n\nold\n\n## Criterion benchmarks\n\nc\n"
        );
        let again = replace_section(&with, "## Scale: 2\n\nnew");
        assert_eq!(
            again,
            "# P\n\n## Page\n\nx\n\n## Scale: 2\n\nnew\n\n## Criterion benchmarks\n\nc\n"
        );
        assert_eq!(
            replace_section("# P\n", "## Scale\n"),
            "# P\n\n## Scale\n\n"
        );
    }

    #[test]
    fn hook_times_come_from_trunks_log() {
        let log = "\
2026-11-23T20:07:13.657127Z  INFO 📦 starting build
2026-11-23T20:07:13.657892Z  INFO spawned hook cargo command_arguments=[\"run\", \"--quiet\", \"--package\", \"benchdeck\", \"--\", \"site\"]
2026-11-23T20:07:13.657908Z  INFO spawning hook stage=PreBuild command=cargo
2026-11-23T20:07:15.422331Z  INFO finished hook cargo
2026-11-23T20:07:50.535526Z  INFO spawned hook cargo command_arguments=[\"run\", \"--quiet\", \"--package\", \"benchdeck\", \"--\", \"pages\"]
2026-11-23T23:59:59.000000Z  INFO spawning hook stage=PostBuild command=cargo
2026-11-24T00:00:01.500000Z  INFO finished hook cargo
";
        let site = hook_seconds(log, "site").unwrap();
        assert!((site - 1.764_439).abs() < 1e-6, "{site}");
        // Across midnight.
        let pages = hook_seconds(log, "pages").unwrap();
        assert!(
            (pages - (86_400.0 - 72_470.535_526 + 1.5)).abs() < 1e-6,
            "{pages}"
        );
        assert_eq!(hook_seconds(log, "other"), None);
        assert_eq!(hook_seconds("", "site"), None);
    }
}
