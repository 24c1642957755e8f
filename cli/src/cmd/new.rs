//! `benchdeck new report NAME [RESULT_PATH...]`: a report whose chart and table blocks are
//! already filled in from those result files (the sections an automatic page shows), ready to
//! edit. Refuses to overwrite a report, and says which paths hold nothing benchdeck reads.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use benchdeck_core::assemble::slug_of;
use benchdeck_core::import::import_all;
use benchdeck_core::model::Run;
use benchdeck_core::printable::printable;
use benchdeck_core::report::draft::starter_report;
use benchdeck_core::report::{build_report, glob_selects, literal_glob, Palette};

use crate::files;

/// Arguments of `new`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand)]
enum What {
    /// A report with charts and tables for result files, as `reports/NAME.md`.
    Report(ReportArgs),
}

#[derive(clap::Args)]
struct ReportArgs {
    /// The report's name: its file `reports/NAME.md` and its URL `/NAME/`.
    name: String,
    /// Result files or folders inside the results folder (all of it when none is given).
    paths: Vec<PathBuf>,
    /// Folder of Markdown reports.
    #[arg(long, default_value = "reports")]
    reports: PathBuf,
    /// Folder of result files.
    #[arg(long, default_value = "results")]
    results: PathBuf,
}

/// Runs `new`.
pub fn execute(args: &Args) -> Result<ExitCode> {
    let What::Report(args) = &args.what;
    let target = args.reports.join(format!("{}.md", args.name));
    check_name(&args.name)?;
    if target.exists() {
        bail!(
            "`{}` exists already; choose another name or delete it first",
            target.display()
        );
    }
    let globs = args
        .paths
        .iter()
        .map(|p| glob_for(&args.results, p))
        .collect::<Result<Vec<_>>>()?;
    let globs = if globs.is_empty() {
        vec!["**".to_string()]
    } else {
        globs
    };
    let read = files::read_inputs(&args.results, |_| true)?;
    for (path, why) in &read.skipped {
        eprintln!(
            "benchdeck: warning: {}",
            printable(&format!("{}/{path}: {why}", args.results.display()))
        );
    }
    let inputs: Vec<_> = read
        .files
        .into_iter()
        .filter(|f| globs.iter().any(|g| glob_selects(g, &f.path)))
        .collect();
    let imports = import_all(&inputs);
    let runs: Vec<&Run> = imports.iter().flat_map(|f| f.runs.iter()).collect();
    if runs.is_empty() {
        bail!(
            "no run in {} ({} file{} matched); `benchdeck inspect {}` says what each file holds",
            args.results.display(),
            imports.len(),
            benchdeck_core::format::plural(imports.len()),
            args.paths.first().unwrap_or(&args.results).display()
        );
    }
    let text = starter_report(&title_of(&args.name), &globs, &runs);
    let page = build_report(
        &target.display().to_string(),
        &slug_of(&args.name),
        &text,
        &imports,
        &Palette::new(),
    );
    std::fs::create_dir_all(&args.reports)
        .with_context(|| format!("cannot create `{}`", args.reports.display()))?;
    std::fs::write(&target, &text)
        .with_context(|| format!("cannot write `{}`", target.display()))?;
    eprintln!(
        "benchdeck: wrote {} ({} chart{} and its tables from {} run{} in {} file{}); edit it, then \
         build or serve the site",
        target.display(),
        page.charts().count(),
        benchdeck_core::format::plural(page.charts().count()),
        runs.len(),
        benchdeck_core::format::plural(runs.len()),
        imports.len(),
        benchdeck_core::format::plural(imports.len()),
    );
    Ok(ExitCode::SUCCESS)
}

/// A report name must make a URL: letters, digits, `-` and `_`.
fn check_name(name: &str) -> Result<()> {
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !plain {
        bail!("`{name}` cannot be a report's URL; expected letters, digits, `-` and `_` only");
    }
    Ok(())
}

/// `vllm-sweep` → `Vllm sweep`: a first title for the author to change.
fn title_of(name: &str) -> String {
    let words = name.replace(['-', '_'], " ");
    let mut chars = words.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The front matter glob for `path` (a file or folder inside `results`): its path relative to
/// `results`, every file below it for a folder, with glob characters matched literally.
fn glob_for(results: &Path, path: &Path) -> Result<String> {
    let root = results
        .canonicalize()
        .with_context(|| format!("cannot read the results folder `{}`", results.display()))?;
    let full = path
        .canonicalize()
        .or_else(|_| results.join(path).canonicalize())
        .with_context(|| format!("cannot read `{}`", path.display()))?;
    let Ok(relative) = full.strip_prefix(&root) else {
        bail!(
            "`{}` is not inside `{}`: a report can only use result files there (the site \
             publishes them); copy it there first",
            path.display(),
            results.display()
        );
    };
    let literal = literal_glob(
        &relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
    );
    Ok(if full.is_dir() {
        if literal.is_empty() {
            "**".to_string()
        } else {
            format!("{literal}/**")
        }
    } else {
        literal
    })
}

#[cfg(test)]
mod tests;
