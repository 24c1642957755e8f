use super::*;

fn run_at(key: &str, target: LoadTarget) -> Run {
    Run::new(
        Provenance::new("f.json", Location::line(1), Producer::VllmServe),
        ConfigIdentity {
            engine: Some(key.into()),
            ..ConfigIdentity::default()
        },
        LoadPoint::new(target),
    )
}

#[test]
fn sweeps_group_by_configuration_and_sort_by_load_with_infinity_last() {
    let runs = vec![
        run_at("a", LoadTarget::RequestRate(Rate::Infinite)),
        run_at("b", LoadTarget::RequestRate(Rate::PerSecond(1.0))),
        run_at("a", LoadTarget::RequestRate(Rate::PerSecond(10.0))),
        run_at("a", LoadTarget::RequestRate(Rate::PerSecond(1.0))),
    ];
    let sweeps = sweeps(&runs);
    assert_eq!(sweeps.len(), 2);
    assert_eq!(sweeps[0].key, "a");
    let values: Vec<f64> = sweeps[0]
        .runs
        .iter()
        .filter_map(|r| r.load.target.value())
        .collect();
    assert_eq!(values, vec![1.0, 10.0, f64::INFINITY]);
}

#[test]
fn distribution_statistics_fall_back_between_median_and_p50() {
    let mut d = Distribution::default();
    d.set_percentile(99.0, 5.0);
    d.set_percentile(50.0, 2.0);
    d.set_percentile(99.0, 6.0);
    assert_eq!(d.percentiles.len(), 2);
    assert_eq!(d.get(Stat::Median), Some(2.0));
    assert_eq!(d.get(Stat::P(99.0)), Some(6.0));
    let s = d.scaled(1000.0);
    assert_eq!(s.get(Stat::P(50.0)), Some(2000.0));
}

#[test]
fn success_rate_uses_total_or_the_sum_of_outcomes() {
    let c = RequestCounts {
        total: Some(20),
        succeeded: Some(13),
        failed: Some(7),
        incomplete: None,
    };
    assert_eq!(c.success_rate(), Some(0.65));
    let c = RequestCounts {
        total: None,
        succeeded: Some(3),
        failed: Some(1),
        incomplete: None,
    };
    assert_eq!(c.success_rate(), Some(0.75));
    assert_eq!(RequestCounts::default().success_rate(), None);
}

#[test]
fn locations_format_like_editors_expect() {
    assert_eq!(Location::line(3).to_string(), ":3");
    assert_eq!(
        Location::Line {
            line: 3,
            column: Some(7)
        }
        .to_string(),
        ":3:7"
    );
    let at = Location::json("benchmarks[2]")
        .child("metrics")
        .child("[0]");
    assert_eq!(at.to_string(), "#benchmarks[2].metrics[0]");
    let at = Location::Json {
        line: Some(4),
        path: String::new(),
    }
    .child("mean_ttft_ms");
    assert_eq!(at.to_string(), ":4#mean_ttft_ms");
}

#[test]
fn gpus_come_from_the_price_else_the_hardware_else_the_parallel_sizes() {
    let with = |hardware: Option<&str>, settings: &[(&str, &str)]| ConfigIdentity {
        hardware: hardware.map(String::from),
        settings: settings
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..ConfigIdentity::default()
    };
    for (hardware, gpus) in [
        ("2x L40S", Some(2)),
        ("8 × H100 80GB", Some(8)),
        ("4xA10G", Some(4)),
        ("1x L4", Some(1)),
        ("A10G", None),
        ("0x A10G", None),
        ("H100 SXM", None),
        ("2025-10 cluster", None),
    ] {
        assert_eq!(with(Some(hardware), &[]).gpus(), gpus, "{hardware}");
    }
    let sweep = with(None, &[("tensor_parallel_size", "4"), ("pp", "2")]);
    assert_eq!(sweep.gpus(), Some(8));
    assert_eq!(with(None, &[("max_num_seqs", "8")]).gpus(), None);
    assert_eq!(
        with(Some("2x L40S"), &[("tp", "4")]).gpus(),
        Some(2),
        "hardware first"
    );

    let mut run = run_at("vllm", LoadTarget::Concurrency(8.0));
    run.config = with(Some("2x L40S"), &[]);
    assert_eq!(run.gpus(), Some(2));
    run.price = Some(crate::cost::Price {
        usd_per_hour: 3.0,
        gpus: Some(4),
        usd_per_kwh: None,
    });
    assert_eq!(run.gpus(), Some(4), "the report's price says so");
}
