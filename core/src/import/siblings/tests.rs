//! Sibling files joined: each pair read under neutral folder names (so no folder name gives the
//! load point), then joined; the same files in different folders, or alone, are not.

use super::*;
use crate::import::import;

/// The fixtures at `fixtures`, read under `names`, then joined.
fn joined(pairs: &[(&str, &str)]) -> Vec<ImportedFile> {
    let files: Vec<InputFile> = pairs
        .iter()
        .map(|(fixture, name)| InputFile {
            path: (*name).into(),
            bytes: crate::fixtures::bytes(fixture),
        })
        .collect();
    let mut imports: Vec<ImportedFile> = files.iter().map(|f| import(&f.path, &f.bytes)).collect();
    join_siblings(&files, &mut imports);
    imports
}

fn messages(file: &ImportedFile) -> Vec<String> {
    file.all_problems().map(|p| p.message.clone()).collect()
}

#[test]
fn an_llmperf_summary_gets_its_per_request_samples() {
    let files = joined(&[
        (
            "llmperf/acme-chat-13b_512_128_summary.json",
            "run/a_512_128_summary.json",
        ),
        (
            "llmperf/acme-chat-13b_512_128_individual_responses.json",
            "run/a_512_128_individual_responses.json",
        ),
    ]);
    let [summary, requests] = files.as_slice() else {
        unreachable!()
    };
    assert_eq!(summary.runs.len(), 1);
    let samples = summary.runs[0]
        .samples
        .as_ref()
        .expect("the per-request samples");
    assert!(samples.len() > 1);
    assert!(
        summary.runs[0].config.model.is_some(),
        "the summary's model stays"
    );
    assert_eq!(summary.joined, ["run/a_512_128_individual_responses.json"]);
    assert!(requests.runs.is_empty());
    assert_eq!(
        requests.joined_into.as_deref(),
        Some("run/a_512_128_summary.json")
    );
    assert!(!requests.failed(), "a joined file did not fail");
    for file in &files {
        assert!(
            messages(file)
                .iter()
                .all(|m| !m.contains("per-request file: it names no model")),
            "{:?}",
            messages(file)
        );
    }
}

#[test]
fn files_in_other_folders_or_alone_are_not_joined_and_still_say_what_is_missing() {
    let files = joined(&[
        (
            "llmperf/acme-chat-13b_512_128_summary.json",
            "one/a_512_128_summary.json",
        ),
        (
            "llmperf/acme-chat-13b_512_128_individual_responses.json",
            "two/a_512_128_individual_responses.json",
        ),
    ]);
    assert_eq!(files[1].runs.len(), 1);
    assert!(files[0].joined.is_empty() && files[1].joined_into.is_none());
    assert!(messages(&files[1])
        .iter()
        .any(|m| m.contains("the `*_summary.json` written next to it")));
}

#[test]
fn locust_stats_get_the_users_of_their_history() {
    let dir = "locust/results/20260102_090000/acme_chat_warm_u8";
    let files = joined(&[
        (&format!("{dir}/locust_stats.csv"), "load/locust_stats.csv"),
        (
            &format!("{dir}/locust_stats_history.csv"),
            "load/locust_stats_history.csv",
        ),
    ]);
    let [stats, history] = files.as_slice() else {
        unreachable!()
    };
    assert_eq!(stats.runs[0].load.target, LoadTarget::Concurrency(8.0));
    assert!(
        messages(stats)
            .iter()
            .all(|m| !m.contains("the load point is unknown")),
        "{:?}",
        messages(stats)
    );
    assert_eq!(stats.joined, ["load/locust_stats_history.csv"]);
    assert_eq!(
        history.joined_into.as_deref(),
        Some("load/locust_stats.csv")
    );
    assert!(!history.failed());
}

#[test]
fn genai_perf_and_aiperf_exports_are_one_run() {
    for (dir, stem) in [
        (
            "genai-perf/acme_chat-13b-openai-chat-concurrency8",
            "profile_export_genai_perf",
        ),
        (
            "aiperf/acme_chat-13b-openai-chat-concurrency32",
            "profile_export_aiperf",
        ),
    ] {
        let files = joined(&[
            (&format!("{dir}/{stem}.json"), &format!("x/{stem}.json")),
            (&format!("{dir}/{stem}.csv"), &format!("x/{stem}.csv")),
        ]);
        let [json, csv] = files.as_slice() else {
            unreachable!()
        };
        assert_eq!(json.runs.len(), 1, "{dir}");
        assert!(csv.runs.is_empty(), "{dir}: the CSV's run is the JSON's");
        assert_eq!(json.joined, [format!("x/{stem}.csv")]);
        assert_eq!(
            csv.joined_into.as_deref(),
            Some(format!("x/{stem}.json").as_str())
        );
        assert!(
            json.runs[0].load.target.value().is_some(),
            "{dir}: the JSON's load point"
        );
    }
}

const SWEEP: &str = "vllm/sweep/SERVE--max_num_seqs=8-BENCH--max_concurrency=4-num_prompts=16";

#[test]
fn a_sweep_folder_counts_each_run_once() {
    // The summary lists run 0 and run 1; only run=1.json is beside it.
    let files = joined(&[
        (&format!("{SWEEP}/summary.json"), "s/summary.json"),
        (&format!("{SWEEP}/run=1.json"), "s/run=1.json"),
    ]);
    let [summary, run_file] = files.as_slice() else {
        unreachable!()
    };
    assert_eq!(run_file.runs.len(), 1);
    assert_eq!(summary.runs.len(), 1, "run 1 counts from its own file only");
    assert_eq!(
        summary.runs[0].provenance.location.to_string(),
        "#[0]",
        "the summary keeps run 0, which no file holds"
    );
    assert!(messages(run_file).is_empty(), "{:?}", messages(run_file));
    assert_eq!(summary.joined_into, None);
}

#[test]
fn a_summary_whose_runs_all_have_files_gives_them_up() {
    let summary = crate::fixtures::text(&format!("{SWEEP}/summary.json"));
    let listed: Vec<serde_json::Value> = serde_json::from_str(&summary).unwrap();
    let files: Vec<InputFile> = [
        ("s/summary.json", summary.clone()),
        ("s/run=0.json", listed[0].to_string()),
        ("s/run=1.json", listed[1].to_string()),
    ]
    .into_iter()
    .map(|(path, text)| InputFile {
        path: path.into(),
        bytes: text.into_bytes(),
    })
    .collect();
    let mut imports: Vec<ImportedFile> = files.iter().map(|f| import(&f.path, &f.bytes)).collect();
    join_siblings(&files, &mut imports);
    assert!(imports[0].runs.is_empty());
    assert_eq!(imports[0].joined_into.as_deref(), Some("s/run=*.json"));
    assert!(!imports[0].failed());
    let counted: usize = imports.iter().map(|f| f.runs.len()).sum();
    assert_eq!(counted, 2);
}

#[test]
fn a_run_file_that_disagrees_with_its_summary_is_counted_with_a_warning() {
    let files = vec![
        InputFile {
            path: "s/summary.json".into(),
            bytes: crate::fixtures::bytes(&format!("{SWEEP}/summary.json")),
        },
        InputFile {
            path: "s/run=1.json".into(),
            bytes: crate::fixtures::text(&format!("{SWEEP}/run=1.json"))
                .replace("\"mean_ttft_ms\": 96.25", "\"mean_ttft_ms\": 99.5")
                .into_bytes(),
        },
    ];
    let mut imports: Vec<ImportedFile> = files.iter().map(|f| import(&f.path, &f.bytes)).collect();
    join_siblings(&files, &mut imports);
    assert_eq!(imports[0].runs.len(), 2, "the summary keeps both");
    assert!(
        messages(&imports[1])
            .iter()
            .any(|m| m.contains("is not the one `s/summary.json` beside it lists")),
        "{:?}",
        messages(&imports[1])
    );
}
