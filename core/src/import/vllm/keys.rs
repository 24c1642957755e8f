//! The latency keys of a result, `{mean,median,std,p<P>}_{ttft,tpot,itl,e2el}_ms`: each split
//! into its statistic and metric, for the serve reader and for telling a sweep's server
//! parameters from a result's own keys.

use crate::model::Metric;

/// Splits `p99.9_ttft_ms` into (`p99.9`, TTFT).
pub(super) fn latency_key(key: &str) -> Option<(&str, Metric)> {
    bare_latency_key(key.strip_suffix("_ms")?)
}

/// Splits a look-alike's `p99.9_ttft`, the key without its unit, into (`p99.9`, TTFT).
pub(super) fn bare_latency_key(key: &str) -> Option<(&str, Metric)> {
    let (stat, metric) = key.split_once('_')?;
    let metric = match metric {
        "ttft" => Metric::Ttft,
        "tpot" => Metric::Tpot,
        "itl" => Metric::Itl,
        "e2el" => Metric::E2e,
        _ => return None,
    };
    is_stat(stat).then_some((stat, metric))
}

/// True for the statistics of a latency key: `mean`, `median`, `std`, `min`, `max` and `p<N>`.
pub(in crate::import) fn is_stat(stat: &str) -> bool {
    matches!(stat, "mean" | "median" | "std" | "min" | "max")
        || stat
            .strip_prefix('p')
            .is_some_and(|n| !n.is_empty() && n.parse::<f64>().is_ok())
}
