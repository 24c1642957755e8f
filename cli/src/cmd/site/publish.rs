//! Which files of `results/` the site publishes under `results/`, and why each other one is not.
//!
//! A file is published when a page uses it and it gave runs (or its data was joined into a
//! sibling's run), its extension is one the site serves as data ([`SERVED_EXTENSIONS`]: never
//! `.html` or `.svg`, which a browser would run as a page of the site's origin), and it holds no
//! secret ([`secrets`]) unless `--publish-secrets` says to publish it anyway. Pages link only to
//! published files: the others leave their download lists and their trend points' links.

use std::collections::{BTreeMap, BTreeSet};

use benchdeck_core::format::plural;
use benchdeck_core::import::{is_readme, ImportedFile};
use benchdeck_core::input::InputFile;
use benchdeck_core::site::{result_file_href, ReportPage};

use super::secrets;

/// The extensions of the files published under `results/`: data and text, served as such.
pub const SERVED_EXTENSIONS: [&str; 9] = [
    "json", "jsonl", "csv", "yaml", "yml", "txt", "log", "md", "prom",
];

/// Why a file of `results/` is not published.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Withheld {
    /// It gave no run and no sibling took its data.
    NoRun,
    /// No page uses it.
    Unused,
    /// Its extension is not one of [`SERVED_EXTENSIONS`].
    NotServed,
    /// It holds what looks like a secret.
    Secret(secrets::Secret),
    /// It was not read (too large, a link that loops or leads nowhere).
    NotRead(String),
    /// Its path is not plain: a `:` or `\\` that another system reads as a drive or a separator.
    NotPlain,
}

impl Withheld {
    /// The reason in a few words, after a count of files, for the summary line.
    fn short(&self) -> &'static str {
        match self {
            Withheld::NoRun => "gave no run",
            Withheld::Unused => "used by no page",
            Withheld::NotServed => "of a type the site does not serve",
            Withheld::Secret(_) => "with what looks like a secret",
            Withheld::NotRead(_) => "not read",
            Withheld::NotPlain => "named with `:` or `\\`",
        }
    }

    /// Why, in a sentence, after the file's name (and line).
    fn explain(&self) -> String {
        match self {
            Withheld::NoRun => "gave no run (not a result file benchdeck reads; `benchdeck \
                                inspect` says why)"
                .to_string(),
            Withheld::Unused => "used by no page".to_string(),
            Withheld::NotServed => format!(
                "not a type the site serves as data (only .{})",
                SERVED_EXTENSIONS.join(", .")
            ),
            Withheld::Secret(secret) => format!(
                "holds what looks like {}; not published (remove it, or build with \
                 --publish-secrets to publish the file anyway)",
                secret.what
            ),
            Withheld::NotRead(why) => why.clone(),
            Withheld::NotPlain => {
                "its path holds `:` or `\\`, which Windows and many servers read \
                                   as a drive or a separator; rename it to publish it"
                    .to_string()
            }
        }
    }
}

/// What the site publishes of `results/`.
#[derive(Debug, Default)]
pub struct Publication {
    /// The files published, relative to `results/`.
    pub published: BTreeSet<String>,
    /// The others, with why.
    pub withheld: BTreeMap<String, Withheld>,
}

/// Decides for every file of `results` (and those not read, `unread`: path and why) whether it
/// is published: see the module documentation.
pub fn plan(
    pages: &[ReportPage],
    imports: &[ImportedFile],
    results: &[InputFile],
    unread: &[(String, String)],
    publish_secrets: bool,
) -> Publication {
    let used: BTreeSet<&str> = pages
        .iter()
        .flat_map(|p| p.sources.iter().map(String::as_str))
        .collect();
    let gave_data: BTreeSet<&str> = imports
        .iter()
        .filter(|f| !f.runs.is_empty() || f.joined_into.is_some())
        .map(|f| f.file.as_str())
        .collect();
    let mut publication = Publication::default();
    for input in results {
        let path = input.path.as_str();
        if is_readme(path) && !gave_data.contains(path) {
            // Documentation beside the results, which the importers left out.
            continue;
        }
        let withheld = if !gave_data.contains(path) {
            Some(Withheld::NoRun)
        } else if !used.contains(path) {
            Some(Withheld::Unused)
        } else if !is_served(path) {
            Some(Withheld::NotServed)
        } else if !is_plain_relative(path) {
            Some(Withheld::NotPlain)
        } else if publish_secrets {
            None
        } else {
            secrets::first_secret(&input.bytes).map(Withheld::Secret)
        };
        match withheld {
            Some(why) => {
                publication.withheld.insert(input.path.clone(), why);
            }
            None => {
                publication.published.insert(input.path.clone());
            }
        }
    }
    for (path, why) in unread {
        publication
            .withheld
            .insert(path.clone(), Withheld::NotRead(why.clone()));
    }
    publication
}

/// True for `a/b.json`: `/`-separated, relative, every segment a real name (not empty, `.` or
/// `..`, no `\` or `:` that another OS would read as a separator or drive).
pub fn is_plain_relative(path: &str) -> bool {
    !path.is_empty()
        && path.split('/').all(|segment| {
            !segment.is_empty()
                && segment != "."
                && segment != ".."
                && !segment.contains(['\\', ':', '\0'])
        })
}

/// True for a path whose extension the site serves as data.
fn is_served(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && SERVED_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str())
    })
}

impl Publication {
    /// `pages` linking only to published files: the others leave each page's sources (its
    /// download list) and its trend points' links.
    pub fn strip_links(&self, pages: &mut [ReportPage]) {
        let withheld_links: BTreeSet<String> =
            self.withheld.keys().map(|f| result_file_href(f)).collect();
        for page in pages {
            page.sources.retain(|s| self.published.contains(s));
            for point in page
                .charts_mut()
                .flat_map(|c| c.series.iter_mut())
                .flat_map(|s| s.points.iter_mut())
            {
                if withheld_links.contains(&point.link) {
                    point.link.clear();
                }
            }
        }
    }

    /// The build's account of the files not published: a first line saying how many and why,
    /// then one line each (`results/<path>[:line]: why`). Empty when every file is published.
    pub fn report(&self) -> Vec<String> {
        if self.withheld.is_empty() {
            return Vec::new();
        }
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for why in self.withheld.values() {
            *counts.entry(why.short()).or_default() += 1;
        }
        let reasons: Vec<String> = counts.iter().map(|(why, n)| format!("{n} {why}")).collect();
        let n = self.withheld.len();
        let mut lines = vec![format!(
            "benchdeck: {n} file{} in results/ not published ({}); only result files that gave \
             runs are:",
            plural(n),
            reasons.join(", ")
        )];
        for (path, why) in &self.withheld {
            let line = match why {
                Withheld::Secret(secret) => format!(":{}", secret.line),
                _ => String::new(),
            };
            lines.push(format!("  results/{path}{line}: {}", why.explain()));
        }
        lines
    }
}

#[cfg(test)]
mod tests;
