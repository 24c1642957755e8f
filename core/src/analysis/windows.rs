//! Distributions over time (seed 003): a run's requests put in fixed windows by their start
//! time, and each window summarised by its median tokens per second and its latency
//! percentiles. A run that switches between a normal and a stressed regime shows two modes in
//! the spread of its windows, where the run's overall percentiles show one number.

use super::{quantile, sorted_finite};
use crate::model::{Distribution, Metric, Stat, TimeSlice};

/// Windows with fewer successful requests than this are left out: a p95 of three requests is
/// the slowest of them, not a percentile.
pub const MIN_REQUESTS: usize = 5;

/// Window widths tried by [`auto_width`], in seconds.
const NICE_WIDTHS: [f64; 11] = [
    1.0, 2.0, 5.0, 10.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0,
];

/// About this many windows per run when the width is not given.
const TARGET_WINDOWS: f64 = 20.0;

/// One window of a run: the requests that started in `[start_s, start_s + width)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Window {
    /// Start of the window, seconds from the run's first request.
    pub start_s: f64,
    /// Requests that started in it, failed ones included.
    pub requests: usize,
    /// Of those, the successful ones with a latency.
    pub succeeded: usize,
    /// Median over its successful requests of output tokens per second of each request
    /// (output tokens / end-to-end latency); `None` without token counts.
    pub tok_s: Option<f64>,
    /// Its successful requests' latency.
    latencies: Latencies,
}

/// A window's latencies: the requests' own, or the statistics its tool wrote.
#[derive(Debug, Clone, PartialEq)]
enum Latencies {
    /// The sorted values of its successful requests.
    Sorted(Vec<f64>),
    /// Its distribution as the tool summarised it (AIPerf's timeslices).
    Summary(Distribution),
}

impl Window {
    /// The `q` quantile (0 to 1) of its successful requests' latency; for a summarised window,
    /// only the percentiles its tool wrote.
    pub fn latency(&self, q: f64) -> Option<f64> {
        match &self.latencies {
            Latencies::Sorted(values) => quantile(values, q),
            Latencies::Summary(d) => d.get(Stat::P(q * 100.0)),
        }
    }
}

/// The windows of a run its tool cut and summarised ([`TimeSlice`]s), for latency `metric`,
/// with at least [`MIN_REQUESTS`] successes, and how many had fewer: a p95 of three requests
/// is no percentile, whoever computed it.
pub fn summarised(slices: &[TimeSlice], metric: Metric) -> (Vec<Window>, usize) {
    let mut sparse = 0;
    let mut out = Vec::new();
    for slice in slices {
        let succeeded = slice.succeeded.unwrap_or(0) as usize;
        let failed = slice.failed.unwrap_or(0) as usize;
        let Some(latency) = slice.latency_of(metric) else {
            sparse += usize::from(succeeded + failed > 0);
            continue;
        };
        if succeeded < MIN_REQUESTS {
            sparse += 1;
            continue;
        }
        out.push(Window {
            start_s: slice.start_s,
            requests: succeeded + failed,
            succeeded,
            tok_s: None,
            latencies: Latencies::Summary(latency.distribution.clone()),
        });
    }
    (out, sparse)
}

/// The per-request lists a run's windows are made from, index-aligned (the caller checks their
/// lengths).
pub struct Requests<'a> {
    /// Start of each request, seconds.
    pub starts: &'a [f64],
    /// Whether each request succeeded.
    pub ok: &'a [bool],
    /// The latency summarised, per request.
    pub latency_ms: &'a [f64],
    /// Output tokens per request (empty when unknown).
    pub output_tokens: &'a [f64],
    /// End-to-end latency per request (empty when unknown).
    pub e2e_ms: &'a [f64],
}

/// Most windows a run may be cut into: its requests' latest start over the width. A start time
/// far from the others (`1e12`) or a tiny width (`1e-300`) would otherwise ask for billions of
/// windows.
pub const MAX_WINDOWS: usize = 10_000;

/// Why a run cannot be cut into windows of the width asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct TooManyWindows {
    /// The latest start, seconds.
    pub last_start_s: f64,
    /// The width asked for, seconds.
    pub width: f64,
}

impl std::fmt::Display for TooManyWindows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "requests start up to {} s after the first, which makes more than {} windows of {} s (the limit is {MAX_WINDOWS} windows); give a wider `window`, or check the start times",
            crate::format::number(self.last_start_s),
            crate::format::number((self.last_start_s / self.width).min(1e300)),
            crate::format::number(self.width),
        )
    }
}

/// The windows of `requests` with at least [`MIN_REQUESTS`] successes, in time order, and how
/// many windows had fewer; an error when the run would need more than [`MAX_WINDOWS`].
pub fn windows(
    requests: &Requests<'_>,
    width: f64,
) -> Result<(Vec<Window>, usize), TooManyWindows> {
    if !(width.is_finite() && width > 0.0) {
        return Ok((Vec::new(), 0));
    }
    let starts = || {
        requests
            .starts
            .iter()
            .enumerate()
            .filter(|(_, start)| start.is_finite() && **start >= 0.0)
    };
    let last_start_s = starts().map(|(_, s)| *s).fold(0.0, f64::max);
    // Checked before any index is taken: the last window's index is at most MAX_WINDOWS.
    if last_start_s / width >= MAX_WINDOWS as f64 {
        return Err(TooManyWindows {
            last_start_s,
            width,
        });
    }
    let mut bins: Vec<(usize, Vec<f64>, Vec<f64>)> = Vec::new();
    for (i, &start) in starts() {
        let index = (start / width).floor() as usize;
        if bins.len() <= index {
            bins.resize_with(index + 1, || (0, Vec::new(), Vec::new()));
        }
        let bin = &mut bins[index];
        bin.0 += 1;
        let latency = requests.latency_ms.get(i).copied().unwrap_or(f64::NAN);
        if !requests.ok.get(i).copied().unwrap_or(true) || !latency.is_finite() {
            continue;
        }
        bin.1.push(latency);
        if let Some(speed) = tokens_per_s(requests, i) {
            bin.2.push(speed);
        }
    }
    let mut sparse = 0;
    let mut out = Vec::new();
    for (index, (count, latencies, speeds)) in bins.into_iter().enumerate() {
        if count == 0 {
            continue;
        }
        if latencies.len() < MIN_REQUESTS {
            sparse += 1;
            continue;
        }
        out.push(Window {
            start_s: index as f64 * width,
            requests: count,
            succeeded: latencies.len(),
            tok_s: quantile(&sorted_finite(&speeds), 0.5),
            latencies: Latencies::Sorted(sorted_finite(&latencies)),
        });
    }
    Ok((out, sparse))
}

/// Output tokens per second of request `i` as its user saw them; none without both numbers.
fn tokens_per_s(requests: &Requests<'_>, i: usize) -> Option<f64> {
    let tokens = *requests.output_tokens.get(i)?;
    let seconds = requests.e2e_ms.get(i)? / 1000.0;
    let speed = tokens / seconds;
    (tokens >= 1.0 && seconds > 0.0 && speed.is_finite()).then_some(speed)
}

/// A round window width for `requests` requests started over `span` seconds: at most about
/// twenty windows, each holding on average at least twice [`MIN_REQUESTS`].
pub fn auto_width(span: f64, requests: usize) -> f64 {
    let fewest = span * (2 * MIN_REQUESTS) as f64 / requests.max(1) as f64;
    NICE_WIDTHS
        .into_iter()
        .find(|&w| span / w <= TARGET_WINDOWS && w >= fewest)
        .unwrap_or(NICE_WIDTHS[NICE_WIDTHS.len() - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn requests<'a>(starts: &'a [f64], ok: &'a [bool], latency: &'a [f64]) -> Requests<'a> {
        Requests {
            starts,
            ok,
            latency_ms: latency,
            output_tokens: &[],
            e2e_ms: &[],
        }
    }

    #[test]
    fn requests_fall_in_the_window_of_their_start() {
        let starts: Vec<f64> = (0..20).map(|i| i as f64).collect();
        let ok = vec![true; 20];
        let latency: Vec<f64> = (0..20)
            .map(|i| if i < 10 { 100.0 } else { 900.0 })
            .collect();
        let (w, sparse) = windows(&requests(&starts, &ok, &latency), 10.0).unwrap();
        assert_eq!(sparse, 0);
        assert_eq!(w.len(), 2);
        assert_eq!((w[0].start_s, w[0].requests, w[0].succeeded), (0.0, 10, 10));
        assert_eq!(w[0].latency(0.95), Some(100.0));
        assert_eq!((w[1].start_s, w[1].latency(0.5)), (10.0, Some(900.0)));
        assert_eq!(w[1].tok_s, None);
    }

    #[test]
    fn failures_count_as_requests_but_not_latencies_and_sparse_windows_are_counted() {
        let starts = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 25.0, 26.0];
        let ok = [true, true, true, true, true, false, true, true, true];
        let latency = [1.0, 2.0, 3.0, 4.0, 5.0, 0.0, 7.0, 8.0, 9.0];
        let (w, sparse) = windows(&requests(&starts, &ok, &latency), 10.0).unwrap();
        assert_eq!((w.len(), sparse), (1, 1));
        assert_eq!((w[0].requests, w[0].succeeded), (7, 6));
        assert_eq!(w[0].latency(1.0), Some(7.0));
    }

    #[test]
    fn tokens_per_second_is_the_median_of_each_requests_speed() {
        let starts = [0.0; 5];
        let ok = [true; 5];
        let e2e = [1000.0, 2000.0, 1000.0, 4000.0, 500.0];
        let tokens = [100.0, 100.0, 50.0, 100.0, 0.0];
        let r = Requests {
            starts: &starts,
            ok: &ok,
            latency_ms: &e2e,
            output_tokens: &tokens,
            e2e_ms: &e2e,
        };
        let (w, _) = windows(&r, 10.0).unwrap();
        // 100, 50, 50, 25 tok/s (no speed for a request without output tokens).
        assert_eq!(w[0].tok_s, Some(50.0));
    }

    #[test]
    fn bad_widths_and_times_give_nothing_rather_than_a_panic() {
        let ok = [true; 3];
        let latency = [1.0; 3];
        for width in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(
                windows(&requests(&[0.0; 3], &ok, &latency), width)
                    .unwrap()
                    .0,
                vec![]
            );
        }
        let starts = [f64::NAN, -3.0, f64::INFINITY];
        assert_eq!(
            windows(&requests(&starts, &ok, &latency), 1.0),
            Ok((vec![], 0))
        );
    }

    #[test]
    fn a_far_start_or_a_tiny_width_is_refused_before_any_window_is_made() {
        let ok = [true; 3];
        let latency = [1.0; 3];
        let far = [0.0, 1.0, 1e12];
        let error = windows(&requests(&far, &ok, &latency), 60.0).unwrap_err();
        assert_eq!(error.last_start_s, 1e12);
        assert!(
            error.to_string().contains("the limit is 10000 windows"),
            "{error}"
        );
        let error = windows(&requests(&[0.0, 1.0, 2.0], &ok, &latency), 1e-300).unwrap_err();
        assert!(error.to_string().contains("more than"), "{error}");
        // The limit itself is fine: 9,999 windows.
        let edge = [0.0, 9_999.5];
        assert!(windows(&requests(&edge, &ok[..2], &latency[..2]), 1.0).is_ok());
    }

    #[test]
    fn the_automatic_width_is_round_and_gives_about_twenty_full_windows() {
        assert_eq!(auto_width(100.0, 1000), 5.0);
        assert_eq!(auto_width(400.0, 1600), 30.0);
        assert_eq!(auto_width(3.0, 100), 1.0);
        assert_eq!(auto_width(1e9, 10), 1800.0);
        // 20 requests over 9.5 s: 1-second windows would hold two each.
        assert_eq!(auto_width(9.5, 20), 5.0);
    }
}
