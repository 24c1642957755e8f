//! `cargo xtask fuzz [TARGET] [--seconds N]`: the importers under libFuzzer, one target per
//! format (see `fuzz/`), each seeded with its format's fixtures. Installs the nightly toolchain
//! and cargo-fuzz when they are missing. A crash fails the command and names its input, which
//! then belongs in `tests/fixtures/fuzz-regressions/<target>/` once fixed.

use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::run::{self, step};

/// cargo-fuzz, pinned like the other tools.
const CARGO_FUZZ: &str = "0.13.2";

/// Every target and the fixture folders that seed it.
pub const TARGETS: &[(&str, &[&str])] = &[
    ("vllm_serve", &["vllm"]),
    ("vllm_offline", &["vllm-throughput", "vllm-latency"]),
    ("sglang", &["sglang"]),
    ("genai_perf", &["genai-perf", "aiperf"]),
    ("genai_perf_csv", &["genai-perf", "aiperf"]),
    ("llmperf", &["llmperf"]),
    ("inference_benchmarker", &["inference-benchmarker"]),
    ("guidellm", &["guidellm"]),
    ("locust", &["locust"]),
    ("k6", &["k6"]),
    ("sfs_csv", &["simple_full_stack"]),
    (
        "sfs_load_test",
        &["simple_full_stack_load_test", "simple_full_stack_report"],
    ),
    ("tidy_csv", &["tidy-csv"]),
    ("console", &["console"]),
    ("inference_perf", &["inference-perf"]),
    ("llmd_report", &["llm-d"]),
    ("aiperf_records", &["aiperf"]),
    ("perf_analyzer", &["genai-perf"]),
    ("llmperf_bench", &["llmperf-bench"]),
    ("console_table", &["aiperf", "genai-perf"]),
    ("any", &[""]),
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
            let dir = root.join("tests").join("fixtures").join(seed);
            if dir.is_dir() {
                cargo.arg(dir);
            }
        }
        cargo.args([
            "--",
            &format!("-max_total_time={seconds}"),
            "-rss_limit_mb=4096",
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
