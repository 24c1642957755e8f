//! Per-request measurements ([`RequestSamples`]): what the CDF, histogram, token and time
//! window charts draw, and what the intervals of percentiles are computed from.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::Metric;

/// Per-request measurements, index-aligned, in milliseconds. Failed requests are kept with
/// `ok == false` so that success rates and CDFs over all requests stay honest.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestSamples {
    /// Whether each request succeeded.
    pub ok: Vec<bool>,
    /// Time to first token per request.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ttft_ms: Vec<f64>,
    /// End-to-end latency per request.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub e2e_ms: Vec<f64>,
    /// Decode time per output token (excluding the first) per request.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tpot_ms: Vec<f64>,
    /// Input tokens per request.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub input_tokens: Vec<f64>,
    /// Output tokens per request.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub output_tokens: Vec<f64>,
    /// When each request started, in seconds after the run's first request (`NaN` where a
    /// request has no time); empty when the tool does not record start times.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub start_s: Vec<f64>,
    /// True when the lists follow the requests in the order they were sent (vLLM's and
    /// SGLang's arrays follow the prompts as sent), so dependence can be read without start
    /// times.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sent_in_file_order: bool,
    /// The latencies of the successful requests sorted, made the first time an interval asks.
    #[serde(skip)]
    pub sorted: SortedCache,
    /// The same latencies in send order with their dependence, made the first time an
    /// interval asks.
    #[serde(skip)]
    pub ordered: OrderedCache,
}

impl RequestSamples {
    /// Number of requests.
    pub fn len(&self) -> usize {
        self.ok.len()
    }

    /// True when there are no requests.
    pub fn is_empty(&self) -> bool {
        self.ok.is_empty()
    }

    /// The per-request values of a latency `metric` (TTFT, TPOT or end-to-end), whatever their
    /// length; none for a metric no request records.
    pub fn latencies(&self, metric: Metric) -> Option<&[f64]> {
        match metric {
            Metric::Ttft => Some(&self.ttft_ms),
            Metric::Tpot => Some(&self.tpot_ms),
            Metric::E2e => Some(&self.e2e_ms),
            _ => None,
        }
    }

    /// The values of latency `metric` among the successful requests, ascending (sorted once,
    /// then kept); `None` for a metric no request records. A request without a value (`NaN`)
    /// is left out; an infinite one (a first token that never came) is kept, last.
    pub fn sorted(&self, metric: Metric) -> Option<&[f64]> {
        let (values, cell) = match metric {
            Metric::Ttft => (&self.ttft_ms, &self.sorted.ttft),
            Metric::Tpot => (&self.tpot_ms, &self.sorted.tpot),
            Metric::E2e => (&self.e2e_ms, &self.sorted.e2e),
            _ => return None,
        };
        if values.is_empty() {
            return None;
        }
        let sorted = cell.get_or_init(|| {
            let mut v = self.send_order(values);
            crate::order::sort_f64(&mut v);
            v
        });
        Some(sorted)
    }

    /// The values of latency `metric` among the successful requests in the order they were
    /// sent (computed once, then kept), and how alike neighbours are, which `measure` computes
    /// the first time ([`crate::noise::dependence`]).
    pub fn in_send_order(
        &self,
        metric: Metric,
        measure: impl FnOnce(&[f64]) -> Dependence,
    ) -> Option<(&[f64], Dependence)> {
        let (values, cell) = match metric {
            Metric::Ttft => (&self.ttft_ms, &self.ordered.ttft),
            Metric::Tpot => (&self.tpot_ms, &self.ordered.tpot),
            Metric::E2e => (&self.e2e_ms, &self.ordered.e2e),
            _ => return None,
        };
        if values.is_empty() {
            return None;
        }
        let (ordered, dependence) = cell.get_or_init(|| {
            let ordered = self.send_order(values);
            let dependence = measure(&ordered);
            (ordered, dependence)
        });
        Some((ordered, *dependence))
    }

    /// Whether the send order is known: start times, or a tool whose lists follow the
    /// requests as sent. Otherwise the file's order stands in for it.
    pub fn order_known(&self) -> bool {
        self.sent_in_file_order || self.start_s.iter().any(|t| t.is_finite())
    }

    /// `values` of the successful requests that have one, by start time where the requests have
    /// start times (those without one last), else in the file's order.
    fn send_order(&self, values: &[f64]) -> Vec<f64> {
        let mut index: Vec<usize> = (0..values.len().min(self.ok.len()))
            .filter(|&i| self.ok[i] && !values[i].is_nan())
            .collect();
        if self.start_s.len() == values.len() {
            let start = |i: usize| self.start_s[i];
            index.sort_by(|&a, &b| match (start(a).is_nan(), start(b).is_nan()) {
                (false, false) => start(a).total_cmp(&start(b)),
                (x, y) => x.cmp(&y),
            });
        }
        index.into_iter().map(|i| values[i]).collect()
    }

    /// Sets the start times from clock readings in seconds (any origin): each becomes seconds
    /// after the earliest. Non-finite readings stay `NaN`.
    pub fn set_starts(&mut self, clock_s: &[f64]) {
        let first = clock_s
            .iter()
            .copied()
            .filter(|t| t.is_finite())
            .fold(f64::INFINITY, f64::min);
        if !first.is_finite() {
            return;
        }
        self.start_s = clock_s
            .iter()
            .map(|&t| if t.is_finite() { t - first } else { f64::NAN })
            .collect();
    }

    /// Adds one request at the end of every list (`NaN` where it has no value).
    pub fn push(
        &mut self,
        ok: bool,
        ttft_ms: f64,
        e2e_ms: f64,
        tpot_ms: f64,
        input_tokens: f64,
        output_tokens: f64,
    ) {
        self.sorted = SortedCache::default();
        self.ordered = OrderedCache::default();
        self.ok.push(ok);
        self.ttft_ms.push(ttft_ms);
        self.e2e_ms.push(e2e_ms);
        self.tpot_ms.push(tpot_ms);
        self.input_tokens.push(input_tokens);
        self.output_tokens.push(output_tokens);
    }
}

/// Sorted copies of a run's latencies, computed once on first use (whoever changes the values
/// afterwards replaces it with `SortedCache::default()`, as [`RequestSamples::push`] does). Two
/// caches are always equal: they hold what the values determine, so runs compare by their
/// values alone.
#[derive(Debug, Clone, Default)]
pub struct SortedCache {
    ttft: OnceLock<Vec<f64>>,
    tpot: OnceLock<Vec<f64>>,
    e2e: OnceLock<Vec<f64>>,
}

impl PartialEq for SortedCache {
    fn eq(&self, _: &SortedCache) -> bool {
        true
    }
}

/// How alike the neighbours of a run's requests are in send order: what the intervals of
/// [`crate::noise::dependence`] are built on. Independent requests have blocks of 1 and no lag.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dependence {
    /// The length of the blocks of consecutive requests the run is judged in.
    pub block: usize,
    /// Γ ÷ σ²∞, in requests: the autocovariances weighted by their lag, over their sum. The
    /// means of blocks of b requests vary by σ²∞·(1 − lag ÷ b) ÷ b, so short blocks read the
    /// noise low by this much (Flegal and Jones 2010).
    pub bias_lag: f64,
}

impl Dependence {
    /// What independent requests show.
    pub const NONE: Dependence = Dependence {
        block: 1,
        bias_lag: 0.0,
    };
}

/// The latencies of the successful requests in send order with their dependence, computed
/// once on first use; like [`SortedCache`], two are always equal.
#[derive(Debug, Clone, Default)]
pub struct OrderedCache {
    ttft: OnceLock<(Vec<f64>, Dependence)>,
    tpot: OnceLock<(Vec<f64>, Dependence)>,
    e2e: OnceLock<(Vec<f64>, Dependence)>,
}

impl PartialEq for OrderedCache {
    fn eq(&self, _: &OrderedCache) -> bool {
        true
    }
}
