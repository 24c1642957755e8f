//! perf_analyzer's export: four streamed chat requests at concurrency 2, their role, finish and
//! `[DONE]` chunks left out; alone and joined into GenAI-Perf's summary. Expected values
//! computed by hand from the nanosecond timestamps.

use crate::fixtures::{bytes, close, close_stats, errors, import_file, messages, one_run};
use crate::import::import_all;
use crate::input::InputFile;
use crate::model::{LoadTarget, Metric, Producer, Stat};

const EXPORT: &str =
    "genai-perf/meta-llama_Llama-3.1-8B-Instruct-openai-chat-concurrency2/profile_export.json";

#[test]
fn each_experiment_is_a_run_timed_by_its_content_chunks() {
    let f = import_file(EXPORT);
    assert_eq!(f.producer, Some(Producer::PerfAnalyzer));
    assert_eq!(errors(&f), Vec::<String>::new());
    let run = one_run(&f);
    assert_eq!(run.load.target, LoadTarget::Concurrency(2.0));
    assert_eq!(
        run.config.model.as_deref(),
        Some("meta-llama/Llama-3.1-8B-Instruct")
    );
    assert_eq!(run.provenance.producer_version.as_deref(), Some("2.59.0"));
    assert_eq!(
        (run.requests.total, run.requests.succeeded),
        (Some(4), Some(4))
    );
    let s = run.samples.as_ref().unwrap();
    // The first request: the role chunk at 1.535707 ms is not its first token.
    assert_eq!(s.ttft_ms[0], 54.425948);
    assert_eq!(s.e2e_ms[0], 139.977826);
    assert!(s.tpot_ms.iter().all(|t| t.is_nan()), "no token counts");
    assert_eq!(s.start_s, [0.0, 0.260228009, 0.519605391, 0.779639899]);
    close_stats(
        run,
        &[
            (Metric::Ttft, Stat::Mean, 54.6531645),
            (Metric::E2e, Stat::Max, 150.403226),
            (Metric::Ttst, Stat::Mean, 13.2834975),
            // 22 gaps between content chunks, pooled.
            (Metric::Itl, Stat::Mean, 13.147796045454546),
            (Metric::Itl, Stat::Median, 13.656883),
        ],
    );
    assert!(run.latency(Metric::Tpot).is_none());
    close(run.throughput.requests_per_s, 4.298565678354022);
    let text = messages(&f);
    assert!(text.contains("`experiments[].window_boundaries`"), "{text}");
    assert!(
        text.contains("perf_analyzer's export holds no token counts"),
        "{text}"
    );
}

#[test]
fn joined_genai_perfs_run_takes_the_requests() {
    let folder = "artifacts/acme-openai-chat-concurrency8";
    let files = vec![
        InputFile {
            path: format!("{folder}/profile_export.json"),
            bytes: bytes(EXPORT),
        },
        InputFile {
            path: format!("{folder}/profile_export_genai_perf.json"),
            bytes: bytes(
                "genai-perf/acme_chat-13b-openai-chat-concurrency8/profile_export_genai_perf.json",
            ),
        },
    ];
    let imported = import_all(&files);
    let [export, summary] = imported.as_slice() else {
        unreachable!()
    };
    assert_eq!(export.joined_into.as_deref(), Some(summary.file.as_str()));
    let run = &summary.runs[0];
    assert_eq!(run.provenance.producer, Producer::GenaiPerf);
    assert_eq!(run.samples.as_ref().map(|s| s.len()), Some(4));
    assert!(
        run.latency(Metric::Itl).is_some(),
        "only the export has ITL"
    );
    assert!(!messages(summary).contains("holds no token counts"));
}

#[test]
fn a_response_time_that_is_no_whole_number_skips_its_request_with_an_error() {
    // A float (pandas wrote it) or a text among the times: the other times would no longer line
    // up with their outputs, so the request is not read rather than read wrong.
    let text = String::from_utf8(bytes(EXPORT)).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut value = value;
    let times = &mut value["experiments"][0]["requests"][1]["response_timestamps"];
    times[2] = serde_json::json!("abc");
    let files = [InputFile {
        path: "p/profile_export.json".into(),
        bytes: serde_json::to_vec(&value).unwrap(),
    }];
    let f = &import_all(&files)[0];
    assert!(
        errors(f).iter().any(|e| e.starts_with(
            "p/profile_export.json#experiments[0].requests[1].response_timestamps[2]: error: \
             expected a response's time in nanoseconds, a whole number, found the string \"abc\""
        )),
        "{:?}",
        errors(f)
    );
    assert_eq!(one_run(f).samples.as_ref().unwrap().len(), 3);
}
