//! The two distributions the intervals need: Student's t at 95% two-sided, and the standard
//! normal's tail for rank tests' p-values.
//!
//! Only the 97.5% quantile of t is ever asked for, so a table of the exact values for 1 to 30
//! degrees of freedom (interpolated in between, for Welch's fractional degrees of freedom) and
//! the Cornish–Fisher expansion above 30 (within 1e-4 of the exact value there) replace a
//! general quantile function and a statistics crate.

/// The 97.5% quantile of the standard normal distribution.
pub const Z_975: f64 = 1.959_963_984_540_054;

/// t(0.975, ν) for ν = 1 to 30.
const T_975: [f64; 30] = [
    12.706_205, 4.302_653, 3.182_446, 2.776_445, 2.570_582, 2.446_912, 2.364_624, 2.306_004,
    2.262_157, 2.228_139, 2.200_985, 2.178_813, 2.160_369, 2.144_787, 2.131_450, 2.119_905,
    2.109_816, 2.100_922, 2.093_024, 2.085_963, 2.079_614, 2.073_873, 2.068_658, 2.063_899,
    2.059_539, 2.055_529, 2.051_831, 2.048_407, 2.045_230, 2.042_272,
];

/// The 97.5% quantile of Student's t with `df` degrees of freedom (which may be fractional, as
/// Welch's are); the normal's for an infinite `df`. `df` below 1 is taken as 1.
pub fn t_975(df: f64) -> f64 {
    if df.is_nan() {
        return T_975[0];
    }
    if df.is_infinite() {
        return Z_975;
    }
    let df = df.max(1.0);
    if df <= 30.0 {
        let low = df.floor() as usize;
        let high = df.ceil() as usize;
        let (a, b) = (T_975[low - 1], T_975[high - 1]);
        // Interpolate in 1/ν, in which t is close to linear.
        if low == high {
            return a;
        }
        let w = (1.0 / low as f64 - 1.0 / df) / (1.0 / low as f64 - 1.0 / high as f64);
        return a + w * (b - a);
    }
    let z = Z_975;
    let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
    z + (z3 + z) / (4.0 * df)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * df * df)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * df.powi(3))
}

/// P(Z > z) for a standard normal Z (Abramowitz and Stegun 7.1.26 through erfc; absolute
/// error below 1e-7), for the p-values of rank tests.
pub fn normal_upper_tail(z: f64) -> f64 {
    if z.is_nan() {
        return f64::NAN;
    }
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erfc = poly * (-x * x).exp();
    if z >= 0.0 {
        erfc / 2.0
    } else {
        1.0 - erfc / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles_match_the_tables() {
        assert!((t_975(1.0) - 12.706).abs() < 1e-3);
        assert!((t_975(2.0) - 4.303).abs() < 1e-3);
        assert!((t_975(30.0) - 2.042).abs() < 1e-3);
        // Above the table, the expansion: t(0.975, 40) = 2.0211, 60: 2.0003, 120: 1.9799.
        assert!((t_975(40.0) - 2.0211).abs() < 2e-4);
        assert!((t_975(60.0) - 2.0003).abs() < 2e-4);
        assert!((t_975(120.0) - 1.9799).abs() < 2e-4);
        assert!((t_975(f64::INFINITY) - 1.96).abs() < 1e-3);
        // Fractional: between its neighbours; below 1 is 1.
        let t = t_975(2.5);
        assert!(t < 4.303 && t > 3.182, "{t}");
        assert_eq!(t_975(0.2), t_975(1.0));
    }

    #[test]
    fn the_normal_tail_is_exact_to_seven_places() {
        assert!((normal_upper_tail(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_upper_tail(1.959_964) - 0.025).abs() < 1e-6);
        assert!((normal_upper_tail(-1.959_964) - 0.975).abs() < 1e-6);
        assert!((normal_upper_tail(3.0) - 0.001_349_9).abs() < 1e-6);
    }
}
