//! "Writing a report": how long a saved report takes to show in its open page under
//! `benchdeck serve`, for every report of the repository, against a whole `benchdeck build` of
//! the same project (what every save cost before `serve` rebuilt only what changed) measured in
//! the same run. The release `benchdeck`, carrying the app `cargo xtask dist` builds, serves a
//! copy of `reports/` and `results/`; `xtask/bench/reload.mjs` saves each report while its page
//! is open in Chromium and times each save until the page shows it.

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context, Result};

use super::charts::median;
use super::goal::met;
use crate::install::served;
use crate::run::{self, step};
use crate::tools::Toolbox;

/// The section's heading in `docs/PERFORMANCE.md`.
pub const HEADING: &str = "## Writing a report: from save to reloaded page";
/// Saves timed per report.
const SAVES: usize = 5;
/// The goal: a save shows in the open page within this.
const GOAL_MS: f64 = 1000.0;

/// What the browser script measured.
#[derive(serde::Deserialize)]
struct Saves {
    reports: Vec<Report>,
    errors: Vec<String>,
}

#[derive(serde::Deserialize)]
struct Report {
    slug: String,
    ms: Vec<f64>,
}

/// Measures and writes the section.
pub fn section(root: &Path, toolbox: &Toolbox) -> Result<String> {
    crate::bundle::build(root, toolbox)?;
    let benchdeck = super::large_files::build_benchdeck(root)?;
    let work = root.join("target").join("bench").join("reload");
    let project = work.join("project");
    copy_project(root, &project)?;
    step("a whole `benchdeck build` of the repository's reports (the reference)");
    let started = Instant::now();
    run::status(
        Command::new(&benchdeck)
            .args(["build", "--root"])
            .arg(&project)
            .arg("--out")
            .arg(work.join("whole")),
    )?;
    let whole_ms = started.elapsed().as_secs_f64() * 1000.0;
    let (saves, rebuilds) = saves(root, toolbox, &benchdeck, &project, &work)?;
    if let Some(error) = saves.errors.first() {
        bail!("a page reloaded by `serve` had an error: {error}");
    }
    Ok(write_section(&saves, &rebuilds, whole_ms))
}

/// `reports/` and `results/` copied afresh into `project`.
pub(super) fn copy_project(root: &Path, project: &Path) -> Result<()> {
    if project.exists() {
        std::fs::remove_dir_all(project)
            .with_context(|| format!("cannot remove `{}`", project.display()))?;
    }
    std::fs::create_dir_all(project)?;
    for folder in ["reports", "results"] {
        run::status(
            Command::new("cp")
                .arg("-R")
                .arg(root.join(folder))
                .arg(project.join(folder)),
        )?;
    }
    Ok(())
}

/// Serves `project` with `benchdeck serve` and runs the browser script on it: the saves, and
/// the rebuild times `serve` printed (ms).
fn saves(
    root: &Path,
    toolbox: &Toolbox,
    benchdeck: &Path,
    project: &Path,
    work: &Path,
) -> Result<(Saves, Vec<f64>)> {
    let port = served::free_port()?;
    let log_path = work.join("serve.log");
    let log = std::fs::File::create(&log_path)?;
    let mut server = Command::new(benchdeck)
        .env_remove(crate::bundle::APP_DIR_VAR)
        .args(["serve", "--root"])
        .arg(project)
        .args(["--port", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .context("cannot start `benchdeck serve`")?;
    let measured = served::wait_for(&mut server, port, "/").and_then(|_| {
        step(&format!(
            "saving each report {SAVES} times while its page is open"
        ));
        run::output(
            toolbox
                .command("node")
                .arg(root.join("xtask").join("bench").join("reload.mjs"))
                .arg(format!("http://127.0.0.1:{port}/"))
                .arg(project)
                .arg(SAVES.to_string()),
        )
    });
    let _ = server.kill();
    let _ = server.wait();
    let out = measured?;
    let line = out.lines().last().unwrap_or_default();
    let saves: Saves =
        serde_json::from_str(line).with_context(|| format!("reload.mjs printed `{line}`"))?;
    let log = std::fs::read_to_string(&log_path)?;
    Ok((saves, rebuild_times(&log)))
}

/// The times of `serve`'s rebuilds, from its lines "built in 0.15 s", in ms.
fn rebuild_times(log: &str) -> Vec<f64> {
    log.lines()
        .filter_map(|line| {
            line.split_once("built in ")?
                .1
                .split_once(" s")?
                .0
                .parse()
                .ok()
        })
        .map(|seconds: f64| seconds * 1000.0)
        .collect()
}

fn write_section(saves: &Saves, rebuilds: &[f64], whole_ms: f64) -> String {
    let mut doc = format!("{HEADING}\n\n");
    let all: Vec<f64> = saves.reports.iter().flat_map(|r| r.ms.clone()).collect();
    let worst = all.iter().copied().fold(0.0, f64::max);
    let _ = writeln!(
        doc,
        "Each of the repository's reports, opened in Chromium under the release `benchdeck \
         serve` and saved {SAVES} times with a new sentence at its end: the time from the write \
         to the open page showing the sentence (the server noticed the change within its 100 ms \
         poll, rebuilt that report, the page's reload script heard of it and loaded the page \
         again where the reader was). The reference is a whole `benchdeck build` of the same \
         project in the same run, which is what every save cost before `serve` rebuilt only \
         what changed (and made every chart's PNG; it now makes a PNG when one is asked for).\n"
    );
    let _ = writeln!(doc, "| report | median | slowest |\n|---|---:|---:|");
    for report in &saves.reports {
        let slowest = report.ms.iter().copied().fold(0.0, f64::max);
        let _ = writeln!(
            doc,
            "| {} | {:.0} ms | {slowest:.0} ms |",
            report.slug,
            median(report.ms.iter().copied())
        );
    }
    let typical = median(all.iter().copied());
    let _ = writeln!(
        doc,
        "\n| measure | value | goal | met |\n|---|---:|---|---|\n\
         | save to reloaded page, median of {} saves | {typical:.0} ms | | |\n\
         | save to reloaded page, slowest | {worst:.0} ms | at most {GOAL_MS:.0} ms | {} |\n\
         | `serve`'s rebuild, median of {} | {:.0} ms | | |\n\
         | whole `benchdeck build` (reference) | {whole_ms:.0} ms | | |\n\
         | whole build ÷ median save to reloaded page | {:.1}x | | |",
        all.len(),
        met(worst <= GOAL_MS),
        rebuilds.len(),
        median(rebuilds.iter().copied()),
        whole_ms / typical,
    );
    doc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rebuild_times_are_read_from_serves_lines() {
        let log = "benchdeck: a file changed; building again\nbenchdeck: built in 0.15 s; open \
                   pages reload\nerror: x\nbenchdeck: built in 1.20 s; open pages reload\n";
        assert_eq!(rebuild_times(log), [150.0, 1200.0]);
    }
}
