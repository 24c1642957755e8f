//! Mapping files: a JSON file with its runs nested, a JSON Lines file and a CSV whose column names
//! carry their units, each read by ten lines of YAML beside it; the mistakes a mapping file can
//! hold, each an error at its line naming the key; and what a mapping claims.

use super::wildcard;
use crate::import::{import_all, ImportedFile};
use crate::input::InputFile;
use crate::model::{LoadTarget, Location, Metric, Producer, Rate, Stat};
use crate::problem::Severity;

fn input(path: &str, text: &str) -> InputFile {
    InputFile {
        path: path.to_string(),
        bytes: text.as_bytes().to_vec(),
    }
}

fn imported<'a>(imports: &'a [ImportedFile], path: &str) -> &'a ImportedFile {
    imports.iter().find(|f| f.file == path).unwrap()
}

fn errors(f: &ImportedFile) -> Vec<String> {
    f.all_problems()
        .filter(|p| p.severity == Severity::Error)
        .map(ToString::to_string)
        .collect()
}

fn close(actual: Option<f64>, expected: f64) {
    let a = actual.unwrap_or(f64::NAN);
    assert!((a - expected).abs() < 1e-9, "{a} != {expected}");
}

const NESTED_JSON: &str = r#"{"tool": "my-bench", "results": [
  {"model": "qwen-7b", "rate": 2, "ttft": {"p50": 0.081, "p99": 0.210},
   "tput": {"out": 410.5}, "n": {"ok": 100, "failed": 0}, "gpu": "H100"},
  {"model": "qwen-7b", "rate": 8, "ttft": {"p50": 0.140, "p99": null},
   "tput": {"out": 1390.0}, "n": {"ok": 98, "failed": 2}, "gpu": "H100"}
]}"#;

const NESTED_MAPPING: &str = "# My load tester's JSON.
files: \"*.json\"
runs: results
map:
  - load=rate:rate, config=model, config.engine=\"my-engine\"
  - ttft.p50=ttft.p50 (s), ttft.p99=ttft.p99 (s)
  - output_tok_s=tput.out, succeeded=n.ok, failed=n.failed
";

#[test]
fn a_json_file_with_its_runs_nested() {
    let imports = import_all(&[
        input("mine/benchdeck-mapping.yaml", NESTED_MAPPING),
        input("mine/sweep.json", NESTED_JSON),
    ]);
    let f = imported(&imports, "mine/sweep.json");
    assert_eq!(f.producer, Some(Producer::Mapped));
    assert_eq!(errors(f), Vec::<String>::new());
    assert_eq!(f.runs.len(), 2);
    let (slow, fast) = (&f.runs[0], &f.runs[1]);
    assert_eq!(
        slow.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(2.0))
    );
    assert_eq!(slow.config.model.as_deref(), Some("qwen-7b"));
    assert_eq!(slow.config.engine.as_deref(), Some("my-engine"));
    close(slow.latency_stat(Metric::Ttft, Stat::P(50.0)), 81.0);
    close(slow.latency_stat(Metric::Ttft, Stat::P(99.0)), 210.0);
    close(slow.throughput.output_tok_s, 410.5);
    assert_eq!(
        fast.latency_stat(Metric::Ttft, Stat::P(99.0)),
        None,
        "null is missing"
    );
    assert_eq!(fast.requests.total, Some(100));
    assert_eq!(slow.provenance.producer, Producer::Mapped);
    // The unmapped key is named; the mapping file is a source of the runs, published beside.
    let warnings: Vec<String> = f.all_problems().map(ToString::to_string).collect();
    assert!(warnings.iter().any(|w| w.contains("`gpu`")), "{warnings:?}");
    assert_eq!(f.joined, ["mine/benchdeck-mapping.yaml"]);
    let own = imported(&imports, "mine/benchdeck-mapping.yaml");
    assert!(own.problems.is_empty(), "{:?}", own.problems);
    assert_eq!(own.joined_into.as_deref(), Some("mine/sweep.json"));
}

#[test]
fn a_json_lines_file_and_a_csv_with_units_in_its_column_names() {
    let jsonl = "{\"users\": 1, \"lat\": {\"p50_ms\": 812}, \"out_tok_s\": 48}\n\
                 {\"users\": 8, \"lat\": {\"p50_ms\": 1290}, \"out_tok_s\": 300}\n";
    let csv = "conc,ttft_p50_ms,lat_p99_s,out_tok_s\n1,40,2.5,48.5\n4,55,3.1,170\n";
    let imports = import_all(&[
        input("lines/benchdeck-mapping.yml", "files: \"*.jsonl\"\nmap:\n  - load=concurrency:users, e2e.p50=lat.p50_ms (ms), output_tok_s=out_tok_s\n"),
        input("lines/a.jsonl", jsonl),
        input("table/benchdeck-mapping.yaml", "files: \"run-?.csv\"\nmap:\n  - 'load=concurrency:conc, ttft.p50=ttft_p50_ms (ms)'\n  - e2e.p99=lat_p99_s (s), output_tok_s=out_tok_s\n"),
        input("table/run-1.csv", csv),
    ]);
    let lines = imported(&imports, "lines/a.jsonl");
    assert_eq!(errors(lines), Vec::<String>::new());
    assert_eq!(lines.runs.len(), 2);
    assert_eq!(lines.runs[1].provenance.location, Location::line(2));
    close(
        lines.runs[1].latency_stat(Metric::E2e, Stat::P(50.0)),
        1290.0,
    );
    let table = imported(&imports, "table/run-1.csv");
    assert_eq!(errors(table), Vec::<String>::new());
    assert_eq!(table.runs.len(), 2);
    assert_eq!(table.runs[1].load.target, LoadTarget::Concurrency(4.0));
    close(
        table.runs[1].latency_stat(Metric::E2e, Stat::P(99.0)),
        3100.0,
    );
    close(
        table.runs[0].latency_stat(Metric::Ttft, Stat::P(50.0)),
        40.0,
    );
}

#[test]
fn each_mistake_is_an_error_at_its_line_naming_the_key() {
    let mapping = "files: \"*.json\"\nruns: results\ncolour: red\nmap:\n  - load=rate:rate\n  - ttft.p50=ttft.median (s), tpot.p99=x\n";
    let imports = import_all(&[
        input("bad/benchdeck-mapping.yaml", mapping),
        input("bad/sweep.json", NESTED_JSON),
    ]);
    let own = errors(imported(&imports, "bad/benchdeck-mapping.yaml"));
    assert_eq!(
        own,
        ["bad/benchdeck-mapping.yaml:3:1: error: unknown key `colour`; expected `files`, `runs` or `map`"]
    );
    let data = errors(imported(&imports, "bad/sweep.json"));
    assert!(
        data.iter().any(|e| e.starts_with("bad/benchdeck-mapping.yaml:6:5: error: reading `bad/sweep.json`: `ttft.p50`: no column `ttft.median` among the file's keys")),
        "{data:?}"
    );
    assert!(
        data.iter()
            .any(|e| e.starts_with("bad/benchdeck-mapping.yaml:6:31: error:")
                && e.contains("`tpot.p99=x`: expected the column's time unit")),
        "{data:?}"
    );
    // Without `files`, or with a map that is not a list: nothing is claimed, and it says why.
    for (text, expected) in [
        (
            "map:\n  - load=rate:r\n",
            "benchdeck-mapping.yaml: error: expected `files:`",
        ),
        (
            "files: \"*.json\"\nmap: load=rate:r\n",
            "benchdeck-mapping.yaml:2:1: error: `map`: expected a list",
        ),
        (
            "files: [a, b]\nmap:\n  - load=rate:r\n",
            "benchdeck-mapping.yaml:1:1: error: `files`: expected text",
        ),
        (
            "files: \"*.json\"\nmap: [\"load=rate:r\"]\n",
            "expected each entry of `map` on one line of its own",
        ),
    ] {
        let imports = import_all(&[
            input("benchdeck-mapping.yaml", text),
            input("x.json", NESTED_JSON),
        ]);
        let own = errors(imported(&imports, "benchdeck-mapping.yaml"));
        assert!(own.iter().any(|e| e.contains(expected)), "{text}: {own:?}");
        assert_ne!(
            imported(&imports, "x.json").producer,
            Some(Producer::Mapped)
        );
    }
}

#[test]
fn a_mapping_claims_the_matching_files_of_its_own_folder_only() {
    let imports = import_all(&[
        input("a/benchdeck-mapping.yaml", NESTED_MAPPING),
        input("a/sub/deeper.json", NESTED_JSON),
        input("b/other.json", NESTED_JSON),
        input("a/notes.txt", "not a result"),
    ]);
    for path in ["a/sub/deeper.json", "b/other.json", "a/notes.txt"] {
        assert_ne!(
            imported(&imports, path).producer,
            Some(Producer::Mapped),
            "{path}"
        );
    }
    let own = imported(&imports, "a/benchdeck-mapping.yaml");
    let warnings: Vec<String> = own.problems.iter().map(ToString::to_string).collect();
    assert_eq!(
        warnings,
        ["a/benchdeck-mapping.yaml: warning: `files: *.json` matches no file in a/; expected the names of the result files beside it"]
    );
    // Runs that are not where `runs:` says: an error naming the path.
    let imports = import_all(&[
        input(
            "benchdeck-mapping.yaml",
            &NESTED_MAPPING.replace("runs: results", "runs: result"),
        ),
        input("s.json", NESTED_JSON),
    ]);
    let data = errors(imported(&imports, "s.json"));
    assert!(
        data.iter()
            .any(|e| e.contains("expected an array of runs at `result`")),
        "{data:?}"
    );
}

#[test]
fn wildcards_match_whole_names() {
    assert!(wildcard("*.json", "sweep.json"));
    assert!(!wildcard("*.json", "sweep.jsonl"));
    assert!(wildcard("run-?.csv", "run-1.csv"));
    assert!(!wildcard("run-?.csv", "run-10.csv"));
    assert!(wildcard("*", "anything"));
    assert!(wildcard("a*b*c", "aXXbYYc"));
    assert!(!wildcard("a*b*c", "aXXbYY"));
    assert!(wildcard("exact.json", "exact.json"));
}

#[test]
fn a_claimed_file_without_runs_says_so() {
    let imports = import_all(&[
        input("benchdeck-mapping.yaml", NESTED_MAPPING),
        input("empty.json", "{\"results\": []}"),
    ]);
    let data = errors(imported(&imports, "empty.json"));
    assert_eq!(
        data,
        ["empty.json: error: no runs: expected a CSV row, a JSON object or a non-empty array of runs"]
    );
}

/// A per-request JSON Lines file of a tool nobody wrote an importer for: one request a line,
/// two configurations at one rate; grouped into two runs whose statistics come from their
/// requests, kept as samples in start order.
#[test]
fn a_per_request_json_lines_file_groups_its_requests_into_runs() {
    let jsonl = "\
{\"engine\": \"a\", \"qps\": 2, \"t0\": 10.5, \"ttft_s\": 0.30, \"lat_s\": 2.0, \"out\": 100, \"err\": null}\n\
{\"engine\": \"b\", \"qps\": 2, \"t0\": 10.0, \"ttft_s\": 0.10, \"lat_s\": 1.0, \"out\": 50, \"err\": null}\n\
{\"engine\": \"a\", \"qps\": 2, \"t0\": 10.0, \"ttft_s\": 0.10, \"lat_s\": 1.5, \"out\": 80, \"err\": \"\"}\n\
{\"engine\": \"a\", \"qps\": 2, \"t0\": 11.0, \"ttft_s\": 0.20, \"lat_s\": 1.0, \"out\": 60, \"err\": \"timeout\"}\n\
{\"engine\": \"b\", \"qps\": 2, \"t0\": 10.5, \"ttft_s\": \"fast\", \"lat_s\": 1.0, \"out\": 50, \"err\": null}\n\
{\"engine\": \"b\", \"qps\": 2, \"t0\": 12.0, \"ttft_s\": -1, \"lat_s\": \"timeout\", \"out\": 0, \"err\": \"503\"}\n";
    let mapping = "files: \"*.jsonl\"\nmap:\n  - load=rate:qps, config.engine=engine\n  - ttft=ttft_s (s), e2e=lat_s (s), start=t0 (s)\n  - output_tokens=out, error=err\n";
    let imports = import_all(&[
        input("reqs/benchdeck-mapping.yaml", mapping),
        input("reqs/requests.jsonl", jsonl),
    ]);
    let f = imported(&imports, "reqs/requests.jsonl");
    assert_eq!(f.runs.len(), 2);
    let (a, b) = (&f.runs[0], &f.runs[1]);
    assert_eq!(a.config.engine.as_deref(), Some("a"));
    assert_eq!(a.load.target, LoadTarget::RequestRate(Rate::PerSecond(2.0)));
    // Engine a: three requests, one failed; TTFT of the two that succeeded, 300 and 100 ms.
    assert_eq!((a.requests.total, a.requests.succeeded), (Some(3), Some(2)));
    close(a.latency_stat(Metric::Ttft, Stat::Mean), 200.0);
    close(a.latency_stat(Metric::E2e, Stat::Max), 2000.0);
    // From the first start (10.0) to the last end (10.5 + 2.0, or 11.0 + 1.0): 2.5 s.
    close(a.throughput.output_tok_s, 180.0 / 2.5);
    let samples = a.samples.as_deref().expect("the requests are kept");
    assert_eq!(samples.len(), 3);
    assert!(samples.order_known());
    // Engine b: its second request's TTFT is no number: an error at its line, skipped; its
    // third failed, and its `-1` and `timeout` say nothing more: a failure, counted.
    assert_eq!((b.requests.total, b.requests.succeeded), (Some(2), Some(1)));
    let all: Vec<String> = f.all_problems().map(ToString::to_string).collect();
    assert!(
        all.iter().any(|p| p.contains("reqs/requests.jsonl:5") && p.contains("`ttft_s`: expected a number of at least 0, found `fast`; this request is skipped")),
        "{all:?}"
    );
}

#[test]
fn a_per_request_latency_needs_its_unit_and_a_request_metric() {
    let imports = import_all(&[
        input(
            "x/benchdeck-mapping.yaml",
            "files: \"*.csv\"\nmap:\n  - load=rate:qps, ttft=ttft\n",
        ),
        input("x/r.csv", "qps,ttft\n1,0.2\n"),
    ]);
    let e = errors(imported(&imports, "x/r.csv"));
    assert!(
        e.iter()
            .any(|m| m.contains("`ttft=ttft`: expected the column's time unit in parentheses")),
        "{e:?}"
    );
}

#[test]
fn a_mapping_of_requests_refuses_what_states_a_whole_run() {
    let imports = import_all(&[
        input(
            "y/benchdeck-mapping.yaml",
            "files: \"*.csv\"\nmap:\n  - load=rate:qps, ttft=t (ms), e2e.p99=p (ms)\n",
        ),
        input("y/r.csv", "qps,t,p\n1,20,90\n1,30,90\n"),
    ]);
    let f = imported(&imports, "y/r.csv");
    let e = errors(f);
    assert!(
        e.iter().any(|m| m
            .contains("`e2e.p99` states a whole run, but the mapping reads one request per row")),
        "{e:?}"
    );
    assert_eq!(f.runs.len(), 1);
    assert_eq!(f.runs[0].requests.total, Some(2));
}
