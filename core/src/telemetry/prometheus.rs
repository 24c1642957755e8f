//! Prometheus's text exposition format, as vLLM's, SGLang's and NVIDIA DCGM exporter's
//! `/metrics` serve it: `# HELP` and `# TYPE` lines, then `name{label="value",…} value
//! [timestamp]`.
//!
//! The metrics read (vLLM's `vllm:` names, SGLang's `sglang:` names, DCGM's `DCGM_FI_DEV_`
//! names) become a [`Snapshot`]; every other metric is left alone (a scrape holds hundreds).
//! Traps handled: `_created` series are the counters' creation times and never summed;
//! SGLang's `cache_hit_rate` gauge reads 0 while its counters say otherwise, so hit rates come
//! from counters only; KV-cache "percentages" are 0–1 ratios; DCGM counts energy in mJ.

use super::readings::{Counter, Measure, Snapshot};

/// One malformed line: its number (1-based) and what was expected.
pub type BadLine = (usize, String);

/// True when `text` is a Prometheus text scrape: a `# TYPE` line, or a first sample of a
/// metric that an engine or DCGM serves.
pub fn is_scrape(text: &str) -> bool {
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(50);
    lines.any(|l| {
        l.strip_prefix("# TYPE ").is_some_and(|rest| {
            let kind = rest.split_whitespace().nth(1).unwrap_or("");
            matches!(
                kind,
                "counter" | "gauge" | "histogram" | "summary" | "untyped" | "info"
            )
        }) || (["vllm:", "sglang:", "DCGM_FI_"]
            .iter()
            .any(|p| l.starts_with(p))
            && sample(l).is_some())
    })
}

/// The engine and GPU metrics in `text`, and the lines that are neither comments nor samples.
pub fn read(text: &str) -> (Snapshot, Vec<BadLine>) {
    let mut snapshot = Snapshot::default();
    let mut bad = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((name, value)) = sample(line) else {
            bad.push((
                i + 1,
                "expected a sample `name{label=\"value\"} value`".to_string(),
            ));
            continue;
        };
        if name.ends_with("_created") || !value.is_finite() {
            continue;
        }
        record(&mut snapshot, name, value);
    }
    (snapshot, bad)
}

/// What `name` (with its engine prefix) is to benchdeck.
enum Known {
    Counter(Counter, f64),
    Gauge(Measure, f64),
    SpecAcceptLength,
}

fn known(name: &str) -> Option<Known> {
    use Counter as C;
    let ratio = 100.0;
    let counter = |c| Some(Known::Counter(c, 1.0));
    let gauge = |m, scale| Some(Known::Gauge(m, scale));
    if let Some(vllm) = name.strip_prefix("vllm:") {
        return match vllm {
            "num_requests_waiting" => gauge(Measure::Waiting, 1.0),
            "num_requests_running" => gauge(Measure::Running, 1.0),
            "kv_cache_usage_perc" | "gpu_cache_usage_perc" => gauge(Measure::KvCachePct, ratio),
            "num_preemptions_total" | "num_preemptions" => counter(C::Preemptions),
            "prefix_cache_queries_total" | "gpu_prefix_cache_queries_total" => {
                counter(C::PrefixQueries)
            }
            "prefix_cache_hits_total" | "gpu_prefix_cache_hits_total" => counter(C::PrefixHits),
            "external_prefix_cache_queries_total" | "connector_prefix_cache_queries_total" => {
                counter(C::ExternalPrefixQueries)
            }
            "external_prefix_cache_hits_total" | "connector_prefix_cache_hits_total" => {
                counter(C::ExternalPrefixHits)
            }
            "spec_decode_num_drafts_total" => counter(C::SpecDrafts),
            "spec_decode_num_draft_tokens_total" => counter(C::SpecDraftTokens),
            "spec_decode_num_accepted_tokens_total" => counter(C::SpecAccepted),
            "generation_tokens_total" => counter(C::GenerationTokens),
            "request_success_total" => counter(C::RequestsFinished),
            _ => None,
        };
    }
    if let Some(sglang) = name.strip_prefix("sglang:") {
        return match sglang {
            "num_queue_reqs" => gauge(Measure::Waiting, 1.0),
            "num_running_reqs" => gauge(Measure::Running, 1.0),
            "token_usage" => gauge(Measure::KvCachePct, ratio),
            "prompt_tokens_total" => counter(C::PrefixQueries),
            "cached_tokens_total" => counter(C::PrefixHits),
            "generation_tokens_total" => counter(C::GenerationTokens),
            "spec_accept_length" => Some(Known::SpecAcceptLength),
            "num_requests_total" => counter(C::RequestsFinished),
            _ => None,
        };
    }
    match name {
        "DCGM_FI_DEV_POWER_USAGE" => gauge(Measure::PowerW, 1.0),
        "DCGM_FI_DEV_GPU_UTIL" => gauge(Measure::GpuUtilPct, 1.0),
        "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION" => Some(Known::Counter(C::EnergyJ, 1e-3)),
        _ => None,
    }
}

fn record(snapshot: &mut Snapshot, name: &str, value: f64) {
    match known(name) {
        Some(Known::Counter(c, scale)) => {
            *snapshot.counters.entry(c).or_insert(0.0) += value * scale;
        }
        Some(Known::Gauge(m, scale)) => snapshot.gauges.entry(m).or_default().push(value * scale),
        Some(Known::SpecAcceptLength) => snapshot.spec_accept_length = Some(value),
        None => {}
    }
}

/// `name{labels} value [timestamp]` split into the name and the value (label sets are summed
/// or kept one value each, so their text is not needed).
fn sample(line: &str) -> Option<(&str, f64)> {
    let name_end = line.find(|c: char| c == '{' || c.is_whitespace())?;
    let name = &line[..name_end];
    let valid = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':';
    if name.is_empty() || !name.chars().all(valid) {
        return None;
    }
    let rest = &line[name_end..];
    let rest = match rest.strip_prefix('{') {
        Some(inner) => &inner[closing_brace(inner)? + 1..],
        None => rest,
    };
    let value = rest.split_whitespace().next()?;
    let value = match value {
        "+Inf" => f64::INFINITY,
        "-Inf" => f64::NEG_INFINITY,
        "NaN" => f64::NAN,
        v => v.parse().ok()?,
    };
    Some((name, value))
}

/// The index of the `}` that closes a label set, quotes and escapes respected.
fn closing_brace(inner: &str) -> Option<usize> {
    let (mut quoted, mut escaped) = (false, false);
    for (i, c) in inner.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '}' if !quoted => return Some(i),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCRAPE: &str = r#"# HELP vllm:num_requests_waiting Number of requests waiting.
# TYPE vllm:num_requests_waiting gauge
vllm:num_requests_waiting{engine="0",model_name="m"} 3.0
vllm:num_requests_waiting{engine="1",model_name="m"} 5.0
# TYPE vllm:kv_cache_usage_perc gauge
vllm:kv_cache_usage_perc{engine="0",model_name="m"} 0.25
# TYPE vllm:prefix_cache_queries_total counter
vllm:prefix_cache_queries_total{engine="0",model_name="m"} 1000.0
vllm:prefix_cache_queries_created{engine="0",model_name="m"} 1.78e+09
vllm:prefix_cache_hits_total{engine="0",model_name="m {odd}"} 660.0
python_gc_objects_collected_total{generation="0"} 1234.0
DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu="0",UUID="GPU-1"} 5000
"#;

    #[test]
    fn a_scrape_gives_counters_summed_and_gauges_per_label_set() {
        assert!(is_scrape(SCRAPE));
        let (s, bad) = read(SCRAPE);
        assert!(bad.is_empty(), "{bad:?}");
        assert_eq!(s.gauges[&Measure::Waiting], vec![3.0, 5.0]);
        assert_eq!(s.gauges[&Measure::KvCachePct], vec![25.0]);
        assert_eq!(s.counters[&Counter::PrefixQueries], 1000.0);
        assert_eq!(s.counters[&Counter::PrefixHits], 660.0);
        assert_eq!(s.counters[&Counter::EnergyJ], 5.0);
        assert_eq!(s.counters.len(), 3, "{:?}", s.counters);
    }

    #[test]
    fn a_line_that_is_no_sample_is_named() {
        let (_, bad) = read("# TYPE x gauge\nx 1\nx{a=\"1\" 2\ny one\n");
        assert_eq!(bad.iter().map(|b| b.0).collect::<Vec<_>>(), vec![3, 4]);
    }

    #[test]
    fn text_that_is_no_scrape_is_not_taken_for_one() {
        assert!(!is_scrape("time,value\n1,2\n"));
        assert!(!is_scrape("# A report\n\nSome text.\n"));
        assert!(is_scrape("vllm:num_requests_running 4\n"));
    }
}
