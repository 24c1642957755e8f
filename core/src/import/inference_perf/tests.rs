//! inference-perf's reports, each alone and as a folder: every number below is the fixture's
//! value in seconds times 1000, read off the file by hand.

use crate::fixtures::{
    close, close_stats, counts, errors, import_file, import_folder, messages, one_run,
};
use crate::model::{LoadTarget, Metric, Producer, Rate, Stat};

#[test]
fn a_rate_stage_in_seconds_becomes_one_run_in_ms() {
    let f = import_file("inference-perf/rate-sweep/stage_1_lifecycle_metrics.json");
    assert_eq!(f.producer, Some(Producer::InferencePerf));
    assert_eq!(errors(&f), Vec::<String>::new());
    let run = one_run(&f);
    assert_eq!(
        run.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(6.0))
    );
    close(run.load.achieved_rps, 6.101792364087361);
    assert_eq!(counts(run), (Some(60), Some(57), Some(3)));
    close_stats(
        run,
        &[
            (Metric::Ttft, Stat::Mean, 143.14023716094015),
            (Metric::Ttft, Stat::Median, 146.46884482840505),
            (Metric::Ttft, Stat::P(99.9), 218.37805601710625),
            (Metric::Tpot, Stat::Mean, 15.778963475140555),
            (Metric::TpotInclFirst, Stat::Mean, 16.782317979976653),
            (Metric::Itl, Stat::Median, 10.685588489309339),
            (Metric::E2e, Stat::P(0.1), 1278.8303196464268),
        ],
    );
    close(run.throughput.output_tok_s, 609.091259880359);
    close(run.throughput.input_tok_s, 2373.998757409284);
    close(run.throughput.total_tok_s, 2983.090017289643);
    close(run.throughput.requests_per_s, 4.746165661405394);
    assert_eq!(
        (run.tokens.total_input, run.tokens.total_output),
        (Some(28511), Some(7315))
    );
    close(
        run.tokens.input_len.as_ref().and_then(|d| d.mean),
        500.1929824561403,
    );
    let text = messages(&f);
    assert!(
        text.contains("failed requests by kind: `503 - Service Unavailable` (3)"),
        "{text}"
    );
    assert!(
        text.contains("inference-perf's reports name no model"),
        "{text}"
    );
    let unread = f.runs[0]
        .problems
        .iter()
        .find(|p| p.message.contains("not in benchdeck's model"))
        .expect("one warning names the fields not read");
    for field in [
        "`load_summary.schedule_delay`",
        "`load_summary.send_duration`",
        "`successes.throughput.images_per_sec`",
        "`successes.request_size_bytes`",
        "`successes.image`",
        "`successes.token_count_mismatches`",
        "`successes.prompt_tokens.cached`",
        "`failures.request_latency`",
        "`failures.prompt_tokens`",
    ] {
        assert!(
            unread.message.contains(field),
            "{field}: {}",
            unread.message
        );
    }
    assert!(!text.contains("count chunks"), "0.5+ counts tokens");
}

/// A concurrent stage's `requested_rate` (40) is its number of requests: the load point is
/// the concurrency. A v0.4 file (no `benchmark_time_seconds`) timed chunks.
#[test]
fn a_concurrent_stage_is_drawn_at_its_concurrency() {
    let f = import_file("inference-perf/v0.4-concurrent/stage_0_lifecycle_metrics.json");
    assert_eq!(errors(&f), Vec::<String>::new());
    let run = &f.runs[0];
    assert_eq!(run.load.target, LoadTarget::Concurrency(8.0));
    close(run.load.achieved_rps, 41.0534312476643);
    assert_eq!(counts(run), (Some(40), Some(40), Some(0)));
    close_stats(
        run,
        &[
            (Metric::Ttft, Stat::Mean, 357.8917936440689),
            (
                Metric::TpotInclFirst,
                Stat::Mean,
                0.024160639237016147 * 1000.0,
            ),
        ],
    );
    close(run.tokens.input_len.as_ref().and_then(|d| d.mean), 502.45);
    assert_eq!(run.tokens.total_input, None, "v0.4 has no totals");
    assert!(messages(&f).contains("count chunks, not tokens"));
}

#[test]
fn the_summary_alone_is_one_run_without_a_load_point() {
    let f = import_file("inference-perf/rate-sweep/summary_lifecycle_metrics.json");
    let run = &f.runs[0];
    assert_eq!(run.load.target, LoadTarget::MaxThroughput);
    assert_eq!(counts(run), (Some(84), Some(81), Some(3)));
    close(
        run.latency_stat(Metric::Ttft, Stat::Mean),
        133.54897815606173,
    );
    assert!(messages(&f).contains("the summary of every stage of the benchmark"));
}

#[test]
fn server_metrics_and_the_configuration_alone_say_they_are_not_runs() {
    let f = import_file("inference-perf/rate-sweep/stage_0_prometheus_metrics.json");
    assert_eq!(f.producer, Some(Producer::InferencePerf));
    assert!(f.runs.is_empty() && !f.failed(), "{}", messages(&f));
    assert_eq!(
        errors(&f),
        Vec::<String>::new(),
        "a bare NaN is an empty window"
    );
    assert!(messages(&f).contains("the model server's own Prometheus metrics"));
    let c = import_file("inference-perf/rate-sweep/config.yaml");
    assert_eq!(c.producer, Some(Producer::InferencePerf));
    assert!(c.runs.is_empty() && !c.failed());
    assert!(
        messages(&c)
            .contains("(model Qwen/Qwen3-8B, engine vllm, target lengths 500 in / 128 out)"),
        "{}",
        messages(&c)
    );
}

/// The whole folder: the configuration names the stages' model, each stage is a run, the
/// summary (their requests again) is not, and stage 0 carries the server's metrics.
#[test]
fn a_folder_joins_the_configuration_server_metrics_and_drops_the_summary() {
    let names = [
        "config.yaml",
        "stage_0_lifecycle_metrics.json",
        "stage_0_prometheus_metrics.json",
        "stage_1_lifecycle_metrics.json",
        "summary_lifecycle_metrics.json",
        "summary_prometheus_metrics.json",
    ];
    let imported = import_folder("inference-perf/rate-sweep", &names, "run");
    let runs: Vec<_> = imported.iter().flat_map(|f| &f.runs).collect();
    assert_eq!(runs.len(), 2, "two stages");
    for f in &imported {
        assert!(!f.failed(), "{}: {}", f.file, messages(f));
        assert_eq!(errors(f), Vec::<String>::new());
    }
    for run in &runs {
        assert_eq!(run.config.model.as_deref(), Some("Qwen/Qwen3-8B"));
        assert_eq!(run.config.engine.as_deref(), Some("vllm"));
        assert_eq!(run.workload.input_len, Some(500));
        assert_eq!(run.workload.output_len, Some(128));
        assert_eq!(run.workload.tokenizer.as_deref(), Some("Qwen/Qwen3-8B"));
        assert!(run
            .problems
            .iter()
            .all(|p| !p.message.contains("name no model")));
    }
    let stage0 = &imported[1];
    assert_eq!(
        stage0.runs[0].load.target,
        LoadTarget::RequestRate(Rate::PerSecond(2.0))
    );
    assert_eq!(
        stage0.joined,
        ["run/config.yaml", "run/stage_0_prometheus_metrics.json"]
    );
    let server = stage0.runs[0].server.as_deref().expect("server metrics");
    assert_eq!(server.file, "run/stage_0_prometheus_metrics.json");
    assert_eq!(
        (server.requests, server.requests_per_s),
        (Some(24.0), Some(1.745))
    );
    assert_eq!(
        (server.prompt_tok_s, server.output_tok_s),
        (Some(871.6), Some(226.8))
    );
    close(
        server
            .times_ms
            .get("time_to_first_token")
            .and_then(|d| d.mean),
        104.0,
    );
    close(
        server
            .times_ms
            .get("request_queue_time")
            .and_then(|d| d.get(Stat::P(99.0))),
        0.9,
    );
    assert_eq!(
        server.values.get("kv_cache_usage_percentage.mean"),
        Some(&0.0211)
    );
    assert_eq!(server.values.get("kv_block_reuse_gap.median"), None, "NaN");
    assert_eq!(
        imported[2].joined_into.as_deref(),
        Some("run/stage_0_lifecycle_metrics.json")
    );
    assert_eq!(
        imported[0].joined_into.as_deref(),
        Some("run/stage_0_lifecycle_metrics.json"),
        "the configuration"
    );
    let summary = &imported[4];
    assert!(summary.runs.is_empty());
    assert!(messages(summary).contains(
        "its requests are those of `run/stage_0_lifecycle_metrics.json`, \
         `run/stage_1_lifecycle_metrics.json`, each a run, so it is not counted again"
    ));
    assert!(messages(&imported[5]).contains("cannot be split among the stages"));
}

/// The same reports written as YAML (PyYAML's `safe_dump` of the JSON fixtures) read as the
/// same runs, and a YAML stage takes its server metrics as a JSON one does.
#[test]
fn a_report_written_as_yaml_reads_as_its_json() {
    for stage in ["stage_0", "stage_1"] {
        let json = import_file(&format!(
            "inference-perf/rate-sweep/{stage}_lifecycle_metrics.json"
        ));
        let yaml = import_file(&format!(
            "inference-perf/yaml/{stage}_lifecycle_metrics.yaml"
        ));
        assert_eq!(yaml.producer, Some(Producer::InferencePerf));
        assert_eq!(errors(&yaml), Vec::<String>::new());
        let (a, b) = (one_run(&json), one_run(&yaml));
        assert_eq!(a.load, b.load);
        // serde_json's and the YAML parser's last digit may differ: the same to rounding.
        let stats: Vec<_> = a
            .latency
            .iter()
            .flat_map(|l| {
                let d = &l.distribution;
                let mut all = vec![(l.metric, Stat::Mean, d.mean.unwrap_or(f64::NAN))];
                all.extend(
                    d.percentiles
                        .iter()
                        .map(|p| (l.metric, Stat::P(p.p), p.value)),
                );
                all
            })
            .collect();
        assert_eq!(
            stats.len(),
            b.latency
                .iter()
                .map(|l| l.distribution.percentiles.len() + 1)
                .sum::<usize>()
        );
        close_stats(b, &stats);
        close(
            b.throughput.output_tok_s,
            a.throughput.output_tok_s.unwrap(),
        );
        assert_eq!(a.requests, b.requests);
        assert_eq!(a.tokens.total_output, b.tokens.total_output);
    }
    // With the configuration and the summary (written as YAML too) beside them: the summary
    // gives up its run, and the configuration still names the model.
    let names = [
        "config.yaml",
        "stage_0_lifecycle_metrics.yaml",
        "stage_0_prometheus_metrics.json",
        "summary_lifecycle_metrics.yaml",
    ];
    let imported = import_folder("inference-perf/yaml", &names, "run");
    assert_eq!(
        imported[1].joined,
        ["run/config.yaml", "run/stage_0_prometheus_metrics.json"]
    );
    let run = one_run(&imported[1]);
    assert!(run.server.is_some());
    assert_eq!(run.config.model.as_deref(), Some("Qwen/Qwen3-8B"));
    assert!(
        imported[3].runs.is_empty(),
        "the summary's requests are the stage's"
    );
}

#[test]
fn yaml_with_the_keys_but_not_their_shape_is_refused_by_name() {
    let f = crate::import::import(
        "stage_0_lifecycle_metrics.yaml",
        b"load_summary: 3\nsuccesses: []\nfailures: 0\n",
    );
    let text = messages(&f);
    assert!(f.runs.is_empty());
    assert!(
        text.contains("stage_0_lifecycle_metrics.yaml")
            && text.contains("not recognised as an inference-perf lifecycle report"),
        "{text}"
    );
}
