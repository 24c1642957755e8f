//! Markdown and box-drawn tables: telling their lines, their cells, and reading a table's rows
//! into runs by what its header says (or its model and dataset, for a configuration table).

use super::cells::{read_cell, strip_markers, Cell};
use super::columns::{column, normalise, Col, Family, Level};
use super::document::Document;
use super::entry::apply;
use crate::import::table::Row;
use crate::model::Location;
use crate::problem::Problem;

/// A table line: a row (`|`, `│`, `┃` first) or a rule of a box-drawn table.
pub(super) fn is_table_line(t: &str) -> bool {
    t.starts_with(['|', '│', '┃'])
        || (t.starts_with(['├', '┌', '└', '┏', '┡', '┗', '╭', '╰', '┢', '┣', '╞', '+'])
            && is_rule(t))
}

/// Characters of table rules: Markdown alignment rows and box drawing.
const RULE_CHARS: &str = "-:|+─━═│┃├┤┼┌┐└┘┏┓┗┛┡┩┢┪┣┫┳┻┬┴╇╈╋╞╡╪╭╮╯╰";

/// A separator row: only rule characters, with at least one dash.
fn is_rule(t: &str) -> bool {
    t.chars().any(|c| matches!(c, '-' | '─' | '━' | '═'))
        && t.chars()
            .all(|c| c.is_whitespace() || RULE_CHARS.contains(c))
}

/// The cells of a table row.
fn cells(t: &str) -> Vec<String> {
    let t = t.trim();
    let t = t.strip_prefix(['|', '│', '┃']).unwrap_or(t);
    let t = t.strip_suffix(['|', '│', '┃']).unwrap_or(t);
    t.split(['|', '│', '┃'])
        .map(|c| c.trim().to_string())
        .collect()
}

/// Key and value of a two-column table row, without emphasis or backticks.
fn clean_value(text: &str) -> String {
    text.replace(['*', '`'], "").trim().to_string()
}

impl Document {
    pub(super) fn table(&mut self, lines: &[&str], first_line: u64) {
        let mut rows: Vec<Row> = Vec::new();
        for (k, l) in lines.iter().enumerate() {
            let t = l.trim();
            if is_rule(t) {
                continue;
            }
            rows.push(Row {
                line: first_line + k as u64,
                cells: cells(t),
            });
        }
        let Some((header, body)) = rows.split_first() else {
            return;
        };
        let names: Vec<String> = header.cells.iter().map(|c| normalise(c)).collect();
        let first = names.first().map_or("", String::as_str);
        let bench_marks = names.iter().any(|n| {
            matches!(n.as_str(), "result" | "ok" | "ok/total" | "errors" | "err%")
                || ["lat p", "itl p", "in p", "out p"]
                    .iter()
                    .any(|p| n.starts_with(p))
        });
        let (family, level): (Family, fn(f64) -> Level) = match first {
            "prompt tokens" => (Family::LoadTest, Level::Baseline),
            "concurrency" if bench_marks => (Family::Bench, Level::BenchConcurrency),
            "conc." | "conc" => (Family::Bench, Level::BenchConcurrency),
            "concurrency" => (Family::LoadTest, Level::Wave),
            "target rps" => (Family::LoadTest, Level::Sustained),
            "rate (req/s)" | "rate (r/s)" | "rate" | "request rate" => {
                (Family::Bench, Level::BenchRate)
            }
            _ => {
                self.other_table(header, body, &names);
                return;
            }
        };
        self.recognised = true;
        let columns: Vec<Col> = names
            .iter()
            .enumerate()
            .map(|(i, n)| if i == 0 { Col::Load } else { column(n, family) })
            .collect();
        for (i, c) in columns.iter().enumerate() {
            if *c == Col::Unknown {
                self.problems.push(Problem::warning(
                    &self.file,
                    header.at(i),
                    format!(
                        "column `{}` is not one load_test.py or benchmark.py writes; its values \
                         are ignored",
                        header.cell(i)
                    ),
                ));
            }
        }
        for row in body {
            self.run_row(header, &columns, row, level);
        }
    }

    /// Tables that are not run tables: configuration, warm-up, pooled summaries, raw requests.
    fn other_table(&mut self, header: &Row, body: &[Row], names: &[String]) {
        let first = names.first().map_or("", String::as_str);
        if names.len() == 2
            && matches!(
                first,
                "" | "field" | "parameter" | "metric" | "setting" | "key" | "name"
            )
            && matches!(names[1].as_str(), "" | "value")
        {
            for row in body {
                match normalise(row.cell(0)).as_str() {
                    "model" if self.model.is_none() => {
                        let v = clean_value(row.cell(1));
                        if !v.is_empty() {
                            self.model = Some(v);
                            self.recognised = true;
                        }
                    }
                    "dataset" if self.dataset.is_none() => {
                        let v = clean_value(row.cell(1));
                        if !v.is_empty() {
                            self.dataset = Some(v);
                        }
                    }
                    _ => {}
                }
            }
            return;
        }
        // Warm-up requests (excluded by design) and pooled summaries over every phase.
        if first == "request" || (first == "metric" && names.iter().any(|n| n == "p50")) {
            return;
        }
        let lines = match (body.first(), body.last()) {
            (Some(a), Some(b)) if a.line == b.line => format!(" (line {})", a.line),
            (Some(a), Some(b)) => format!(" (lines {}–{})", a.line, b.line),
            _ => String::new(),
        };
        let message = if first == "prompt length" {
            format!(
                "per-request baseline table, {} rows{lines}: it does not say which requests \
                 succeeded, so its rows are not imported; the per-length summary table holds \
                 their statistics",
                body.len()
            )
        } else {
            format!(
                "table not recognised (header `{}`); expected a load_test.py or benchmark.py \
                 table whose first column is `Prompt Tokens`, `Concurrency`, `Target RPS` or \
                 `Rate (req/s)`; not imported: {} rows{lines}",
                header.cells.join(" | "),
                body.len()
            )
        };
        self.problems.push(Problem::warning(
            &self.file,
            Location::line(header.line),
            message,
        ));
    }

    fn run_row(&mut self, header: &Row, columns: &[Col], row: &Row, level: fn(f64) -> Level) {
        let file = self.file.clone();
        if row.cells.len() != columns.len() {
            self.problems.push(Problem::error(
                &file,
                Location::line(row.line),
                format!(
                    "expected {} cells as in the header at line {}, found {}; this row is skipped",
                    columns.len(),
                    header.line,
                    row.cells.len()
                ),
            ));
            return;
        }
        let (load_text, marker) = strip_markers(row.cell(0));
        let load_text = load_text.trim_start_matches('~');
        let value = match read_cell(load_text, &["tokens", "req/s", "rps"]) {
            Cell::Value(v) => Some(v),
            _ => None,
        };
        let probe = level(1.0);
        let valid = value.filter(|v| match probe {
            Level::Wave(_) | Level::BenchConcurrency(_) => v.is_finite() && *v >= 1.0,
            _ => v.is_finite() && *v > 0.0,
        });
        let Some(v) = valid else {
            let expected = match probe {
                Level::Baseline(_) => "a positive prompt length",
                Level::Wave(_) | Level::BenchConcurrency(_) => "a concurrency of at least 1",
                _ => "a positive request rate",
            };
            self.problems.push(Problem::error(
                &file,
                row.at(0),
                format!(
                    "`{}`: expected {expected}, found `{}`; this row cannot become a run",
                    header.cell(0),
                    row.cell(0)
                ),
            ));
            return;
        };
        let mut problems = Vec::new();
        if !marker.is_empty() {
            problems.push(Problem::warning(
                &file,
                row.at(0),
                format!(
                    "`{}`: the marker `{marker}` is dropped and {} is read",
                    row.cell(0),
                    crate::format::number(v)
                ),
            ));
        }
        let entry = self.entry(level(v), row.line);
        for (i, c) in columns.iter().enumerate().skip(1) {
            apply(
                &file,
                entry,
                *c,
                header.cell(i),
                row.cell(i),
                row.at(i),
                &mut problems,
            );
        }
        entry.problems.append(&mut problems);
    }
}
