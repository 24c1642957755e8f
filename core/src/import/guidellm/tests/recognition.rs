//! What is recognised as GuideLLM (by first line and content, YAML included), and how each
//! strategy becomes a load point.

use serde_json::{json, Value};

use super::super::load::load_point;
use super::super::{is_csv, is_csv_v03, is_yaml};
use super::messages;
use crate::import::import;
use crate::model::{LoadTarget, Producer, Rate};
use crate::problem::Severity;

#[test]
fn yaml_is_recognised_by_its_content() {
    let f = import("other.yaml", b"benchmarks:\n- name: resnet\n  score: 1\n");
    assert!(f.failed());
    assert_eq!(
        messages(&f),
        vec!["other.yaml: error: YAML not recognised as a GuideLLM report; expected a `benchmarks` list of `generative_benchmark` objects (`benchmarks.yaml`)"]
    );
    let f = import("bad.yaml", b"args:\n  target: [http://x\n");
    assert_eq!(f.producer, None);
    let [p] = f.problems.as_slice() else {
        panic!("{:?}", f.problems)
    };
    assert_eq!(p.severity, Severity::Error);
    assert!(
        p.to_string()
            .starts_with("bad.yaml:3:1: error: invalid YAML: "),
        "{p}"
    );
}

#[test]
fn detection_by_first_line_and_content() {
    assert!(is_yaml("benchmarks:"));
    assert!(is_yaml("args:"));
    assert!(is_yaml("metadata:"));
    assert!(!is_yaml("benchmarks"));
    assert!(!is_yaml("Type,Run Id"));
    // A document start, a directive and comments before the first key (the 0.3 test asset).
    assert!(is_yaml("---\nbenchmarks:\n- type_: generative_benchmark\n"));
    assert!(is_yaml("%YAML 1.1\n---\n# a report\n\nargs:\n"));
    assert!(!is_yaml("---\nresults:\n"));
    assert!(is_csv(
        "Run Info,Run Info,Benchmark,Request Latency,Time to First Token"
    ));
    assert!(!is_csv("Run Info,Run ID"));
    assert!(is_csv_v03(
        "Type,Run Id,Id,Name,Successful Requests,Successful Time to first token ms mean"
    ));
    assert!(!is_csv_v03("concurrency,total_requests,success_count"));
    // JSON with a `benchmarks` list of something else is not GuideLLM.
    let f = import("x.json", br#"{"benchmarks": [{"name": "resnet"}]}"#);
    assert_eq!(f.producer, None);
    // A report without benchmarks is still recognised, and says what is missing.
    let f = import(
        "empty.json",
        br#"{"metadata": {"version": 2, "guidellm_version": "0.7.2"}, "benchmarks": []}"#,
    );
    assert_eq!(f.producer, Some(Producer::Guidellm));
    assert_eq!(
        messages(&f),
        vec!["empty.json#benchmarks: error: the list is empty; expected one benchmark per load point"]
    );
}

#[test]
fn strategies_to_load_points() {
    let load = |v: Value| {
        let (load, issues) = load_point(v.as_object().unwrap());
        let issues: Vec<String> = issues
            .into_iter()
            .map(|i| format!("{:?} {:?}: {}", i.severity, i.key, i.message))
            .collect();
        (load.target, load.max_concurrency, issues)
    };
    assert_eq!(
        load(json!({"type_": "synchronous"})),
        (LoadTarget::Sequential, None, vec![])
    );
    assert_eq!(
        load(json!({"type_": "throughput", "max_concurrency": 512})),
        (LoadTarget::MaxThroughput, Some(512), vec![])
    );
    assert_eq!(
        load(json!({"type_": "poisson", "rate": "7.5", "max_concurrency": null})),
        (LoadTarget::RequestRate(Rate::PerSecond(7.5)), None, vec![])
    );
    assert_eq!(
        load(json!({"type_": "constant", "rate": 0})),
        (
            LoadTarget::MaxThroughput,
            None,
            vec!["Error Some(\"rate\"): expected a positive request rate (requests per second), found 0; the run has no load value".to_string()]
        )
    );
    assert_eq!(
        load(json!({"type_": "constant", "rate": 2, "max_concurrency": 2.5})),
        (
            LoadTarget::RequestRate(Rate::PerSecond(2.0)),
            None,
            vec!["Error Some(\"max_concurrency\"): expected a whole number of at least 1, found the number 2.5".to_string()]
        )
    );
    let (target, _, issues) = load(json!({"type_": "trace"}));
    assert_eq!(target, LoadTarget::MaxThroughput);
    assert_eq!(issues, vec!["Warning Some(\"type_\"): a `trace` strategy replays the arrival times of a trace; the run has no load value of its own (its measured rate and concurrency are kept)".to_string()]);
    let (_, _, issues) = load(json!({"type_": "burst"}));
    assert_eq!(issues, vec!["Warning Some(\"type_\"): strategy `burst` is not one of synchronous, concurrent, throughput, constant, poisson or trace; the run has no load value".to_string()]);
    let (_, _, issues) = load(json!({"streams": 4}));
    assert_eq!(issues, vec!["Error Some(\"type_\"): expected the strategy type (synchronous, concurrent, throughput, constant, poisson), found nothing; the run has no load value".to_string()]);
}
