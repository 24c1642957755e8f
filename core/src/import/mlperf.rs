//! MLPerf Inference LoadGen's `mlperf_log_summary.txt`: the industry's reference results
//! (llama2-70b, llama3.1 and others, in the Server and Offline scenarios), one run per file.
//!
//! The file is `key : value` lines in three sections. What is read:
//! - `SUT name` (the label), `Scenario` and `Mode`, and `Result is : VALID|INVALID` with the
//!   checks under it (`Performance constraints satisfied : No`);
//! - throughput: `Completed samples per second` (Server) or `Samples per second` (Offline),
//!   requests per second; `Completed tokens per second` or `Tokens per second`, output tokens
//!   per second;
//! - latencies **in nanoseconds**: `Min|Max|Mean latency (ns)` and `NN.NN percentile latency
//!   (ns)` (a query's whole time: end-to-end), `… First Token latency (ns)` and `… percentile
//!   first token latency (ns)` (TTFT), `… Time to Output Token (ns)` and `… percentile time to
//!   output token (ns)` (TPOT), all read in ms;
//! - the test's parameters: `target_qps` is the Server scenario's load (its request rate; the
//!   Offline scenario has none: maximum throughput), `ttft_latency (ns)` and `tpot_latency
//!   (ns)` are the latency constraints, kept as settings in ms and as the run's limits on its
//!   p99 TTFT and TPOT ([`crate::model::LatencyLimit`]), which charts of those draw as lines.
//!
//! Pitfalls handled here: an `INVALID` result is read and said in a warning that names the
//! failed checks, never passed as a valid one; a mode other than `PerformanceOnly` (an accuracy
//! run) has no performance to read and is an error; a value that is no number is an error at its
//! line.

use super::ImportedFile;
use crate::model::{
    ConfigIdentity, LatencyLimit, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer,
    Provenance, Rate, RequestCounts, Run, Stat, Throughput, TokenStats,
};
use crate::problem::Problem;

/// True for a LoadGen summary: its banner and a `Scenario` line.
pub(super) fn is_summary(text: &str) -> bool {
    let head: String = text.lines().take(6).collect::<Vec<_>>().join("\n");
    head.contains("MLPerf Results Summary") && text.contains("Scenario")
}

/// One `key : value` line.
struct Entry<'a> {
    line: u64,
    key: &'a str,
    value: &'a str,
}

fn entries(text: &str) -> Vec<Entry<'_>> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let (key, value) = line.split_once(':')?;
            let key = key.trim();
            (!key.is_empty() && !key.starts_with('*')).then(|| Entry {
                line: i as u64 + 1,
                key,
                value: value.trim(),
            })
        })
        .collect()
}

/// The summary's lines, and the problems met reading them.
struct Summary<'a> {
    file: &'a str,
    entries: Vec<Entry<'a>>,
    problems: Vec<Problem>,
}

impl<'a> Summary<'a> {
    /// The first line whose key is one of `names` (any case).
    fn find(&self, names: &[&str]) -> Option<&Entry<'a>> {
        self.entries
            .iter()
            .find(|e| names.iter().any(|n| e.key.eq_ignore_ascii_case(n)))
    }

    /// The number of the first line named `names`; an error at its line when it is none.
    fn number(&mut self, names: &[&str]) -> Option<f64> {
        let e = self.find(names)?;
        match e.value.parse::<f64>() {
            Ok(v) if v.is_finite() && v >= 0.0 => Some(v),
            _ => {
                let problem = Problem::error(
                    self.file,
                    Location::line(e.line),
                    format!(
                        "`{}` is `{}`; expected a number of at least 0",
                        e.key, e.value
                    ),
                );
                self.problems.push(problem);
                None
            }
        }
    }

    /// The load: the Server scenario's `target_qps`, one request at a time for SingleStream,
    /// else maximum throughput; an error when a Server scenario has no target.
    fn load(&mut self) -> Result<LoadPoint, Problem> {
        let scenario = self.find(&["Scenario"]).map(|e| e.value);
        Ok(match scenario {
            Some("Server") => match self.number(&["target_qps"]) {
                Some(qps) if qps > 0.0 => {
                    LoadPoint::new(LoadTarget::RequestRate(Rate::PerSecond(qps)))
                }
                _ => {
                    return Err(Problem::error(
                        self.file,
                        Location::File,
                        "a Server scenario without its `target_qps`: the load is not known, \
                         and the run is not read",
                    ))
                }
            },
            Some("SingleStream") => LoadPoint::new(LoadTarget::Sequential),
            _ => LoadPoint::new(LoadTarget::MaxThroughput),
        })
    }

    /// The label, the scenario and the latency constraints (in ms) as settings.
    fn config(&mut self) -> ConfigIdentity {
        let mut config = ConfigIdentity {
            label: self.find(&["SUT name"]).map(|e| e.value.to_string()),
            ..ConfigIdentity::default()
        };
        if let Some(scenario) = self.find(&["Scenario"]) {
            config
                .settings
                .insert("scenario".into(), scenario.value.to_string());
        }
        for (key, setting) in [
            ("ttft_latency (ns)", "ttft_constraint_ms"),
            ("tpot_latency (ns)", "tpot_constraint_ms"),
        ] {
            if let Some(ns) = self.number(&[key]).filter(|v| *v > 0.0) {
                config
                    .settings
                    .insert(setting.into(), format!("{}", ns / 1e6));
            }
        }
        config
    }

    /// The latency constraints (`ttft_latency (ns)`, `tpot_latency (ns)`): LoadGen holds the
    /// run's 99th percentile of each to its limit.
    fn limits(&mut self) -> Vec<LatencyLimit> {
        [
            ("ttft_latency (ns)", Metric::Ttft),
            ("tpot_latency (ns)", Metric::Tpot),
        ]
        .into_iter()
        .filter_map(|(key, metric)| {
            let ns = self.number(&[key]).filter(|v| *v > 0.0)?;
            Some(LatencyLimit {
                metric,
                stat: Stat::P(99.0),
                ms: ns / 1e6,
                by: "MLPerf".to_string(),
            })
        })
        .collect()
    }

    /// The latencies whose keys hold `name`: `Min|Max|Mean {name} (ns)` and `NN.NN percentile
    /// {name} (ns)`, in ms.
    fn distribution(&mut self, name: &str) -> Option<crate::model::Distribution> {
        let mut d = crate::model::Distribution::default();
        let mut any = false;
        for (stat, prefix) in [("min", "Min"), ("max", "Max"), ("mean", "Mean")] {
            if let Some(ns) = self.number(&[&format!("{prefix} {name} (ns)")]) {
                super::fields::set_stat(&mut d, stat, ns / 1e6);
                any = true;
            }
        }
        let suffix = format!(" percentile {name} (ns)");
        let ranked: Vec<(f64, &'a str)> = self
            .entries
            .iter()
            .filter_map(|e| {
                let lower = e.key.to_ascii_lowercase();
                let rank = lower.strip_suffix(&suffix)?.trim().parse::<f64>().ok()?;
                Some((rank, e.key))
            })
            .collect();
        for (rank, key) in ranked {
            if let Some(ns) = self.number(&[key]) {
                if rank == 50.0 {
                    d.median = Some(ns / 1e6);
                }
                d.set_percentile(rank, ns / 1e6);
                any = true;
            }
        }
        any.then_some(d)
    }

    /// End-to-end, TTFT and TPOT.
    fn latencies(&mut self) -> Vec<LatencyMetric> {
        let mut latency = Vec::new();
        for (metric, name) in [
            (Metric::E2e, "latency"),
            (Metric::Ttft, "first token latency"),
            (Metric::Tpot, "time to output token"),
        ] {
            if let Some(distribution) = self.distribution(name) {
                latency.push(LatencyMetric {
                    metric,
                    distribution,
                });
            }
        }
        latency.sort_by_key(|m| m.metric);
        latency
    }

    /// An error when the mode is not `PerformanceOnly`.
    fn not_performance(&self) -> Option<Problem> {
        let mode = self.find(&["Mode"])?;
        (!mode.value.eq_ignore_ascii_case("PerformanceOnly")).then(|| {
            Problem::error(
                self.file,
                Location::line(mode.line),
                format!(
                    "the mode is `{}`: an accuracy or submission run holds no performance to \
                     read; expected `PerformanceOnly`",
                    mode.value
                ),
            )
        })
    }
}

/// Reads the summary into one run.
pub(super) fn read(file: &str, text: &str) -> ImportedFile {
    let mut out = ImportedFile::new(file, Some(Producer::Mlperf));
    let mut summary = Summary {
        file,
        entries: entries(text),
        problems: Vec::new(),
    };
    if let Some(problem) = summary.not_performance() {
        out.problems.push(problem);
        return out;
    }
    let load = match summary.load() {
        Ok(load) => load,
        Err(problem) => {
            out.problems.push(problem);
            return out;
        }
    };
    let latency = summary.latencies();
    let throughput = Throughput {
        requests_per_s: summary.number(&["Completed samples per second", "Samples per second"]),
        output_tok_s: summary.number(&["Completed tokens per second", "Tokens per second"]),
        ..Throughput::default()
    };
    let config = summary.config();
    let provenance = Provenance::new(file, Location::File, Producer::Mlperf);
    let mut run = Run::new(provenance, config, load).measured(
        RequestCounts::default(),
        latency,
        throughput,
        TokenStats::default(),
    );
    run.workload.limits = summary.limits();
    run.problems.extend(validity(file, &summary.entries));
    run.problems.append(&mut summary.problems);
    out.runs.push(run);
    out
}

/// A warning when LoadGen judged the run INVALID, naming the checks that failed.
fn validity(file: &str, entries: &[Entry<'_>]) -> Option<Problem> {
    let result = entries.iter().find(|e| e.key == "Result is")?;
    if result.value.eq_ignore_ascii_case("VALID") {
        return None;
    }
    let failed: Vec<&str> = entries
        .iter()
        .filter(|e| e.key.ends_with("satisfied") && e.value.eq_ignore_ascii_case("No"))
        .map(|e| e.key)
        .collect();
    Some(Problem::warning(
        file,
        Location::line(result.line),
        format!(
            "MLPerf's LoadGen judged this run {}{}: its numbers are shown, but it is no valid \
             MLPerf result",
            result.value,
            if failed.is_empty() {
                String::new()
            } else {
                format!(" ({} not satisfied)", failed.join(", "))
            }
        ),
    ))
}

#[cfg(test)]
mod tests;
