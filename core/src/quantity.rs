//! Quantities a report can plot or quote: a latency statistic, a throughput, a success rate, a
//! cost per million tokens (when the report states a price).
//!
//! A [`Quantity`] knows its name, unit, which direction is better and how to read itself from a
//! [`Run`], so charts, tables and inline values all agree on what "TTFT p99" means.

pub mod engine;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::model::{Metric, Run, Stat};
pub use engine::EngineQuantity;

/// Round interactivity targets, in output tokens per second per user, that scorecards are read
/// at (an automatic page's and the choices a reader is offered).
pub const ROUND_INTERACTIVITY: [f64; 12] = [
    5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 40.0, 50.0, 75.0, 100.0, 150.0, 200.0,
];

/// Something measurable on a run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
// Externally tagged: the browser reads it without buffering.
#[serde(rename_all = "snake_case")]
pub enum Quantity {
    /// A statistic of a latency metric, in ms.
    Latency {
        /// Which metric.
        metric: Metric,
        /// Which statistic.
        stat: Stat,
    },
    /// Output tokens per second over the run.
    OutputThroughput,
    /// Output tokens per second one user sees (mean of per-request rates).
    OutputPerUser,
    /// Input plus output tokens per second.
    TotalThroughput,
    /// Completed requests per second.
    RequestThroughput,
    /// Requests per second meeting the goodput SLOs.
    Goodput,
    /// Share of requests that succeeded, in percent.
    SuccessRate,
    /// Share of requests that failed, in percent.
    ErrorRate,
    /// Dollars per million output tokens at the run's output throughput (needs a price).
    CostPerMillionOutput,
    /// Dollars per million tokens, input and output, at the run's total throughput (needs a
    /// price).
    CostPerMillionTotal,
    /// Output tokens per second per GPU (needs a GPU count).
    OutputPerGpu,
    /// How fast one user sees tokens arrive once they flow: 1000 ÷ mean TPOT (ms), in tokens
    /// per second per user (InferenceX's and AIPerf's "interactivity"; the x axis of the
    /// per-GPU throughput frontier).
    Interactivity,
    /// Mean end-to-end latency over the mean output length, in ms per output token: seed 004's
    /// "Latency/Token" of scenarios measured one output length at a time.
    LatencyPerOutputToken,
    /// Mean output length over mean end-to-end latency, in output tokens per second: the rate
    /// one request of a scenario produced its answer at (seed 004's throughput against output
    /// length). A ratio of means, not `output_tok_s_per_user`'s mean of ratios.
    OutputPerRequest,
    /// What the engine or its GPUs recorded over the run ([`EngineQuantity`]).
    Engine(EngineQuantity),
}

/// Whether more or less of a quantity is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Better {
    /// Latencies, error rates.
    Lower,
    /// Throughputs, success rates.
    Higher,
}

/// The names [`Quantity::parse`] accepts, for error messages.
pub const QUANTITY_NAMES: &str = "ttft, ttst, tpot, tpot_incl_first, itl, e2e (with a statistic), \
     output_throughput, output_tok_s_per_user, total_throughput, request_throughput, goodput, success_rate, error_rate, \
     cost_per_1m_output, cost_per_1m_total, output_throughput_per_gpu, interactivity, \
     e2e_per_output_token, output_tok_s_per_request, and from engine and GPU metrics queue_depth, \
     running_requests, kv_cache_use, kv_cache_peak, preemptions, prefix_cache_hit_rate, \
     spec_acceptance, spec_acceptance_length, gpu_utilisation, power_per_gpu, \
     energy_per_output_token, tokens_per_joule, energy_cost_per_1m_output";

impl Quantity {
    /// Parses a metric name and, for latencies, a statistic (`mean` when `None`).
    pub fn parse(metric: &str, stat: Option<&str>) -> Result<Quantity, String> {
        let name = metric.trim().to_ascii_lowercase();
        if let Some(metric) = Metric::from_id(&name) {
            let stat = match stat {
                None => Stat::Mean,
                Some(s) => Stat::parse(s).ok_or_else(|| {
                    format!("unknown statistic `{s}`; expected mean, median, std, min, max or pNN such as p99")
                })?,
            };
            return Ok(Quantity::Latency { metric, stat });
        }
        let engine = EngineQuantity::parse(&name).map(Quantity::Engine);
        let q = match name.as_str() {
            _ if engine.is_some() => engine.unwrap_or(Quantity::OutputThroughput),
            "output_throughput" | "output_tok_s" | "throughput" => Quantity::OutputThroughput,
            "output_tok_s_per_user" | "per_user_throughput" => Quantity::OutputPerUser,
            "total_throughput" | "total_tok_s" => Quantity::TotalThroughput,
            "request_throughput" | "requests_per_s" | "rps" => Quantity::RequestThroughput,
            "goodput" => Quantity::Goodput,
            "success_rate" => Quantity::SuccessRate,
            "error_rate" => Quantity::ErrorRate,
            "cost_per_1m_output" | "cost" => Quantity::CostPerMillionOutput,
            "cost_per_1m_total" => Quantity::CostPerMillionTotal,
            "output_throughput_per_gpu" | "output_tok_s_per_gpu" => Quantity::OutputPerGpu,
            "interactivity" => Quantity::Interactivity,
            "e2e_per_output_token" | "latency_per_output_token" => Quantity::LatencyPerOutputToken,
            "output_tok_s_per_request" => Quantity::OutputPerRequest,
            _ => {
                return Err(format!(
                    "unknown metric `{metric}`; expected one of {QUANTITY_NAMES}"
                ))
            }
        };
        if let Some(s) = stat {
            return Err(format!(
                "`{metric}` is one value per run and takes no statistic, but `{s}` was given"
            ));
        }
        Ok(q)
    }

    /// Its value on `run`, or `None` when the run does not report it or every request failed.
    pub fn of(&self, run: &Run) -> Option<f64> {
        let value = match *self {
            Quantity::Latency { metric, stat } => run.latency_stat(metric, stat),
            Quantity::OutputThroughput => run.throughput.output_tok_s,
            Quantity::OutputPerUser => run.throughput.output_tok_s_per_user,
            Quantity::TotalThroughput => run.throughput.total_tok_s,
            Quantity::RequestThroughput => run.throughput.requests_per_s,
            Quantity::Goodput => run.throughput.goodput_req_s,
            Quantity::SuccessRate => run.requests.success_rate().map(|r| r * 100.0),
            Quantity::ErrorRate => run.requests.success_rate().map(|r| (1.0 - r) * 100.0),
            Quantity::CostPerMillionOutput => run.price?.per_million(run.throughput.output_tok_s?),
            Quantity::CostPerMillionTotal => run.price?.per_million(run.throughput.total_tok_s?),
            Quantity::OutputPerGpu => Some(run.throughput.output_tok_s? / f64::from(run.gpus()?)),
            Quantity::Interactivity => run
                .latency_stat(Metric::Tpot, Stat::Mean)
                .or_else(|| run.latency_stat(Metric::Tpot, Stat::Median))
                .filter(|&tpot| tpot > 0.0)
                .map(|tpot| 1000.0 / tpot),
            Quantity::LatencyPerOutputToken => {
                Some(run.latency_stat(Metric::E2e, Stat::Mean)? / mean_output_tokens(run)?)
            }
            // A zero latency gives infinity, which the filter below refuses.
            Quantity::OutputPerRequest => Some(
                mean_output_tokens(run)? / (run.latency_stat(Metric::E2e, Stat::Mean)? / 1000.0),
            ),
            Quantity::Engine(q) => q.of(run),
        };
        value.filter(|v| v.is_finite())
    }

    /// What `run` lacks for this quantity beyond a measurement, as a clause to add to "does
    /// not report …": cost needs a price, per-GPU throughput a GPU count.
    pub fn lacking(&self, run: &Run) -> &'static str {
        match self {
            Quantity::CostPerMillionOutput | Quantity::CostPerMillionTotal
                if run.price.is_none() =>
            {
                " (cost needs a `price:` for the configuration in the report's front matter)"
            }
            Quantity::Interactivity => " (interactivity is 1000 ÷ mean TPOT)",
            Quantity::LatencyPerOutputToken | Quantity::OutputPerRequest => {
                " (it is the mean end-to-end latency and the mean output length, one over the \
                 other)"
            }
            Quantity::Engine(EngineQuantity::EnergyCostPerMillion)
                if run.price.and_then(|p| p.usd_per_kwh).is_none() =>
            {
                " (energy cost needs `kwh:`, dollars per kWh, in the configuration's `price:` in \
                 the front matter, and the GPUs' power beside the run)"
            }
            Quantity::Engine(_) if run.engine.is_none() => {
                " (engine and GPU figures come from files beside the run's: Prometheus scrapes, \
                 engine series, nvidia-smi logs, engine logs; see the README)"
            }
            Quantity::OutputPerGpu if run.gpus().is_none() => {
                " (per-GPU throughput needs a GPU count: `hardware` such as `2x L40S` in the \
                 result file, or `gpus` in the configuration's `price:` in the front matter)"
            }
            _ => "",
        }
    }

    /// Unit for axes and values.
    pub fn unit(&self) -> &'static str {
        match self {
            Quantity::Latency { .. } => "ms",
            Quantity::OutputThroughput | Quantity::OutputPerUser | Quantity::TotalThroughput => {
                "tok/s"
            }
            Quantity::RequestThroughput | Quantity::Goodput => "req/s",
            Quantity::SuccessRate | Quantity::ErrorRate => "%",
            Quantity::CostPerMillionOutput | Quantity::CostPerMillionTotal => "$/1M tok",
            Quantity::OutputPerGpu => "tok/s/GPU",
            Quantity::Interactivity => "tok/s/user",
            Quantity::LatencyPerOutputToken => "ms/tok",
            Quantity::OutputPerRequest => "tok/s",
            Quantity::Engine(q) => q.unit(),
        }
    }

    /// The unit in running text: [`Quantity::unit`], but a cost in words (`$1.23 per million
    /// output tokens`, where a table or an axis writes `$1.23/1M tok`).
    pub fn prose_unit(&self) -> &'static str {
        match self {
            Quantity::CostPerMillionOutput => "$ per million output tokens",
            Quantity::CostPerMillionTotal => "$ per million tokens",
            other => other.unit(),
        }
    }

    /// Which direction is better.
    pub fn better(&self) -> Better {
        match self {
            Quantity::Latency { .. }
            | Quantity::ErrorRate
            | Quantity::CostPerMillionOutput
            | Quantity::CostPerMillionTotal
            | Quantity::LatencyPerOutputToken => Better::Lower,
            Quantity::Engine(q) if q.higher_is_better() != Some(true) => Better::Lower,
            _ => Better::Higher,
        }
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Quantity::Latency { metric, stat } => match stat {
                Stat::Mean => write!(f, "Mean {}", metric.label()),
                Stat::Median => write!(f, "Median {}", metric.label()),
                Stat::Std => write!(f, "Std. dev. of {}", metric.label()),
                Stat::Min => write!(f, "Min {}", metric.label()),
                Stat::Max => write!(f, "Max {}", metric.label()),
                Stat::P(_) => write!(f, "{} {stat}", metric.label()),
            },
            Quantity::OutputThroughput => f.write_str("Output throughput"),
            Quantity::OutputPerUser => f.write_str("Output tok/s per user"),
            Quantity::TotalThroughput => f.write_str("Total token throughput"),
            Quantity::RequestThroughput => f.write_str("Request throughput"),
            Quantity::Goodput => f.write_str("Goodput"),
            Quantity::SuccessRate => f.write_str("Success rate"),
            Quantity::ErrorRate => f.write_str("Error rate"),
            Quantity::CostPerMillionOutput => f.write_str("Cost per 1M output tokens"),
            Quantity::CostPerMillionTotal => f.write_str("Cost per 1M tokens"),
            Quantity::OutputPerGpu => f.write_str("Output throughput per GPU"),
            Quantity::Interactivity => f.write_str("Interactivity"),
            Quantity::LatencyPerOutputToken => f.write_str("Latency per output token"),
            Quantity::OutputPerRequest => f.write_str("Output tok/s of a request"),
            Quantity::Engine(q) => q.fmt(f),
        }
    }
}

/// A run's mean output tokens per request: its output length's mean, else its output tokens
/// over its successful requests.
fn mean_output_tokens(run: &Run) -> Option<f64> {
    let mean = run.tokens.output_len.as_ref().and_then(|d| d.mean);
    let counted = || Some(run.tokens.total_output? as f64 / run.requests.succeeded? as f64);
    mean.or_else(counted).filter(|t| *t > 0.0 && t.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_metric_and_statistic() {
        assert_eq!(
            Quantity::parse("ttft", Some("p99")).unwrap(),
            Quantity::Latency {
                metric: Metric::Ttft,
                stat: Stat::P(99.0)
            }
        );
        assert_eq!(
            Quantity::parse("TPOT", None).unwrap(),
            Quantity::Latency {
                metric: Metric::Tpot,
                stat: Stat::Mean
            }
        );
        assert_eq!(
            Quantity::parse("output_throughput", None).unwrap(),
            Quantity::OutputThroughput
        );
    }

    #[test]
    fn interactivity_is_a_thousand_over_the_mean_tpot() {
        let text = r#"{"date": "20250301-101010", "backend": "vllm", "model_id": "m",
            "request_rate": 4.0, "completed": 3, "mean_tpot_ms": 25.0, "median_tpot_ms": 20.0}"#;
        let f = crate::import::import("r.json", text.as_bytes());
        let q = Quantity::parse("interactivity", None).unwrap();
        assert_eq!(q.of(&f.runs[0]), Some(40.0));
        assert_eq!((q.unit(), q.better()), ("tok/s/user", Better::Higher));
        let no_tpot = text.replace(
            "\"mean_tpot_ms\": 25.0, \"median_tpot_ms\": 20.0",
            "\"mean_ttft_ms\": 9.0",
        );
        let f = crate::import::import("r.json", no_tpot.as_bytes());
        assert_eq!(q.of(&f.runs[0]), None);
        assert!(q.lacking(&f.runs[0]).contains("1000 ÷ mean TPOT"));
    }

    #[test]
    fn latency_per_output_token_is_a_ratio_of_means() {
        // Seed 004: 100 tokens out in a mean of 1.021 s.
        let text = r#"{"date": "20250301-101010", "backend": "vllm", "model_id": "m",
            "request_rate": 1.0, "completed": 15, "mean_e2el_ms": 1021.0, "total_output_tokens": 1500}"#;
        let f = crate::import::import("r.json", text.as_bytes());
        let per_token = Quantity::parse("e2e_per_output_token", None).unwrap();
        assert_eq!(per_token.of(&f.runs[0]), Some(10.21));
        assert_eq!(
            (per_token.unit(), per_token.better()),
            ("ms/tok", Better::Lower)
        );
        let rate = Quantity::parse("output_tok_s_per_request", None).unwrap();
        let v = rate.of(&f.runs[0]).unwrap();
        assert!((v - 97.94).abs() < 0.01, "{v}");
        let no_tokens = text.replace(", \"total_output_tokens\": 1500", "");
        let f = crate::import::import("r.json", no_tokens.as_bytes());
        assert_eq!(rate.of(&f.runs[0]), None);
        assert!(rate.lacking(&f.runs[0]).contains("mean output length"));
    }

    #[test]
    fn errors_say_what_was_expected() {
        let e = Quantity::parse("ttfx", None).unwrap_err();
        assert!(
            e.contains("unknown metric `ttfx`") && e.contains("ttft"),
            "{e}"
        );
        let e = Quantity::parse("ttft", Some("p101")).unwrap_err();
        assert!(e.contains("unknown statistic `p101`"), "{e}");
        let e = Quantity::parse("success_rate", Some("p99")).unwrap_err();
        assert!(e.contains("takes no statistic"), "{e}");
    }

    #[test]
    fn labels() {
        let q = Quantity::parse("ttft", Some("p99")).unwrap();
        assert_eq!(q.to_string(), "TTFT p99");
        assert_eq!(
            Quantity::parse("itl", None).unwrap().to_string(),
            "Mean ITL"
        );
    }
}
