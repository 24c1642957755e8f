//! `cargo xtask fuzz [TARGET] [--seconds N]`: under libFuzzer, one target per importer (seeded
//! with its format's fixtures) and one for each thing a report author or a reader controls
//! (seeded from `fuzz/seeds/`); see `fuzz/` and `docs/FUZZING.md`. An input that takes more than
//! 10 seconds counts as a crash. Installs the nightly toolchain
//! and cargo-fuzz when they are missing. A crash fails the command and names its input, which
//! then belongs in `tests/fixtures/fuzz-regressions/<target>/` once fixed.

use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::run::{self, step};

/// cargo-fuzz, pinned like the other tools.
const CARGO_FUZZ: &str = "0.13.2";

/// Every target and the folders that seed it, relative to the repository: an importer's
/// fixtures, or for the targets of what a report author or a reader controls the seeds in
/// `fuzz/seeds/<target>/` (cut from the seed reports and fixtures).
pub const TARGETS: &[(&str, &[&str])] = &[
    ("vllm_serve", &["tests/fixtures/vllm"]),
    (
        "vllm_offline",
        &[
            "tests/fixtures/vllm-throughput",
            "tests/fixtures/vllm-latency",
        ],
    ),
    ("sglang", &["tests/fixtures/sglang"]),
    (
        "genai_perf",
        &["tests/fixtures/genai-perf", "tests/fixtures/aiperf"],
    ),
    (
        "genai_perf_csv",
        &["tests/fixtures/genai-perf", "tests/fixtures/aiperf"],
    ),
    ("llmperf", &["tests/fixtures/llmperf"]),
    (
        "inference_benchmarker",
        &["tests/fixtures/inference-benchmarker"],
    ),
    ("guidellm", &["tests/fixtures/guidellm"]),
    ("locust", &["tests/fixtures/locust"]),
    ("k6", &["tests/fixtures/k6"]),
    ("sfs_csv", &["tests/fixtures/simple_full_stack"]),
    (
        "sfs_load_test",
        &[
            "tests/fixtures/simple_full_stack_load_test",
            "tests/fixtures/simple_full_stack_report",
        ],
    ),
    ("tidy_csv", &["tests/fixtures/tidy-csv"]),
    ("console", &["tests/fixtures/console"]),
    ("inference_perf", &["tests/fixtures/inference-perf"]),
    ("llmd_report", &["tests/fixtures/llm-d"]),
    ("aiperf_records", &["tests/fixtures/aiperf"]),
    ("perf_analyzer", &["tests/fixtures/genai-perf"]),
    ("llmperf_bench", &["tests/fixtures/llmperf-bench"]),
    ("inferencex", &["tests/fixtures/inferencex"]),
    ("mlperf", &["tests/fixtures/mlperf"]),
    ("llm_load_test", &["tests/fixtures/llm-load-test"]),
    ("lmbench", &["tests/fixtures/lmbench"]),
    ("prism", &["tests/fixtures/prism"]),
    ("aiperf_timeslices", &["tests/fixtures/aiperf/timeslices"]),
    (
        "console_table",
        &["tests/fixtures/aiperf", "tests/fixtures/genai-perf"],
    ),
    ("any", &["tests/fixtures"]),
    ("markdown", &["fuzz/seeds/markdown"]),
    ("front_matter", &["fuzz/seeds/front_matter"]),
    ("directive", &["fuzz/seeds/directive"]),
    ("inline_value", &["fuzz/seeds/inline_value"]),
    ("flowchart", &["fuzz/seeds/flowchart"]),
    ("wire", &["fuzz/seeds/wire"]),
    ("url_state", &["fuzz/seeds/url_state"]),
    ("serve_path", &["fuzz/seeds/serve_path"]),
    ("siblings", &["fuzz/seeds/siblings"]),
    ("mapping_file", &["fuzz/seeds/mapping_file"]),
    ("yaml", &["fuzz/seeds/yaml"]),
];

/// Runs `only` (or every target) for `seconds` each.
pub fn run(root: &Path, only: Option<&str>, seconds: u64) -> Result<()> {
    ensure_nightly()?;
    ensure_cargo_fuzz()?;
    let targets: Vec<_> = TARGETS
        .iter()
        .filter(|(name, _)| only.is_none_or(|o| o == *name))
        .collect();
    if targets.is_empty() {
        let names: Vec<&str> = TARGETS.iter().map(|(n, _)| *n).collect();
        bail!(
            "no fuzz target `{}`; expected one of {}",
            only.unwrap_or(""),
            names.join(", ")
        );
    }
    let mut crashed = Vec::new();
    for (name, seeds) in targets {
        step(&format!("fuzzing `{name}` for {seconds} s"));
        let corpus = root.join("fuzz").join("corpus").join(name);
        std::fs::create_dir_all(&corpus)
            .with_context(|| format!("cannot create `{}`", corpus.display()))?;
        let mut cargo = Command::new("cargo");
        cargo
            .current_dir(root)
            .args(["+nightly", "fuzz", "run", name])
            .arg(&corpus);
        for seed in *seeds {
            let dir = root.join(seed);
            if dir.is_dir() {
                cargo.arg(dir);
            }
        }
        cargo.args([
            "--",
            &format!("-max_total_time={seconds}"),
            "-rss_limit_mb=4096",
            "-timeout=10",
            "-max_len=262144",
            "-print_final_stats=1",
        ]);
        if let Err(e) = run::status(&mut cargo) {
            step(&format!("`{name}` found a problem: {e:#}"));
            crashed.push(*name);
        }
    }
    if !crashed.is_empty() {
        bail!(
            "crashes in {}; inputs are in fuzz/artifacts/<target>/",
            crashed.join(", ")
        );
    }
    Ok(())
}

fn ensure_nightly() -> Result<()> {
    let toolchains = run::output(Command::new("rustup").args(["toolchain", "list"]))?;
    if toolchains.lines().any(|l| l.starts_with("nightly")) {
        return Ok(());
    }
    step("installing the nightly Rust toolchain for cargo-fuzz (one time, about a minute)");
    run::status(Command::new("rustup").args([
        "toolchain",
        "install",
        "nightly",
        "--profile",
        "minimal",
    ]))
}

fn ensure_cargo_fuzz() -> Result<()> {
    let found = run::output(Command::new("cargo").args(["fuzz", "--version"]));
    if found.is_ok_and(|v| v.contains(CARGO_FUZZ)) {
        return Ok(());
    }
    step(&format!(
        "installing cargo-fuzz {CARGO_FUZZ} (one time, about 2 minutes)"
    ));
    run::status(Command::new("cargo").args([
        "install",
        &format!("cargo-fuzz@{CARGO_FUZZ}"),
        "--locked",
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_target_is_a_fuzz_binary_with_its_seeds() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let manifest = std::fs::read_to_string(root.join("fuzz/Cargo.toml")).unwrap();
        for (name, seeds) in TARGETS {
            assert!(manifest.contains(&format!("name = \"{name}\"")), "{name}");
            let source = root.join(format!("fuzz/fuzz_targets/{name}.rs"));
            assert!(source.is_file(), "{}", source.display());
            for seed in *seeds {
                assert!(root.join(seed).is_dir(), "{name}: {seed}");
            }
        }
        assert_eq!(manifest.matches("[[bin]]").count(), TARGETS.len());
    }
}
