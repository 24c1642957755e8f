//! `cargo xtask scale`: a synthetic project of many reports and runs (200 reports of 100 runs by
//! default, 20,000 runs), written deterministically to its own folder (`target/scale/` by
//! default, never the repository's `reports/` or `results/`), to measure how the build and the
//! pages scale ([`measure`], `--measure`).
//!
//! Each report compares two to five made-up serving configurations over one load sweep (request
//! rate or concurrency) in one of four result formats, mixed across reports: `vllm bench serve`
//! JSON Lines, SGLang `bench_serving` JSON Lines, a GuideLLM 0.7 `benchmarks.json` per
//! configuration, or one benchdeck tidy CSV ([`formats`]). Latencies follow a queueing knee: flat
//! at light load, rising steeply as the load nears the configuration's capacity, and past it
//! requests time out; a few sweeps end in a point where every request failed. Every report says
//! it is synthetic (its title and a note in its body) and so does every result file (a
//! `synthetic` field, a label, or a comment line).
//!
//! Every report is drawn from its own generator seeded by its number, so the first reports of a
//! small set are the same as those of a large one: a page can be compared between a 3-report
//! and a 200-report site.
//!
//! The made-up engines, models and datasets are in `model`, a report's plan and its simulated
//! runs in `plan`, its Markdown in `markdown` and its result files in `formats`; the generated
//! project is a `set`, and `numbers` writes the numbers and dates they hold.

pub(crate) mod formats;
mod markdown;
pub mod measure;
mod model;
mod numbers;
mod plan;
mod set;

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::run::step;
use markdown::report_markdown;
use plan::Plan;

pub use set::{GeneratedFile, Set};

/// Reports in the default set.
pub const DEFAULT_REPORTS: usize = 200;
/// Runs per report in the default set.
pub const DEFAULT_RUNS_PER_REPORT: usize = 100;

/// The file that marks a folder as this generator's: only such a folder is ever cleared.
const MARKER: &str = "README.md";
const MARKER_TEXT: &str = "# Synthetic benchdeck project\n\nWritten by `cargo xtask scale`: every \
report and result file below is synthetic, generated deterministically to measure how benchdeck \
scales. It measures nothing real. This folder is rewritten by the next `cargo xtask scale`.\n";

/// `cargo xtask scale [--reports N] [--runs-per-report M] [--out DIR] [--measure [--write]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Args {
    /// Reports to generate (the largest site with `--measure`).
    pub reports: usize,
    /// Runs in each report.
    pub runs_per_report: usize,
    /// The folder to write, relative to the workspace root unless absolute.
    pub out: Option<PathBuf>,
    /// Build sites of several sizes and measure them.
    pub measure: bool,
    /// With `--measure`: also put the section into `docs/PERFORMANCE.md`.
    pub write: bool,
}

impl Args {
    /// Parses the command's arguments.
    pub fn parse(args: &[String]) -> Result<Args> {
        let mut parsed = Args {
            reports: DEFAULT_REPORTS,
            runs_per_report: DEFAULT_RUNS_PER_REPORT,
            out: None,
            measure: false,
            write: false,
        };
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            let (name, inline) = match arg.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (arg.as_str(), None),
            };
            let mut value = |what: &str| -> Result<String> {
                inline
                    .clone()
                    .or_else(|| iter.next().cloned())
                    .with_context(|| format!("`{name}` needs {what}"))
            };
            match name {
                "--reports" => parsed.reports = count(name, &value("a number of reports")?)?,
                "--runs-per-report" => {
                    parsed.runs_per_report = count(name, &value("a number of runs")?)?;
                }
                "--out" => parsed.out = Some(PathBuf::from(value("a folder")?)),
                "--measure" if inline.is_none() => parsed.measure = true,
                "--write" if inline.is_none() => parsed.write = true,
                _ => bail!("unexpected argument `{arg}`; see `cargo xtask help`"),
            }
        }
        if parsed.write && !parsed.measure {
            bail!("`--write` goes with `--measure`: it writes what was measured");
        }
        if parsed.runs_per_report < 2 {
            bail!(
                "`--runs-per-report` must be at least 2: each report compares two configurations"
            );
        }
        Ok(parsed)
    }
}

fn count(name: &str, text: &str) -> Result<usize> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => bail!("`{name} {text}`: expected a whole number of at least 1"),
    }
}

/// Runs `cargo xtask scale` without `--measure`: writes the set and says how big it is.
pub fn generate_into(root: &Path, args: &Args) -> Result<()> {
    let out = out_dir(root, args.out.as_deref());
    let set = generate(args.reports, args.runs_per_report);
    write(root, &out, &set)?;
    step(&format!(
        "wrote {} synthetic reports and {} result files ({} runs, {} bytes) to {}",
        set.reports.len(),
        set.results.len(),
        set.runs,
        set.result_bytes(),
        out.display()
    ));
    step(&format!(
        "build it with `cargo xtask scale --measure`, or by hand: BENCHDECK_REPORTS={} \
         BENCHDECK_RESULTS={} trunk build --release",
        out.join("reports").display(),
        out.join("results").display()
    ));
    Ok(())
}

/// The output folder: `--out` (relative to the workspace root), or `target/scale`.
pub fn out_dir(root: &Path, out: Option<&Path>) -> PathBuf {
    match out {
        Some(p) if p.is_absolute() => p.to_path_buf(),
        Some(p) => root.join(p),
        None => root.join("target").join("scale"),
    }
}

/// Generates `reports` reports of `runs_per_report` runs each (at least two per report).
pub fn generate(reports: usize, runs_per_report: usize) -> Set {
    let mut set = Set {
        reports: Vec::new(),
        results: Vec::new(),
        runs: 0,
        slugs: Vec::new(),
    };
    for index in 1..=reports {
        let plan = Plan::new(index, runs_per_report.max(2));
        set.runs += plan.configs.iter().map(|c| c.points.len()).sum::<usize>();
        set.results.extend(formats::files(&plan));
        set.reports.push(GeneratedFile {
            path: format!("{}.md", plan.slug),
            text: report_markdown(&plan),
        });
        set.slugs.push(plan.slug);
    }
    set
}

/// Writes `set` to `out/reports` and `out/results`, replacing what an earlier run wrote there.
/// Refuses a folder that holds anything but this generator's output, and the repository's own
/// `reports/` and `results/`.
pub fn write(root: &Path, out: &Path, set: &Set) -> Result<()> {
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same(out, root)
        || out.starts_with(root.join("reports"))
        || out.starts_with(root.join("results"))
    {
        bail!(
            "`{}` is the repository's own project; the synthetic set goes to a folder of its \
             own, such as target/scale",
            out.display()
        );
    }
    if out.exists() {
        let marker = out.join(MARKER);
        let ours = std::fs::read_to_string(&marker).is_ok_and(|t| t == MARKER_TEXT);
        let empty = std::fs::read_dir(out)
            .with_context(|| format!("cannot list `{}`", out.display()))?
            .next()
            .is_none();
        if !ours && !empty {
            bail!(
                "`{}` exists and was not written by `cargo xtask scale` (no {MARKER} of ours); \
                 choose another `--out`",
                out.display()
            );
        }
        for sub in ["reports", "results"] {
            let dir = out.join(sub);
            if dir.exists() {
                std::fs::remove_dir_all(&dir)
                    .with_context(|| format!("cannot clear `{}`", dir.display()))?;
            }
        }
    }
    std::fs::create_dir_all(out).with_context(|| format!("cannot create `{}`", out.display()))?;
    std::fs::write(out.join(MARKER), MARKER_TEXT)
        .with_context(|| format!("cannot write `{}`", out.join(MARKER).display()))?;
    for (sub, files) in [("reports", &set.reports), ("results", &set.results)] {
        for file in files {
            let path = out.join(sub).join(&file.path);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create `{}`", dir.display()))?;
            }
            std::fs::write(&path, &file.text)
                .with_context(|| format!("cannot write `{}`", path.display()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use benchdeck_core::assemble::build_site;
    use benchdeck_core::input::InputFile;

    fn inputs(files: &[GeneratedFile]) -> Vec<InputFile> {
        files
            .iter()
            .map(|f| InputFile {
                path: f.path.clone(),
                bytes: f.text.as_bytes().to_vec(),
            })
            .collect()
    }

    #[test]
    fn the_generator_is_deterministic_and_a_small_set_is_a_prefix_of_a_large_one() {
        let (a, b) = (generate(3, 40), generate(3, 40));
        assert_eq!(a, b);
        let larger = generate(5, 40);
        assert_eq!(a.reports[..], larger.reports[..3]);
        assert_eq!(a.runs, 3 * 40);
        assert_eq!(larger.runs, 5 * 40);
    }

    #[test]
    fn every_file_says_it_is_synthetic() {
        let set = generate(8, 20);
        for f in set.reports.iter().chain(&set.results) {
            assert!(f.text.to_lowercase().contains("synthetic"), "{}", f.path);
        }
        for f in &set.reports {
            assert!(f.text.contains("title: \"Synthetic"), "{}", f.path);
        }
    }

    #[test]
    fn a_small_set_imports_and_builds_without_errors() {
        let set = generate(2, 100);
        let site = build_site(&inputs(&set.reports), &inputs(&set.results));
        let errors: Vec<String> = site.errors().map(|p| p.to_string()).collect();
        assert!(errors.is_empty(), "{errors:#?}");
        let problems: Vec<String> = site
            .imports
            .iter()
            .flat_map(|f| {
                f.problems
                    .iter()
                    .chain(f.runs.iter().flat_map(|r| &r.problems))
            })
            .filter(|p| p.severity == benchdeck_core::problem::Severity::Error)
            .map(|p| p.to_string())
            .collect();
        assert!(problems.is_empty(), "{problems:#?}");
        let runs: usize = site.imports.iter().map(|f| f.runs.len()).sum();
        assert_eq!(runs, 200);
        assert_eq!(site.pages.len(), 2);
        for page in &site.pages {
            assert_eq!(page.summary.runs, 100, "{}", page.summary.slug);
            assert!(page.summary.charts >= 5, "{}", page.summary.slug);
        }
    }

    #[test]
    fn every_format_imports_without_errors() {
        // Enough reports to hold each of the four formats and both sweeps.
        let n = 20;
        let set = generate(n, 24);
        let plans: Vec<Plan> = (1..=n).map(|i| Plan::new(i, 24)).collect();
        let formats: std::collections::BTreeSet<usize> =
            plans.iter().map(|p| p.format as usize).collect();
        assert_eq!(
            formats.len(),
            4,
            "the first reports should use every format"
        );
        assert!(plans.iter().any(|p| p.sweep.is_rate()));
        assert!(plans.iter().any(|p| !p.sweep.is_rate()));
        let site = build_site(&inputs(&set.reports), &inputs(&set.results));
        let errors: Vec<String> = site.errors().map(|p| p.to_string()).collect();
        assert!(errors.is_empty(), "{errors:#?}");
        assert_eq!(
            site.imports.iter().map(|f| f.runs.len()).sum::<usize>(),
            n * 24
        );
    }

    #[test]
    fn arguments() {
        let args = |s: &[&str]| Args::parse(&s.iter().map(|a| a.to_string()).collect::<Vec<_>>());
        let parsed = args(&["--reports", "5", "--runs-per-report=10", "--out", "x"]).unwrap();
        assert_eq!((parsed.reports, parsed.runs_per_report), (5, 10));
        assert_eq!(parsed.out.as_deref(), Some(Path::new("x")));
        assert!(args(&["--measure", "--write"]).unwrap().write);
        assert!(args(&["--write"]).is_err());
        assert!(args(&["--reports", "0"]).is_err());
        assert!(args(&["--reports"]).is_err());
        assert!(args(&["--nope"]).is_err());
    }

    #[test]
    fn the_repository_folders_are_refused() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let set = generate(1, 2);
        assert!(write(root, root, &set).is_err());
        assert!(write(root, &root.join("results"), &set).is_err());
        assert!(write(root, &root.join("reports").join("x"), &set).is_err());
    }
}
