//! Every run as CSV ([`runs_csv`]), one row per run, and as JSON ([`runs_json`]): what the
//! build publishes next to each report and what the app offers for dropped files. Both take
//! the runs as a page shows them: repeats of a load point combined ([`combined`]).

use std::borrow::Cow;

use serde::Serialize;

use crate::model::{Distribution, LoadTarget, Metric, Rate, Run, Stat};

/// `runs` as a page shows them: the repeats of one load point combined into one run
/// ([`crate::noise::combine`]).
pub fn combined<'a>(runs: &[&'a Run]) -> Vec<Cow<'a, Run>> {
    crate::noise::combine(runs.iter().map(|r| Cow::Borrowed(*r)).collect())
}

/// A run as the published runs JSON writes it: the canonical model (as `inspect --json` shows
/// it), with the 95% intervals of its latency statistics.
#[derive(Serialize)]
struct PublishedRun<'a> {
    #[serde(flatten)]
    run: &'a Run,
    intervals: Vec<PublishedInterval>,
}

/// One latency statistic's 95% interval.
#[derive(Serialize)]
struct PublishedInterval {
    metric: Metric,
    stat: String,
    low_ms: f64,
    high_ms: f64,
    basis: String,
}

/// Every run as a JSON array: each run's fields, and `intervals` (metric, statistic, `low_ms`,
/// `high_ms`, what the interval was computed from) for every latency statistic it has one for.
pub fn runs_json(runs: &[&Run]) -> String {
    let published: Vec<PublishedRun<'_>> = runs
        .iter()
        .map(|run| PublishedRun {
            run,
            intervals: run
                .latency
                .iter()
                .flat_map(|m| {
                    let stats = StatColumn::present(std::iter::once(&m.distribution));
                    stats.into_iter().filter_map(move |s| {
                        let stat = s.stat()?;
                        let q = crate::quantity::Quantity::Latency {
                            metric: m.metric,
                            stat,
                        };
                        let (i, basis) = crate::noise::estimate(q, run)?.interval?;
                        Some(PublishedInterval {
                            metric: m.metric,
                            stat: stat.to_string(),
                            low_ms: i.lo,
                            high_ms: i.hi,
                            basis: basis.text(),
                        })
                    })
                })
                .collect(),
        })
        .collect();
    serde_json::to_string_pretty(&published).unwrap_or_default()
}

/// Every run as CSV, one row per run, for spreadsheets and scripts. Columns, in order:
///
/// - provenance: `file`, `location` (`12`, `12:4`, `#json.path` or `3#json.path`; empty for the
///   whole file), `producer` (as in `inspect --json`), `producer_version`;
/// - identity: `config` (the key reports use), `label`, `engine`, `model`, `hardware`, `dataset`;
/// - load: `load_kind` (`concurrency`, `request_rate`, `batch_size`, `max_throughput`,
///   `sequential`), `load_value` (`inf` for an infinite rate), `max_concurrency`,
///   `achieved_req_s`, `achieved_concurrency`;
/// - requests: `requests_total`, `requests_succeeded`, `requests_failed`, `requests_incomplete`;
/// - latency: `<metric>_<stat>_ms` (`ttft_p99_ms`, `tpot_incl_first_mean_ms`) for every metric
///   and statistic present in any row, metrics in [`Metric::ALL`] order, then `mean`, `median`,
///   `std`, `min`, `max` and the percentiles by rank;
/// - throughput: `output_tok_s`, `output_tok_s_per_user`, `total_tok_s`, `input_tok_s`,
///   `requests_per_s`, `goodput_req_s`;
/// - tokens: `total_input_tokens`, `total_output_tokens`, then `input_len_<stat>_tok` and
///   `output_len_<stat>_tok` for every statistic present in any row;
/// - noise: `runs_combined` (how many runs of one load point a row stands for: 1, or the count
///   `noise::combine` joined), then `<metric>_<stat>_ci_low_ms` and `…_ci_high_ms`, the 95%
///   interval ([`crate::noise`]) of every latency column that has one in any row.
///
/// Numbers are in full precision; a missing value is an empty cell. A run where every request
/// failed has empty latency cells, as everywhere else: its zeros are not latencies.
pub fn runs_csv<'a>(runs: impl IntoIterator<Item = &'a Run>) -> String {
    let runs: Vec<&Run> = runs.into_iter().collect();
    let columns = Columns::present(&runs);
    let mut writer = csv::Writer::from_writer(Vec::new());
    // Writing into a Vec cannot fail; errors are folded into an empty result just in case.
    let mut ok = writer.write_record(columns.header()).is_ok();
    for run in &runs {
        ok &= writer.write_record(columns.row(run)).is_ok();
    }
    let bytes = writer.into_inner().unwrap_or_default();
    if ok {
        String::from_utf8(bytes).unwrap_or_default()
    } else {
        String::new()
    }
}

/// The statistics columns: those present in any of the runs.
struct Columns {
    /// Per latency metric, in [`Metric::ALL`] order.
    latency: Vec<(Metric, Vec<StatColumn>)>,
    /// Of the prompt lengths.
    input_len: Vec<StatColumn>,
    /// Of the output lengths.
    output_len: Vec<StatColumn>,
    /// The latency columns with a 95% interval in any row.
    intervals: Vec<(Metric, Stat)>,
}

impl Columns {
    fn present(runs: &[&Run]) -> Columns {
        let latency: Vec<(Metric, Vec<StatColumn>)> = Metric::ALL
            .iter()
            .map(|&m| {
                let dists = runs.iter().filter_map(|r| r.latency(m));
                (m, StatColumn::present(dists))
            })
            .filter(|(_, stats)| !stats.is_empty())
            .collect();
        let input_len =
            StatColumn::present(runs.iter().filter_map(|r| r.tokens.input_len.as_ref()));
        let output_len =
            StatColumn::present(runs.iter().filter_map(|r| r.tokens.output_len.as_ref()));
        let intervals = latency
            .iter()
            .flat_map(|(m, stats)| stats.iter().filter_map(move |s| Some((*m, s.stat()?))))
            .filter(|&(metric, stat)| runs.iter().any(|r| interval_of(r, metric, stat).is_some()))
            .collect();
        Columns {
            latency,
            input_len,
            output_len,
            intervals,
        }
    }

    /// The header row: every column's name.
    fn header(&self) -> Vec<String> {
        let mut header: Vec<String> = [
            "file",
            "location",
            "producer",
            "producer_version",
            "config",
            "label",
            "engine",
            "model",
            "hardware",
            "dataset",
            "load_kind",
            "load_value",
            "max_concurrency",
            "achieved_req_s",
            "achieved_concurrency",
            "requests_total",
            "requests_succeeded",
            "requests_failed",
            "requests_incomplete",
        ]
        .map(String::from)
        .to_vec();
        for (metric, stats) in &self.latency {
            header.extend(
                stats
                    .iter()
                    .map(|s| format!("{}_{}_ms", metric.id(), s.name())),
            );
        }
        header.extend(
            [
                "output_tok_s",
                "output_tok_s_per_user",
                "total_tok_s",
                "input_tok_s",
                "requests_per_s",
                "goodput_req_s",
                "total_input_tokens",
                "total_output_tokens",
            ]
            .map(String::from),
        );
        header.extend(
            self.input_len
                .iter()
                .map(|s| format!("input_len_{}_tok", s.name())),
        );
        header.extend(
            self.output_len
                .iter()
                .map(|s| format!("output_len_{}_tok", s.name())),
        );
        header.push("runs_combined".to_string());
        for (metric, stat) in &self.intervals {
            let name = format!("{}_{}", metric.id(), StatColumn::of(*stat).name());
            header.push(format!("{name}_ci_low_ms"));
            header.push(format!("{name}_ci_high_ms"));
        }
        header
    }

    /// The row of `run`.
    fn row(&self, run: &Run) -> Vec<String> {
        let mut row = described_cells(run);
        for (metric, stats) in &self.latency {
            let dist = run.latency(*metric).filter(|_| !run.all_failed());
            row.extend(
                stats
                    .iter()
                    .map(|s| number_cell(dist.and_then(|d| s.read(d)))),
            );
        }
        let t = &run.throughput;
        row.extend(
            [
                t.output_tok_s,
                t.output_tok_s_per_user,
                t.total_tok_s,
                t.input_tok_s,
                t.requests_per_s,
                t.goodput_req_s,
            ]
            .map(number_cell),
        );
        row.push(count_cell(run.tokens.total_input));
        row.push(count_cell(run.tokens.total_output));
        for (stats, dist) in [
            (&self.input_len, run.tokens.input_len.as_ref()),
            (&self.output_len, run.tokens.output_len.as_ref()),
        ] {
            row.extend(
                stats
                    .iter()
                    .map(|s| number_cell(dist.and_then(|d| s.read(d)))),
            );
        }
        row.push(run.repeats.as_ref().map_or(1, |r| r.count).to_string());
        for &(metric, stat) in &self.intervals {
            let interval = interval_of(run, metric, stat);
            row.push(number_cell(interval.map(|i| i.lo)));
            row.push(number_cell(interval.map(|i| i.hi)));
        }
        row
    }
}

/// The 95% interval of `metric`'s `stat` on `run`, if the data bounds it.
fn interval_of(run: &Run, metric: Metric, stat: Stat) -> Option<crate::noise::Interval> {
    let q = crate::quantity::Quantity::Latency { metric, stat };
    crate::noise::estimate(q, run)?.interval.map(|(i, _)| i)
}

/// The cells every row has, whatever was measured: provenance, identity, load and requests.
fn described_cells(run: &Run) -> Vec<String> {
    let p = &run.provenance;
    let c = &run.config;
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    let location = p.location.to_string();
    let (load_kind, load_value) = load_cells(&run.load.target);
    vec![
        p.file.clone(),
        location.strip_prefix(':').unwrap_or(&location).to_string(),
        serde_json::to_value(p.producer)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default(),
        text(&p.producer_version),
        c.key(),
        text(&c.label),
        text(&c.engine),
        text(&c.model),
        text(&c.hardware),
        text(&c.dataset),
        load_kind.to_string(),
        load_value,
        count_cell(run.load.max_concurrency.map(u64::from)),
        number_cell(run.load.achieved_rps),
        number_cell(run.load.achieved_concurrency),
        count_cell(run.requests.total),
        count_cell(run.requests.succeeded),
        count_cell(run.requests.failed),
        count_cell(run.requests.incomplete),
    ]
}

/// One statistic a distribution may carry, as a CSV column.
#[derive(Debug, Clone, Copy, PartialEq)]
enum StatColumn {
    Mean,
    Median,
    Std,
    Min,
    Max,
    /// A percentile rank, 0 to 100.
    Percentile(f64),
}

impl StatColumn {
    /// The named statistics, in column order; percentiles follow, sorted by rank.
    const NAMED: [StatColumn; 5] = [
        StatColumn::Mean,
        StatColumn::Median,
        StatColumn::Std,
        StatColumn::Min,
        StatColumn::Max,
    ];

    /// The statistic this column holds, for its interval (`None`: a spread has none).
    fn stat(self) -> Option<Stat> {
        match self {
            StatColumn::Mean => Some(Stat::Mean),
            StatColumn::Median => Some(Stat::Median),
            StatColumn::Percentile(p) => Some(Stat::P(p)),
            StatColumn::Std | StatColumn::Min | StatColumn::Max => None,
        }
    }

    /// The column of `stat`.
    fn of(stat: Stat) -> StatColumn {
        match stat {
            Stat::Mean => StatColumn::Mean,
            Stat::Median => StatColumn::Median,
            Stat::Std => StatColumn::Std,
            Stat::Min => StatColumn::Min,
            Stat::Max => StatColumn::Max,
            Stat::P(p) => StatColumn::Percentile(p),
        }
    }

    /// `mean`, `p99`, `p99.9`: the part of a column name between the metric and the unit.
    fn name(self) -> String {
        match self {
            StatColumn::Mean => "mean".into(),
            StatColumn::Median => "median".into(),
            StatColumn::Std => "std".into(),
            StatColumn::Min => "min".into(),
            StatColumn::Max => "max".into(),
            StatColumn::Percentile(p) => format!("p{p}"),
        }
    }

    /// The value as stored in `d`: no fallback between median and p50, so a cell is filled
    /// only where the file gave that statistic.
    fn read(self, d: &Distribution) -> Option<f64> {
        match self {
            StatColumn::Mean => d.mean,
            StatColumn::Median => d.median,
            StatColumn::Std => d.std,
            StatColumn::Min => d.min,
            StatColumn::Max => d.max,
            StatColumn::Percentile(p) => d.percentile(p),
        }
    }

    /// Every statistic present in any of `dists`, in column order.
    fn present<'a>(dists: impl Iterator<Item = &'a Distribution>) -> Vec<StatColumn> {
        let mut named = [false; StatColumn::NAMED.len()];
        let mut ranks: Vec<f64> = Vec::new();
        for d in dists {
            for (seen, stat) in named.iter_mut().zip(StatColumn::NAMED) {
                *seen |= stat.read(d).is_some();
            }
            ranks.extend(d.percentiles.iter().map(|q| q.p).filter(|p| !p.is_nan()));
        }
        crate::order::sort_f64(&mut ranks);
        ranks.dedup_by(|a, b| (*a - *b).abs() < 1e-9);
        StatColumn::NAMED
            .into_iter()
            .zip(named)
            .filter_map(|(stat, seen)| seen.then_some(stat))
            .chain(ranks.into_iter().map(StatColumn::Percentile))
            .collect()
    }
}

/// The machine-readable name of a load knob and its value (`inf` for an infinite rate).
fn load_cells(target: &LoadTarget) -> (&'static str, String) {
    match *target {
        LoadTarget::Concurrency(c) => ("concurrency", number_cell(Some(c))),
        LoadTarget::RequestRate(Rate::PerSecond(r)) => ("request_rate", number_cell(Some(r))),
        LoadTarget::RequestRate(Rate::Infinite) => ("request_rate", "inf".to_string()),
        LoadTarget::BatchSize(b) => ("batch_size", b.to_string()),
        LoadTarget::MaxThroughput => ("max_throughput", String::new()),
        LoadTarget::Sequential => ("sequential", "1".to_string()),
    }
}

/// A number in full precision (the shortest text that reads back as the same `f64`); empty
/// when missing or not a number.
fn number_cell(value: Option<f64>) -> String {
    match value {
        Some(v) if !v.is_nan() => v.to_string(),
        _ => String::new(),
    }
}

fn count_cell(value: Option<u64>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}
