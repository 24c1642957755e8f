//! The engine's state as its own log prints it every few seconds:
//! - vLLM: `INFO 02-21 19:48:37 metrics.py:360] Avg prompt throughput: …, Running: 17 reqs,
//!   Swapped: 0 reqs, Pending: 407 reqs, GPU KV cache usage: 4.9%, …` (V1 engines write
//!   `Waiting:` for `Pending:`);
//! - SGLang: `[2025-06-01 10:00:00] Decode batch. #running-req: 12, #token: 3480, token usage:
//!   0.05, …, #queue-req: 0`.
//!
//! vLLM's timestamps carry no year, so its series count seconds from the log's first line.

use jiff::fmt::strtime;

use super::readings::{Measure, Readings, Series};

/// True when `text` holds a line of an engine's periodic state.
pub fn is_log(text: &str) -> bool {
    text.lines().take(20_000).any(|l| state(l).is_some())
}

/// The series of the engine's state in `text`: requests running and waiting, KV-cache use.
pub fn read(text: &str) -> Readings {
    let mut series: Vec<Series> = [Measure::Running, Measure::Waiting, Measure::KvCachePct]
        .into_iter()
        .map(|measure| Series {
            measure,
            gpu: None,
            time_s: Vec::new(),
            values: Vec::new(),
        })
        .collect();
    let mut origin = None;
    let mut wall = true;
    for (i, line) in text.lines().enumerate() {
        let Some(values) = state(line) else { continue };
        let (at, is_wall) = time(line).unwrap_or((i as f64, false));
        wall &= is_wall;
        let t = at - *origin.get_or_insert(at);
        for (s, v) in series.iter_mut().zip(values) {
            if let Some(v) = v {
                s.time_s.push(t);
                s.values.push(v);
            }
        }
    }
    series.retain(|s| !s.values.is_empty());
    Readings {
        series,
        snapshot: None,
        relative_clock: !wall,
    }
}

/// Running, waiting and KV-cache use (in percent) of a state line.
fn state(line: &str) -> Option<[Option<f64>; 3]> {
    if line.contains("Running: ") && line.contains("KV cache usage: ") {
        let running = after(line, "Running: ");
        let waiting = after(line, "Pending: ").or_else(|| after(line, "Waiting: "));
        let kv = after(line, "GPU KV cache usage: ").or_else(|| after(line, "KV cache usage: "));
        return running.is_some().then_some([running, waiting, kv]);
    }
    if line.contains("#running-req: ") {
        let running = after(line, "#running-req: ");
        let waiting = after(line, "#queue-req: ");
        let kv = after(line, "token usage: ").map(|r| r * 100.0);
        return running.is_some().then_some([running, waiting, kv]);
    }
    None
}

/// The number after `key` in `line`.
fn after(line: &str, key: &str) -> Option<f64> {
    let rest = &line[line.find(key)? + key.len()..];
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// A line's time in seconds: SGLang's `[YYYY-MM-DD HH:MM:SS]` (wall clock) or vLLM's
/// `LEVEL MM-DD HH:MM:SS` (no year: the year 2000 stands in, so only differences count).
fn time(line: &str) -> Option<(f64, bool)> {
    if let Some(inner) = line.strip_prefix('[').and_then(|l| l.get(..19)) {
        let at = strtime::parse("%Y-%m-%d %H:%M:%S", inner)
            .and_then(|t| t.to_datetime())
            .ok()?;
        return Some((super::readings::utc_seconds(at)?, true));
    }
    let mut words = line.split_whitespace();
    let (_level, day, clock) = (words.next()?, words.next()?, words.next()?);
    let stamp = format!("2000-{day} {}", clock.trim_end_matches(']'));
    let at = strtime::parse("%Y-%m-%d %H:%M:%S", &stamp)
        .and_then(|t| t.to_datetime())
        .ok()?;
    Some((super::readings::utc_seconds(at)?, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vllm_state_lines_give_running_waiting_and_kv_use() {
        let log = "INFO 02-21 19:48:32 metrics.py:360] Avg prompt throughput: 50.0 tokens/s, \
                   Running: 1 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 0.4%, \
                   CPU KV cache usage: 0.0%.\n\
                   INFO 02-21 19:48:37 engine.py:1] something else\n\
                   INFO 02-21 19:48:37 metrics.py:360] Avg prompt throughput: 707.5 tokens/s, \
                   Running: 17 reqs, Swapped: 0 reqs, Pending: 407 reqs, GPU KV cache usage: \
                   4.9%, CPU KV cache usage: 0.0%.\n";
        assert!(is_log(log));
        let r = read(log);
        assert!(r.relative_clock);
        assert_eq!(r.series[0].values, vec![1.0, 17.0]);
        assert_eq!(r.series[1].values, vec![0.0, 407.0]);
        assert_eq!(r.series[2].values, vec![0.4, 4.9]);
        assert_eq!(r.series[0].time_s, vec![0.0, 5.0]);
    }

    #[test]
    fn sglang_decode_lines_give_the_queue_and_token_usage() {
        let log = "[2025-06-01 10:00:00] Decode batch. #running-req: 12, #token: 3480, \
                   token usage: 0.05, gen throughput (token/s): 900.1, #queue-req: 3\n\
                   [2025-06-01 10:00:04] Decode batch. #running-req: 20, #token: 5000, \
                   token usage: 0.25, gen throughput (token/s): 990.0, #queue-req: 0\n";
        let r = read(log);
        assert!(!r.relative_clock);
        assert_eq!(r.series[1].values, vec![3.0, 0.0]);
        assert_eq!(r.series[2].values, vec![5.0, 25.0]);
        assert_eq!(r.series[0].time_s, vec![0.0, 4.0]);
        assert!(!is_log("Running: the tests\n"));
    }
}
