//! What a run measured over its whole time: request outcomes, rates and token counts.

use serde::{Deserialize, Serialize};

use super::latency::Distribution;

/// Request outcomes. `None` means the file does not say.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestCounts {
    /// Requests sent (or planned).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// Requests that completed successfully.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub succeeded: Option<u64>,
    /// Requests that ended in an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<u64>,
    /// Requests cut off by the end of the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incomplete: Option<u64>,
}

impl RequestCounts {
    /// `total` requests counted one by one, `succeeded` of them successfully and the rest failed.
    pub fn counted(total: u64, succeeded: u64) -> Self {
        RequestCounts {
            total: Some(total),
            succeeded: Some(succeeded),
            failed: Some(total - succeeded),
            incomplete: None,
        }
    }

    /// `succeeded` requests succeeded and `failed` failed, none cut off: the total is their sum
    /// when the file states both.
    pub fn outcomes(succeeded: Option<u64>, failed: Option<u64>) -> Self {
        RequestCounts {
            total: succeeded.zip(failed).map(|(s, f)| s.saturating_add(f)),
            succeeded,
            failed,
            incomplete: None,
        }
    }

    /// Share of requests that succeeded, 0 to 1.
    pub fn success_rate(&self) -> Option<f64> {
        let ok = self.succeeded? as f64;
        let total = self.total.or_else(|| {
            self.succeeded?
                .checked_add(self.failed?)?
                .checked_add(self.incomplete.unwrap_or(0))
        })? as f64;
        (total > 0.0).then(|| ok / total)
    }
}

/// Rates over a whole run. `None` means the file does not say.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Throughput {
    /// Output tokens per second, all requests together.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tok_s: Option<f64>,
    /// Output tokens per second as one user sees them: the mean over requests of each
    /// request's output tokens divided by its time (load_test.py's `Tok/s`, GenAI-Perf's
    /// `output_token_throughput_per_user`). Not a throughput of the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tok_s_per_user: Option<f64>,
    /// Input plus output tokens per second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_tok_s: Option<f64>,
    /// Input tokens per second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tok_s: Option<f64>,
    /// Completed requests per second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests_per_s: Option<f64>,
    /// Requests per second that met the goodput SLOs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goodput_req_s: Option<f64>,
}

/// Token counts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TokenStats {
    /// Input tokens over all requests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_input: Option<u64>,
    /// Output tokens over all requests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_output: Option<u64>,
    /// Input length per request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_len: Option<Distribution>,
    /// Output length per request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_len: Option<Distribution>,
}
