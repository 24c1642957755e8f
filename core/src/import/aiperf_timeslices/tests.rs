//! AIPerf's timeslices, alone and beside their summary: every figure below is worked out by hand
//! from the fixture's three 10-second slices (6 and 10 successes, then a slice of 3 failures).

use crate::fixtures::{close, errors, import_file, import_folder, messages, one_run};
use crate::model::{LoadTarget, Metric, Producer, Stat};

#[test]
fn the_slices_alone_are_one_run_with_what_they_add_up_to() {
    let f = import_file("aiperf/timeslices/profile_export_aiperf_timeslices.json");
    assert_eq!(f.producer, Some(Producer::Aiperf));
    assert_eq!(errors(&f), Vec::<String>::new());
    let run = one_run(&f);
    assert_eq!(run.config.model.as_deref(), Some("acme/chat-13b"));
    assert_eq!(run.load.target, LoadTarget::Concurrency(32.0));
    assert_eq!(
        (run.requests.succeeded, run.requests.failed),
        (Some(16), Some(5))
    );
    assert_eq!(run.slices.len(), 3);
    assert_eq!(run.slices[1].start_s, 10.0);
    assert_eq!(run.slices[2].width_s, 10.0);
    let ttft = run.latency(Metric::Ttft).unwrap();
    // (6 × 100 + 10 × 300) / 16 = 225 ms; min 80, max 520; no percentile.
    close(ttft.get(Stat::Mean), 225.0);
    close(ttft.get(Stat::Min), 80.0);
    close(ttft.get(Stat::Max), 520.0);
    assert_eq!(ttft.get(Stat::P(99.0)), None);
    // (300 + 420 + nothing) × 10 s over 30 s.
    close(run.throughput.output_tok_s, 240.0);
    let text = messages(&f);
    assert!(
        text.contains("AIPerf's 3 time slices of this run: its mean, minimum and maximum latencies are combined from them, its percentiles cannot be"),
        "{text}"
    );
}

#[test]
fn beside_their_summary_the_slices_join_its_run() {
    let names = [
        "profile_export_aiperf.json",
        "profile_export_aiperf_timeslices.json",
    ];
    let imported = import_folder("aiperf/timeslices", &names, "run");
    let run = one_run(&imported[0]);
    assert_eq!(run.slices.len(), 3);
    close(run.latency_stat(Metric::Ttft, Stat::P(99.0)), 190.75);
    assert!(imported[1].runs.is_empty());
    assert_eq!(
        imported[1].joined_into.as_deref(),
        Some("run/profile_export_aiperf.json")
    );
    assert!(!messages(&imported[0]).contains("time slices of this run"));
}

#[test]
fn a_slice_without_its_times_is_an_error_at_its_place() {
    let text = br#"{"timeslices": [{"start_ns": 5, "end_ns": 10}, {"start_ns": 20}],
        "input_config": {"loadgen": {"concurrency": 2}}}"#;
    let f = crate::import::import("t_timeslices.json", text);
    let all = messages(&f);
    assert!(
        all.contains("t_timeslices.json#timeslices[1].start_ns: error: expected `start_ns` and `end_ns` in ns"),
        "{all}"
    );
    let run = one_run(&f);
    assert_eq!(run.slices.len(), 1);
    // Its slice states no request count: the counts are unknown, not a failed run.
    assert_eq!(run.requests.succeeded, None);
    assert!(!run.all_failed());
}
