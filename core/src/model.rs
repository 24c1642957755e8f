//! The canonical model every importer produces: one [`Run`] per load point of one configuration.
//!
//! Units are fixed by the type, never by the producer: latencies are milliseconds, throughputs are
//! per second, token counts are tokens. Importers convert on the way in and keep the metric's
//! definition ([`Metric`]) so that, say, GuideLLM's TPOT (which includes the first token) is never
//! compared with vLLM's TPOT (which does not).

pub use crate::date::RunDate;
pub use crate::location::Location;

mod config;
pub mod differences;
mod engine;
mod latency;
mod load;
mod price;
mod provenance;
mod run;
mod samples;
mod server;
mod slices;
mod totals;
mod workload;
pub use config::ConfigIdentity;
pub use engine::{EngineMetrics, Gauge};
pub use latency::{Distribution, LatencyMetric, Metric, Percentile, Stat};
pub use load::{LoadAxis, LoadPoint, LoadTarget, Rate};
pub use price::Price;
pub use provenance::{Producer, Provenance};
pub use run::{Repeats, Run};
pub use samples::{Dependence, RequestSamples};
pub use server::ServerMetrics;
pub use slices::TimeSlice;
pub use totals::{RequestCounts, Throughput, TokenStats};
pub use workload::{LatencyLimit, Workload};

/// Runs of one configuration along one load axis, sorted by load.
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep<'a> {
    /// [`ConfigIdentity::key`] shared by the runs.
    pub key: String,
    /// The load axis.
    pub axis: LoadAxis,
    /// The runs, in increasing load (infinite rates last).
    pub runs: Vec<&'a Run>,
}

/// Groups runs into sweeps per configuration and load axis, in first-seen order of configuration.
pub fn sweeps(runs: &[Run]) -> Vec<Sweep<'_>> {
    let mut out: Vec<Sweep<'_>> = Vec::new();
    for run in runs {
        let key = run.config.key();
        let axis = run.load.target.axis();
        match out.iter_mut().find(|s| s.key == key && s.axis == axis) {
            Some(s) => s.runs.push(run),
            None => out.push(Sweep {
                key,
                axis,
                runs: vec![run],
            }),
        }
    }
    for s in &mut out {
        crate::order::sort_by_f64(&mut s.runs, &|r| r.load.target.value().unwrap_or(f64::NAN));
    }
    out
}

#[cfg(test)]
mod tests;
