//! Synthetic charts for benchmarks: deterministic, labelled synthetic in every title and name,
//! and reproducible outside Rust.
//!
//! [`scatter`] is the 100,000-point scatter of the speed benchmarks: the native criterion bench
//! (`core/benches/chart.rs`), the app's hidden `/_bench/scatter/` page and the uPlot reference
//! page (`xtask/bench/uplot-bench.js`) all draw the same points. The JavaScript copy of the
//! generator must stay in step with this one: it uses only xorshift on 64-bit integers and
//! `+ - * /` on doubles, which give the same bits in both languages.

use super::{Axis, ChartKind, ChartSpec, Point, Series};

/// The seed of [`scatter`]'s generator.
pub const SEED: u64 = 0x5eed_c4a7;

/// The size (CSS pixels) the benchmarks draw [`scatter`] at, natively and in the browser.
pub const SIZE: (u32, u32) = (960, 460);

pub use crate::random::XorShift;

/// Two series ("synthetic A" and "synthetic B") of `n / 2` and `n - n / 2` points that look
/// like per-request samples: x ascending from 64 to 4,096 (stratified, one point per slice of
/// the range), y a linear trend plus a skewed spread. No better direction is set on either axis,
/// so no Pareto frontier is drawn: every point is a plain dot, as in the uPlot reference.
pub fn scatter(n: usize) -> ChartSpec {
    let mut rng = XorShift::new(SEED);
    let halves = [n / 2, n - n / 2];
    // (base, slope, spread) per series.
    let shapes = [(180.0, 0.35, 900.0), (420.0, 0.22, 1400.0)];
    let series = halves
        .iter()
        .zip(shapes)
        .enumerate()
        .map(|(k, (&count, (base, slope, spread)))| {
            let step = 4032.0 / count.max(1) as f64;
            let points = (0..count)
                .map(|i| {
                    let (u1, u2, u3) = (rng.unit(), rng.unit(), rng.unit());
                    let x = 64.0 + (i as f64 + u1) * step;
                    let y = base + slope * x + spread * u2 * u3;
                    Point::new(x, Some(y))
                })
                .collect();
            Series {
                name: format!("synthetic {}", ["A", "B"][k]),
                color: k,
                points,
            }
        })
        .collect();
    ChartSpec {
        id: "synthetic-scatter".into(),
        title: format!(
            "Synthetic scatter, {} points",
            crate::format::number(n as f64)
        ),
        caption: "Synthetic data from a fixed xorshift generator, drawn for the speed benchmarks."
            .into(),
        kind: ChartKind::Scatter,
        x: Axis::new("Input tokens (synthetic)", "tokens"),
        y: Axis::new("E2E latency (synthetic)", "ms"),
        series,
        annotations: Vec::new(),
        alternatives: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_is_fixed_and_the_split_is_exact() {
        let mut rng = XorShift::new(SEED);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        // `xtask/bench/uplot-bench.js` checks the same values.
        assert_eq!(
            first,
            [
                0x1794_b0a1_f069_d6ee,
                0x9fe0_a9f3_6ea7_7ec3,
                0x7894_e554_0f81_e0fe
            ]
        );
        let spec = scatter(100_001);
        let counts: Vec<usize> = spec.series.iter().map(|s| s.points.len()).collect();
        assert_eq!(counts, vec![50_000, 50_001]);
        assert_eq!(spec, scatter(100_001));
        for s in &spec.series {
            assert!(s.points.windows(2).all(|w| w[0].x < w[1].x), "x ascends");
            assert!(s.points.iter().all(|p| p.y.is_some_and(f64::is_finite)));
        }
        assert!(spec.title.contains("Synthetic") && spec.series[0].name.contains("synthetic"));
    }
}
