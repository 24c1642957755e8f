//! Building the whole site from the contents of `reports/` and `results/` (no IO here: the CLI
//! reads the files and writes the output): the reports, then an automatic page for each folder
//! of result files that no report names ([`automatic`]).

mod automatic;

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::import::{import_all, ImportedFile};
use crate::input::InputFile;
use crate::model::Location;
use crate::problem::{Problem, Severity};
use crate::report::{build_report, Palette};
use crate::site::{ReportPage, SiteIndex, RESERVED_SLUGS};

/// The built site.
#[derive(Debug, Clone)]
pub struct BuiltSite {
    /// The home page.
    pub index: SiteIndex,
    /// One page per report, in index order.
    pub pages: Vec<ReportPage>,
    /// Every result file, imported (shared: `benchdeck serve` keeps them for its next build).
    pub imports: Arc<[ImportedFile]>,
    /// Problems with the site as a whole (duplicate slugs, unreadable reports).
    pub problems: Vec<Problem>,
}

impl BuiltSite {
    /// Every error that fails the build: the site's own, and each report's. The problems of
    /// files no report names are on their automatic page and among [`BuiltSite::warnings`].
    pub fn errors(&self) -> impl Iterator<Item = &Problem> {
        self.problems
            .iter()
            .chain(self.written_pages().flat_map(|p| p.problems.iter()))
            .filter(|p| p.severity == Severity::Error)
    }

    /// What the build should say without failing: the site's warnings, and every problem on an
    /// automatic page.
    pub fn warnings(&self) -> impl Iterator<Item = &Problem> {
        let automatic = self
            .pages
            .iter()
            .filter(|p| p.summary.automatic.is_some())
            .flat_map(|p| p.problems.iter());
        self.problems
            .iter()
            .filter(|p| p.severity != Severity::Error)
            .chain(automatic)
    }

    fn written_pages(&self) -> impl Iterator<Item = &ReportPage> {
        self.pages.iter().filter(|p| p.summary.automatic.is_none())
    }
}

/// Builds the site. `reports` are Markdown files (`*.md`), `results` are result files.
pub fn build_site(reports: &[InputFile], results: &[InputFile]) -> BuiltSite {
    build_site_from(reports, import_all(results).into(), |_| None)
}

/// Builds the site from result files already imported. `earlier` gives the page an earlier
/// build made of the same report file (path and bytes) over the same `imports`, when it kept
/// one: that page is used as it is instead of being built again (`benchdeck serve` rebuilds only
/// the reports that changed). The site's own checks (URLs, automatic pages, order) run every time.
pub fn build_site_from(
    reports: &[InputFile],
    imports: Arc<[ImportedFile]>,
    earlier: impl Fn(&InputFile) -> Option<ReportPage>,
) -> BuiltSite {
    let palette = palette(&imports);
    let mut problems = Vec::new();
    let mut pages: Vec<ReportPage> = Vec::new();
    let mut slugs = BTreeSet::new();
    for report in reports {
        let file = format!("reports/{}", report.path);
        let slug = slug_of(&report.path);
        if !is_valid_slug(&slug) {
            problems.push(Problem::error(
                &file,
                Location::File,
                format!(
                    "report file name `{slug}` cannot be a URL; expected letters, digits, `-` and `_` only"
                ),
            ));
            continue;
        }
        if RESERVED_SLUGS.contains(&slug.as_str()) {
            problems.push(Problem::error(
                &file,
                Location::File,
                format!(
                    "the URL `/{slug}/` is the site's own (`{}` are reserved); rename the report file",
                    RESERVED_SLUGS.join("`, `")
                ),
            ));
            continue;
        }
        if !slugs.insert(slug.clone()) {
            problems.push(Problem::error(
                &file,
                Location::File,
                format!("another report already has the URL `/{slug}/`; rename one of them"),
            ));
            continue;
        }
        let text = match std::str::from_utf8(&report.bytes) {
            Ok(t) => t,
            Err(e) => {
                problems.push(Problem::error(
                    &file,
                    Location::File,
                    format!(
                        "expected UTF-8 text, found an invalid byte at offset {}",
                        e.valid_up_to()
                    ),
                ));
                continue;
            }
        };
        let page = earlier(report)
            .filter(|page| page.summary.slug == slug)
            .unwrap_or_else(|| build_report(&file, &slug, text, &imports, &palette));
        pages.push(page);
    }
    let automatic =
        automatic::automatic_pages(&imports, &pages, &palette, &mut slugs, &mut problems);
    pages.extend(automatic);
    // Written reports newest first, undated ones after them, then by title; automatic pages last.
    pages.sort_by(|a, b| {
        a.summary
            .automatic
            .is_some()
            .cmp(&b.summary.automatic.is_some())
            .then_with(|| b.summary.date.cmp(&a.summary.date))
            .then_with(|| a.summary.title.cmp(&b.summary.title))
    });
    let index = SiteIndex {
        reports: pages.iter().map(|p| p.summary.clone()).collect(),
    };
    BuiltSite {
        index,
        pages,
        imports,
        problems,
    }
}

/// Every configuration key in the results gets a palette slot, in sorted order, so a
/// configuration has the same colour on every page.
fn palette(imports: &[ImportedFile]) -> Palette {
    let keys: BTreeSet<String> = imports
        .iter()
        .flat_map(|f| f.runs.iter().map(|r| r.config.key()))
        .collect();
    keys.into_iter().enumerate().map(|(i, k)| (k, i)).collect()
}

/// `vllm-vs-sglang.md` → `vllm-vs-sglang`; reports in sub-folders keep only their stem.
pub fn slug_of(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.strip_suffix(".md").unwrap_or(name).to_string()
}

fn is_valid_slug(slug: &str) -> bool {
    !slug.is_empty()
        && slug
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(path: &str) -> InputFile {
        InputFile {
            path: path.into(),
            bytes: b"---\ntitle: T\ndate: 2026-01-01\n---\nText.\n".to_vec(),
        }
    }

    fn problems_of(paths: &[&str]) -> Vec<String> {
        let reports: Vec<InputFile> = paths.iter().map(|p| report(p)).collect();
        build_site(&reports, &[])
            .problems
            .iter()
            .map(|p| p.to_string())
            .collect()
    }

    #[test]
    fn report_urls_must_be_plain_free_and_not_the_sites_own() {
        assert_eq!(problems_of(&["a.md", "b_2-c.md"]), Vec::<String>::new());
        let bad = problems_of(&["has space.md"]);
        assert!(bad[0].contains("reports/has space.md") && bad[0].contains("letters, digits"));
        for reserved in [
            "data.md",
            "charts.md",
            "embed.md",
            "results.md",
            "local.md",
            "_bench.md",
        ] {
            let problems = problems_of(&[reserved]);
            assert_eq!(problems.len(), 1, "{reserved}: {problems:?}");
            assert!(problems[0].contains("reserved"), "{}", problems[0]);
        }
        let twice = problems_of(&["x.md", "sub/x.md"]);
        assert!(twice[0].contains("reports/sub/x.md") && twice[0].contains("already has the URL"));
    }
}
