//! A synthetic `vllm bench serve --save-detailed` result: the requests it is made of, and the
//! JSON of their totals, statistics and per-request arrays.

use std::fmt::Write as _;

/// One synthetic request: tokens, times in seconds, the error text of a failed one, and its start
/// on the benchmark's clock when the data set records it.
pub(crate) struct Request {
    pub input: f64,
    pub output: f64,
    pub ttft: f64,
    pub e2e: f64,
    pub error: Option<&'static str>,
    pub start: Option<f64>,
}

impl Request {
    /// A request that succeeded: its first token after `ttft` seconds, then one every `tpot`.
    pub fn served(input: f64, output: f64, ttft: f64, tpot: f64) -> Request {
        Request {
            input,
            output,
            ttft,
            e2e: ttft + tpot * (output - 1.0),
            error: None,
            start: None,
        }
    }

    /// A request that failed with `error`, after `input` prompt tokens and no output.
    pub fn failed(input: f64, error: &'static str) -> Request {
        Request {
            input,
            output: 0.0,
            ttft: 0.0,
            e2e: 0.0,
            error: Some(error),
            start: None,
        }
    }
}

/// A `vllm bench serve --save-detailed` result: `head` (the metadata keys, as JSON members),
/// the totals and statistics of the successful requests over `duration` seconds, and the
/// per-request arrays (with `start_times` when every request has a start).
pub(crate) fn vllm_result(head: &str, requests: &[Request], duration: f64) -> String {
    let ok: Vec<&Request> = requests.iter().filter(|r| r.error.is_none()).collect();
    let completed = ok.len();
    let total_out: f64 = ok.iter().map(|r| r.output).sum();
    let total_in: f64 = ok.iter().map(|r| r.input).sum();
    let sorted = |value: &dyn Fn(&Request) -> f64| {
        let mut v: Vec<f64> = ok.iter().map(|r| value(r) * 1000.0).collect();
        v.sort_by(f64::total_cmp);
        v
    };
    let ttft_ms = sorted(&|r| r.ttft);
    let e2e_ms = sorted(&|r| r.e2e);
    let tpot_ms = sorted(&|r| (r.e2e - r.ttft) / (r.output - 1.0));
    let mut stats = String::new();
    for (name, values) in [("ttft", &ttft_ms), ("tpot", &tpot_ms), ("e2el", &e2e_ms)] {
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / values.len() as f64;
        let _ = write!(
            stats,
            "\"mean_{name}_ms\": {mean:.4}, \"median_{name}_ms\": {:.4}, \"std_{name}_ms\": {:.4}, ",
            percentile(values, 50.0),
            var.sqrt()
        );
        for p in [90.0, 95.0, 99.0] {
            let _ = write!(stats, "\"p{p}_{name}_ms\": {:.4}, ", percentile(values, p));
        }
    }
    let list = |value: &dyn Fn(&Request) -> f64, decimals: usize| {
        requests
            .iter()
            .map(|r| format!("{:.decimals$}", value(r)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let errors: Vec<String> = requests
        .iter()
        .map(|r| format!("\"{}\"", r.error.unwrap_or_default()))
        .collect();
    let starts = if requests.iter().all(|r| r.start.is_some()) {
        format!(
            ", \"start_times\": [{}]",
            list(&|r| r.start.unwrap_or_default(), 4)
        )
    } else {
        String::new()
    };
    format!(
        "{{{head}, \"duration\": {duration:.3}, \
         \"completed\": {completed}, \"failed\": {failed}, \"total_input_tokens\": {total_in}, \
         \"total_output_tokens\": {total_out}, \"request_throughput\": {rps:.4}, \
         \"output_throughput\": {otps:.4}, {stats}\"input_lens\": [{inputs}], \"output_lens\": [{outputs}], \
         \"ttfts\": [{ttfts}], \"latencies\": [{latencies}], \"errors\": [{errors}]{starts}}}",
        failed = requests.len() - completed,
        rps = completed as f64 / duration,
        otps = total_out / duration,
        inputs = list(&|r| r.input, 0),
        outputs = list(&|r| r.output, 0),
        ttfts = list(&|r| r.ttft, 5),
        latencies = list(&|r| r.e2e, 5),
        errors = errors.join(", "),
    )
}

/// The nearest-rank percentile of ascending `sorted` values.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}
