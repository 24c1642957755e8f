//! What the 95% intervals cost (the trustworthy-comparisons issue's budget): the intervals of a
//! 1,000,000-request run (at most 2 s), and a report of 20 runs × 10,000 requests read from its
//! result files and built, against the intervals alone (at most 20% of that, which is less than
//! `benchdeck build` does: it also draws every chart as SVG).
//!
//! Run with `cargo bench -p benchdeck-core --bench noise` (or `cargo xtask bench`, which
//! writes the ratio into docs/PERFORMANCE.md).

// `criterion_group!` defines an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;

use benchdeck_core::import::ImportedFile;
use benchdeck_core::model::{Metric, Run, Stat};
use benchdeck_core::noise;
use benchdeck_core::quantity::Quantity;
use benchdeck_core::report::{build_report, Palette};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};

/// Log-normal latencies (median `median` ms, σ 0.4) from a fixed xorshift generator.
fn latencies(seed: u64, n: usize, median: f64) -> Vec<f64> {
    let mut state = seed | 1;
    let mut unit = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        ((state >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    };
    (0..n)
        .map(|_| {
            let (u1, u2) = (unit(), unit());
            let z = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos();
            median * (0.4 * z).exp()
        })
        .collect()
}

/// A `vllm bench serve --save-detailed` result of `n` requests of configuration `key` at
/// concurrency `load`: its summary, and per request its TTFT, end-to-end latency, lengths and
/// 16 inter-token gaps, in seconds as vLLM writes them.
fn result_file(key: &str, load: f64, n: usize, median: f64, seed: u64) -> String {
    let ttft = latencies(seed, n, median);
    let list = |values: &mut dyn Iterator<Item = String>| values.collect::<Vec<_>>().join(",");
    let gaps = format!("[{}]", vec!["0.010"; 16].join(","));
    let mut sorted = ttft.clone();
    sorted.sort_by(f64::total_cmp);
    let at = |q: f64| sorted[((n - 1) as f64 * q) as usize];
    let mean = ttft.iter().sum::<f64>() / n as f64;
    format!(
        r#"{{"date": "20261101-120000", "backend": "vllm", "label": "{key}", "model_id": "m", "num_prompts": {n}, "request_rate": "inf", "max_concurrency": {load}, "duration": 100.0, "completed": {n}, "failed": 0, "total_input_tokens": {ti}, "total_output_tokens": {to}, "request_throughput": 10.0, "output_throughput": {tput}, "total_token_throughput": 1000.0, "mean_ttft_ms": {mean}, "median_ttft_ms": {p50}, "std_ttft_ms": {sd}, "p90_ttft_ms": {p90}, "p99_ttft_ms": {p99}, "ttfts": [{ttfts}], "itls": [{itls}], "input_lens": [{ins}], "output_lens": [{outs}], "latencies": [{e2e}], "errors": [{errors}]}}"#,
        ti = n * 512,
        to = n * 17,
        tput = 100.0 * load,
        p50 = at(0.5),
        p90 = at(0.9),
        p99 = at(0.99),
        sd = 0.4 * median,
        ttfts = list(&mut ttft.iter().map(|t| format!("{:.6}", t / 1000.0))),
        itls = list(&mut (0..n).map(|_| gaps.clone())),
        ins = list(&mut (0..n).map(|_| "512".to_string())),
        outs = list(&mut (0..n).map(|_| "17".to_string())),
        e2e = list(&mut ttft.iter().map(|t| format!("{:.6}", t / 1000.0 + 0.16))),
        errors = list(&mut (0..n).map(|_| "\"\"".to_string())),
    )
}

/// `runs` with their sorted copies dropped, as a build meets them.
fn fresh(runs: &[Run]) -> Vec<Run> {
    runs.iter()
        .map(|r| {
            let mut r = r.clone();
            if let Some(s) = &mut r.samples {
                // A copy of its own: the run shares its requests with the one it was cloned from.
                *s = std::sync::Arc::new(benchdeck_core::model::RequestSamples {
                    sorted: Default::default(),
                    ordered: Default::default(),
                    ..(**s).clone()
                });
            }
            r
        })
        .collect()
}

const REPORT: &str = "---\ntitle: Bench\nresults: [\"bench.json\"]\n---\n\n\
```chart\nid: p50\nkind: lines\nmetric: ttft\nstat: p50\n```\n\n\
```chart\nid: p99\nkind: bars\nmetric: ttft\nstat: p99\n```\n\n\
```table\nkind: head-to-head\nmetric: ttft:p50\nconfigs: [a, b]\n```\n\n\
```table\nkind: summary\nmetrics: [ttft:p50, ttft:p99, ttft:mean]\n```\n";

/// The statistics the report shows, each estimated once per run: what its intervals cost.
const SHOWN: [Stat; 4] = [Stat::P(50.0), Stat::P(90.0), Stat::P(99.0), Stat::Mean];

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("noise");
    group.sample_size(10);
    let million: Vec<Run> = benchdeck_core::import::import(
        "million.json",
        result_file("a", 8.0, 1_000_000, 200.0, 7).as_bytes(),
    )
    .runs;
    assert_eq!(million.len(), 1);
    group.bench_function("intervals of a 1,000,000-request run", |b| {
        b.iter_batched(
            || fresh(&million),
            |runs| {
                for stat in [
                    Stat::Mean,
                    Stat::P(50.0),
                    Stat::P(90.0),
                    Stat::P(99.0),
                    Stat::P(99.9),
                ] {
                    let q = Quantity::Latency {
                        metric: Metric::Ttft,
                        stat,
                    };
                    black_box(noise::estimate(q, &runs[0]));
                }
            },
            BatchSize::LargeInput,
        )
    });
    // The report's 20 result files, as `vllm bench serve --save-detailed` writes them.
    let files: Vec<(String, String)> = (0..20u32)
        .map(|i| {
            let key = if i % 2 == 0 { "a" } else { "b" };
            let load = f64::from(1u32 << (i / 2).min(9));
            let name = format!("bench/{key}-{load}.json");
            (
                name,
                result_file(key, load, 10_000, 100.0 + f64::from(i), 100 + u64::from(i)),
            )
        })
        .collect();
    let report = REPORT.replace("[\"bench.json\"]", "[\"bench/*.json\"]");
    group.bench_function("report of 20 runs x 10,000 requests from its files", |b| {
        b.iter(|| {
            let imported: Vec<ImportedFile> = files
                .iter()
                .map(|(name, text)| benchdeck_core::import::import(name, text.as_bytes()))
                .collect();
            black_box(build_report(
                "reports/bench.md",
                "bench",
                &report,
                &imported,
                &Palette::new(),
            ))
        })
    });
    let runs: Vec<Run> = files
        .iter()
        .flat_map(|(name, text)| benchdeck_core::import::import(name, text.as_bytes()).runs)
        .collect();
    assert_eq!(runs.len(), 20);
    group.bench_function("its intervals alone (20 runs x 10,000 requests)", |b| {
        b.iter_batched(
            || fresh(&runs),
            |runs| {
                for run in &runs {
                    for stat in SHOWN {
                        let q = Quantity::Latency {
                            metric: Metric::Ttft,
                            stat,
                        };
                        black_box(noise::estimate(q, run));
                    }
                }
            },
            BatchSize::LargeInput,
        )
    });
    // `benchdeck compare` of two folders of 50 runs each (1,000 requests a run, summaries and
    // per-request values): reading every file and judging every point (budget: 1 s).
    let side = |seed: u64, shift: f64| -> Vec<(String, String)> {
        (0..50u32)
            .map(|i| {
                let key = format!("c{}", i / 10);
                let load = f64::from(1u32 << (i % 10));
                let name = format!("{key}-{load}.json");
                let median = 100.0 * shift + f64::from(i);
                (
                    name,
                    result_file(&key, load, 1_000, median, seed + u64::from(i)),
                )
            })
            .collect()
    };
    let (base, new) = (side(1_000, 1.0), side(2_000, 1.05));
    let options = benchdeck_core::versus::Options {
        metrics: benchdeck_core::versus::DEFAULT_METRICS.to_vec(),
        threshold_pct: 5.0,
    };
    group.bench_function("compare of two folders of 50 runs each", |b| {
        b.iter(|| {
            let read = |files: &[(String, String)]| -> Vec<Run> {
                files
                    .iter()
                    .flat_map(|(name, text)| {
                        benchdeck_core::import::import(name, text.as_bytes()).runs
                    })
                    .collect()
            };
            let (base, new) = (read(&base), read(&new));
            let outcome = benchdeck_core::versus::compare(
                &base.iter().collect::<Vec<_>>(),
                &new.iter().collect::<Vec<_>>(),
                &options,
            );
            assert_eq!(outcome.points.len(), 50);
            black_box(outcome)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
