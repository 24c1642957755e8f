//! JSON as Python's `json.dump` writes it (`", "` between items, `": "` after keys, one line),
//! and the summary statistics the synthetic files carry beside their per-request values.

use std::io::{self, Write};

use serde_json::ser::Formatter;

/// serde_json's compact output with Python's default separators.
pub struct PythonFormatter;

impl Formatter for PythonFormatter {
    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }
}

/// Writes `value` the way Python's `json.dump` would.
pub fn write_value(out: &mut impl Write, value: &serde_json::Value) -> io::Result<()> {
    let mut serializer = serde_json::Serializer::with_formatter(out, PythonFormatter);
    serde::Serialize::serialize(value, &mut serializer).map_err(io::Error::other)
}

/// A float as Python's `repr` writes it for the magnitudes these files hold (`0.0`, `1.5`,
/// `0.018234`).
pub fn float(value: f64) -> String {
    format!("{value:?}")
}

/// The statistics of a set of values: the moments, the extremes and nearest-rank percentiles.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    sorted: Vec<f64>,
    pub mean: f64,
    pub std: f64,
    pub sum: f64,
}

impl Summary {
    /// The statistics of `values` (in any order).
    pub fn of(mut values: Vec<f64>) -> Summary {
        values.sort_by(f64::total_cmp);
        let n = values.len().max(1) as f64;
        let sum: f64 = values.iter().sum();
        let mean = sum / n;
        let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
        Summary {
            sorted: values,
            mean,
            std: variance.sqrt(),
            sum,
        }
    }

    /// How many values.
    pub fn count(&self) -> usize {
        self.sorted.len()
    }

    /// The `p`th percentile (0–100), nearest rank; 0 for no values.
    pub fn percentile(&self, p: f64) -> f64 {
        if self.sorted.is_empty() {
            return 0.0;
        }
        let rank = ((p / 100.0) * self.sorted.len() as f64).ceil() as usize;
        self.sorted[rank.clamp(1, self.sorted.len()) - 1]
    }

    /// The smallest value; 0 for no values.
    pub fn min(&self) -> f64 {
        self.sorted.first().copied().unwrap_or(0.0)
    }

    /// The largest value; 0 for no values.
    pub fn max(&self) -> f64 {
        self.sorted.last().copied().unwrap_or(0.0)
    }
}

/// Pooled values too many to keep (every inter-token gap of a run), counted in bins of
/// `width`: their mean, spread and percentiles to the bin.
pub struct Histogram {
    width: f64,
    bins: Vec<u64>,
    count: u64,
    sum: f64,
    sum_squares: f64,
}

impl Histogram {
    /// Bins of `width` from 0 to `width × bins`; larger values fall in the last bin.
    pub fn new(width: f64, bins: usize) -> Histogram {
        Histogram {
            width,
            bins: vec![0; bins],
            count: 0,
            sum: 0.0,
            sum_squares: 0.0,
        }
    }

    /// Counts one value.
    pub fn add(&mut self, value: f64) {
        let bin = ((value / self.width) as usize).min(self.bins.len() - 1);
        self.bins[bin] += 1;
        self.count += 1;
        self.sum += value;
        self.sum_squares += value * value;
    }

    /// The mean of the values counted.
    pub fn mean(&self) -> f64 {
        self.sum / self.count.max(1) as f64
    }

    /// The standard deviation of the values counted.
    pub fn std(&self) -> f64 {
        let mean = self.mean();
        (self.sum_squares / self.count.max(1) as f64 - mean * mean)
            .max(0.0)
            .sqrt()
    }

    /// The `p`th percentile (0–100), as the middle of its bin.
    pub fn percentile(&self, p: f64) -> f64 {
        let rank = ((p / 100.0) * self.count as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (i, n) in self.bins.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return (i as f64 + 0.5) * self.width;
            }
        }
        self.bins.len() as f64 * self.width
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_separators_and_floats() {
        let mut out = Vec::new();
        write_value(&mut out, &serde_json::json!({"a": [1, 2.5], "b": null})).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"{"a": [1, 2.5], "b": null}"#
        );
        assert_eq!(float(0.0), "0.0");
        assert_eq!(float(0.018234), "0.018234");
    }

    #[test]
    fn summaries_and_histograms() {
        let s = Summary::of(vec![4.0, 1.0, 3.0, 2.0]);
        assert_eq!((s.mean, s.min(), s.max(), s.count()), (2.5, 1.0, 4.0, 4));
        assert_eq!(s.percentile(50.0), 2.0);
        assert_eq!(s.percentile(99.0), 4.0);
        let mut h = Histogram::new(1.0, 10);
        for v in [0.5, 1.5, 2.5, 3.5] {
            h.add(v);
        }
        assert_eq!(h.mean(), 2.0);
        assert_eq!(h.percentile(50.0), 1.5);
        assert_eq!(h.percentile(100.0), 3.5);
    }
}
