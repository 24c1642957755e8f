//! The engine figures of a server report benchdeck already reads as a run's
//! [`ServerMetrics`]: inference-perf's `stage_N_prometheus_metrics.json`, whose gauges it
//! summarised over the stage itself (`queue_len`, `num_requests_running`,
//! `kv_cache_usage_percentage` — a 0–1 ratio despite its name — and the prefix caches' hit
//! percentages), with the requests the server finished.

use crate::model::{EngineMetrics, Gauge, ServerMetrics};

/// The engine figures in `server`; `None` when it holds none.
pub fn engine_of(server: &ServerMetrics) -> Option<EngineMetrics> {
    let value = |key: &str| server.values.get(key).copied().filter(|v| v.is_finite());
    let gauge = |name: &str, scale: f64| {
        let mean = value(&format!("{name}.mean"))? * scale;
        Some(Gauge {
            p50: value(&format!("{name}.median")).map(|v| v * scale),
            p99: value(&format!("{name}.p99")).map(|v| v * scale),
            ..Gauge::mean_only(mean)
        })
    };
    let metrics = EngineMetrics {
        sources: vec![server.file.clone()],
        waiting: gauge("queue_len", 1.0).or_else(|| gauge("num_requests_waiting", 1.0)),
        running: gauge("num_requests_running", 1.0),
        kv_cache_pct: gauge("kv_cache_usage_percentage", 100.0),
        prefix_cache_hit_pct: value("prefix_cache_hit_percent.mean"),
        external_prefix_cache_hit_pct: value("external_prefix_cache_hit_percent.mean"),
        server_requests: value("request_success_count").or(server.requests),
        ..EngineMetrics::default()
    };
    (!metrics.is_empty()).then_some(metrics)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inference_perfs_gauges_become_engine_figures() {
        let mut server = ServerMetrics {
            file: "stage_0_prometheus_metrics.json".into(),
            ..ServerMetrics::default()
        };
        for (k, v) in [
            ("queue_len.mean", 2.0),
            ("num_requests_running.mean", 3.6),
            ("kv_cache_usage_percentage.mean", 0.0211),
            ("kv_cache_usage_percentage.median", 0.0198),
            ("kv_cache_usage_percentage.p99", 0.0401),
            ("prefix_cache_hit_percent.mean", 12.5),
            ("request_success_count", 24.0),
        ] {
            server.values.insert(k.into(), v);
        }
        let m = engine_of(&server).unwrap();
        assert_eq!(m.waiting.unwrap().mean, 2.0);
        let kv = m.kv_cache_pct.unwrap();
        assert!((kv.mean - 2.11).abs() < 1e-12 && kv.peak.is_none());
        assert!((kv.p99.unwrap() - 4.01).abs() < 1e-12);
        assert_eq!(m.prefix_cache_hit_pct, Some(12.5));
        assert_eq!(m.server_requests, Some(24.0));
        assert_eq!(engine_of(&ServerMetrics::default()), None);
    }
}
