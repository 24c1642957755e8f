//! A mapping file: how to read result files that no importer knows, in ten lines of YAML beside
//! them, named `benchdeck-mapping.yaml` (or `.yml`).
//!
//! ```yaml
//! files: "*.json"               # the files of this folder it reads (`*` and `?` wildcards)
//! runs: results                 # JSON: where the array of runs is (omit: each file is one run)
//! map:                          # the mappings of "Your own CSV", one line per entry
//!   - load=rate:config.request_rate, config=model, config.engine="my-engine"
//!   - ttft.p50=metrics.ttft.p50 (s), ttft.p99=metrics.ttft.p99 (s)
//!   - output_tok_s=metrics.output_throughput, succeeded=metrics.completed
//! ```
//!
//! A JSON file's runs (the file itself, the array at `runs`, or the file when it is an array)
//! and each object of a JSON Lines file are flattened to columns named by their paths
//! (`metrics.ttft.p50`, `per_gpu[0].tok_s`); a CSV's columns are its header's cells. The map then
//! reads them exactly as a tidy CSV's `# benchdeck:` lines read their columns
//! ([`super::tidy_csv`]): the same targets, units and checks. A claimed file is read by the
//! mapping, never sniffed (the user said what it is). A mistake in the mapping file is an error
//! at its line and column naming the key; a mapping file that claims no file is a warning.

mod flat;
pub(super) mod suggest;

use serde_json::Value;

use super::table::{self, Row};
use super::tidy_csv::{items, read_table, Item, MappedBy, Table};
use super::ImportedFile;
use crate::input::InputFile;
use crate::model::{Location, Producer};
use crate::problem::Problem;
use flat::{flatten, lookup};

pub use suggest::suggest_mapping;

/// The names a mapping file goes by.
pub const MAPPING_FILE_NAMES: [&str; 2] = ["benchdeck-mapping.yaml", "benchdeck-mapping.yml"];

/// The keys a mapping file may have.
const KEYS: [&str; 3] = ["files", "runs", "map"];

/// True when `path` names a mapping file.
pub fn is_mapping_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    MAPPING_FILE_NAMES.contains(&name)
}

/// A mapping file as read.
struct Mapping<'a> {
    /// Its path, and its folder's (with a trailing `/`, or empty at the top).
    path: &'a str,
    folder: &'a str,
    /// The file names it claims.
    files: String,
    /// A JSON file's path to its array of runs.
    runs: Option<String>,
    /// The map's items, with their places in the mapping file.
    items: Vec<Item<'a>>,
}

/// Reads every mapping file among `files` and, for each file one claims, puts what the mapping
/// reads of it in place of its import; each mapping file's own import holds its problems.
pub(super) fn apply(files: &[InputFile], imports: &mut [ImportedFile]) {
    for (m, input) in files.iter().enumerate() {
        if !is_mapping_file(&input.path) {
            continue;
        }
        let mut own = ImportedFile::new(&input.path, Some(Producer::Mapped));
        let text = String::from_utf8_lossy(&input.bytes);
        let Some(mapping) = read(&input.path, &text, &mut own.problems) else {
            imports[m] = own;
            continue;
        };
        let mut claimed = Vec::new();
        for (i, file) in files.iter().enumerate() {
            if i != m && mapping.claims(&file.path) {
                let mut mapped = mapping.import(file);
                mapped.joined.push(input.path.clone());
                imports[i] = mapped;
                claimed.push(file.path.clone());
            }
        }
        match claimed.first() {
            Some(first) => own.joined_into = Some(first.clone()),
            None => own.problems.push(Problem::warning(
                &input.path,
                Location::File,
                format!(
                    "`files: {}` matches no file in {}; expected the names of the result files \
                     beside it",
                    mapping.files,
                    if mapping.folder.is_empty() {
                        "results/"
                    } else {
                        mapping.folder
                    }
                ),
            )),
        }
        imports[m] = own;
    }
}

/// The mapping file `path` holding `text`, or `None` with the errors that stop it.
fn read<'a>(path: &'a str, text: &'a str, problems: &mut Vec<Problem>) -> Option<Mapping<'a>> {
    let value = match crate::yaml::parse(text, crate::yaml::Schema::Core) {
        Ok(value) => value,
        Err(e) => {
            problems.push(Problem::error(path, e.location, e.message));
            return None;
        }
    };
    let Value::Object(object) = value else {
        problems.push(Problem::error(
            path,
            Location::File,
            "expected a mapping file with `files`, `map` and optionally `runs` (see the README's \
             \"A mapping file\")",
        ));
        return None;
    };
    for key in object.keys().filter(|k| !KEYS.contains(&k.as_str())) {
        problems.push(Problem::error(
            path,
            key_location(text, key),
            format!("unknown key `{key}`; expected `files`, `runs` or `map`"),
        ));
    }
    let text_of = |key: &str, problems: &mut Vec<Problem>| match object.get(key) {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
        None => None,
        Some(other) => {
            problems.push(Problem::error(
                path,
                key_location(text, key),
                format!("`{key}`: expected text, found `{other}`"),
            ));
            None
        }
    };
    let runs = text_of("runs", problems);
    let Some(files) = text_of("files", problems) else {
        problems.push(Problem::error(
            path,
            key_location(text, "files"),
            "expected `files:` naming the result files it reads, such as `files: \"*.json\"`",
        ));
        return None;
    };
    let items = map_items(path, text, object.get("map"), problems)?;
    let folder = path.rfind('/').map_or("", |i| &path[..=i]);
    Some(Mapping {
        path,
        folder,
        files,
        runs,
        items,
    })
}

/// The items of the `map:` list, each entry read on its own line of `text` so that a mistake is
/// placed at its line and column; `None` (with an error) when there is no list of text entries.
fn map_items<'a>(
    path: &str,
    text: &'a str,
    map: Option<&Value>,
    problems: &mut Vec<Problem>,
) -> Option<Vec<Item<'a>>> {
    let entries: Option<Vec<&str>> = match map {
        Some(Value::Array(list)) if !list.is_empty() => list.iter().map(Value::as_str).collect(),
        _ => None,
    };
    let Some(entries) = entries else {
        problems.push(Problem::error(
            path,
            key_location(text, "map"),
            "`map`: expected a list of mapping lines, such as `- load=rate:request_rate, \
             ttft.p50=ttft_p50 (ms)` (see the README's \"Your own CSV\" for the targets)",
        ));
        return None;
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut from = 0;
    let mut found = Vec::new();
    for entry in entries {
        // The entry's line: the first after the last one whose list item holds it.
        let at =
            (from..lines.len()).find(|&i| list_entry(lines[i]).is_some_and(|(_, e)| e == entry));
        let Some(i) = at else {
            problems.push(Problem::error(
                path,
                key_location(text, "map"),
                format!("`{entry}`: expected each entry of `map` on one line of its own"),
            ));
            return None;
        };
        let (offset, body) = list_entry(lines[i]).unwrap_or((0, ""));
        found.extend(items(
            &lines[i][..offset + body.len()],
            offset,
            i as u64 + 1,
        ));
        from = i + 1;
    }
    Some(found)
}

/// A line `  - entry` (the entry unquoted when quoted), with the entry's byte offset.
fn list_entry(line: &str) -> Option<(usize, &str)> {
    let rest = line.trim_start().strip_prefix("- ")?;
    let offset = line.len() - rest.len();
    let entry = rest.trim_end();
    let lead = entry.len() - entry.trim_start().len();
    let entry = entry.trim_start();
    for quote in ['"', '\''] {
        if let Some(inner) = entry
            .strip_prefix(quote)
            .and_then(|e| e.strip_suffix(quote))
        {
            return Some((offset + lead + 1, inner));
        }
    }
    Some((offset + lead, entry))
}

/// The line of top-level `key:` in `text`, or the whole file.
fn key_location(text: &str, key: &str) -> Location {
    text.lines()
        .position(|l| {
            l.strip_prefix(key)
                .is_some_and(|r| r.trim_start().starts_with(':'))
        })
        .map_or(Location::File, |i| Location::Line {
            line: i as u64 + 1,
            column: Some(1),
        })
}

impl Mapping<'_> {
    /// True when `path` is a file of the mapping's folder (not below it) whose name matches.
    fn claims(&self, path: &str) -> bool {
        let Some(name) = path.strip_prefix(self.folder) else {
            return false;
        };
        !name.contains('/') && !is_mapping_file(name) && wildcard(&self.files, name)
    }

    /// What the map reads of `input`: a CSV's rows, or a JSON or JSON Lines file's runs.
    fn import(&self, input: &InputFile) -> ImportedFile {
        let file = input.path.as_str();
        let mut out = ImportedFile::new(file, Some(Producer::Mapped));
        let text = match std::str::from_utf8(&input.bytes) {
            Ok(text) => crate::json::strip_bom(text),
            Err(e) => {
                out.problems.push(Problem::error(
                    file,
                    Location::File,
                    format!("not UTF-8 text ({e}); expected JSON, JSON Lines or CSV"),
                ));
                return out;
            }
        };
        let rows = match text.trim_start().chars().next() {
            Some('{' | '[') => self.json_rows(file, text, &mut out.problems),
            _ => {
                let (rows, broken) = table::read_rows(file, text);
                out.problems.extend(broken);
                rows
            }
        };
        let Some((header, body)) = rows.split_first() else {
            out.problems.push(Problem::error(
                file,
                Location::File,
                "no runs: expected a CSV header and rows, or JSON objects",
            ));
            return out;
        };
        let table = Table {
            file,
            header,
            body,
            producer: Producer::Mapped,
        };
        if body.is_empty() {
            // Nothing to read the map against: one error, not one per mapping.
            out.problems.push(Problem::error(
                file,
                Location::File,
                "no runs: expected a CSV row, a JSON object or a non-empty array of runs",
            ));
            return out;
        }
        read_table(&table, MappedBy::File(self.path), &self.items, &mut out);
        out
    }

    /// A JSON or JSON Lines file's runs as rows under a header of every path they hold.
    fn json_rows(&self, file: &str, text: &str, problems: &mut Vec<Problem>) -> Vec<Row> {
        let mut objects: Vec<(u64, Value)> = Vec::new();
        if crate::json::looks_like_json_lines(text) {
            for line in crate::json::parse_lines(text) {
                match line.value {
                    Ok(value) => objects.push((line.line, value)),
                    Err(e) => problems.push(Problem::error(file, e.location, e.message)),
                }
            }
        } else {
            match crate::json::parse(text, 0) {
                Ok(value) => objects.extend(self.runs_of(file, value, problems)),
                Err(e) => problems.push(Problem::error(file, e.location, e.message)),
            }
        }
        let flat: Vec<(u64, Vec<(String, String)>)> = objects
            .into_iter()
            .map(|(line, value)| (line, flatten(&value)))
            .collect();
        let mut header: Vec<String> = Vec::new();
        for (_, pairs) in &flat {
            for (key, _) in pairs {
                if !header.contains(key) {
                    header.push(key.clone());
                }
            }
        }
        let mut rows = vec![Row {
            line: 0,
            cells: header.clone(),
        }];
        for (line, pairs) in flat {
            let cells = header
                .iter()
                .map(|h| {
                    let cell = pairs.iter().find(|(k, _)| k == h);
                    cell.map_or_else(String::new, |(_, v)| v.clone())
                })
                .collect();
            rows.push(Row { line, cells });
        }
        rows
    }

    /// The runs of a JSON document: the array at `runs`, the document when it is an array, or
    /// the document itself; each with line 0 (a JSON document's runs have no line of their own).
    fn runs_of(&self, file: &str, value: Value, problems: &mut Vec<Problem>) -> Vec<(u64, Value)> {
        let found = match &self.runs {
            Some(path) => match lookup(&value, path) {
                Some(Value::Array(list)) => list.clone(),
                _ => {
                    problems.push(Problem::error(
                        file,
                        Location::Json {
                            line: None,
                            path: path.clone(),
                        },
                        format!(
                            "expected an array of runs at `{path}`, which {} names in `runs:`",
                            self.path
                        ),
                    ));
                    Vec::new()
                }
            },
            None => match value {
                Value::Array(list) => list,
                other => vec![other],
            },
        };
        found.into_iter().map(|v| (0, v)).collect()
    }
}

/// True when `name` matches `pattern`: `*` any run of characters, `?` any one, the rest as is.
fn wildcard(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    // The classic two-pointer match with backtracking to the last `*`.
    let (mut pi, mut ni, mut star, mut mark) = (0, 0, None, 0);
    while ni < n.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == n[ni]) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ni;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ni = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests;
