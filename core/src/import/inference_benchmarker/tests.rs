use crate::fixtures::{import_file, messages};
use crate::model::{LoadTarget, Metric, Producer, Rate, Stat};
use crate::problem::Severity;

#[test]
fn sweep_without_its_warmup_step() {
    let f = import_file("inference-benchmarker/acme_chat-13b_2026-01-05-10-00-00.json");
    assert_eq!(f.producer, Some(Producer::InferenceBenchmarker));
    assert_eq!(messages(&f), "");
    assert_eq!(f.runs.len(), 3, "the warm-up step is excluded");
    let places: Vec<String> = f
        .runs
        .iter()
        .map(|r| r.provenance.location.to_string())
        .collect();
    assert_eq!(places, ["#results[1]", "#results[2]", "#results[3]"]);
    let loads: Vec<LoadTarget> = f.runs.iter().map(|r| r.load.target).collect();
    assert_eq!(
        loads,
        vec![
            LoadTarget::Concurrency(64.0),
            LoadTarget::RequestRate(Rate::PerSecond(1.5)),
            LoadTarget::RequestRate(Rate::PerSecond(3.0)),
        ]
    );
    assert_eq!(f.runs[0].load.max_concurrency, None);
    assert_eq!(
        f.runs[1].load.max_concurrency,
        Some(64),
        "max_vus caps a rate"
    );

    let throughput = &f.runs[0];
    assert_eq!(
        throughput.config.model.as_deref(),
        Some("acme-chat"),
        "model_name, not the tokenizer"
    );
    assert_eq!(throughput.config.engine.as_deref(), Some("tgi"));
    assert_eq!(throughput.config.hardware.as_deref(), Some("1x L4"));
    assert_eq!(throughput.requests.total, Some(720));
    assert_eq!(throughput.requests.succeeded, Some(716));
    assert_eq!(throughput.requests.failed, Some(4));
    assert_eq!(
        throughput.latency_stat(Metric::Ttft, Stat::Mean),
        Some(910.75)
    );
    assert_eq!(
        throughput.latency_stat(Metric::Ttft, Stat::P(99.0)),
        Some(1450.25)
    );
    assert_eq!(
        throughput.latency_stat(Metric::Ttft, Stat::Median),
        Some(900.5)
    );
    // inter_token_latency_ms excludes the first token: vLLM's TPOT.
    assert_eq!(
        throughput.latency_stat(Metric::Tpot, Stat::Mean),
        Some(30.25)
    );
    assert_eq!(
        throughput.latency_stat(Metric::Tpot, Stat::P(60.0)),
        Some(31.0)
    );
    assert_eq!(
        throughput.latency_stat(Metric::E2e, Stat::P(50.0)),
        Some(4800.0)
    );
    assert_eq!(throughput.throughput.output_tok_s, Some(91648.0 / 60.0));
    assert_eq!(throughput.throughput.requests_per_s, Some(11.9));
    assert_eq!(throughput.load.achieved_rps, Some(11.9));
    assert_eq!(throughput.tokens.total_output, Some(91648));
    assert_eq!(throughput.tokens.total_input, Some(183296));

    // serde's null (a NaN) is a missing statistic.
    let fast = &f.runs[2];
    assert_eq!(fast.latency_stat(Metric::Tpot, Stat::P(99.0)), None);
    assert_eq!(fast.latency_stat(Metric::Tpot, Stat::P(95.0)), Some(13.4));
}

#[test]
fn broken_steps_are_reported_in_place() {
    let f = import_file("inference-benchmarker/broken.json");
    assert_eq!(f.producer, Some(Producer::InferenceBenchmarker));
    assert_eq!(f.runs.len(), 4);
    let [skipped] = f.problems.as_slice() else {
        panic!("{}", messages(&f))
    };
    assert_eq!(
        skipped.to_string(),
        "inference-benchmarker/broken.json#results[3]: error: expected an object for one \
         benchmark step, found the string \"not a step\"; this step is skipped"
    );
    // No model_name: the tokenizer names the model; meta is null.
    assert_eq!(f.runs[0].config.model.as_deref(), Some("acme/chat-13b"));
    assert_eq!(f.runs[0].config.engine, None);

    let ramp = &f.runs[0];
    assert_eq!(ramp.load.target, LoadTarget::MaxThroughput);
    assert_eq!(
        ramp.problems[0].to_string(),
        "inference-benchmarker/broken.json#results[1].executor_type: error: expected \
         \"ConstantArrivalRate\" or \"ConstantVUs\", found \"RampingVUs\""
    );
    let norate = &f.runs[1];
    assert_eq!(norate.load.target, LoadTarget::MaxThroughput);
    assert_eq!(
        norate.problems[0].to_string(),
        "inference-benchmarker/broken.json#results[2].config.rate: error: expected the positive \
         request rate of a constant-arrival-rate step, found nothing"
    );
    let dead = &f.runs[2];
    assert!(dead.all_failed());
    assert_eq!(dead.requests.failed, Some(540));
    assert!(dead.latency.is_empty());
    assert_eq!(dead.problems.len(), 1);
    assert_eq!(dead.problems[0].severity, Severity::Warning);
    assert_eq!(
        dead.problems[0].place(),
        "inference-benchmarker/broken.json#results[4].successful_requests"
    );
    let bad = &f.runs[3];
    assert_eq!(
        bad.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(2.0))
    );
    assert_eq!(bad.latency_stat(Metric::Ttft, Stat::Mean), Some(80.0));
    assert_eq!(bad.latency_stat(Metric::Ttft, Stat::P(50.0)), None);
    assert_eq!(
        bad.problems[0].to_string(),
        "inference-benchmarker/broken.json#results[5].time_to_first_token_ms.p50: error: \
         expected a number, found the string \"fast\""
    );
}

#[test]
fn a_report_with_only_a_warmup_fails_with_a_reason() {
    let f = import_file("inference-benchmarker/warmup-only.json");
    assert!(f.failed());
    assert_eq!(f.producer, Some(Producer::InferenceBenchmarker));
    let [p] = f.problems.as_slice() else {
        panic!("{}", messages(&f))
    };
    assert_eq!(p.place(), "inference-benchmarker/warmup-only.json#results");
    assert!(
        p.message
            .contains("no benchmark step besides 1 warm-up step"),
        "{}",
        p.message
    );
}
