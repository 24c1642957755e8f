//! What a configuration's deployment costs while it serves, as its run carries it once a report
//! states it: the model's own type, so the model depends on nothing above it; `cost` derives
//! the dollars per million tokens and the reader's prices from it.

use serde::{Deserialize, Serialize};

/// A configuration's price, as its run carries it once a report stated it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Price {
    /// Dollars per hour for the whole deployment while it serves.
    pub usd_per_hour: f64,
    /// GPUs the deployment runs on, when stated.
    #[serde(default)]
    pub gpus: Option<u32>,
    /// Dollars per kilowatt-hour of the GPUs' energy, when stated: the energy cost of a
    /// token, from the energy the GPUs drew ([`super::EngineMetrics`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usd_per_kwh: Option<f64>,
}

impl Price {
    /// Dollars per million tokens at `tokens_per_s`; none without a positive throughput.
    pub fn per_million(&self, tokens_per_s: f64) -> Option<f64> {
        (tokens_per_s > 0.0 && tokens_per_s.is_finite())
            .then(|| self.usd_per_hour * 1e6 / (3600.0 * tokens_per_s))
    }

    /// Dollars of energy per million tokens at `joules_per_token`; none without a price per
    /// kWh (a kWh is 3.6 MJ).
    pub fn energy_per_million(&self, joules_per_token: f64) -> Option<f64> {
        let kwh = self.usd_per_kwh?;
        (joules_per_token >= 0.0 && joules_per_token.is_finite())
            .then(|| kwh * joules_per_token * 1e6 / 3.6e6)
    }
}
