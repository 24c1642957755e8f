//! "Building a site": how long the release `benchdeck build` takes on the repository's site
//! from scratch, again with nothing changed, with one report changed, and on the 200-report
//! synthetic site (`cargo xtask scale`'s default set), beside a reference that tracks the
//! machine measured in the same run: `gzip -6` of a fixed 24 MB text file (the same bytes every
//! time). The goals are ratios to the reference, so they hold on a busy machine as on a quiet
//! one: the site from scratch no slower than the gzip, an unchanged rebuild within a fifth of
//! it, and the 200-report site within twenty times it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context, Result};

use super::charts::median;
use super::goal::met;
use crate::rng::Rng;
use crate::run::step;
use crate::tools::Toolbox;

/// The section's heading in `docs/PERFORMANCE.md`.
pub const HEADING: &str = "## Building a site";
/// Times each small build is measured.
const RUNS: usize = 5;
/// The reference file's size.
const REFERENCE_BYTES: usize = 24_000_000;

/// Measures and writes the section.
pub fn section(root: &Path, toolbox: &Toolbox) -> Result<String> {
    crate::bundle::build(root, toolbox)?;
    let benchdeck = super::large_files::build_benchdeck(root)?;
    let work = root.join("target").join("bench").join("build-speed");
    std::fs::create_dir_all(&work)?;
    let reference = reference_file(&work)?;
    let gzip = || timed(Command::new("gzip").args(["-6", "-c"]).arg(&reference));
    let project = work.join("project");
    super::reload::copy_project(root, &project)?;
    let build = Build {
        benchdeck: &benchdeck,
        root: &project,
        out: work.join("site"),
    };
    step("the repository's site: from scratch, unchanged, one report changed");
    let mut rows = Rows::default();
    for _ in 0..RUNS {
        rows.gzip.push(gzip()?);
        build.clear()?;
        rows.scratch.push(build.run()?);
        rows.unchanged.push(build.run()?);
        rows.one_changed.push(build.after_changing_a_report()?);
    }
    step("the 200-report synthetic site: from scratch, then unchanged");
    let scale = root.join("target").join("scale");
    crate::scale::generate_into(root, &crate::scale::Args::parse(&[])?)?;
    let big = Build {
        benchdeck: &benchdeck,
        root: &scale,
        out: work.join("scale-site"),
    };
    big.clear()?;
    rows.scale = big.run()?;
    rows.scale_unchanged = big.run()?;
    rows.gzip.push(gzip()?);
    Ok(rows.section())
}

/// One project's builds by the release benchdeck.
struct Build<'a> {
    benchdeck: &'a Path,
    root: &'a Path,
    out: PathBuf,
}

impl Build<'_> {
    /// Removes the built site and the build cache: the next build starts from scratch.
    fn clear(&self) -> Result<()> {
        for dir in [self.out.clone(), self.root.join(".benchdeck")] {
            if dir.exists() {
                std::fs::remove_dir_all(&dir)
                    .with_context(|| format!("cannot remove `{}`", dir.display()))?;
            }
        }
        Ok(())
    }

    /// One `benchdeck build`, in seconds.
    fn run(&self) -> Result<f64> {
        timed(
            Command::new(self.benchdeck)
                .args(["build", "--root"])
                .arg(self.root)
                .arg("--out")
                .arg(&self.out),
        )
    }

    /// A sentence added to the end of the project's first report, then one build, in seconds.
    fn after_changing_a_report(&self) -> Result<f64> {
        let reports = self.root.join("reports");
        let mut names: Vec<PathBuf> = std::fs::read_dir(&reports)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .collect();
        names.sort();
        let report = names.first().context("the project has no report")?;
        let mut text = std::fs::read_to_string(report)?;
        text.push_str("\nOne more sentence, for the build benchmark.\n");
        std::fs::write(report, text)?;
        self.run()
    }
}

/// The seconds `command` took; an error when it failed.
fn timed(command: &mut Command) -> Result<f64> {
    let started = Instant::now();
    let status = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .with_context(|| format!("cannot run {command:?}"))?;
    let seconds = started.elapsed().as_secs_f64();
    if !status.success() {
        bail!("{command:?} failed ({status})");
    }
    Ok(seconds)
}

/// The reference's input: 24 MB of deterministic text (words drawn from a fixed list), written
/// once.
fn reference_file(work: &Path) -> Result<PathBuf> {
    let path = work.join("reference-24mb.txt");
    if std::fs::metadata(&path).is_ok_and(|m| m.len() == REFERENCE_BYTES as u64) {
        return Ok(path);
    }
    const WORDS: [&str; 16] = [
        "latency",
        "throughput",
        "token",
        "request",
        "p99",
        "median",
        "prefill",
        "decode",
        "batch",
        "queue",
        "GPU",
        "vLLM",
        "SGLang",
        "0.25",
        "1024",
        "ms",
    ];
    let mut rng = Rng::new(0x2400_000b_17e5);
    let mut text = String::with_capacity(REFERENCE_BYTES + 16);
    while text.len() < REFERENCE_BYTES {
        text.push_str(WORDS[rng.below(WORDS.len())]);
        text.push(if rng.uniform() < 0.1 { '\n' } else { ' ' });
    }
    text.truncate(REFERENCE_BYTES);
    std::fs::write(&path, text).with_context(|| format!("cannot write `{}`", path.display()))?;
    Ok(path)
}

/// What was measured, in seconds.
#[derive(Default)]
struct Rows {
    gzip: Vec<f64>,
    scratch: Vec<f64>,
    unchanged: Vec<f64>,
    one_changed: Vec<f64>,
    scale: f64,
    scale_unchanged: f64,
}

impl Rows {
    fn section(&self) -> String {
        let gzip = median(self.gzip.iter().copied());
        let mut doc = format!("{HEADING}\n\n");
        let _ = writeln!(
            doc,
            "The release `benchdeck build` (every core of this machine), timed from start to \
             exit: the repository's site (6 reports, 80 result files, 83 charts) from scratch \
             (no `dist/`, no build cache), built again with nothing changed, and built again \
             after a sentence was added to one report, each the median of {RUNS}; then the \
             200-report synthetic site of `cargo xtask scale` (20,000 runs, 153 MB of result \
             files) once from scratch and once unchanged. The reference, measured in the same \
             run, is `gzip -6` of a fixed 24 MB text file (median of {}).\n",
            self.gzip.len()
        );
        let _ = writeln!(
            doc,
            "| build | time | ÷ gzip | goal | met |\n|---|---:|---:|---|---|"
        );
        let scratch = median(self.scratch.iter().copied());
        let unchanged = median(self.unchanged.iter().copied());
        let one = median(self.one_changed.iter().copied());
        let rows: [(&str, f64, Option<f64>); 5] = [
            ("the repository's site, from scratch", scratch, Some(1.0)),
            (
                "the repository's site, nothing changed",
                unchanged,
                Some(0.2),
            ),
            ("the repository's site, one report changed", one, None),
            ("the 200-report site, from scratch", self.scale, Some(20.0)),
            (
                "the 200-report site, nothing changed",
                self.scale_unchanged,
                None,
            ),
        ];
        for (name, seconds, goal) in rows {
            let ratio = seconds / gzip;
            let (goal, ok) = match goal {
                Some(g) => (format!("at most {g}x the gzip"), met(ratio <= g)),
                None => (String::new(), ""),
            };
            let _ = writeln!(
                doc,
                "| {name} | {seconds:.2} s | {ratio:.2}x | {goal} | {ok} |"
            );
        }
        let _ = writeln!(
            doc,
            "| `gzip -6` of 24 MB (reference) | {gzip:.2} s | 1.00x | | |"
        );
        doc
    }
}
