//! AIPerf's records: the fixture's 12 requests (10 successes, an HTTP 500 and a cancellation),
//! alone and joined into the summary beside them. Expected values computed by hand from the
//! records; the summary JSON, computed by AIPerf's rules from the same records, agrees.

use crate::fixtures::{
    close, close_stats, counts, errors, import_file, import_folder, messages, one_run,
};
use crate::model::{LoadTarget, Metric, Producer, Stat};

const DIR: &str = "aiperf/Qwen_Qwen3-0.6B-openai-chat-concurrency4";

#[test]
fn the_records_alone_are_one_run_with_per_request_samples() {
    let f = import_file(&format!("{DIR}/profile_export.jsonl"));
    assert_eq!(f.producer, Some(Producer::Aiperf));
    assert_eq!(errors(&f), Vec::<String>::new());
    let run = one_run(&f);
    // Model and load from the artifact folder's name.
    assert_eq!(run.load.target, LoadTarget::Concurrency(4.0));
    assert_eq!(run.config.model.as_deref(), Some("Qwen_Qwen3-0.6B"));
    assert_eq!(counts(run), (Some(12), Some(10), Some(2)));
    let s = run.samples.as_ref().unwrap();
    assert_eq!(s.len(), 12);
    assert_eq!(s.ok.iter().filter(|ok| !**ok).count(), 2);
    assert_eq!(s.ttft_ms[0], 59.438567);
    assert_eq!(s.e2e_ms[0], 405.23554);
    assert!((s.tpot_ms[0] - 11.526565766562317).abs() < 1e-12);
    assert_eq!(s.input_tokens[2], 550.0, "a failure's `error_isl`");
    // Starts in seconds after the first request, from whole nanoseconds.
    assert_eq!(
        &s.start_s[..4],
        &[0.0, 0.008886381, 0.412124742, 0.003103913]
    );
    // The summary beside them holds AIPerf's own statistics of the same records.
    close_stats(
        run,
        &[
            (Metric::Ttft, Stat::Mean, 58.3118238),
            (Metric::Ttft, Stat::Std, 16.87503460862698),
            (Metric::Ttft, Stat::P(99.0), 86.48660067),
            (Metric::E2e, Stat::P(90.0), 474.1173996),
            (Metric::Tpot, Stat::Mean, 11.493091336423596),
            (Metric::Ttst, Stat::Mean, 11.4919193),
            // 317 chunk gaps of the successful requests, pooled.
            (Metric::Itl, Stat::Mean, 11.508366100946372),
            (Metric::Itl, Stat::Median, 11.580292),
        ],
    );
    assert_eq!(
        (run.tokens.total_input, run.tokens.total_output),
        (Some(5500), Some(327))
    );
    close(run.throughput.output_tok_s_per_user, 87.05798863079197);
    let text = messages(&f);
    assert!(
        text.contains(
            "failed requests by kind: 499 RequestCancellationError (1), 500 Internal Server Error \
         (1); 1 of them cancelled by AIPerf on purpose"
        ),
        "{text}"
    );
    assert!(text.contains("`metadata.cancellation_time_ns`"), "{text}");
    assert!(text.contains("read without the `profile_export_aiperf.json` beside it"));
}

#[test]
fn joined_the_summarys_run_takes_the_samples_and_the_pooled_itl() {
    let names = ["profile_export.jsonl", "profile_export_aiperf.json"];
    let imported = import_folder(DIR, &names, DIR);
    let [records, summary] = imported.as_slice() else {
        unreachable!()
    };
    assert!(records.runs.is_empty());
    assert_eq!(records.joined_into.as_deref(), Some(summary.file.as_str()));
    let run = &summary.runs[0];
    assert_eq!(
        run.config.model.as_deref(),
        Some("Qwen/Qwen3-0.6B"),
        "the summary's"
    );
    assert_eq!(
        (run.requests.succeeded, run.requests.failed),
        (Some(10), Some(2))
    );
    assert_eq!(run.samples.as_ref().map(|s| s.len()), Some(12));
    close(run.latency_stat(Metric::Ttft, Stat::Mean), 58.3118238);
    close(
        run.latency_stat(Metric::Itl, Stat::Mean),
        11.508366100946372,
    );
    let text = messages(summary);
    assert!(!text.contains("read without"), "{text}");
    assert!(text.contains("failed requests by kind"), "{text}");
}

/// The shape of the shared sample before 2025-10-09: `timestamp_ns`, `credit_phase`, `ttft`.
#[test]
fn the_early_layout_and_broken_lines() {
    let text = concat!(
        r#"{"metadata":{"x_request_id":"a","timestamp_ns":1759522419154829652,"worker_id":"w","credit_phase":"profiling"},"metrics":{"error_request_count":{"value":1,"unit":"requests"}},"error":{"code":499,"type":"RequestCancellationError","message":"cancelled"}}"#,
        "\n",
        r#"{"metadata":{"x_request_id":"b","timestamp_ns":1759522419159192408,"worker_id":"w","credit_phase":"profiling"},"metrics":{"ttft":{"value":1.68,"unit":"sec"},"request_latency":{"value":7936.968269,"unit":"ms"},"ttst":{"value":134.44,"unit":"ms"},"inter_chunk_latency":{"value":[100,"fast"],"unit":"ms"},"request_count":{"value":1,"unit":"requests"}},"error":null}"#,
        "\n",
        r#"{"metadata":{"x_request_id":"c","worker_id":"w","credit_phase":"warmup"},"metrics":{},"error":null}"#,
        "\n{not json\n",
    );
    let f = crate::import::import("run/profile_export.jsonl", text.as_bytes());
    let run = &f.runs[0];
    assert_eq!(
        (run.requests.total, run.requests.succeeded),
        (Some(2), Some(1))
    );
    assert_eq!(
        run.latency_stat(Metric::Ttft, Stat::Mean),
        Some(1680.0),
        "sec to ms"
    );
    assert_eq!(run.latency_stat(Metric::Ttst, Stat::Mean), Some(134.44));
    assert_eq!(run.latency_stat(Metric::Itl, Stat::Mean), Some(100.0));
    let problems: Vec<String> = f.all_problems().map(ToString::to_string).collect();
    assert!(problems.contains(
        &"run/profile_export.jsonl:2#metrics.inter_chunk_latency: error: expected a number of at \
          least 0, found the string \"fast\""
            .to_string()
    ), "{problems:#?}");
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("run/profile_export.jsonl:4:")),
        "{problems:#?}"
    );
    assert!(problems
        .iter()
        .any(|p| p.contains("1 records of the warm-up phase are left out")));
}

#[test]
fn an_infinite_value_is_kept_as_the_slowest_never_dropped() {
    // 30 first tokens of 400 that never came: dropped, the median read 185.5 and the p99 366.3.
    let mut values: Vec<f64> = (1..=370).map(f64::from).collect();
    values.extend([f64::INFINITY; 30]);
    let d = super::summary_of(&values).unwrap();
    assert_eq!((d.mean, d.std, d.max), (None, None, None));
    assert_eq!(d.min, Some(1.0));
    assert_eq!(d.median, Some(200.5));
    assert!((d.percentile(90.0).unwrap() - 360.1).abs() < 1e-9);
    assert_eq!(
        d.percentile(95.0),
        None,
        "the p95 reaches the infinite values"
    );
    assert_eq!(d.percentile(99.0), None);
    let finite = super::summary_of(&[1.0, 2.0, f64::NAN, 3.0]).unwrap();
    assert_eq!((finite.mean, finite.max), (Some(2.0), Some(3.0)));
}
