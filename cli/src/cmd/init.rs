//! `benchdeck init [DIR]`: a new project folder: `results/` for result files, `reports/` with a
//! first report to edit, a `.gitignore` for the built site and a GitHub Actions workflow that
//! publishes the site to GitHub Pages, installing this benchdeck's version (its wheel from PyPI,
//! else `cargo install`). Files that exist already are kept, never overwritten.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};

/// Arguments of `init`.
#[derive(clap::Args)]
pub struct Args {
    /// The project folder (made if missing).
    #[arg(default_value = ".")]
    dir: PathBuf,
}

/// The starter report: valid with no result file, and says what to do next.
const ABOUT: &str = include_str!("init/about.md");

/// The Pages workflow: installs benchdeck (a wheel, else compiled and cached) at
/// [`VERSION_PLACEHOLDER`] and publishes `dist/`.
const WORKFLOW: &str = include_str!("init/pages.yml");

/// Where the workflow names the benchdeck version it installs: this one's.
const VERSION_PLACEHOLDER: &str = "@BENCHDECK_VERSION@";

const GITIGNORE: &str = "# The site benchdeck builds, and its build cache.\n/dist/\n/.benchdeck/\n";

/// Runs `init`.
pub fn execute(args: &Args) -> Result<ExitCode> {
    let dir = &args.dir;
    for folder in ["results", "reports", ".github/workflows"] {
        let path = dir.join(folder);
        std::fs::create_dir_all(&path)
            .with_context(|| format!("cannot create `{}`", path.display()))?;
    }
    let workflow = workflow();
    let files = [
        ("reports/about.md", ABOUT),
        (".gitignore", GITIGNORE),
        (".github/workflows/pages.yml", workflow.as_str()),
    ];
    for (relative, text) in files {
        write_new(dir, relative, text)?;
    }
    eprintln!(
        "benchdeck: a project in {dir}. Put result files in {dir}/results/ (any folder layout), \
         then `benchdeck serve --root {dir}` to see the site; each folder of results gets a page \
         of its own until a report names its files.",
        dir = dir.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The Pages workflow, installing this benchdeck's version.
fn workflow() -> String {
    WORKFLOW.replace(VERSION_PLACEHOLDER, env!("CARGO_PKG_VERSION"))
}

/// Writes `text` to `dir/relative` unless that file exists.
fn write_new(dir: &Path, relative: &str, text: &str) -> Result<()> {
    let path = dir.join(relative);
    if path.exists() {
        eprintln!("benchdeck: kept the existing {}", path.display());
        return Ok(());
    }
    std::fs::write(&path, text).with_context(|| format!("cannot write `{}`", path.display()))?;
    eprintln!("benchdeck: wrote {}", path.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_project_builds_without_errors_and_nothing_is_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("bench");
        execute(&Args { dir: root.clone() }).unwrap();
        for file in [
            "reports/about.md",
            ".gitignore",
            ".github/workflows/pages.yml",
        ] {
            assert!(root.join(file).is_file(), "{file}");
        }
        assert!(root.join("results").is_dir());
        let ignored = std::fs::read_to_string(root.join(".gitignore")).unwrap();
        assert!(ignored.contains("/dist/\n") && ignored.contains("/.benchdeck/\n"));
        let workflow = std::fs::read_to_string(root.join(".github/workflows/pages.yml")).unwrap();
        assert!(
            workflow.contains("path: .benchdeck/cache"),
            "the build cache is kept"
        );
        let reports = crate::files::read_inputs(&root.join("reports"), |_| true)
            .unwrap()
            .files;
        let site = benchdeck_core::assemble::build_site(&reports, &[]);
        assert_eq!(
            site.errors().count(),
            0,
            "{:?}",
            site.errors().collect::<Vec<_>>()
        );
        assert_eq!(site.pages[0].summary.title, "About these benchmarks");

        std::fs::write(root.join("reports/about.md"), "mine").unwrap();
        execute(&Args { dir: root.clone() }).unwrap();
        assert_eq!(
            std::fs::read_to_string(root.join("reports/about.md")).unwrap(),
            "mine"
        );
    }

    #[test]
    fn the_workflow_installs_this_benchdeck_and_runs_the_build_a_test_runs() {
        assert!(WORKFLOW.contains("\"benchdeck-cli==$BENCHDECK_VERSION\""));
        assert!(
            WORKFLOW.contains("cargo install benchdeck --version \"$BENCHDECK_VERSION\" --locked")
        );
        assert!(WORKFLOW.contains("benchdeck build --site-url"));
        assert!(WORKFLOW.contains("actions/deploy-pages"));
        let dir = tempfile::tempdir().unwrap();
        execute(&Args {
            dir: dir.path().to_path_buf(),
        })
        .unwrap();
        let written =
            std::fs::read_to_string(dir.path().join(".github/workflows/pages.yml")).unwrap();
        assert!(!written.contains(VERSION_PLACEHOLDER));
        let pinned = format!("BENCHDECK_VERSION: \"{}\"", env!("CARGO_PKG_VERSION"));
        assert!(written.contains(&pinned), "{pinned}");
    }
}
