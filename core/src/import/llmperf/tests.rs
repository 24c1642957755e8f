use super::parse_code_counts;
use crate::fixtures::{import_file, messages};
use crate::model::{LoadTarget, Metric, Producer, Stat};
use crate::problem::Severity;

#[test]
fn summary_in_seconds_with_string_integers() {
    let f = import_file("llmperf/acme-chat-13b_512_128_summary.json");
    assert_eq!(f.producer, Some(Producer::Llmperf));
    assert_eq!(messages(&f), "");
    let [run] = f.runs.as_slice() else {
        panic!("expected one run")
    };
    assert_eq!(run.config.model.as_deref(), Some("acme/chat-13b"));
    assert_eq!(
        run.config.hardware.as_deref(),
        Some("1x L4"),
        "--metadata key"
    );
    assert_eq!(run.load.target, LoadTarget::Concurrency(4.0));
    assert_eq!(run.requests.total, Some(41));
    assert_eq!(run.requests.succeeded, Some(40));
    assert_eq!(run.requests.failed, Some(1));

    // inter_token_latency_s includes the TTFT: it is never the TPOT.
    assert!(run.latency(Metric::Tpot).is_none());
    let incl = run
        .latency(Metric::TpotInclFirst)
        .expect("tpot incl. first");
    assert_eq!(incl.mean, Some(15.625));
    assert_eq!(incl.get(Stat::P(99.0)), Some(0.0205 * 1000.0));
    assert_eq!(incl.std, Some(2.0));
    assert_eq!(
        Metric::TpotInclFirst.definition(),
        "request latency divided by output tokens (includes TTFT)"
    );

    let ttft = run.latency(Metric::Ttft).unwrap();
    assert_eq!(ttft.mean, Some(250.0));
    assert_eq!(ttft.min, Some(125.0));
    assert_eq!(ttft.max, Some(468.75));
    assert_eq!(ttft.get(Stat::P(25.0)), Some(187.5));
    assert_eq!(ttft.get(Stat::Median), Some(250.0), "median is p50");
    assert_eq!(ttft.get(Stat::P(99.0)), Some(437.5));
    let e2e = run.latency(Metric::E2e).unwrap();
    assert_eq!(e2e.std, Some(250.0), "stddev in ms");
    assert_eq!(e2e.get(Stat::P(95.0)), Some(2625.0));
    assert_eq!(
        run.latency.iter().map(|m| m.metric).collect::<Vec<_>>(),
        vec![Metric::Ttft, Metric::TpotInclFirst, Metric::E2e]
    );

    // Token counts: "391" and "655" are strings in the file.
    let input = run.tokens.input_len.as_ref().unwrap();
    assert_eq!((input.min, input.max), (Some(391.0), Some(655.0)));
    assert_eq!(input.mean, Some(512.5));
    let output = run.tokens.output_len.as_ref().unwrap();
    assert_eq!((output.min, output.max), (Some(97.0), Some(161.0)));
    assert_eq!(output.get(Stat::P(90.0)), Some(146.0));

    assert_eq!(run.throughput.output_tok_s, Some(250.5));
    assert_eq!(
        run.throughput.requests_per_s,
        Some(117.0 / 60.0),
        "per minute / 60"
    );
    assert_eq!(run.load.achieved_rps, Some(117.0 / 60.0));
}

#[test]
fn all_failed_summary_is_failed_not_zero() {
    let f = import_file("llmperf/all-failed_512_128_summary.json");
    let [run] = f.runs.as_slice() else {
        panic!("expected one run")
    };
    assert!(run.all_failed());
    assert_eq!(run.requests.total, Some(10));
    assert_eq!(run.requests.failed, Some(10));
    assert!(run.latency.is_empty(), "NaN statistics are missing");
    assert_eq!(run.tokens.input_len, None);
    assert_eq!(run.load.target, LoadTarget::Concurrency(8.0));
    assert_eq!(
        messages(&f),
        "llmperf/all-failed_512_128_summary.json#results_num_completed_requests: warning: no \
         request completed; the run is shown as failed, its statistics are ignored"
    );
}

#[test]
fn broken_summary_problems_are_located() {
    let f = import_file("llmperf/broken_512_128_summary.json");
    let [run] = f.runs.as_slice() else {
        panic!("expected one run")
    };
    assert_eq!(run.load.target, LoadTarget::MaxThroughput, "no concurrency");
    assert_eq!(run.requests.total, Some(3));
    assert_eq!(run.requests.succeeded, Some(1));
    assert_eq!(run.requests.failed, Some(2));
    let ttft = run.latency(Metric::Ttft).unwrap();
    assert_eq!(ttft.mean, None);
    assert_eq!(ttft.std, None, "one success: NaN stddev");
    assert_eq!(ttft.min, Some(125.0));
    let joined = messages(&f);
    for expected in [
        "llmperf/broken_512_128_summary.json#num_concurrent_requests: error: missing; expected \
         the number of concurrent requests",
        "llmperf/broken_512_128_summary.json#results_ttft_s_mean: error: expected a number, found \
         the string \"quick\"",
        "llmperf/broken_512_128_summary.json#results_error_code_frequency: warning: expected a \
         Python dict of error codes to counts such as \"{429: 3}\", found the string \
         \"Counter({500: 2})\"",
    ] {
        assert!(
            joined.contains(expected),
            "missing {expected:?} in\n{joined}"
        );
    }
    assert_eq!(run.problems.len(), 3, "{joined}");
}

#[test]
fn individual_responses_become_samples() {
    let f = import_file("llmperf/acme-chat-13b_512_128_individual_responses.json");
    assert_eq!(f.producer, Some(Producer::Llmperf));
    assert!(f.problems.is_empty());
    let [run] = f.runs.as_slice() else {
        panic!("expected one run")
    };
    assert_eq!(run.requests.total, Some(4));
    assert_eq!(run.requests.succeeded, Some(3));
    assert_eq!(run.requests.failed, Some(1));
    let s = run.samples.as_ref().expect("samples");
    assert_eq!(s.ok, vec![true, true, false, true]);
    assert_eq!(s.ttft_ms, vec![250.0, 125.0, 0.0, 500.0]);
    assert_eq!(s.e2e_ms, vec![2000.0, 1500.0, 0.0, 2500.0]);
    assert_eq!(s.output_tokens, vec![128.0, 101.0, 0.0, 161.0]);
    assert_eq!(s.input_tokens, vec![500.0, 480.0, 520.0, 530.0]);
    // TPOT excluding the first token, computed from e2e, ttft and output tokens.
    assert_eq!(s.tpot_ms[0], (2000.0 - 250.0) / 127.0);
    assert_eq!(s.tpot_ms[1], (1500.0 - 125.0) / 100.0);
    assert!(s.tpot_ms[2].is_nan(), "failed request");
    assert_eq!(run.load.target, LoadTarget::MaxThroughput);
    let [note] = run.problems.as_slice() else {
        panic!("{}", messages(&f))
    };
    assert_eq!(note.severity, Severity::Warning);
    assert!(note.message.contains("no load axis"), "{}", note.message);
}

#[test]
fn broken_individual_responses_keep_every_row_accounted_for() {
    let f = import_file("llmperf/broken_512_128_individual_responses.json");
    let [run] = f.runs.as_slice() else {
        panic!("expected one run: {}", messages(&f))
    };
    let s = run.samples.as_ref().unwrap();
    assert_eq!(
        s.ok,
        vec![true, true],
        "the non-object row is a problem, not a sample"
    );
    assert!(s.ttft_ms[1].is_nan());
    let joined = messages(&f);
    for expected in [
        "llmperf/broken_512_128_individual_responses.json#[1]: error: expected an object for one \
         request, found the number 42; this request is skipped",
        "llmperf/broken_512_128_individual_responses.json#[2].ttft_s: error: expected a number, \
         found the string \"soon\"",
        "llmperf/broken_512_128_individual_responses.json#[2].end_to_end_latency_s: error: \
         missing on a successful request; expected its latency in seconds",
    ] {
        assert!(
            joined.contains(expected),
            "missing {expected:?} in\n{joined}"
        );
    }
}

#[test]
fn python_dict_reprs_of_error_codes() {
    assert_eq!(parse_code_counts("{}"), Some(vec![]));
    assert_eq!(
        parse_code_counts("{429: 3, 500: 1}"),
        Some(vec![("429".to_string(), 3), ("500".to_string(), 1)])
    );
    assert_eq!(
        parse_code_counts("{np.int64(429): np.int64(3)}"),
        Some(vec![("429".to_string(), 3)])
    );
    assert_eq!(
        parse_code_counts("{429.0: 2}"),
        Some(vec![("429.0".to_string(), 2)])
    );
    assert_eq!(
        parse_code_counts("{'timeout': 1}"),
        Some(vec![("timeout".to_string(), 1)])
    );
    assert_eq!(parse_code_counts("Counter({500: 2})"), None);
    assert_eq!(parse_code_counts("{429: many}"), None);
    assert_eq!(parse_code_counts("{429}"), None);
}
