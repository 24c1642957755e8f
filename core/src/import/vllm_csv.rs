//! A CSV whose columns are the keys of a `vllm bench serve --save-result` object: what forks of
//! `benchmark_serving.py` write beside (or instead of) the JSON, one row per run, empty cells
//! for `null`. Each row is read as the JSON object it copies, by the same code
//! ([`super::vllm::read_serve_object`]), so a run reads the same from either file.

use serde_json::{Map, Number, Value};

use super::table::{self, header_cells, Row};
use super::ImportedFile;
use crate::model::{Location, Producer};
use crate::problem::Problem;

/// True for a header row with the result's identifying keys and at least one latency column.
pub(super) fn is_vllm_csv(first_line: &str) -> bool {
    let cells = header_cells(first_line);
    let has = |key: &str| cells.contains(&key);
    has("backend")
        && (has("completed") || has("num_prompts"))
        && cells
            .iter()
            .any(|c| c.ends_with("_ttft_ms") || c.ends_with("_e2el_ms"))
}

/// Reads every row as one run.
pub(super) fn read(file: &str, text: &str) -> ImportedFile {
    let mut out = ImportedFile::new(file, Some(Producer::VllmServe));
    let (rows, broken) = table::read_rows(file, text);
    out.problems.extend(broken);
    let header_line = rows.first().map(|r| r.cells.join(","));
    let Some((header, body)) = rows
        .split_first()
        .filter(|_| header_line.as_deref().is_some_and(is_vllm_csv))
    else {
        out.problems.push(Problem::error(
            file,
            Location::line(rows.first().map_or(1, |r| r.line)),
            "expected a CSV whose header names vllm bench serve's result keys (`backend`, \
             `completed` or `num_prompts`, and latency columns such as `mean_ttft_ms`)",
        ));
        return out;
    };
    let rows_before = out.runs.len() + out.problems.len();
    for row in body.iter().filter(|r| !r.is_blank()) {
        if row.cells.len() != header.cells.len() {
            out.problems.push(Problem::error(
                file,
                row.at(row.cells.len().min(header.cells.len())),
                format!(
                    "expected {} cells as in the header (line {}), found {}; the row is read \
                     as far as the header names its cells",
                    header.cells.len(),
                    header.line,
                    row.cells.len()
                ),
            ));
        }
        let object = Value::Object(object_of(header, row));
        match super::vllm::read_serve_object(file, &object, Location::line(row.line)) {
            Ok(run) => out.runs.push(run),
            Err(problem) => out.problems.push(problem),
        }
    }
    if out.runs.len() + out.problems.len() == rows_before {
        out.problems.push(Problem::error(
            file,
            Location::line(header.line + 1),
            "the header has no row under it; expected one row per run",
        ));
    }
    out
}

/// The row as the JSON object the CSV copies: numbers as numbers, `inf` as the string the JSON
/// has, empty cells left out (the JSON's `null`), other text as strings.
fn object_of(header: &Row, row: &Row) -> Map<String, Value> {
    let mut object = Map::new();
    for (index, key) in header.cells.iter().enumerate() {
        let cell = row.cell(index);
        if key.is_empty() || cell.is_empty() {
            continue;
        }
        let value = match cell.parse::<f64>() {
            Ok(n) if n.is_finite() => Number::from_f64(n).map_or(Value::Null, Value::Number),
            Ok(_) => Value::String(cell.to_string()),
            Err(_) => Value::String(cell.to_string()),
        };
        object.insert(key.clone(), value);
    }
    object
}

#[cfg(test)]
mod tests {
    use crate::import::import;
    use crate::model::{LoadTarget, Location, Metric, Producer, Rate, Stat};
    use crate::problem::Severity;

    const HEADER: &str = "date,backend,hardware,model_id,num_prompts,request_rate,burstiness,\
        max_concurrency,duration,completed,total_input_tokens,total_output_tokens,\
        request_throughput,request_goodput:,output_throughput,total_token_throughput,\
        mean_ttft_ms,median_ttft_ms,p99_ttft_ms,mean_tpot_ms,accuracy_rate";

    #[test]
    fn each_row_reads_like_the_json_it_copies() {
        let text = format!(
            "{HEADER}\n\
             20250923-143003,openai-chat,A6000,org/model,8,inf,1.0,,12.5,8,4000,1000,0.64,,80.0,\
             400.0,3418.07,3400.5,3500.25,66.27,100.0\n\
             20250923-150000,openai-chat,A6000,org/model,8,2.0,1.0,4,20.0,7,3500,900,0.35,,45.0,\
             220.0,120.0,110.0,300.0,30.5,87.5\n"
        );
        let f = import("runs.csv", text.as_bytes());
        assert_eq!(f.producer, Some(Producer::VllmServe));
        assert_eq!(f.runs.len(), 2, "{:?}", f.problems);
        let (first, second) = (&f.runs[0], &f.runs[1]);
        assert_eq!(first.provenance.location, Location::line(2));
        assert_eq!(first.load.target, LoadTarget::RequestRate(Rate::Infinite));
        assert_eq!(
            second.load.target,
            LoadTarget::RequestRate(Rate::PerSecond(2.0))
        );
        assert_eq!(second.load.max_concurrency, Some(4));
        assert_eq!(first.config.model.as_deref(), Some("org/model"));
        assert_eq!(first.config.hardware.as_deref(), Some("A6000"));
        assert_eq!(first.requests.succeeded, Some(8));
        assert_eq!(first.throughput.output_tok_s, Some(80.0));
        assert_eq!(
            first.throughput.goodput_req_s, None,
            "an empty cell is null"
        );
        assert_eq!(first.latency_stat(Metric::Ttft, Stat::Mean), Some(3418.07));
        assert_eq!(
            second.latency(Metric::Ttft).unwrap().percentile(99.0),
            Some(300.0)
        );
        assert!(
            f.all_problems().all(|p| p.severity != Severity::Error),
            "{:?}",
            f.problems
        );
    }

    #[test]
    fn a_short_row_is_named_and_read_as_far_as_it_goes() {
        let text = format!("{HEADER}\n20250923-143003,vllm,A6000,org/model,8,1.0,1.0,,12.5,8\n");
        let f = import("short.csv", text.as_bytes());
        assert_eq!(f.runs.len(), 1);
        let short = f
            .problems
            .iter()
            .find(|p| p.message.contains("cells"))
            .unwrap();
        assert_eq!(short.severity, Severity::Error);
        assert_eq!(
            short.location,
            Location::Line {
                line: 2,
                column: Some(11)
            }
        );
        assert_eq!(f.runs[0].requests.succeeded, Some(8));
    }

    /// What the fuzzer found: text forced through this reader (no sniffing) that is no such CSV
    /// gave no run and no reason.
    #[test]
    fn text_that_is_not_such_a_csv_or_has_no_row_says_so() {
        use crate::import::{import_as, Format};
        let file = import_as(Format::VllmServe, "x.txt", b"s\"date\": \"2025{ not json");
        assert!(file.runs.is_empty());
        assert!(
            file.problems[0]
                .message
                .contains("expected a CSV whose header names vllm bench serve's result keys"),
            "{:?}",
            file.problems
        );
        let file = import("x.csv", format!("{HEADER}\n").as_bytes());
        assert!(file.runs.is_empty());
        assert!(
            file.problems
                .iter()
                .any(|p| p.message.contains("the header has no row under it")),
            "{:?}",
            file.problems
        );
    }
}
