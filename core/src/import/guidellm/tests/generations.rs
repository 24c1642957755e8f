//! Each generation's layout read from its fixture: 0.3's report and CSV, 0.4's arguments, 0.5's
//! CSV sweep, 0.6's metadata and 0.7's JSON, YAML and CSV, with the CSV matching the report.

use super::{assert_csv_matches_report, fixture, messages, read};
use crate::import::import;
use crate::model::{LoadTarget, Metric, Producer, Rate, Stat};

#[test]
fn v03_report_with_seconds_converted_and_every_status() {
    let f = fixture("v0.3/benchmarks.json");
    assert_eq!(f.producer, Some(Producer::Guidellm));
    let [tpot_warning] = messages(&f).try_into().expect("one warning");
    assert!(
        tpot_warning.starts_with(
            "guidellm/v0.3/benchmarks.json#benchmarks[0].metrics.time_per_output_token_ms: \
             warning: left out of every benchmark: in GuideLLM 0.2–0.3 it is (last − first \
             token) / output tokens"
        ),
        "{tpot_warning}"
    );
    let [sync, conc, rate] = f.runs.as_slice() else {
        panic!("expected three runs, got {}", f.runs.len())
    };
    assert_eq!(
        sync.provenance.to_string(),
        "guidellm/v0.3/benchmarks.json#benchmarks[0]"
    );
    assert_eq!(
        sync.provenance.producer_version, None,
        "0.3 does not say its version"
    );
    assert_eq!(sync.config.model.as_deref(), Some("acme/chat-13b"));
    assert_eq!(sync.config.label, None);

    // Load points from `args.strategy`, measured load from the successful means.
    assert_eq!(sync.load.target, LoadTarget::Sequential);
    assert_eq!(conc.load.target, LoadTarget::Concurrency(4.0));
    assert_eq!(
        rate.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(2.5))
    );
    assert_eq!(rate.load.max_concurrency, None);
    assert_eq!(
        (conc.load.achieved_rps, conc.load.achieved_concurrency),
        (Some(2.375), Some(3.75))
    );

    // `request_latency` is in seconds: 1.625 s is 1625 ms.
    let e2e = sync.latency(Metric::E2e).unwrap();
    assert_eq!(
        (e2e.mean, e2e.median, e2e.std, e2e.min, e2e.max),
        (
            Some(1625.0),
            Some(1562.5),
            Some(125.0),
            Some(1375.0),
            Some(1875.0)
        )
    );
    assert_eq!(e2e.get(Stat::P(25.0)), Some(1531.25));
    assert_eq!(e2e.get(Stat::P(99.9)), Some(1875.0), "p999 is the 99.9th");
    assert_eq!(e2e.get(Stat::P(0.1)), Some(1375.0), "p001 is the 0.1th");
    assert_eq!(e2e.percentile(50.0), None, "0.3 writes no p50");
    let ttft = sync.latency(Metric::Ttft).unwrap();
    assert_eq!(
        (ttft.mean, ttft.get(Stat::P(5.0))),
        (Some(52.5), Some(46.0))
    );
    // inter_token_latency_ms is vLLM's TPOT; 0.3's time_per_output_token_ms is (last − first
    // token) / n, neither TPOT nor TPOT including the first token: left out.
    assert_eq!(sync.latency_stat(Metric::Tpot, Stat::Mean), Some(12.25));
    assert!(sync.latency(Metric::TpotInclFirst).is_none());
    assert!(sync.latency(Metric::Itl).is_none());
    assert_eq!(sync.throughput.output_tok_s, Some(78.5));
    assert_eq!(sync.throughput.total_tok_s, Some(398.75));
    assert_eq!(sync.throughput.input_tok_s, None, "0.3 has no prompt rate");
    assert_eq!(sync.throughput.requests_per_s, Some(0.625));
    assert_eq!(
        (sync.tokens.total_input, sync.tokens.total_output),
        (Some(5120), Some(1255))
    );
    assert_eq!(
        sync.tokens.output_len.as_ref().and_then(|d| d.mean),
        Some(125.5)
    );

    assert_eq!(
        (
            conc.requests.total,
            conc.requests.succeeded,
            conc.requests.failed,
            conc.requests.incomplete
        ),
        (Some(40), Some(38), Some(2), Some(0))
    );
    assert_eq!(rate.requests.incomplete, Some(1));

    // Per-request samples: seconds to ms, failed requests kept with ok = false.
    let s = sync.samples.as_ref().unwrap();
    assert_eq!(s.ok, vec![true, true]);
    assert_eq!(s.e2e_ms, vec![1500.0, 1750.0]);
    assert_eq!(s.ttft_ms, vec![50.0, 55.5]);
    assert_eq!(s.tpot_ms, vec![12.0, 12.5]);
    assert_eq!(s.output_tokens, vec![128.0, 120.0]);
    let s = conc.samples.as_ref().unwrap();
    assert_eq!(s.ok, vec![true, false]);
    assert_eq!(s.e2e_ms, vec![1875.0, 30000.0]);
    assert!(s.ttft_ms[1].is_nan(), "the timed-out request has no TTFT");
    let s = rate.samples.as_ref().unwrap();
    assert_eq!(s.ok, vec![true, false], "the incomplete request is not ok");
    assert_eq!(s.ttft_ms, vec![110.0, 180.0]);
}

#[test]
fn v03_csv_gives_the_numbers_of_the_report() {
    let csv = fixture("v0.3/benchmarks.csv");
    assert_eq!(csv.producer, Some(Producer::Guidellm));
    let [tpot_warning] = messages(&csv).try_into().expect("one warning");
    assert!(
        tpot_warning.contains(
            "warning: the `Time per output token ms` columns are left out: in GuideLLM 0.2–0.3"
        ),
        "{tpot_warning}"
    );
    let report = fixture("v0.3/benchmarks.json");
    assert_eq!(csv.runs.len(), 3);
    for (c, r) in csv.runs.iter().zip(&report.runs) {
        assert_csv_matches_report(c, r);
    }
    assert_eq!(
        csv.runs[1].provenance.to_string(),
        "guidellm/v0.3/benchmarks.csv:3"
    );
}

#[test]
fn v04_args_layout_with_throughput_and_poisson() {
    let f = fixture("v0.4/benchmarks.json");
    assert_eq!(f.producer, Some(Producer::Guidellm));
    assert_eq!(messages(&f), Vec::<String>::new());
    let [sync, max, poisson] = f.runs.as_slice() else {
        panic!("expected three runs")
    };
    // `args.model` is null (taken from the server): the benchmark's backend names it.
    assert_eq!(sync.config.model.as_deref(), Some("acme/chat-13b"));
    assert_eq!(
        sync.config.dataset.as_deref(),
        Some("prompt_tokens=256,output_tokens=128")
    );
    assert_eq!(sync.load.target, LoadTarget::Sequential);
    assert_eq!(max.load.target, LoadTarget::MaxThroughput);
    assert_eq!(max.load.max_concurrency, Some(64));
    assert_eq!(max.load.achieved_concurrency, Some(31.5));
    assert_eq!(
        poisson.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(3.25))
    );
    assert_eq!(poisson.load.max_concurrency, Some(64));
    assert_eq!(poisson.load.achieved_rps, Some(3.125));
    // 0.4+ writes p50 as well as the median.
    let ttft = max.latency(Metric::Ttft).unwrap();
    assert_eq!(
        (ttft.percentile(50.0), ttft.median, ttft.get(Stat::P(99.9))),
        (Some(850.0), Some(850.0), Some(1500.0))
    );
    assert_eq!(max.latency_stat(Metric::E2e, Stat::Mean), Some(4500.0));
    assert_eq!(max.requests.succeeded, Some(48));
    assert_eq!(max.throughput.output_tok_s, Some(812.5));
    assert_eq!(
        max.samples.as_ref().map(|s| s.e2e_ms.clone()),
        Some(vec![4500.0])
    );
}

#[test]
fn v06_metadata_version_and_warm_up_requests_left_out_of_the_samples() {
    let f = fixture("v0.6/benchmarks.json");
    assert_eq!(
        messages(&f),
        vec![
            "guidellm/v0.6/benchmarks.json#benchmarks[0].requests: warning: 1 listed requests ran \
             during the warm-up or cool-down (outside `scheduler_metrics.measure_start_time`…\
             `measure_end_time`); they are left out of the samples, as GuideLLM leaves them out of \
             its metrics"
        ]
    );
    let [run] = f.runs.as_slice() else {
        panic!("expected one run")
    };
    assert_eq!(run.provenance.producer_version.as_deref(), Some("0.6.0"));
    assert_eq!(run.config.dataset.as_deref(), Some("sharegpt"));
    assert_eq!(run.load.target, LoadTarget::Concurrency(8.0));
    let s = run.samples.as_ref().unwrap();
    assert_eq!(s.ok, vec![true, true, false]);
    assert_eq!(s.ttft_ms[..2], [75.0, 72.5]);
    assert_eq!(s.e2e_ms, vec![1500.0, 1250.0, 500.0]);
    assert_eq!(
        s.start_s,
        vec![0.0, 2.0, 4.0],
        "`request_start_time`s as seconds after the first kept request"
    );
    assert!(s.output_tokens[2].is_nan());
    assert_eq!(
        (
            run.requests.succeeded,
            run.requests.failed,
            run.requests.total
        ),
        (Some(30), Some(1), Some(31))
    );
}

#[test]
fn v07_config_labels_and_request_statuses() {
    let f = fixture("v0.7/benchmarks.json");
    assert_eq!(messages(&f), Vec::<String>::new());
    let [low, high] = f.runs.as_slice() else {
        panic!("expected two runs")
    };
    assert_eq!(low.provenance.producer_version.as_deref(), Some("0.7.2"));
    assert_eq!(low.config.model.as_deref(), Some("acme/chat-13b"));
    assert_eq!(low.config.label.as_deref(), Some("acme-tp2"));
    assert_eq!(
        low.config.hardware.as_deref(),
        Some("2x L40S"),
        "labels.gpu"
    );
    assert_eq!(low.config.key(), "acme-tp2");
    // The GPU count the labels give makes per-GPU throughput readable without a price.
    let per_gpu = crate::quantity::Quantity::OutputPerGpu.of(low);
    assert_eq!(per_gpu, low.throughput.output_tok_s.map(|t| t / 2.0));
    assert!(per_gpu.is_some());
    // The benchmark's `start_time` (Unix seconds) dates the run.
    assert_eq!(
        low.provenance.date.as_ref().map(|d| d.as_str()),
        Some("2026-01-06T11:46:41")
    );
    assert_eq!(low.load.target, LoadTarget::Concurrency(2.0));
    assert_eq!(high.load.target, LoadTarget::Concurrency(8.0));
    assert_eq!(
        (high.load.achieved_rps, high.load.achieved_concurrency),
        (Some(5.5), Some(7.625))
    );
    assert_eq!(high.throughput.input_tok_s, Some(1408.0));
    assert_eq!(
        (
            high.requests.total,
            high.requests.succeeded,
            high.requests.failed,
            high.requests.incomplete
        ),
        (Some(24), Some(22), Some(1), Some(1))
    );
    // The successful status only: the errored (0.25 s) and incomplete ones are not mixed in.
    assert_eq!(high.latency_stat(Metric::E2e, Stat::Min), Some(1187.5));
    assert_eq!(high.latency_stat(Metric::Ttft, Stat::P(99.0)), Some(160.0));
    let s = high.samples.as_ref().unwrap();
    assert_eq!(s.ok, vec![true, false, false]);
    assert_eq!(s.e2e_ms, vec![1437.5, 250.0, 750.0]);
    assert_eq!(s.tpot_ms[2], 12.0);
    assert_eq!(s.input_tokens, vec![256.0, 256.0, 256.0]);
}

#[test]
fn v07_yaml_is_read_like_the_json() {
    let yaml = fixture("v0.7/benchmarks.yaml");
    assert_eq!(yaml.producer, Some(Producer::Guidellm));
    assert_eq!(messages(&yaml), Vec::<String>::new());
    let json = fixture("v0.7/benchmarks.json");
    assert_eq!(yaml.runs.len(), 2);
    for (y, j) in yaml.runs.iter().zip(&json.runs) {
        let mut y = y.clone();
        y.provenance.file = j.provenance.file.clone();
        // NaN != NaN: compare the samples' text.
        assert_eq!(format!("{y:?}"), format!("{j:?}"));
    }
    assert_eq!(
        yaml.runs[1].provenance.to_string(),
        "guidellm/v0.7/benchmarks.yaml#benchmarks[1]"
    );
}

#[test]
fn v07_csv_with_the_union_of_every_benchmarks_columns() {
    let csv = fixture("v0.7/benchmarks.csv");
    assert_eq!(csv.producer, Some(Producer::Guidellm));
    assert_eq!(messages(&csv), Vec::<String>::new());
    let report = fixture("v0.7/benchmarks.json");
    assert_eq!(csv.runs.len(), 2);
    for (c, r) in csv.runs.iter().zip(&report.runs) {
        assert_csv_matches_report(c, r);
    }
}

#[test]
fn v05_csv_sweep_finds_rates_in_later_profiles() {
    let f = fixture("v0.5/benchmarks.csv");
    assert_eq!(
        messages(&f),
        vec![
            "guidellm/v0.5/benchmarks.csv:7:9: warning: the CSV names the strategy `constant` but \
             not its rate for this benchmark (neither the profile nor a later benchmark's \
             `completed_strategies` lists it: the last benchmark of a sweep); the run has no load \
             value, the JSON or YAML report has it"
        ]
    );
    let targets: Vec<LoadTarget> = f.runs.iter().map(|r| r.load.target).collect();
    assert_eq!(
        targets,
        vec![
            LoadTarget::Sequential,
            LoadTarget::MaxThroughput,
            LoadTarget::RequestRate(Rate::PerSecond(1.5)),
            LoadTarget::MaxThroughput,
        ]
    );
    let last = &f.runs[3];
    assert_eq!(
        last.load.achieved_rps,
        Some(3.0),
        "still placed by its rate"
    );
    assert_eq!(last.latency_stat(Metric::E2e, Stat::Mean), Some(4500.0));
    assert_eq!(last.latency_stat(Metric::Ttft, Stat::P(99.0)), Some(200.0));
    assert_eq!(last.config.model.as_deref(), Some("acme/chat-13b"));
    assert_eq!(last.provenance.producer_version, None);
}

#[test]
fn a_request_that_ends_before_it_starts_keeps_its_latency_but_not_its_start() {
    let mut doc: serde_json::Value = serde_json::from_slice(&read("v0.7/benchmarks.json")).unwrap();
    let first = &mut doc["benchmarks"][0]["requests"]["successful"][0];
    first["request_end_time"] = serde_json::json!(1767700001.5);
    let f = import("g.json", doc.to_string().as_bytes());
    let problems = messages(&f);
    assert!(
        problems
            .iter()
            .any(|p| p.contains("requests.successful[0].request_end_time")
                && p.contains("before it starts")),
        "{problems:?}"
    );
    let s = f.runs[0].samples.as_ref().unwrap();
    assert!(s.start_s[0].is_nan());
    assert_eq!(
        s.start_s[1], 0.0,
        "the other request is the first with a start"
    );
    assert!(s.e2e_ms[0].is_finite());
}

/// GuideLLM 0.3's `from-file` asset: a `---` document start, the model's field order, nulls
/// written as nothing. Values from `guidellm/v0.3/benchmarks-from-file.yaml` by hand.
#[test]
fn v03_yaml_with_a_document_start_and_empty_nulls() {
    let f = fixture("v0.3/benchmarks-from-file.yaml");
    assert_eq!(f.producer, Some(Producer::Guidellm), "{:?}", messages(&f));
    let [tpot_warning] = messages(&f).try_into().expect("one warning");
    assert!(
        tpot_warning.contains("metrics.time_per_output_token_ms: warning: left out"),
        "{tpot_warning}"
    );
    let [run] = f.runs.as_slice() else {
        panic!("expected one run")
    };
    assert_eq!(run.load.target, LoadTarget::Concurrency(4.0));
    assert_eq!(
        run.config.model.as_deref(),
        Some("Qwen/Qwen2.5-7B-Instruct")
    );
    assert_eq!(
        (run.requests.succeeded, run.requests.total),
        (Some(18), Some(18))
    );
    // request_latency is in seconds: mean 1.621408012178209 s, p95 1.7677290439605713 s.
    let e2e = run.latency(Metric::E2e).unwrap();
    assert!((e2e.mean.unwrap() - 1621.408012178209).abs() < 1e-9);
    assert!((e2e.get(Stat::P(95.0)).unwrap() - 1767.7290439605713).abs() < 1e-9);
    assert_eq!(
        run.latency_stat(Metric::Ttft, Stat::Median),
        Some(57.13033676147461)
    );
    assert_eq!(
        run.latency_stat(Metric::Tpot, Stat::Mean),
        Some(12.282996248594003)
    );
    assert!(run.latency(Metric::TpotInclFirst).is_none());
    assert_eq!(run.throughput.output_tok_s, Some(316.4580152029814));
    assert_eq!(run.load.achieved_rps, Some(2.249587799739249));
    assert_eq!(
        (run.tokens.total_input, run.tokens.total_output),
        (Some(4627), Some(2304))
    );
    // The two sampled requests.
    let s = run.samples.as_ref().unwrap();
    assert_eq!(s.ok, [true, true]);
    assert_eq!(s.ttft_ms, [49.692392349243164, 84.40637588500977]);
}
