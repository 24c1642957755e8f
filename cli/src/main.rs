//! `benchdeck`: start a project, build and serve its site, inspect result files, start a report
//! from them; and the two trunk hooks of the developers' build (`site`, `pages`).
//!
//! Each subcommand lives in `cmd/<name>.rs` with its arguments and an `execute` function; this
//! file only parses the command line and prints errors with their causes.

mod bundle;
mod cmd;
mod data_file;
mod files;
mod key;
mod results;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// benchdeck: LLM-serving benchmark results to a static report site.
#[derive(Parser)]
#[command(name = "benchdeck", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Start a project folder: results/, reports/ with a first report, .gitignore and a GitHub
    /// Pages workflow.
    Init(cmd::init::Args),
    /// Build the site of a project folder into dist/ (the web app is inside this binary).
    Build(cmd::build::Args),
    /// Build, serve at http://127.0.0.1:8080/ and build again when reports/ or results/ change.
    Serve(cmd::serve::Args),
    /// Show what the importers understood of result files, and every problem.
    Inspect(cmd::inspect::Args),
    /// Compare new results with a baseline: each metric better, worse or no clear difference,
    /// as text, Markdown (for a pull request) or JSON; `--fail-on worse` for CI.
    Compare(cmd::compare::Args),
    /// When did a metric change, and what changed? Change points, outliers and the newest
    /// night against the current level, over dated runs (nightly folders).
    History(cmd::history::Args),
    /// The trunk hook before benchdeck's own developers' build: the site's data (the index and
    /// report pages the app reads, the charts, the published runs and result files) from
    /// reports/ and results/. Hidden: `build` does all of it.
    #[command(hide = true)]
    Site(cmd::site::Args),
    /// The trunk hook after that build: one entry page per report (deep links, link previews),
    /// the embed pages and 404.html. Hidden: `build` does all of it.
    #[command(hide = true)]
    Pages(cmd::pages::Args),
    /// Start something new: `new report NAME [RESULT_PATH...]` writes a report with the charts
    /// and tables for those result files, ready to edit.
    New(cmd::new::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Init(args) => cmd::init::execute(&args),
        Command::Build(args) => cmd::build::execute(&args),
        Command::Serve(args) => cmd::serve::execute(&args),
        Command::Inspect(args) => cmd::inspect::execute(&args),
        Command::Compare(args) => cmd::compare::execute(&args),
        Command::History(args) => cmd::history::execute(&args),
        Command::Site(args) => cmd::site::execute(&args),
        Command::Pages(args) => cmd::pages::execute(&args),
        Command::New(args) => cmd::new::execute(&args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            // Messages quote paths and values from the input: escaped, as every line printed.
            eprintln!(
                "error: {}",
                benchdeck_core::printable::printable(&format!("{err:#}"))
            );
            ExitCode::from(2)
        }
    }
}
