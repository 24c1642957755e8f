//! A synthetic GuideLLM 0.7 `benchmarks.json`: a concurrency sweep whose benchmarks list every
//! request as GuideLLM writes it (`requests.successful`/`errored`, each with its timings, token
//! metrics and output text), with the statistics of those requests in `metrics`. One line, as
//! `json.dump` writes it; labelled synthetic; the same bytes on every machine.

use std::io::{self, Write};

use serde_json::{json, Value};

use super::python_json::{write_value, Summary};
use crate::rng::Rng;

/// The sweep's concurrencies, one benchmark each.
const STREAMS: [u32; 8] = [1, 2, 4, 8, 16, 32, 64, 128];

/// One in 200 requests errs.
const ERRORED_ONE_IN: usize = 200;

/// One request, as drawn.
struct Request {
    prompt: u32,
    output: u32,
    /// Milliseconds.
    ttft: f64,
    /// Milliseconds between tokens after the first.
    itl: f64,
    /// Seconds.
    start: f64,
    /// Seconds.
    latency: f64,
    errored: bool,
}

impl Request {
    fn end(&self) -> f64 {
        self.start + self.latency
    }
}

/// Writes a report of `per_benchmark` requests at each concurrency to `out`.
pub fn write(out: &mut impl Write, per_benchmark: usize) -> io::Result<()> {
    out.write_all(b"{\"metadata\": ")?;
    write_value(
        out,
        &json!({"version": 2, "guidellm_version": "0.7.3", "python_version": "3.12.11",
                "platform": "synthetic"}),
    )?;
    out.write_all(b", \"config\": ")?;
    write_value(out, &report_config())?;
    out.write_all(b", \"benchmarks\": [")?;
    let mut clock = 1_785_312_000.0;
    for (index, streams) in STREAMS.iter().enumerate() {
        if index > 0 {
            out.write_all(b", ")?;
        }
        let drawn = draw(index, *streams, per_benchmark, clock);
        clock = drawn.iter().map(Request::end).fold(clock, f64::max) + 5.0;
        write_benchmark(out, index, *streams, &drawn)?;
    }
    out.write_all(b"]}")
}

/// The report's own settings: the backend, the sweep, the labels.
fn report_config() -> Value {
    json!({
        "metadata": {"labels": {"label": "synthetic", "gpu": "synthetic-gpu"}},
        "spec": {
            "backend": {"kind": "openai_http", "target": "http://localhost:8000",
                        "model": "synthetic/model", "timeout_connect": 5.0, "http2": true},
            "profile": {"kind": "concurrent", "streams": STREAMS},
            "tokenizer": {"kind": "huggingface_auto", "model": "synthetic/model"},
            "data": [{"kind": "synthetic_text", "prompt_tokens": 512, "output_tokens": 128}],
            "outputs": [{"kind": "json", "path": "benchmarks.json"}],
            "seed": {"kind": "static", "value": 42}
        }
    })
}

/// `count` requests of `streams` concurrent streams from `clock` on.
fn draw(index: usize, streams: u32, count: usize, clock: f64) -> Vec<Request> {
    let mut rng = Rng::new(0x6a1d_e11e ^ (index as u64 + 1).wrapping_mul(0x9e37_79b9));
    let mut free_at = vec![clock; streams as usize];
    let load = f64::from(streams).sqrt();
    (0..count)
        .map(|i| {
            let stream = i % free_at.len();
            let errored = i % ERRORED_ONE_IN == ERRORED_ONE_IN - 1;
            let prompt = 256 + rng.below(512) as u32;
            let output = if errored {
                0
            } else {
                64 + rng.below(129) as u32
            };
            let ttft = rng.lognormal(40.0 * load, 0.4);
            let itl = rng.lognormal(9.0 + 1.5 * load, 0.15);
            let latency = (ttft + itl * f64::from(output.saturating_sub(1))) / 1000.0;
            let start = free_at[stream] + rng.range(0.0005, 0.002);
            free_at[stream] = start + latency;
            Request {
                prompt,
                output,
                ttft,
                itl,
                start,
                latency,
                errored,
            }
        })
        .collect()
}

/// One benchmark: settings, scheduler state, statistics, then every request.
fn write_benchmark(
    out: &mut impl Write,
    index: usize,
    streams: u32,
    drawn: &[Request],
) -> io::Result<()> {
    let start = drawn.iter().map(|r| r.start).fold(f64::INFINITY, f64::min);
    let end = drawn.iter().map(Request::end).fold(0.0, f64::max);
    let ok = drawn.iter().filter(|r| !r.errored).count();
    let totals = json!({"successful": ok, "errored": drawn.len() - ok, "incomplete": 0,
                        "total": drawn.len()});
    let head = json!({
        "type_": "generative_benchmark",
        "config": {
            "id_": format!("synthetic-benchmark-{index}"),
            "run_index": index,
            "strategy": {"type_": "concurrent", "worker_count": null, "max_concurrency": null,
                         "streams": streams, "rampup_duration": 0.0},
            "sample_size": null,
            "backend": {"kind": "openai_http", "model": "synthetic/model"}
        },
        "scheduler_state": {"start_time": start, "end_time": end,
                            "processed_requests": drawn.len(), "successful_requests": ok},
        "scheduler_metrics": {"start_time": start, "measure_start_time": start,
                              "measure_end_time": end, "end_time": end,
                              "requests_made": totals.clone()},
        "metrics": metrics(drawn, end - start, totals),
    });
    // The head without its closing brace, then the requests written one at a time.
    let mut text = Vec::new();
    write_value(&mut text, &head)?;
    text.pop();
    out.write_all(&text)?;
    out.write_all(b", \"requests\": {\"successful\": [")?;
    write_requests(out, drawn.iter().filter(|r| !r.errored))?;
    out.write_all(b"], \"errored\": [")?;
    write_requests(out, drawn.iter().filter(|r| r.errored))?;
    write!(
        out,
        "], \"incomplete\": [], \"total\": null}}, \"start_time\": {start}, \"end_time\": {end}, \
         \"duration\": {}, \"warmup_duration\": 0.0, \"cooldown_duration\": 0.0}}",
        end - start
    )
}

/// The requests' statistics by status, as `metrics` holds them.
fn metrics(drawn: &[Request], duration: f64, totals: Value) -> Value {
    let ok: Vec<&Request> = drawn.iter().filter(|r| !r.errored).collect();
    let per = |f: fn(&Request) -> f64| distribution(Summary::of(ok.iter().map(|r| f(r)).collect()));
    let rate = |per_request: fn(&Request) -> f64| {
        let total: f64 = ok.iter().map(|r| per_request(r)).sum();
        distribution(Summary::of(vec![total / duration]))
    };
    let busy: f64 = ok.iter().map(|r| r.latency).sum();
    let mut metrics = serde_json::Map::new();
    metrics.insert("request_totals".into(), totals);
    for (key, successful) in [
        ("requests_per_second", rate(|_| 1.0)),
        (
            "request_concurrency",
            distribution(Summary::of(vec![busy / duration])),
        ),
        ("request_latency", per(|r| r.latency)),
        ("prompt_token_count", per(|r| f64::from(r.prompt))),
        ("output_token_count", per(|r| f64::from(r.output))),
        ("time_to_first_token_ms", per(|r| r.ttft)),
        (
            "time_per_output_token_ms",
            per(|r| r.latency * 1000.0 / f64::from(r.output)),
        ),
        ("inter_token_latency_ms", per(|r| r.itl)),
        ("prompt_tokens_per_second", rate(|r| f64::from(r.prompt))),
        ("output_tokens_per_second", rate(|r| f64::from(r.output))),
        (
            "tokens_per_second",
            rate(|r| f64::from(r.prompt + r.output)),
        ),
    ] {
        metrics.insert(key.into(), statuses(successful));
    }
    Value::Object(metrics)
}

/// A metric's distributions by status: the successful requests', and empty ones for the rest.
fn statuses(successful: Value) -> Value {
    let empty = distribution(Summary::of(Vec::new()));
    json!({"successful": successful.clone(), "errored": empty, "incomplete": empty,
           "total": successful})
}

/// One of GuideLLM's `DistributionSummary` objects.
fn distribution(s: Summary) -> Value {
    let percentiles: serde_json::Map<String, Value> = crate::scale::formats::PERCENTILES
        .into_iter()
        .map(|(k, p)| (k.to_string(), json!(s.percentile(p))))
        .collect();
    json!({"mean": s.mean, "median": s.percentile(50.0), "mode": s.percentile(50.0),
           "variance": s.std * s.std, "std_dev": s.std, "min": s.min(), "max": s.max(),
           "count": s.count(), "total_sum": s.sum, "percentiles": percentiles, "pdf": null})
}

/// The requests as GuideLLM lists them, comma-separated.
fn write_requests<'a>(
    out: &mut impl Write,
    requests: impl Iterator<Item = &'a Request>,
) -> io::Result<()> {
    for (i, r) in requests.enumerate() {
        if i > 0 {
            out.write_all(b", ")?;
        }
        write_value(out, &request(r))?;
    }
    Ok(())
}

/// One `generative_request_stats` object.
fn request(r: &Request) -> Value {
    let first_token = r.start + r.ttft / 1000.0;
    let end = r.end();
    let output_text: String = "synthetic output of a benchmark request, not a model's answer; "
        .chars()
        .cycle()
        .take(r.output as usize * 4)
        .collect();
    let tokens = |n: u32, characters: usize| {
        json!({"text_tokens": n, "total_tokens": n, "text_characters": characters,
               "text_words": characters / 6, "cached_tokens": 0, "image_tokens": null,
               "image_count": null, "audio_tokens": null, "video_tokens": null,
               "tool_call_tokens": null})
    };
    json!({
        "type_": "generative_request_stats",
        "request_id": format!("synthetic-{:.6}", r.start),
        "response_id": "chatcmpl-synthetic",
        "request_args": null,
        "output": if r.errored { Value::Null } else { json!(output_text) },
        "info": {
            "status": if r.errored { "errored" } else { "completed" },
            "error": if r.errored { json!("synthetic error: the connection was reset") } else { Value::Null },
            "scheduler_node_id": 0, "scheduler_process_id": 0,
            "timings": {"queued": r.start - 0.001, "dequeued": r.start - 0.0005,
                        "request_start": r.start, "first_token_iteration": first_token,
                        "last_token_iteration": end, "request_end": end,
                        "token_iterations": r.output, "request_iterations": r.output + 1}
        },
        "input_metrics": tokens(r.prompt, r.prompt as usize * 4),
        "output_metrics": tokens(r.output, output_text.len()),
        "prompt_tokens": r.prompt,
        "output_tokens": r.output,
        "total_tokens": r.prompt + r.output,
        "request_start_time": r.start,
        "request_end_time": end,
        "first_token_iteration": first_token,
        "last_token_iteration": end,
        "token_iterations": r.output,
        "request_latency": r.latency,
        "time_to_first_token_ms": r.ttft,
        "time_to_first_output_token_ms": r.ttft,
        "inter_token_latency_ms": r.itl,
        "time_per_output_token_ms": r.latency * 1000.0 / f64::from(r.output.max(1)),
        "tokens_per_second": f64::from(r.prompt + r.output) / r.latency,
        "output_tokens_per_second": f64::from(r.output) / r.latency,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_report_lists_every_request_once() {
        let mut out = Vec::new();
        write(&mut out, 400).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(!text.contains('\n'));
        let v: Value = serde_json::from_str(&text).unwrap();
        let benchmarks = v["benchmarks"].as_array().unwrap();
        assert_eq!(benchmarks.len(), STREAMS.len());
        let requests = &benchmarks[0]["requests"];
        let listed = requests["successful"].as_array().unwrap().len()
            + requests["errored"].as_array().unwrap().len();
        assert_eq!(listed, 400);
        assert_eq!(benchmarks[0]["metrics"]["request_totals"]["errored"], 2);
    }
}
