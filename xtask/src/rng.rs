//! The deterministic random numbers of the synthetic data sets (`synth`, `scale`): the same
//! seed gives the same files on every machine.

/// A deterministic generator (xorshift64*), with normal draws by Box–Muller.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed` (xorshift needs a non-zero state).
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    /// A generator for report `index`: its own stream, so report 7 is the same in every set.
    pub fn for_report(index: usize) -> Rng {
        // splitmix64 of the index spreads neighbouring seeds apart; xorshift needs a non-zero state.
        let mut z = 0x5ca1_ab1e_0000_0000_u64 ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Rng((z ^ (z >> 31)) | 1)
    }

    /// Uniform in (0, 1).
    pub fn uniform(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d);
        ((x >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    /// Uniform in (`low`, `high`).
    pub fn range(&mut self, low: f64, high: f64) -> f64 {
        low + (high - low) * self.uniform()
    }

    /// An index below `n` (`n` ≥ 1).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.uniform() * n as f64) as usize).min(n.saturating_sub(1))
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// Standard normal.
    pub fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    /// A multiplicative jitter around 1 (`spread` is the standard deviation), kept positive.
    pub fn jitter(&mut self, spread: f64) -> f64 {
        (1.0 + spread * self.normal()).clamp(1.0 - 3.0 * spread, 1.0 + 3.0 * spread)
    }

    /// Log-normal with median `median` and shape `sigma`.
    pub fn lognormal(&mut self, median: f64, sigma: f64) -> f64 {
        median * (sigma * self.normal()).exp()
    }
}
