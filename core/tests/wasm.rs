//! The importers and chart drawing, compiled to WebAssembly and run by
//! `wasm-bindgen-test-runner`: what the browser does with files a reader drops on the page.
//! Native behaviour is tested in `core`; these tests prove the same code works, and does not
//! panic, on `wasm32-unknown-unknown`.
#![cfg(target_arch = "wasm32")]

use benchdeck_core::chart::{self, Axis, ChartKind, ChartSpec, DrawOptions, Point, Series};
use benchdeck_core::import::import;
use benchdeck_core::model::{LoadTarget, Metric, Rate, Stat};
use benchdeck_core::problem::Severity;
use wasm_bindgen_test::wasm_bindgen_test;

const SEED_002: &[u8] = include_bytes!("../../results/vllm-vs-sglang/llama-3.1-8b-instruct.jsonl");

#[wasm_bindgen_test]
fn the_seed_results_import_in_wasm() {
    let file = import("vllm-vs-sglang/llama-3.1-8b-instruct.jsonl", SEED_002);
    assert!(!file.failed(), "{:?}", file.problems);
    assert_eq!(file.runs.len(), 12);
    let engines: Vec<String> = file.runs.iter().map(|r| r.config.key()).collect();
    assert_eq!(engines.iter().filter(|k| *k == "vllm").count(), 6);
    assert_eq!(engines.iter().filter(|k| *k == "sgl").count(), 6);
    let vllm_at_1 = file
        .runs
        .iter()
        .find(|r| {
            r.config.key() == "vllm"
                && r.load.target == LoadTarget::RequestRate(Rate::PerSecond(1.0))
        })
        .expect("vllm at 1 req/s");
    let ttft = vllm_at_1.latency_stat(Metric::Ttft, Stat::Mean).unwrap();
    assert!((ttft - 45.037_437_366_166_465).abs() < 1e-9, "{ttft}");
    assert!(file
        .runs
        .iter()
        .any(|r| r.load.target == LoadTarget::RequestRate(Rate::Infinite)));
}

#[wasm_bindgen_test]
fn bad_files_give_located_errors_not_panics() {
    let cases: [(&str, &[u8]); 5] = [
        ("binary.json", &[0xff, 0xfe, 0x00, 0x41]),
        ("empty.json", b""),
        (
            "truncated.json",
            b"{\"backend\": \"vllm\", \"mean_ttft_ms\": 1",
        ),
        (
            "nan.json",
            b"{\"backend\": \"vllm\", \"completed\": NaN, \"mean_ttft_ms\": -Infinity}",
        ),
        ("deep.json", &[b'['; 10_000]),
    ];
    for (name, bytes) in cases {
        let file = import(name, bytes);
        let problems: Vec<_> = file.all_problems().collect();
        assert!(
            problems
                .iter()
                .any(|p| p.severity == Severity::Error && p.file == name),
            "{name}: expected an error naming the file, got {problems:?}"
        );
    }
}

#[wasm_bindgen_test]
fn a_chart_draws_in_wasm() {
    let spec = ChartSpec {
        id: "ttft".into(),
        title: "Mean TTFT by request rate".into(),
        caption: String::new(),
        kind: ChartKind::GroupedBars {
            categories: vec!["1".into(), "10".into(), "∞".into()],
        },
        x: Axis::new("Request rate", "req/s"),
        y: Axis::new("Mean TTFT", "ms"),
        series: vec![Series {
            name: "vLLM".into(),
            color: 0,
            points: [45.0, 60.5, 7_000.0]
                .iter()
                .enumerate()
                .map(|(i, y)| Point {
                    x: i as f64,
                    y: Some(*y),
                    source: String::new(),
                    note: String::new(),
                    ..Point::default()
                })
                .collect(),
        }],
        annotations: Vec::new(),
        alternatives: Vec::new(),
    };
    let svg = chart::to_svg(&spec, (640, 360), &DrawOptions::default()).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..80.min(svg.len())]);
    assert!(svg.contains("Mean TTFT by request rate"));
    assert!(
        svg.matches("<rect").count() >= 3,
        "expected a bar per value"
    );
}
