//! Tests of the GuideLLM importer on the fixtures in `tests/fixtures/guidellm/` (invented numbers
//! in the real layouts of every generation, and broken variants), plus robustness sweeps; by
//! topic in `tests/`, with the helpers they share here.

mod broken;
mod generations;
mod recognition;
mod robustness;

use crate::import::{import, ImportedFile};
use crate::model::{Distribution, Metric, Run, Stat};

fn read(path: &str) -> Vec<u8> {
    crate::fixtures::bytes(&format!("guidellm/{path}"))
}

fn fixture(path: &str) -> ImportedFile {
    import(&format!("guidellm/{path}"), &read(path))
}

fn messages(f: &ImportedFile) -> Vec<String> {
    f.all_problems().map(ToString::to_string).collect()
}

/// The statistics both the report and the CSV carry (the CSV has no p50 and no p99.9).
const SHARED_STATS: [Stat; 14] = [
    Stat::Mean,
    Stat::Median,
    Stat::Std,
    Stat::Min,
    Stat::Max,
    Stat::P(0.1),
    Stat::P(1.0),
    Stat::P(5.0),
    Stat::P(10.0),
    Stat::P(25.0),
    Stat::P(75.0),
    Stat::P(90.0),
    Stat::P(95.0),
    Stat::P(99.0),
];

fn assert_same_stats(what: &str, a: Option<&Distribution>, b: Option<&Distribution>) {
    let (a, b) = (a.expect(what), b.expect(what));
    for stat in SHARED_STATS {
        assert_eq!(a.get(stat), b.get(stat), "{what} {stat}");
        assert!(a.get(stat).is_some(), "{what} {stat} is missing");
    }
}

/// The CSV row gives the same numbers as the report's benchmark, minus what the CSV lacks.
fn assert_csv_matches_report(csv: &Run, report: &Run) {
    assert_eq!(csv.load, report.load);
    assert_eq!(csv.requests, report.requests);
    assert_eq!(csv.config, report.config);
    assert_eq!(
        csv.provenance.producer_version,
        report.provenance.producer_version
    );
    assert_eq!(csv.throughput, report.throughput);
    for metric in Metric::ALL {
        match report.latency(metric) {
            Some(d) => assert_same_stats(metric.id(), csv.latency(metric), Some(d)),
            None => assert!(csv.latency(metric).is_none(), "{metric:?}"),
        }
    }
    assert_same_stats(
        "input_len",
        csv.tokens.input_len.as_ref(),
        report.tokens.input_len.as_ref(),
    );
    assert_same_stats(
        "output_len",
        csv.tokens.output_len.as_ref(),
        report.tokens.output_len.as_ref(),
    );
    assert!(csv.samples.is_none(), "the CSV has no per-request samples");
    assert_eq!(
        (csv.tokens.total_input, csv.tokens.total_output),
        (None, None),
        "the CSV has no token totals"
    );
}
