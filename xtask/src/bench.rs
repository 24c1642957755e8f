//! `cargo xtask bench`: the page-load comparison against seed 002's Plotly page
//! ([`page_loads`](mod@page_loads)), the 100k-point scatter drawn by benchdeck and by uPlot in
//! the browser ([`charts`]), and the criterion benchmarks, measured in one run on this machine,
//! written to `docs/PERFORMANCE.md`.
//!
//! The page-load script and the Plotly reference page come from `../shared/bench` (material for
//! the team, not part of the product); without it the page-load comparison is skipped.
//!
//! The "Scale" section comes from [`crate::scale::measure`]: synthetic sites of up to 200
//! reports against the repository's, built and loaded in the same run. The "Large files"
//! section ([`large_files`]) times `benchdeck inspect` on 740 MB result files against Python's
//! `json.load`; `--only large-files` runs it alone.

mod build_speed;
mod charts;
mod criterion;
mod goal;
mod large_files;
mod page_loads;
mod reload;
mod wasm_contents;

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::measuring::machine;
use crate::run::{self, step};
use crate::scale;
use crate::tools::Toolbox;
use criterion::{criterion, criterion_table, noise_section};
use page_loads::page_loads;

/// The sections of `docs/PERFORMANCE.md` measured by hand, not by the bench (each says how), by
/// the beginning of their heading: kept as they are when the bench writes the file again.
const HAND_MEASURED: &[&str] = &[
    "## A fresh machine's `cargo xtask test`",
    "## Taking over a page",
    "## The report's first paint, taken apart",
    "## The interactive page, byte by byte",
];

/// Runs everything and writes the report.
pub fn all(root: &Path, toolbox: &Toolbox) -> Result<()> {
    let shared_bench = root.join("..").join("shared").join("bench");
    let mut doc = String::new();
    let _ = writeln!(doc, "# Performance\n");
    let _ = writeln!(
        doc,
        "Written by `cargo xtask bench` on {} ({}). Times on shared machines are noisy: compare \
         the ratios, which are measured in the same run.\n",
        run::output(Command::new("date").arg("-u").arg("+%Y-%m-%d %H:%M UTC"))
            .unwrap_or_default()
            .trim(),
        machine()
    );
    let work = root.join("target").join("bench");
    let site_dir = work.join("site");
    // The published site for the page loads; the drawing benchmark needs the app's hidden page
    // (feature `bench`), a second build.
    scale::measure::build_for_bench(root, toolbox, &site_dir, None, false)?;
    if shared_bench.join("page-load.cjs").is_file() {
        page_loads(root, toolbox, &shared_bench, &site_dir, &mut doc)?;
    } else {
        step("page-load comparison skipped: ../shared/bench is absent");
        let _ = writeln!(
            doc,
            "Page-load comparison skipped: `../shared/bench` was absent.\n"
        );
    }
    let scatter_dir = work.join("scatter-site");
    scale::measure::build_for_bench(root, toolbox, &scatter_dir, None, true)?;
    let chart_runs = charts::measure(root, toolbox, &scatter_dir, &work)?;
    let scale_section = scale::measure::section(
        root,
        toolbox,
        &scale::Args {
            reports: scale::DEFAULT_REPORTS,
            runs_per_report: scale::DEFAULT_RUNS_PER_REPORT,
            out: None,
            measure: true,
            write: false,
        },
        true,
    )?;
    let large = large_files::section(root)?;
    let reloads = reload::section(root, toolbox)?;
    let builds = build_speed::section(root, toolbox)?;
    let wasm = wasm_contents::section(root, toolbox)?;
    let benches = criterion(root)?;
    charts::section(&mut doc, &benches, &chart_runs);
    let _ = writeln!(doc, "{}\n", scale_section.trim_end());
    let _ = writeln!(doc, "{}\n", large.trim_end());
    let _ = writeln!(doc, "{}\n", reloads.trim_end());
    let _ = writeln!(doc, "{}\n", builds.trim_end());
    let _ = writeln!(doc, "{}\n", wasm.trim_end());
    noise_section(&mut doc, &benches);
    let path = root.join("docs").join("PERFORMANCE.md");
    let before = std::fs::read_to_string(&path).unwrap_or_default();
    keep_hand_measured(&before, &mut doc);
    criterion_table(&mut doc, &benches);
    std::fs::create_dir_all(root.join("docs"))?;
    std::fs::write(&path, doc).with_context(|| format!("cannot write `{}`", path.display()))?;
    step(&format!("wrote {}", path.display()));
    crate::wasm_budget::check(&site_dir)?;
    Ok(())
}

/// `cargo xtask bench --only page-loads`: the published site built for the bench and the
/// "Page load against seed 002's Plotly page" section alone (with what each page costs beyond an
/// empty one, and the app wasm's size), measured and put into `docs/PERFORMANCE.md` in place of
/// the one there; fails, after writing, when the app's wasm is over its budget.
pub fn page_loads_only(root: &Path, toolbox: &Toolbox) -> Result<()> {
    let shared_bench = root.join("../shared/bench");
    if !shared_bench.join("page-load.cjs").is_file() {
        bail!("../shared/bench/page-load.cjs is absent: the page loads cannot be measured");
    }
    let site_dir = root.join("target").join("bench").join("site");
    scale::measure::build_for_bench(root, toolbox, &site_dir, None, false)?;
    let mut section = String::new();
    page_loads(root, toolbox, &shared_bench, &site_dir, &mut section)?;
    println!("{section}");
    let path = root.join("docs").join("PERFORMANCE.md");
    let doc = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read `{}`", path.display()))?;
    let doc = scale::measure::replace_named_section(
        &doc,
        "## Page load against seed 002's Plotly page",
        &section,
    );
    std::fs::write(&path, doc).with_context(|| format!("cannot write `{}`", path.display()))?;
    step(&format!(
        "wrote the page-load section into {}",
        path.display()
    ));
    crate::wasm_budget::check(&site_dir)?;
    Ok(())
}

/// `cargo xtask bench --only large-files`: the "Large files" section alone, measured and put
/// into `docs/PERFORMANCE.md` in place of the one there.
pub fn large_files_only(root: &Path) -> Result<()> {
    let section = large_files::section(root)?;
    println!("{section}");
    let path = root.join("docs").join("PERFORMANCE.md");
    let doc = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read `{}`", path.display()))?;
    let doc = scale::measure::replace_named_section(&doc, large_files::HEADING, &section);
    std::fs::write(&path, doc).with_context(|| format!("cannot write `{}`", path.display()))?;
    step(&format!(
        "wrote the Large files section into {}",
        path.display()
    ));
    Ok(())
}

/// `cargo xtask bench --only reload|build-speed|wasm-contents`: the "Writing a report" section
/// ([`reload`]), the "Building a site" one ([`build_speed`]) or the "What the app's wasm holds"
/// one ([`wasm_contents`]) alone, measured and put into `docs/PERFORMANCE.md` in place of the
/// one there.
pub fn section_only(root: &Path, toolbox: &Toolbox, name: &str) -> Result<()> {
    let (heading, section) = match name {
        "reload" => (reload::HEADING, reload::section(root, toolbox)?),
        "build-speed" => (build_speed::HEADING, build_speed::section(root, toolbox)?),
        _ => (
            wasm_contents::HEADING,
            wasm_contents::section(root, toolbox)?,
        ),
    };
    println!("{section}");
    let path = root.join("docs").join("PERFORMANCE.md");
    let doc = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read `{}`", path.display()))?;
    let doc = scale::measure::replace_named_section(&doc, heading, &section);
    std::fs::write(&path, doc).with_context(|| format!("cannot write `{}`", path.display()))?;
    step(&format!("wrote `{heading}` into {}", path.display()));
    Ok(())
}

/// Adds to `doc` the sections of `before` that were measured by hand ([`HAND_MEASURED`]), in
/// their order: a fresh machine's test run cannot be timed on a machine that has the tools, and
/// the hand-made variants of a page are not the bench's.
fn keep_hand_measured(before: &str, doc: &mut String) {
    for heading in HAND_MEASURED {
        if let Some(section) = scale::measure::named_section(before, heading) {
            let _ = writeln!(doc, "{section}\n");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sections_measured_by_hand_are_kept_and_the_benchs_are_not() {
        let before = "# Performance\n\n## Page load\n\nold\n\n\
            ## A fresh machine's `cargo xtask test`\n\nfresh\n\n\
            ## Taking over a page: rendering again\n\ntakeover\n\n\
            ## The report's first paint, taken apart\n\nvariants\n\n\
            ## Criterion benchmarks\n\nc\n";
        let mut doc = String::new();
        keep_hand_measured(before, &mut doc);
        assert_eq!(
            doc,
            "## A fresh machine's `cargo xtask test`\n\nfresh\n\n\
             ## Taking over a page: rendering again\n\ntakeover\n\n\
             ## The report's first paint, taken apart\n\nvariants\n\n"
        );
    }
}
