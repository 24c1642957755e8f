//! LMBench CSVs written for these tests: every figure below is worked out by hand from the rows.

use crate::fixtures::{close_stats, errors, import_file, messages, one_run};
use crate::model::{LoadTarget, Metric, Producer, Rate, Stat};

#[test]
fn the_requests_are_one_run_in_ms_at_the_qps_of_the_files_name() {
    let f = import_file("lmbench/sharegpt_qps_1.5.csv");
    assert_eq!(f.producer, Some(Producer::LmBench));
    assert_eq!(errors(&f), Vec::<String>::new());
    let run = one_run(&f);
    assert_eq!(
        run.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(1.5))
    );
    // 4 requests from the first launch (…00.0) to the last finish (…06.3): 6.3 s, to the
    // precision of an epoch time in an f64 (about 1e-7 s).
    let near = |a: Option<f64>, b: f64| assert!((a.unwrap() / b - 1.0).abs() < 1e-6, "{a:?} {b}");
    near(run.load.achieved_rps, 4.0 / 6.3);
    assert_eq!(run.requests.succeeded, Some(4));
    close_stats(
        run,
        &[
            // TTFT 120, 80, 200, 300 ms: the mean 175, the median (linear) 160.
            (Metric::Ttft, Stat::Mean, 175.0),
            (Metric::Ttft, Stat::Median, 160.0),
            // E2E = TTFT + generation: 2120, 1080, 200, 4300 ms.
            (Metric::E2e, Stat::Max, 4300.0),
            (Metric::E2e, Stat::Min, 200.0),
            // TPOT = generation ÷ (tokens − 1): 20, 20, (one token: none), 20 ms.
            (Metric::Tpot, Stat::Mean, 20.0),
        ],
    );
    // 354 output tokens and 2,292 input tokens over 6.3 s.
    near(run.throughput.output_tok_s, 354.0 / 6.3);
    near(run.throughput.input_tok_s, 2292.0 / 6.3);
    let samples = run.samples.as_deref().expect("per-request samples");
    assert_eq!(samples.len(), 4);
    assert!(samples.order_known());
    let text = messages(&f);
    assert!(
        text.contains("the load point 1.5 req/s is read from `sharegpt_qps_1.5.csv`"),
        "{text}"
    );
}

#[test]
fn a_bad_cell_skips_its_request_by_line_and_a_name_without_a_number_says_so() {
    let f = import_file("lmbench/summary.csv");
    let text = messages(&f);
    assert!(
        text.contains("lmbench/summary.csv:3: error: `ttft`: expected a number of at least 0, found \"fast\"; this request is skipped"),
        "{text}"
    );
    assert!(
        text.contains("lmbench/summary.csv:4: error: `finish_time` 1765000001.2 is before `launch_time` 1765000003"),
        "{text}"
    );
    assert!(text.contains("`summary.csv` has no number"), "{text}");
    let run = one_run(&f);
    assert_eq!(run.load.target, LoadTarget::MaxThroughput);
    assert_eq!(run.requests.succeeded, Some(1));
}
