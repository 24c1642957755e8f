//! A summary CSV of your own without `# benchdeck:` lines whose column names say what each
//! holds, units included (`concurrency`, `ttft_p50_ms`, `lat_p99_s`, `out_tok_s`): read by the
//! mapping those names suggest (the guesser of `inspect --suggest-mapping`), with a warning
//! that lists what each column was read as, so a wrong guess is seen and can be corrected with
//! `# benchdeck:` lines.
//!
//! Recognised only when the names leave no unit to assume: one column names the load, at least
//! one names a latency statistic, and every latency column names its unit (`_ms`, `_s`, `_us`,
//! `_ns`). Anything less is not recognised, and the error says to add a mapping.

use super::mapping_file::suggest::{guess, names_a_latency_and_its_unit};
use super::table;
use super::tidy_csv::{finish, items, read_table, MappedBy, Table};
use super::ImportedFile;
use crate::model::{Location, Producer};
use crate::problem::Problem;

/// The least a header must say: a load, and latencies whose units it names.
pub(super) fn is_named_columns_csv(text: &str) -> bool {
    let first = table::first_line(crate::json::strip_bom(text));
    let cells = table::header_cells(first);
    if cells.len() < 3 || text.trim_start().starts_with(['{', '[', '#']) {
        return false;
    }
    let guesses: Vec<Option<String>> = cells
        .iter()
        .map(|c| guess(c).map(|(target, _)| target))
        .collect();
    let latency = |target: &str| target.contains('.') && !target.starts_with("config.");
    let loads = guesses.iter().flatten().filter(|t| *t == "load").count();
    let latencies: Vec<&str> = cells
        .iter()
        .zip(&guesses)
        .filter(|(_, g)| g.as_deref().is_some_and(latency))
        .map(|(c, _)| *c)
        .collect();
    loads == 1 && !latencies.is_empty() && latencies.iter().all(|c| names_a_latency_and_its_unit(c))
}

/// Reads the file by the mapping its column names suggest.
pub(super) fn read(file: &str, text: &str) -> ImportedFile {
    let mut out = ImportedFile::new(file, Some(Producer::TidyCsv));
    let text = crate::json::strip_bom(text);
    let (rows, broken) = table::read_rows(file, text);
    let Some((header, body)) = out.require(
        rows.split_first(),
        &Location::line(1),
        "expected a CSV header line",
    ) else {
        out.problems.extend(broken);
        return out;
    };
    let mut targets: Vec<String> = Vec::new();
    let mut mapped: Vec<String> = Vec::new();
    for cell in &header.cells {
        let Some((target, item)) = guess(cell) else {
            continue;
        };
        // A column whose name the mapping language cannot quote is left unmapped (and named).
        if targets.contains(&target) || cell.contains([',', '=', '"']) {
            continue;
        }
        targets.push(target);
        mapped.push(item);
    }
    let line = mapped.join(", ");
    out.problems.push(Problem::warning(
        file,
        Location::line(header.line),
        format!(
            "no `# benchdeck:` lines: the columns were read by their names as `{}`; if a \
             guess is wrong, put `# benchdeck:` lines with the right mapping above the header \
             (README's \"Your own CSV\")",
            mapped.join("`, `")
        ),
    ));
    let table = Table {
        file,
        header,
        body,
        producer: Producer::TidyCsv,
    };
    read_table(
        &table,
        MappedBy::ColumnNames,
        &items(&line, 0, header.line),
        &mut out,
    );
    finish(&table, broken, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{close_stats, messages};
    use crate::model::{LoadTarget, Metric, Stat};

    const SWEEP: &str = "config,rate,ttft_p50_ms,ttft_p99_ms,lat_p99_s,out_tok_s,notes\n\
                         vllm,1,45.0,90.0,2.1,120.5,warm\n\
                         vllm,2,50.0,110.0,2.4,230.1,\n";

    #[test]
    fn columns_that_name_their_units_are_read_in_them() {
        assert!(is_named_columns_csv(SWEEP));
        let f = crate::import::import("mine/sweep.csv", SWEEP.as_bytes());
        assert_eq!(f.runs.len(), 2, "{}", messages(&f));
        let run = &f.runs[1];
        assert_eq!(
            run.load.target,
            LoadTarget::RequestRate(crate::model::Rate::PerSecond(2.0))
        );
        close_stats(
            run,
            &[
                (Metric::Ttft, Stat::Median, 50.0),
                (Metric::Ttft, Stat::P(99.0), 110.0),
                (Metric::E2e, Stat::P(99.0), 2400.0),
            ],
        );
        assert_eq!(run.throughput.output_tok_s, Some(230.1));
        assert_eq!(run.config.label.as_deref(), Some("vllm"));
        let text = messages(&f);
        assert!(
            text.contains("mine/sweep.csv:1: warning: no `# benchdeck:` lines: the columns were read by their names as `config.label=config`, `load=rate:rate`, `ttft.p50=ttft_p50_ms (ms)`"),
            "{text}"
        );
        assert!(
            text.contains("`notes`"),
            "the column not read is named: {text}"
        );
    }

    #[test]
    fn a_latency_without_its_unit_or_no_load_is_not_guessed() {
        assert!(!is_named_columns_csv("rate,ttft_p50,out_tok_s\n1,45,120\n"));
        assert!(!is_named_columns_csv(
            "model,ttft_p50_ms,out_tok_s\nq,45,120\n"
        ));
        assert!(!is_named_columns_csv(
            "# benchdeck: load=rate:rate\nrate,ttft_p50_ms,x\n"
        ));
        // A rate that is no load (`success_rate`) is not taken for one.
        assert!(!is_named_columns_csv(
            "model,success_rate,ttft_p50_ms\nq,0.98,45\n"
        ));
        assert!(is_named_columns_csv(
            "concurrency,error_rate,ttft_p50_ms\n4,0.01,45\n"
        ));
    }
}
