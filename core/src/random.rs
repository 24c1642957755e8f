//! A small seeded random number generator for what must come out the same on every build: the
//! benchmarks' synthetic data, the permutation tests of `history::change_points`, the
//! simulations of the statistics tests.

/// Marsaglia's xorshift64 (shifts 13, 7, 17): small, fast, and easy to copy exactly.
#[derive(Debug, Clone)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator started at `seed` (0 is replaced by 1: xorshift never leaves 0).
    pub fn new(seed: u64) -> XorShift {
        XorShift(seed.max(1))
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// The next value in `[0, 1)`, from the top 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A whole number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.unit() * n as f64) as usize).min(n.saturating_sub(1))
    }

    /// `items` in a random order (Fisher and Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}
