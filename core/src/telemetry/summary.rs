//! The readings of the files matched to one run, summed up into its
//! [`EngineMetrics`]: gauges over the series, counters' deltas between scrapes, energy.
//!
//! - Each gauge comes from the file with the most samples of it (a per-second CSV beats a log
//!   line every five seconds); values of every GPU in it count together.
//! - Energy is each GPU's power integrated over its samples (trapezoids; a gap with no reading
//!   adds nothing), summed over GPUs; else the delta of DCGM's energy counter.
//! - Counters: two scrapes or more, in order (names with `before`, `start` or `pre` first,
//!   `after`, `end` or `post` last, else by name), give the run's deltas; a counter that went
//!   down was reset and counts from zero. One scrape gives counts since the server started,
//!   and the note says so.

use super::readings::{Counter, Measure, Readings, Series, Snapshot};
use crate::model::{EngineMetrics, Gauge};

/// One file's readings.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    /// The file's path.
    pub file: &'a str,
    /// What it held.
    pub readings: &'a Readings,
}

/// A note about one source file.
pub type Note = (String, String);

/// The run's figures from `sources`, and notes on what was assumed.
pub fn summarise(sources: &[Source]) -> (EngineMetrics, Vec<Note>) {
    let mut notes = Vec::new();
    let mut m = EngineMetrics {
        sources: sources.iter().map(|s| s.file.to_string()).collect(),
        ..EngineMetrics::default()
    };
    let mut used_series = Vec::new();
    for measure in [
        Measure::Waiting,
        Measure::Running,
        Measure::KvCachePct,
        Measure::GpuUtilPct,
        Measure::PowerW,
    ] {
        let Some((source, series)) = richest(sources, measure) else {
            continue;
        };
        used_series.push(source);
        let values: Vec<f64> = series
            .iter()
            .flat_map(|s| s.values.iter().copied())
            .collect();
        let gauge = Gauge::of(&values);
        match measure {
            Measure::Waiting => m.waiting = gauge,
            Measure::Running => m.running = gauge,
            Measure::KvCachePct => m.kv_cache_pct = gauge,
            Measure::GpuUtilPct => m.gpu_util_pct = gauge,
            Measure::PowerW => {
                m.power_w = gauge;
                m.gpus = Some(series.len());
                m.energy_j = Some(series.iter().map(|s| energy(s)).sum());
            }
            Measure::Preemptions => {}
        }
        let span = series
            .iter()
            .filter_map(|s| span(&s.time_s))
            .fold(0.0, f64::max);
        m.span_s = Some(m.span_s.unwrap_or(0.0).max(span));
    }
    if let Some((_, series)) = richest(sources, Measure::Preemptions) {
        m.preemptions = Some(series.iter().map(|s| increase(&s.values)).sum());
    }
    used_series.sort();
    used_series.dedup();
    for &i in &used_series {
        if sources[i].readings.relative_clock {
            notes.push((
                sources[i].file.to_string(),
                "its times count from when the recorder started, not wall-clock time, so they \
                 cannot be matched to the run's window: the whole series is taken as the run's"
                    .to_string(),
            ));
        }
    }
    counters(sources, &mut m, &mut notes);
    (m, notes)
}

/// The source with the most samples of `measure`, and its series of it.
fn richest<'a>(sources: &[Source<'a>], measure: Measure) -> Option<(usize, Vec<&'a Series>)> {
    sources
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let series: Vec<&Series> = s
                .readings
                .series
                .iter()
                .filter(|x| x.measure == measure && x.values.iter().any(|v| v.is_finite()))
                .collect();
            (i, series)
        })
        .filter(|(_, series)| !series.is_empty())
        .max_by_key(|(i, series)| {
            (
                series.iter().map(|s| s.values.len()).sum::<usize>(),
                usize::MAX - i,
            )
        })
}

/// Joules of one GPU's power series: trapezoids between consecutive readings.
fn energy(s: &Series) -> f64 {
    s.time_s
        .windows(2)
        .zip(s.values.windows(2))
        .map(|(t, w)| {
            let dt = t[1] - t[0];
            if dt > 0.0 && w[0].is_finite() && w[1].is_finite() {
                dt * (w[0] + w[1]) / 2.0
            } else {
                0.0
            }
        })
        .sum()
}

fn span(times: &[f64]) -> Option<f64> {
    Some(times.last()? - times.first()?)
}

/// How much a counter rose over `values`, a fall read as a reset to zero.
fn increase(values: &[f64]) -> f64 {
    let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    finite
        .windows(2)
        .map(|w| if w[1] >= w[0] { w[1] - w[0] } else { w[1] })
        .sum()
}

/// The counters' figures from the scrapes among `sources`.
fn counters(sources: &[Source], m: &mut EngineMetrics, notes: &mut Vec<Note>) {
    let mut scrapes: Vec<(&str, &Snapshot)> = sources
        .iter()
        .filter_map(|s| Some((s.file, s.readings.snapshot.as_ref()?)))
        .filter(|(_, s)| !s.counters.is_empty() || s.spec_accept_length.is_some())
        .collect();
    if scrapes.is_empty() {
        return;
    }
    scrapes.sort_by_key(|(file, _)| (order_of(file), file.to_string()));
    let delta = |c: Counter| -> Option<f64> {
        let values: Vec<f64> = scrapes
            .iter()
            .filter_map(|(_, s)| s.counters.get(&c))
            .copied()
            .collect();
        match values.len() {
            0 => None,
            1 if scrapes.len() == 1 => Some(values[0]),
            1 => None,
            _ => Some(increase(&values)),
        }
    };
    if scrapes.len() == 1 {
        notes.push((
            scrapes[0].0.to_string(),
            "one scrape: its counters count since the server started, not this run alone; a \
             scrape before the run and one after it give the run's own"
                .to_string(),
        ));
    } else if let Some(reset) = reset(&scrapes) {
        notes.push((scrapes[scrapes.len() - 1].0.to_string(), reset));
    }
    let share = |hits: Option<f64>, queries: Option<f64>| {
        let q = queries.filter(|q| *q > 0.0)?;
        Some(100.0 * hits? / q)
    };
    m.prefix_cache_hit_pct = share(delta(Counter::PrefixHits), delta(Counter::PrefixQueries));
    m.external_prefix_cache_hit_pct = share(
        delta(Counter::ExternalPrefixHits),
        delta(Counter::ExternalPrefixQueries),
    );
    let accepted = delta(Counter::SpecAccepted);
    m.spec_acceptance_pct = share(accepted, delta(Counter::SpecDraftTokens));
    m.spec_acceptance_length = match delta(Counter::SpecDrafts).filter(|d| *d > 0.0) {
        Some(drafts) => accepted.map(|a| 1.0 + a / drafts),
        None => scrapes.last().and_then(|(_, s)| s.spec_accept_length),
    };
    if m.preemptions.is_none() {
        m.preemptions = delta(Counter::Preemptions);
    }
    // Since the server started, one scrape's count says nothing of the run.
    m.server_requests = delta(Counter::RequestsFinished).filter(|_| scrapes.len() > 1);
    if m.energy_j.is_none() {
        m.energy_j = delta(Counter::EnergyJ).filter(|_| scrapes.len() > 1);
    }
}

/// 0 for a scrape taken before the run, 2 for one after it, 1 when the name does not say.
fn order_of(file: &str) -> u8 {
    let name = file.rsplit('/').next().unwrap_or(file).to_ascii_lowercase();
    let words: Vec<&str> = name.split(|c: char| !c.is_ascii_alphanumeric()).collect();
    let has = |w: &[&str]| words.iter().any(|x| w.contains(x));
    if has(&["before", "start", "pre"]) {
        0
    } else if has(&["after", "end", "post"]) {
        2
    } else {
        1
    }
}

/// A note when some counter went down between scrapes: the server restarted.
fn reset(scrapes: &[(&str, &Snapshot)]) -> Option<String> {
    let fell = scrapes.windows(2).any(|w| {
        w[0].1
            .counters
            .iter()
            .any(|(c, before)| w[1].1.counters.get(c).is_some_and(|after| after < before))
    });
    fell.then(|| {
        "a counter went down between the scrapes (the server restarted): it counts from zero \
         after the reset"
            .to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn power(gpu: &str, values: &[f64]) -> Series {
        Series {
            measure: Measure::PowerW,
            gpu: Some(gpu.to_string()),
            time_s: (0..values.len()).map(|i| i as f64).collect(),
            values: values.to_vec(),
        }
    }

    fn scrape(counters: &[(Counter, f64)]) -> Readings {
        Readings {
            snapshot: Some(Snapshot {
                counters: counters.iter().copied().collect::<BTreeMap<_, _>>(),
                ..Snapshot::default()
            }),
            ..Readings::default()
        }
    }

    #[test]
    fn energy_integrates_every_gpu_and_skips_gaps() {
        let r = Readings {
            series: vec![
                power("0", &[100.0, 300.0, 300.0]),
                power("1", &[200.0, f64::NAN, 200.0]),
            ],
            snapshot: None,
            relative_clock: false,
        };
        let (m, notes) = summarise(&[Source {
            file: "gpu.csv",
            readings: &r,
        }]);
        // GPU 0: 200 + 300 J; GPU 1: nothing across its gap.
        assert_eq!(m.energy_j, Some(500.0));
        assert_eq!(m.gpus, Some(2));
        assert_eq!(m.power_w.unwrap().peak, Some(300.0));
        assert_eq!(m.span_s, Some(2.0));
        assert!(notes.is_empty());
    }

    #[test]
    fn two_scrapes_give_the_runs_deltas_in_name_order() {
        use Counter::*;
        let before = scrape(&[
            (PrefixQueries, 1_000.0),
            (PrefixHits, 100.0),
            (SpecDrafts, 10.0),
            (SpecDraftTokens, 30.0),
            (SpecAccepted, 5.0),
        ]);
        let after = scrape(&[
            (PrefixQueries, 3_000.0),
            (PrefixHits, 1_420.0),
            (SpecDrafts, 110.0),
            (SpecDraftTokens, 330.0),
            (SpecAccepted, 155.0),
        ]);
        let (m, notes) = summarise(&[
            Source {
                file: "x/after.prom",
                readings: &after,
            },
            Source {
                file: "x/before.prom",
                readings: &before,
            },
        ]);
        assert_eq!(m.prefix_cache_hit_pct, Some(66.0));
        assert_eq!(m.spec_acceptance_pct, Some(50.0));
        assert_eq!(m.spec_acceptance_length, Some(2.5));
        assert!(notes.is_empty(), "{notes:?}");
    }

    #[test]
    fn a_reset_counter_counts_from_zero_and_one_scrape_is_named() {
        use Counter::*;
        let a = scrape(&[(Preemptions, 50.0)]);
        let b = scrape(&[(Preemptions, 7.0)]);
        let (m, notes) = summarise(&[
            Source {
                file: "m0.prom",
                readings: &a,
            },
            Source {
                file: "m1.prom",
                readings: &b,
            },
        ]);
        assert_eq!(m.preemptions, Some(7.0));
        assert!(notes[0].1.contains("restarted"), "{notes:?}");
        let (m, notes) = summarise(&[Source {
            file: "m0.prom",
            readings: &a,
        }]);
        assert_eq!(m.preemptions, Some(50.0));
        assert!(notes[0].1.contains("since the server started"), "{notes:?}");
    }

    #[test]
    fn the_richest_file_gives_a_gauge() {
        let series = |n: usize, v: f64| Readings {
            series: vec![Series {
                measure: Measure::Waiting,
                gpu: None,
                time_s: (0..n).map(|i| i as f64).collect(),
                values: vec![v; n],
            }],
            snapshot: None,
            relative_clock: true,
        };
        let (log, csv) = (series(3, 1.0), series(10, 2.0));
        let (m, notes) = summarise(&[
            Source {
                file: "server.log",
                readings: &log,
            },
            Source {
                file: "engine.csv",
                readings: &csv,
            },
        ]);
        assert_eq!(m.waiting.unwrap().mean, 2.0);
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].0, "engine.csv");
    }
}
