//! Least-squares lines through per-request points: how latency grows with tokens, as a slope a
//! reader can quote ("10.2 ms per output token").

/// A straight line fitted to points, with how well it fits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineFit {
    /// Change in y per unit of x.
    pub slope: f64,
    /// y at x = 0.
    pub intercept: f64,
    /// Coefficient of determination, 0 to 1: the share of y's variance the line explains.
    pub r2: f64,
    /// Points used (the finite ones).
    pub n: usize,
    /// The smallest and largest x used: the range the line is drawn over.
    pub x_range: (f64, f64),
}

impl LineFit {
    /// y on the line at `x`.
    pub fn at(&self, x: f64) -> f64 {
        self.intercept + self.slope * x
    }
}

/// The ordinary least-squares line through the finite points; none with fewer than two distinct
/// x values (no slope to speak of).
pub fn linear_fit(points: &[(f64, f64)]) -> Option<LineFit> {
    let finite: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .collect();
    let n = finite.len();
    if n < 2 {
        return None;
    }
    let mean = |f: fn(&(f64, f64)) -> f64| finite.iter().map(f).sum::<f64>() / n as f64;
    let (mx, my) = (mean(|p| p.0), mean(|p| p.1));
    let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
    for (x, y) in &finite {
        sxx += (x - mx) * (x - mx);
        sxy += (x - mx) * (y - my);
        syy += (y - my) * (y - my);
    }
    if sxx <= f64::EPSILON * mx.abs().max(1.0) {
        return None;
    }
    let slope = sxy / sxx;
    let r2 = if syy > 0.0 {
        (sxy * sxy / (sxx * syy)).clamp(0.0, 1.0)
    } else {
        1.0
    };
    let (lo, hi) = finite
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (x, _)| {
            (lo.min(*x), hi.max(*x))
        });
    Some(LineFit {
        slope,
        intercept: my - slope * mx,
        r2,
        n,
        x_range: (lo, hi),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_through_seed_004s_output_lengths() {
        // Seed 004: 10, 20, 50 and 100 output tokens took 0.105, 0.206, 0.512 and 1.021 s.
        let points = [(10.0, 105.0), (20.0, 206.0), (50.0, 512.0), (100.0, 1021.0)];
        let fit = linear_fit(&points).unwrap();
        assert!((fit.slope - 10.18).abs() < 0.01, "{fit:?}");
        assert!(fit.intercept.abs() < 3.0, "{fit:?}");
        assert!(fit.r2 > 0.9999, "{fit:?}");
        assert_eq!((fit.n, fit.x_range), (4, (10.0, 100.0)));
        assert!((fit.at(100.0) - 1021.0).abs() < 2.0);
    }

    #[test]
    fn noise_lowers_r2_and_bad_points_are_left_out() {
        let points = [
            (1.0, 1.0),
            (2.0, 5.0),
            (3.0, 2.0),
            (4.0, 6.0),
            (f64::NAN, 9.0),
            (5.0, f64::INFINITY),
        ];
        let fit = linear_fit(&points).unwrap();
        assert_eq!(fit.n, 4);
        assert!(fit.r2 > 0.3 && fit.r2 < 0.9, "{fit:?}");
    }

    #[test]
    fn no_slope_without_two_distinct_x() {
        assert_eq!(linear_fit(&[]), None);
        assert_eq!(linear_fit(&[(1.0, 2.0)]), None);
        assert_eq!(linear_fit(&[(3.0, 2.0), (3.0, 5.0)]), None);
        let flat = linear_fit(&[(1.0, 4.0), (2.0, 4.0)]).unwrap();
        assert_eq!((flat.slope, flat.r2), (0.0, 1.0));
    }
}
