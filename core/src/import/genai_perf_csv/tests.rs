use super::artifact_directory;
use crate::fixtures::import_file;
use crate::import::import_text;
use crate::model::{LoadTarget, Location, Metric, Producer, Rate, Stat};
use crate::problem::Severity;

const C8: &str = "genai-perf/acme_chat-13b-openai-chat-concurrency8/profile_export_genai_perf";

#[test]
fn the_csv_gives_the_numbers_of_the_json_beside_it() {
    let csv = import_file(&format!("{C8}.csv"));
    let json = import_file(&format!("{C8}.json"));
    assert_eq!(csv.producer, Some(Producer::GenaiPerf));
    let [run] = csv.runs.as_slice() else {
        panic!("one run expected: {:?}", csv.problems)
    };
    // The GPU tables are skipped with a note; nothing else is wrong.
    let problems: Vec<String> = csv.all_problems().map(ToString::to_string).collect();
    assert_eq!(
        problems,
        [
            format!(
            "{C8}.csv:15: warning: GPU telemetry table (2 rows) skipped: the model has no place \
             for GPU metrics"
        ),
            format!(
            "{C8}.csv:19: warning: GPU telemetry table (1 rows) skipped: the model has no place \
             for GPU metrics"
        )
        ]
    );
    let reference = &json.runs[0];
    // Load and model from the artifact directory; the JSON has `acme/chat-13b`, the directory
    // the `/` replaced by `_`.
    assert_eq!(run.load.target, LoadTarget::Concurrency(8.0));
    assert_eq!(reference.load.target, LoadTarget::Concurrency(8.0));
    assert_eq!(run.config.model.as_deref(), Some("acme_chat-13b"));
    assert_eq!(run.provenance.location, Location::line(1));
    for metric in [Metric::Ttft, Metric::Ttst, Metric::Tpot, Metric::E2e] {
        let (a, b) = (
            run.latency(metric).unwrap(),
            reference.latency(metric).unwrap(),
        );
        assert_eq!(a.mean, b.mean, "{metric:?}");
        assert_eq!(a.min, b.min, "{metric:?}");
        assert_eq!(a.max, b.max, "{metric:?}");
        assert_eq!(a.percentiles, b.percentiles, "{metric:?}");
        assert_eq!(a.std, None, "GenAI-Perf's CSV has no std");
    }
    assert_eq!(run.latency_stat(Metric::E2e, Stat::P(50.0)), Some(2675.25));
    assert_eq!(run.latency_stat(Metric::Tpot, Stat::Mean), Some(12.25));
    assert_eq!(run.throughput, reference.throughput);
    assert_eq!(run.throughput.output_tok_s, Some(591.5));
    assert_eq!(run.load.achieved_rps, Some(2.95));
    assert_eq!(run.requests, reference.requests);
    assert_eq!(run.requests.succeeded, Some(400));
    assert_eq!(run.requests.failed, None, "GenAI-Perf has no failure count");
    assert_eq!(
        run.tokens
            .input_len
            .as_ref()
            .and_then(|d| d.get(Stat::P(99.0))),
        Some(570.0)
    );
    assert_eq!(
        run.tokens.output_len.as_ref().and_then(|d| d.mean),
        Some(200.5)
    );
}

#[test]
fn a_request_rate_directory_and_the_old_per_request_rate_row() {
    let f = import_file(
        "genai-perf/acme_chat-13b-openai-chat-request_rate2.5/profile_export_genai_perf.csv",
    );
    assert!(f.all_problems().next().is_none(), "{:?}", f.problems);
    let run = &f.runs[0];
    assert_eq!(
        run.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(2.5))
    );
    assert_eq!(run.latency_stat(Metric::E2e, Stat::Mean), Some(2420.0));
    assert_eq!(run.latency_stat(Metric::Ttft, Stat::P(99.0)), Some(140.0));
    assert_eq!(run.latency(Metric::Ttst), None);
    assert_eq!(run.requests.succeeded, Some(150));
    assert_eq!(run.throughput.output_tok_s, Some(498.75));
}

#[test]
fn aiperf_csv_with_std_error_count_token_totals_and_gpu_telemetry() {
    let f = import_file("aiperf/acme_chat-13b-openai-chat-concurrency32/profile_export_aiperf.csv");
    assert_eq!(f.producer, Some(Producer::Aiperf));
    let run = &f.runs[0];
    assert_eq!(run.provenance.producer, Producer::Aiperf);
    assert_eq!(run.load.target, LoadTarget::Concurrency(32.0));
    let ttft = run.latency(Metric::Ttft).unwrap();
    assert_eq!(ttft.std, Some(28.25));
    assert_eq!(ttft.get(Stat::P(1.0)), Some(70.0));
    assert_eq!(run.requests.succeeded, Some(796));
    assert_eq!(run.requests.failed, Some(4));
    assert_eq!(run.requests.total, Some(800));
    assert_eq!(run.tokens.total_input, Some(437_999));
    assert_eq!(run.tokens.total_output, Some(159_598));
    assert_eq!(run.throughput.output_tok_s, Some(1964.9));
    assert_eq!(run.throughput.requests_per_s, Some(9.8));
    let places: Vec<String> = f.all_problems().map(|p| p.place()).collect();
    assert_eq!(
        places,
        ["aiperf/acme_chat-13b-openai-chat-concurrency32/profile_export_aiperf.csv:19"]
    );
}

/// AIPerf 0.10 (schema 1.3): a `sum` column, rows sorted by name, a dozen HTTP timings and
/// counts benchdeck does not model, a metric without a unit, negative values, an empty GPU table
/// after two blank lines, CRLF.
#[test]
fn aiperf_0_10_csv_with_a_sum_column_and_an_empty_gpu_table() {
    let path = "aiperf/acme_chat-13b-openai-chat-concurrency16/profile_export_aiperf.csv";
    let f = import_file(path);
    assert_eq!(f.producer, Some(Producer::Aiperf));
    let [run] = f.runs.as_slice() else {
        panic!("one run expected: {:?}", f.problems)
    };
    assert_eq!(run.load.target, LoadTarget::Concurrency(16.0));
    assert_eq!(run.config.model.as_deref(), Some("acme_chat-13b"));
    let ttft = run.latency(Metric::Ttft).unwrap();
    assert_eq!(ttft.mean, Some(189.1));
    assert_eq!(ttft.get(Stat::P(5.0)), Some(71.05));
    assert_eq!(ttft.std, Some(120.6));
    assert_eq!(run.latency_stat(Metric::E2e, Stat::P(99.0)), Some(17600.8));
    assert_eq!(run.latency_stat(Metric::Tpot, Stat::Median), Some(14.8));
    assert_eq!(run.latency_stat(Metric::Ttst, Stat::Mean), Some(21.35));
    assert_eq!(run.throughput.output_tok_s, Some(623.7));
    assert_eq!(run.throughput.output_tok_s_per_user, Some(68.4));
    assert_eq!(run.requests.succeeded, Some(64));
    assert_eq!(run.requests.failed, Some(2));
    assert_eq!(run.tokens.total_output, Some(26_259));
    let problems: Vec<String> = f.all_problems().map(ToString::to_string).collect();
    assert_eq!(
        problems,
        [
            format!("{path}:25: warning: GPU telemetry table (0 rows) skipped: the model has no place for GPU metrics"),
            format!(
                "{path}:2:1: warning: 4 rows hold metrics benchdeck does not read from GenAI-Perf \
                 or AIPerf; their values are ignored: `E2E Output Token Throughput \
                 (tokens/sec/user)` (line 2), `HTTP Chunks Received` (line 3), `HTTP Waiting \
                 (TTFB) (ms)` (line 4), `OSL Mismatch Diff % (%)` (line 7)"
            ),
        ]
    );
}

#[test]
fn aiperf_with_every_request_failed_is_a_failed_run() {
    let f = import_file("aiperf/all-failed/profile_export_aiperf.csv");
    let run = &f.runs[0];
    assert!(run.all_failed());
    assert_eq!(run.requests.failed, Some(20));
    assert!(run.latency.is_empty());
    assert_eq!(run.latency_stat(Metric::E2e, Stat::P(50.0)), None);
    let messages: Vec<String> = f.all_problems().map(ToString::to_string).collect();
    assert!(
        messages.contains(
            &"aiperf/all-failed/profile_export_aiperf.csv:1: warning: no request succeeded; the \
              run is shown as failed, its statistics are ignored"
                .to_string()
        ),
        "{messages:#?}"
    );
    // `all-failed` is no artifact directory name: the load is unknown, and said so.
    assert_eq!(run.load.target, LoadTarget::MaxThroughput);
    assert!(messages
        .iter()
        .any(|m| m.contains("warning: the load point is unknown")));
}

#[test]
fn every_problem_of_a_broken_file_has_its_place() {
    let f = import_file("genai-perf/broken/profile_export_genai_perf.csv");
    let file = "genai-perf/broken/profile_export_genai_perf.csv";
    let run = &f.runs[0];
    let mut problems: Vec<String> = f.all_problems().map(ToString::to_string).collect();
    problems.sort();
    let mut expected = vec![
        format!("{file}:2:5: error: `Time To First Token (ms)`: expected a number, found `fast`"),
        format!(
            "{file}:3:1: error: `Request Latency (minutes)`: expected a time unit in the label, \
             `(ms)`, `(s)`, `(us)` or `(ns)`; this metric is skipped"
        ),
        format!(
            "{file}:4: warning: expected 6 cells as in the header at line 1, found 7; the extra \
             cells are ignored"
        ),
        format!(
            "{file}:5:1: warning: `Time To First Token (ms)` appears again (first at line 2); \
             this row is ignored"
        ),
        format!(
            "{file}:6:1: warning: `Mystery Metric (ms)` is not a metric benchdeck reads from \
             GenAI-Perf or AIPerf; its values are ignored"
        ),
        format!(
            "{file}:9:1: error: `Request Throughput (per min)`: expected a rate per second \
             (`per sec`, `tokens/sec`), found the unit `per min`; the value is ignored"
        ),
        format!(
            "{file}:10:2: error: `Request Count (count)`: expected a whole number of at least 0, \
             found 480.5"
        ),
        format!(
            "{file}: warning: the load point is unknown: the CSV does not record it, and the \
             file is not in a GenAI-Perf artifact directory named `{{model}}-{{endpoint}}-\
             {{concurrencyN|request_rateR}}`; the JSON summary beside it \
             (`profile_export_*.json`) has it"
        ),
    ];
    expected.sort();
    assert_eq!(problems, expected);
    let ttft = run.latency(Metric::Ttft).unwrap();
    assert_eq!(ttft.mean, Some(105.7));
    assert_eq!(ttft.min, None, "N/A is missing");
    assert_eq!(ttft.max, Some(149.87));
    assert_eq!(ttft.get(Stat::P(99.0)), None);
    assert_eq!(ttft.get(Stat::Median), Some(106.55));
    assert_eq!(run.latency(Metric::E2e), None);
    assert_eq!(run.latency_stat(Metric::Tpot, Stat::P(99.0)), Some(17.28));
    assert_eq!(run.throughput.output_tok_s, Some(1044.25));
    assert_eq!(run.throughput.requests_per_s, None);
    assert_eq!(run.requests.succeeded, None);
}

#[test]
fn artifact_directory_names() {
    let (id, load) =
        artifact_directory("a/meta-llama_Llama-3.1-8B-Instruct-openai-chat-concurrency16/x.csv")
            .unwrap();
    assert_eq!(
        id.model.as_deref(),
        Some("meta-llama_Llama-3.1-8B-Instruct")
    );
    assert_eq!(load, LoadTarget::Concurrency(16.0));
    let (id, load) =
        artifact_directory("gpt2-triton-tensorrtllm-request_rate32.0\\profile.csv").unwrap();
    assert_eq!(id.model.as_deref(), Some("gpt2"));
    assert_eq!(load, LoadTarget::RequestRate(Rate::PerSecond(32.0)));
    // An endpoint benchdeck does not know: the whole prefix is the label, not a guessed model.
    let (id, _) = artifact_directory("my-model-custom-concurrency4/p.csv").unwrap();
    assert_eq!(id.model, None);
    assert_eq!(id.label.as_deref(), Some("my-model-custom"));
    for path in [
        "profile_export_genai_perf.csv",
        "x/model-openai-chat-concurrency0/p.csv",
        "x/model-openai-chat-concurrencyX/p.csv",
        "x/model-openai-chat-request_rate-1/p.csv",
        "x/-concurrency4/p.csv",
        "x/results/p.csv",
    ] {
        assert_eq!(artifact_directory(path), None, "{path}");
    }
}

#[test]
fn headers_only_and_garbage_do_not_panic() {
    for text in [
        "Metric,avg,min,max\r\n",
        "Metric,avg,p99\n\"unclosed,1,2\n",
        "Metric,avg,p99\nRequest Latency (ms),1e400,1\n",
        "Metric,avg,max\n,\n,,,,\nMetric\nMetric,Value\nRequest Count,-1\n",
    ] {
        let f = import_text("x/profile_export_genai_perf.csv", text);
        assert_eq!(f.producer, Some(Producer::GenaiPerf), "{text:?}");
        assert!(
            f.all_problems().any(|p| p.severity == Severity::Error),
            "{text:?}: {:?}",
            f.problems
        );
    }
}

#[test]
fn truncated_anywhere_it_never_panics() {
    let text = crate::fixtures::text(&format!("{C8}.csv"));
    for end in (0..text.len()).filter(|i| text.is_char_boundary(*i)) {
        let f = import_text("t.csv", &text[..end]);
        assert!(!f.runs.is_empty() || !f.problems.is_empty());
    }
}
