//! A synthetic `vllm bench serve --save-result --save-detailed` file: one JSON object on one
//! line, as vLLM writes it, with every per-request list of the newest builds (`input_lens`,
//! `output_lens`, `ttfts`, `itls`, `generated_texts`, `errors`, `latencies`, `start_times`).
//! Labelled synthetic (`label`, `model_id`, the texts); the same bytes on every machine.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::python_json::{float, Histogram, Summary};
use crate::rng::Rng;

/// One request, as drawn.
struct Request {
    input: u32,
    /// Output tokens; 0 for a failed request.
    output: u32,
    /// Seconds.
    ttft: f64,
    /// Seconds.
    latency: f64,
    start: f64,
}

/// One in 200 requests fails.
const FAILED_ONE_IN: usize = 200;

/// The generator of request `i`: its own stream, so each list can be written in a pass of its
/// own and still agree with the others.
fn rng_of(i: usize) -> Rng {
    Rng::new(0x11a_4e5f_11e5 ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// True when request `i` fails.
fn fails(i: usize) -> bool {
    i % FAILED_ONE_IN == FAILED_ONE_IN - 1
}

/// Request `i`'s draws, and its inter-token gaps (seconds) given to `gap`.
fn draw(i: usize, start: f64, mut gap: impl FnMut(f64)) -> Request {
    let mut rng = rng_of(i);
    let input = 200 + rng.below(1800) as u32;
    if fails(i) {
        return Request {
            input,
            output: 0,
            ttft: 0.0,
            latency: 0.0,
            start,
        };
    }
    let output = 100 + rng.below(101) as u32;
    let ttft = rng.lognormal(0.12, 0.5) + f64::from(input) * 2e-5;
    let mut latency = ttft;
    for _ in 1..output {
        let g = rng.lognormal(0.018, 0.25);
        gap(g);
        latency += g;
    }
    Request {
        input,
        output,
        ttft,
        latency,
        start,
    }
}

/// Writes a result of `requests` requests to `out`.
pub fn write(out: &mut impl Write, requests: usize) -> io::Result<()> {
    let mut arrivals = Rng::new(0xa771_7a15);
    let mut clock = 83_512.25;
    let mut itl = Histogram::new(1e-5, 100_000);
    let drawn: Vec<Request> = (0..requests)
        .map(|i| {
            clock += -arrivals.uniform().ln() / 40.0;
            draw(i, clock, |g| itl.add(g))
        })
        .collect();
    write_head(out, &drawn, &itl)?;
    list(out, "input_lens", &drawn, |r| r.input.to_string())?;
    list(out, "output_lens", &drawn, |r| r.output.to_string())?;
    list(out, "ttfts", &drawn, |r| float(r.ttft))?;
    write_itls(out, &drawn)?;
    list(out, "generated_texts", &drawn, |r| {
        format!("\"{}\"", text(r.output))
    })?;
    let mut index = 0;
    list(out, "errors", &drawn, |_| {
        index += 1;
        if fails(index - 1) {
            "\"synthetic failure: the server closed the connection\"".to_string()
        } else {
            "\"\"".to_string()
        }
    })?;
    list(out, "latencies", &drawn, |r| float(r.latency))?;
    list(out, "start_times", &drawn, |r| float(r.start))?;
    out.write_all(b"}")
}

/// `, "key": [v, v, …]` with one value per request.
fn list(
    out: &mut impl Write,
    key: &str,
    drawn: &[Request],
    mut value: impl FnMut(&Request) -> String,
) -> io::Result<()> {
    write!(out, ", \"{key}\": [")?;
    for (i, r) in drawn.iter().enumerate() {
        if i > 0 {
            out.write_all(b", ")?;
        }
        out.write_all(value(r).as_bytes())?;
    }
    out.write_all(b"]")
}

/// `itls`: each request's gaps drawn again from its own stream.
fn write_itls(out: &mut impl Write, drawn: &[Request]) -> io::Result<()> {
    out.write_all(b", \"itls\": [")?;
    let mut gaps = String::new();
    for (i, r) in drawn.iter().enumerate() {
        gaps.clear();
        draw(i, r.start, |g| {
            let sep = if gaps.is_empty() { "" } else { ", " };
            let _ = write!(gaps, "{sep}{}", float(g));
        });
        let sep = if i > 0 { ", " } else { "" };
        write!(out, "{sep}[{gaps}]")?;
    }
    out.write_all(b"]")
}

/// A generated text of about four characters per token, labelled synthetic.
fn text(tokens: u32) -> String {
    const WORDS: &str = "synthetic output of a benchmark request, not a model's answer; ";
    let length = tokens as usize * 3;
    WORDS.chars().cycle().take(length).collect()
}

/// The settings, counts, throughputs and latency statistics before the lists.
fn write_head(out: &mut impl Write, drawn: &[Request], itl: &Histogram) -> io::Result<()> {
    let ok: Vec<&Request> = drawn.iter().filter(|r| r.output > 0).collect();
    let first = drawn.first().map_or(0.0, |r| r.start);
    let duration = drawn
        .iter()
        .map(|r| r.start + r.latency)
        .fold(0.0, f64::max)
        - first;
    let input: u64 = ok.iter().map(|r| u64::from(r.input)).sum();
    let output: u64 = ok.iter().map(|r| u64::from(r.output)).sum();
    let ms = |f: fn(&Request) -> f64| Summary::of(ok.iter().map(|r| f(r) * 1000.0).collect());
    let tpot = ms(|r| (r.latency - r.ttft) / f64::from(r.output - 1));
    let mut head = format!(
        "{{\"date\": \"20251114-093012\", \"endpoint_type\": \"openai\", \"backend\": \"vllm\", \
         \"label\": \"synthetic\", \"model_id\": \"synthetic/model\", \"tokenizer_id\": \
         \"synthetic/model\", \"num_prompts\": {n}, \"request_rate\": 40.0, \"burstiness\": 1.0, \
         \"max_concurrency\": null, \"duration\": {duration}, \"completed\": {completed}, \
         \"failed\": {failed}, \"total_input_tokens\": {input}, \"total_output_tokens\": {output}, \
         \"request_throughput\": {rps}, \"request_goodput\": null, \"output_throughput\": {ops}, \
         \"total_token_throughput\": {tps}",
        n = drawn.len(),
        duration = float(duration),
        completed = ok.len(),
        failed = drawn.len() - ok.len(),
        rps = float(ok.len() as f64 / duration),
        ops = float(output as f64 / duration),
        tps = float((input + output) as f64 / duration),
    );
    for (name, s) in [
        ("ttft", ms(|r| r.ttft)),
        ("tpot", tpot),
        ("e2el", ms(|r| r.latency)),
    ] {
        let _ = write!(
            head,
            ", \"mean_{name}_ms\": {}, \"median_{name}_ms\": {}, \"std_{name}_ms\": {}, \
             \"p99_{name}_ms\": {}",
            float(s.mean),
            float(s.percentile(50.0)),
            float(s.std),
            float(s.percentile(99.0))
        );
    }
    let _ = write!(
        head,
        ", \"mean_itl_ms\": {}, \"median_itl_ms\": {}, \"std_itl_ms\": {}, \"p99_itl_ms\": {}",
        float(itl.mean() * 1000.0),
        float(itl.percentile(50.0) * 1000.0),
        float(itl.std() * 1000.0),
        float(itl.percentile(99.0) * 1000.0)
    );
    out.write_all(head.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_file_is_one_line_of_json_with_aligned_lists() {
        let mut out = Vec::new();
        write(&mut out, 400).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(!text.contains('\n'));
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        for key in [
            "ttfts",
            "itls",
            "errors",
            "latencies",
            "start_times",
            "generated_texts",
        ] {
            assert_eq!(v[key].as_array().unwrap().len(), 400, "{key}");
        }
        assert_eq!(v["failed"], 2);
        let itls = v["itls"][0].as_array().unwrap().len() as u64;
        assert_eq!(v["output_lens"][0].as_u64(), Some(itls + 1));
    }
}
