//! `benchdeck inspect PATH... [--json]`: what the importers understood, and every problem.
//! `benchdeck inspect --suggest-mapping FILE`: a first draft of a mapping file for a result
//! file no importer knows (`benchdeck_core::import::suggest_mapping`).
//!
//! Exit status: 0 when every file imported (problems may still be listed), 1 when any file
//! failed to import. The `--json` form is documented in the README and kept stable: its
//! `"format"` field changes if its shape ever does.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use benchdeck_core::format;
use benchdeck_core::import::{import_all, ImportedFile};
use benchdeck_core::input::InputFile;
use benchdeck_core::model::{differences, Metric, Run, Stat};
use benchdeck_core::printable::printable;
use serde::Serialize;

use crate::files;

/// Arguments of `inspect`.
#[derive(clap::Args)]
pub struct Args {
    /// Result files or folders (searched recursively).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Print machine-readable JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Print a first draft of a mapping file (benchdeck-mapping.yaml) for the one result file
    /// given, from the keys it holds.
    #[arg(long, conflicts_with = "json")]
    suggest_mapping: bool,
}

/// `inspect --suggest-mapping FILE`: the draft on standard output; 2 when `paths` is not one
/// readable file whose keys can be read.
fn suggest(paths: &[PathBuf]) -> Result<ExitCode> {
    let [path] = paths else {
        anyhow::bail!(
            "--suggest-mapping takes one result file, found {}",
            paths.len()
        );
    };
    if path.is_dir() {
        anyhow::bail!(
            "`{}` is a folder; --suggest-mapping takes one result file",
            path.display()
        );
    }
    let bytes = match files::read_within_limit(path)? {
        Ok(bytes) => bytes,
        Err(why) => anyhow::bail!("`{}` was not read: {why}", path.display()),
    };
    let text = String::from_utf8_lossy(&bytes);
    match benchdeck_core::import::suggest_mapping(&path.display().to_string(), &text) {
        Ok(draft) => {
            print!("{draft}");
            Ok(ExitCode::SUCCESS)
        }
        Err(why) => {
            eprintln!("benchdeck: {}: no keys to map: {why}", path.display());
            Ok(ExitCode::from(2))
        }
    }
}

/// The JSON document `inspect --json` prints.
#[derive(Serialize)]
struct Report<'a> {
    /// Version of this document's shape.
    format: &'static str,
    /// One entry per file, in path order.
    files: &'a [ImportedFile],
    /// The files and links not read (over the size limit, a loop, leading nowhere), with why.
    unread: Vec<Unread<'a>>,
    /// Counts over all files.
    totals: Totals,
    /// How the workloads of different configurations measured at one load point differ.
    workload_differences: Vec<differences::Difference>,
}

/// A file or link `inspect` did not read.
#[derive(Serialize)]
struct Unread<'a> {
    path: &'a str,
    reason: &'a str,
}

#[derive(Serialize)]
struct Totals {
    files: usize,
    failed_files: usize,
    runs: usize,
    errors: usize,
    warnings: usize,
}

/// Runs `inspect`.
pub fn execute(args: &Args) -> Result<ExitCode> {
    if args.suggest_mapping {
        return suggest(&args.paths);
    }
    let mut inputs = Vec::new();
    // Files not read (over the size limit, links that loop or lead nowhere), with why.
    let mut unread: Vec<(String, String)> = Vec::new();
    for root in &args.paths {
        let base = if root.is_dir() {
            root.clone()
        } else {
            root.parent().map(PathBuf::from).unwrap_or_default()
        };
        let listing = files::list(root)?;
        for skipped in listing.skipped {
            unread.push((display_path(&base, &skipped.path, root), skipped.reason));
        }
        for path in listing.files {
            let shown = display_path(&base, &path, root);
            match files::read_within_limit(&path)? {
                Ok(bytes) => inputs.push(InputFile { path: shown, bytes }),
                Err(reason) => unread.push((shown, reason)),
            }
        }
    }
    for (path, why) in &unread {
        eprintln!("benchdeck: {}: {why}", printable(path));
    }
    // Files that belong together (in one folder) are joined, as in the site.
    let imported = import_all(&inputs);
    let totals = totals(&imported);
    let failed = totals.failed_files > 0 || !unread.is_empty();
    let runs: Vec<&Run> = imported.iter().flat_map(|f| &f.runs).collect();
    let differing = differences::between_configurations(&runs);
    if args.json {
        let doc = Report {
            format: "benchdeck-inspect/1",
            files: &imported,
            unread: unread
                .iter()
                .map(|(path, reason)| Unread { path, reason })
                .collect(),
            totals,
            workload_differences: differing,
        };
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        print!("{}", text(&imported, &totals));
        if let Some(note) = differences::note(&differing) {
            println!(
                "Configurations measured at one load point differ in workload. {}",
                printable(&note)
            );
        }
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The path as the user would write it: the root they gave, joined with the file's place in it.
fn display_path(base: &std::path::Path, path: &std::path::Path, root: &std::path::Path) -> String {
    if root.is_dir() {
        let rel = files::relative(base, path);
        let root = root.to_string_lossy();
        format!("{}/{rel}", root.trim_end_matches('/'))
    } else {
        root.to_string_lossy().into_owned()
    }
}

fn totals(files: &[ImportedFile]) -> Totals {
    use benchdeck_core::problem::Severity;
    let problems: Vec<_> = files.iter().flat_map(|f| f.all_problems()).collect();
    Totals {
        files: files.len(),
        failed_files: files.iter().filter(|f| f.failed()).count(),
        runs: files.iter().map(|f| f.runs.len()).sum(),
        errors: problems
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .count(),
        warnings: problems
            .iter()
            .filter(|p| p.severity == Severity::Warning)
            .count(),
    }
}

fn text(files: &[ImportedFile], totals: &Totals) -> String {
    let mut out = String::new();
    for file in files {
        let producer = file.producer.map_or("not recognised", |p| p.display_name());
        line(
            &mut out,
            format_args!(
                "{}: {producer}, {} run{}{}",
                file.file,
                file.runs.len(),
                if file.runs.len() == 1 { "" } else { "s" },
                if file.failed() { " (FAILED)" } else { "" }
            ),
        );
        for sibling in &file.joined {
            line(
                &mut out,
                format_args!("  joined with {sibling} (its data are in these runs)"),
            );
        }
        if let Some(into) = &file.joined_into {
            line(
                &mut out,
                format_args!("  joined into {into}: its data are in that file's run"),
            );
        }
        let mut keys: Vec<String> = Vec::new();
        for run in &file.runs {
            let key = run.config.key();
            if !keys.contains(&key) {
                keys.push(key.clone());
                let c = &run.config;
                let mut identity = Vec::new();
                for (name, value) in [
                    ("model", &c.model),
                    ("engine", &c.engine),
                    ("label", &c.label),
                    ("hardware", &c.hardware),
                    ("dataset", &c.dataset),
                ] {
                    if let Some(v) = value {
                        identity.push(format!("{name} {v}"));
                    }
                }
                identity.extend(c.settings.iter().map(|(name, v)| format!("{name} {v}")));
                if identity.is_empty() {
                    line(&mut out, format_args!("  configuration `{key}`"));
                } else {
                    line(
                        &mut out,
                        format_args!("  configuration `{key}`: {}", identity.join(", ")),
                    );
                }
            }
            line(&mut out, format_args!("    {}", run_line(run)));
            if let Some(engine) = &run.engine {
                for (label, value) in engine.figures(run.tokens.total_output) {
                    line(&mut out, format_args!("      {label}: {value}"));
                }
            }
        }
        for problem in file.all_problems() {
            line(&mut out, format_args!("  {problem}"));
        }
    }
    line(
        &mut out,
        format_args!(
            "{} file{}, {} failed; {} runs; {} errors, {} warnings",
            totals.files,
            if totals.files == 1 { "" } else { "s" },
            totals.failed_files,
            totals.runs,
            totals.errors,
            totals.warnings
        ),
    );
    out
}

/// Appends `text` and a newline to `out`, with what the input put in it escaped ([`printable`]):
/// a model name or a message cannot start a line of its own.
fn line(out: &mut String, text: std::fmt::Arguments) {
    out.push_str(&printable(&text.to_string()));
    out.push('\n');
}

/// One line per run: load, place, request outcomes, headline metrics with units, its date.
fn run_line(run: &Run) -> String {
    let mut parts = vec![format!("{:<18}", run.load.target.to_string())];
    // Where in the file, when the file holds more than one place (a line, an entry).
    let place = run.provenance.location.to_string();
    let place = place.trim_start_matches(':');
    if !place.is_empty() {
        parts.push(format!("[{place}]"));
    }
    let r = &run.requests;
    match (
        r.succeeded,
        r.total.or_else(|| r.succeeded?.checked_add(r.failed?)),
    ) {
        (Some(ok), Some(total)) => parts.push(format!("{ok}/{total} ok")),
        (Some(ok), None) => parts.push(format!("{ok} ok")),
        _ => {}
    }
    if run.all_failed() {
        parts.push("ALL FAILED".to_string());
    }
    for m in &run.latency {
        if m.metric == Metric::Itl && run.latency(Metric::Tpot).is_some() {
            continue;
        }
        let d = &m.distribution;
        let mut stats = Vec::new();
        for stat in [Stat::Mean, Stat::Median, Stat::P(99.0)] {
            if let Some(v) = d.get(stat).filter(|_| !run.all_failed()) {
                stats.push(format!("{stat} {}", format::number(v)));
            }
        }
        if !stats.is_empty() {
            parts.push(format!("{} {} ms", m.metric.id(), stats.join(" / ")));
        }
    }
    if let Some(v) = run.throughput.output_tok_s {
        parts.push(format!("{} tok/s", format::number(v)));
    }
    if let Some(s) = &run.samples {
        parts.push(format!("{} samples", s.len()));
    }
    if let Some(date) = &run.provenance.date {
        parts.push(format!("run {date}"));
    }
    parts.join("  ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use benchdeck_core::model::{
        ConfigIdentity, LoadPoint, LoadTarget, Location, Producer, Provenance,
    };

    fn run_at(location: Location) -> Run {
        Run::new(
            Provenance::new("x.jsonl", location, Producer::Aiperf),
            ConfigIdentity::default(),
            LoadPoint::new(LoadTarget::MaxThroughput),
        )
    }

    #[test]
    fn a_run_that_is_the_whole_file_shows_no_empty_place() {
        let line = run_line(&run_at(Location::File));
        assert!(!line.contains("[]"), "{line}");
        let line = run_line(&run_at(Location::line(3)));
        assert!(line.contains("[3]"), "{line}");
    }
}
