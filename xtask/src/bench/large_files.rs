//! The "Large files" section of `docs/PERFORMANCE.md`: a 200,000-request `vllm bench serve
//! --save-detailed` file and a GuideLLM `benchmarks.json` of about the same size, generated
//! into `target/bench/large/` (synthetic, deterministic), each read by `benchdeck inspect` (the
//! release build) and by Python's `json.load`, timed with their peak memory (`/usr/bin/time`'s
//! maximum resident set size) in the same run.
//!
//! `cargo xtask bench --only large-files` runs this section alone and puts it into the file.

mod guidellm;
mod python_json;
mod vllm;

use std::fmt::Write as _;
use std::io::{BufWriter, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};

use crate::run::{self, step};
use crate::tools;

/// Requests in the vLLM file (about 740 MB).
const VLLM_REQUESTS: usize = 200_000;
/// Requests per benchmark of the GuideLLM file: eight benchmarks, about the vLLM file's size.
const GUIDELLM_REQUESTS_PER_BENCHMARK: usize = 44_000;
/// Runs of each reader on each file; the median time is reported.
const RUNS: usize = 3;
/// The goals of issue #43: at least this many times faster than `json.load`…
const SPEED_GOAL: f64 = 3.0;
/// …with a peak memory of at most this many times the file's size.
const MEMORY_GOAL: f64 = 1.5;

/// The section's heading, by which `--only large-files` finds it in the file.
pub const HEADING: &str = "## Large files";

/// One file of the comparison.
struct LargeFile {
    what: &'static str,
    path: PathBuf,
}

/// One reader's runs on one file.
struct Timed {
    /// Seconds, one per run.
    seconds: Vec<f64>,
    /// The largest peak resident set size of the runs, bytes.
    peak_bytes: u64,
    /// How a run failed (a non-zero exit: the file was refused or not read), if one did.
    failure: Option<String>,
}

impl Timed {
    fn median(&self) -> f64 {
        let mut s = self.seconds.clone();
        s.sort_by(f64::total_cmp);
        s[s.len() / 2]
    }
}

/// Generates the files (once: they are the same bytes every time), builds the release
/// `benchdeck`, measures both readers and returns the section.
pub fn section(root: &Path) -> Result<String> {
    let dir = root.join("target").join("bench").join("large");
    std::fs::create_dir_all(&dir)?;
    let files = [
        LargeFile {
            what: "`vllm bench serve --save-detailed`, 200,000 requests",
            path: generate(&dir, &format!("vllm-serve-{VLLM_REQUESTS}.json"), |out| {
                vllm::write(out, VLLM_REQUESTS)
            })?,
        },
        LargeFile {
            what: "GuideLLM `benchmarks.json`, 8 benchmarks × 44,000 requests",
            path: generate(
                &dir,
                &format!("guidellm-8x{GUIDELLM_REQUESTS_PER_BENCHMARK}.json"),
                |out| guidellm::write(out, GUIDELLM_REQUESTS_PER_BENCHMARK),
            )?,
        },
    ];
    let benchdeck = build_benchdeck(root)?;
    let timer = Timer::find();
    let mut doc = String::new();
    let _ = writeln!(doc, "{HEADING}: 200,000 requests\n");
    let _ = writeln!(
        doc,
        "Synthetic files written by `cargo xtask bench` into `target/bench/large/` (the same \
         bytes every time), read by the release `benchdeck inspect FILE` and by \
         `python3 -c 'import json; json.load(open(FILE))'`, {RUNS} runs each, one after the \
         other; the median time and the largest peak resident set size ({}). Goals (issue #43): \
         at least {SPEED_GOAL}x faster than `json.load`, at most {MEMORY_GOAL}x the file's size \
         in memory. Files up to 2 GiB are read.\n",
        timer.describe()
    );
    let _ = writeln!(
        doc,
        "| file | size | benchdeck | its peak memory | Python `json.load` | its peak memory | \
         faster | goals met |\n|---|---|---|---|---|---|---|---|"
    );
    for file in &files {
        let size = std::fs::metadata(&file.path)?.len();
        let ours = timer.runs(Command::new(&benchdeck).arg("inspect").arg(&file.path))?;
        let python = timer.runs(
            Command::new("python3")
                .args(["-c", "import json, sys; json.load(open(sys.argv[1]))"])
                .arg(&file.path),
        )?;
        row(&mut doc, file, size, &ours, &python);
    }
    let _ = writeln!(doc);
    Ok(doc)
}

/// One row of the table.
fn row(doc: &mut String, file: &LargeFile, size: u64, ours: &Timed, python: &Timed) {
    let mb = |b: u64| format!("{:.0} MB", b as f64 / 1e6);
    let times = |t: &Timed| {
        let all: Vec<String> = t.seconds.iter().map(|s| format!("{s:.2}")).collect();
        format!("{:.2} s ({})", t.median(), all.join(", "))
    };
    let ratio = |peak: u64| peak as f64 / size as f64;
    let faster = python.median() / ours.median().max(1e-3);
    let failed = ours.failure.is_some() || python.failure.is_some();
    let met = !failed && faster >= SPEED_GOAL && ratio(ours.peak_bytes) <= MEMORY_GOAL;
    let _ = writeln!(
        doc,
        "| {} | {} | {} | {} ({:.2}x) | {} | {} ({:.2}x) | **{faster:.1}x** | {} |",
        file.what,
        mb(size),
        times(ours),
        mb(ours.peak_bytes),
        ratio(ours.peak_bytes),
        times(python),
        mb(python.peak_bytes),
        ratio(python.peak_bytes),
        if met { "yes" } else { "**no**" }
    );
    for (who, timed) in [("benchdeck", ours), ("Python", python)] {
        if let Some(failure) = &timed.failure {
            let _ = writeln!(doc, "\n{who} failed on {}: {failure}\n", file.what);
        }
    }
}

/// `dir/name`, written by `write` unless it is already there (written whole: to a temporary
/// name first, so an interrupted run leaves no partial file behind to be measured).
fn generate(
    dir: &Path,
    name: &str,
    write: impl FnOnce(&mut BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> Result<PathBuf> {
    let path = dir.join(name);
    if path.is_file() {
        return Ok(path);
    }
    step(&format!("writing {}", path.display()));
    let partial = dir.join(format!("{name}.partial"));
    let file = std::fs::File::create(&partial)
        .with_context(|| format!("cannot write `{}`", partial.display()))?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    write(&mut out)
        .and_then(|()| out.flush())
        .with_context(|| format!("cannot write `{}`", partial.display()))?;
    std::fs::rename(&partial, &path)?;
    Ok(path)
}

/// `cargo build --release -p benchdeck`, and the binary's path.
pub(super) fn build_benchdeck(root: &Path) -> Result<PathBuf> {
    step("building the release benchdeck");
    run::status(Command::new("cargo").current_dir(root).args([
        "build",
        "--release",
        "--package",
        "benchdeck",
    ]))?;
    let binary = crate::tools::target_dir(root)
        .join("release")
        .join("benchdeck");
    if !binary.is_file() {
        bail!("the release build left no `{}`", binary.display());
    }
    Ok(binary)
}

/// How a run's time and peak memory are taken: GNU time, or, where it cannot be had, Python's
/// `resource` module asking the kernel for the finished child's peak (the same number).
enum Timer {
    GnuTime(PathBuf),
    PythonResource,
}

/// Runs a command given as arguments and prints `seconds peak_kilobytes` on standard error.
const RESOURCE_WRAPPER: &str = "import resource, subprocess, sys, time
t = time.monotonic()
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f'{time.monotonic() - t:.2f} {peak}', file=sys.stderr)";

impl Timer {
    fn find() -> Timer {
        tools::ensure_gnu_time().map_or(Timer::PythonResource, Timer::GnuTime)
    }

    fn describe(&self) -> &'static str {
        match self {
            Timer::GnuTime(_) => "`/usr/bin/time -f '%e %M'`",
            Timer::PythonResource => "the kernel's figure through Python's `resource` module",
        }
    }

    /// [`RUNS`] runs of `command`, its standard output discarded.
    fn runs(&self, command: &Command) -> Result<Timed> {
        let mut timed = Timed {
            seconds: Vec::new(),
            peak_bytes: 0,
            failure: None,
        };
        for _ in 0..RUNS {
            let (seconds, peak, failure) = self.once(command)?;
            timed.seconds.push(seconds);
            timed.peak_bytes = timed.peak_bytes.max(peak);
            timed.failure = timed.failure.or(failure);
        }
        Ok(timed)
    }

    /// One run: seconds, peak resident bytes, and how it failed if it did.
    fn once(&self, command: &Command) -> Result<(f64, u64, Option<String>)> {
        let mut wrapped = match self {
            Timer::GnuTime(time) => {
                let mut c = Command::new(time);
                c.args(["-f", "%e %M"]);
                c
            }
            Timer::PythonResource => {
                let mut c = Command::new("python3");
                c.args(["-c", RESOURCE_WRAPPER]);
                c
            }
        };
        wrapped
            .arg(command.get_program())
            .args(command.get_args())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        step(&format!(
            "timing {} {}",
            command.get_program().to_string_lossy(),
            command
                .get_args()
                .map(|a| a.to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join(" ")
        ));
        let out = wrapped.output().context("cannot start the timed command")?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        let last = stderr.lines().last().unwrap_or_default();
        let mut parts = last.split_whitespace();
        let (Some(seconds), Some(kb)) = (
            parts.next().and_then(|s| s.parse::<f64>().ok()),
            parts.next().and_then(|s| s.parse::<u64>().ok()),
        ) else {
            bail!("the timer printed `{last}`, expected seconds and kilobytes");
        };
        let failure = (!out.status.success()).then(|| {
            let said: Vec<&str> = stderr
                .lines()
                .filter(|l| !l.contains("exited with"))
                .collect();
            let said = said[..said.len().saturating_sub(1)].join(" ");
            format!("{} ({})", said.trim(), out.status)
        });
        Ok((seconds, kb * 1024, failure))
    }
}
