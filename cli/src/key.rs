//! Content keys: a SHA-256 of a sequence of byte strings, each with its length first so that no
//! two sequences hash alike, written as hex. The build cache names what it keeps by them
//! (`cmd/build/cache.rs`, `cmd/site/png_cache.rs`).

use sha2::{Digest, Sha256};

/// A key being made.
#[derive(Default)]
pub struct KeyMaker(Sha256);

impl KeyMaker {
    /// Adds `bytes`.
    pub fn add(mut self, bytes: impl AsRef<[u8]>) -> Self {
        let bytes = bytes.as_ref();
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
        self
    }

    /// The key, as 64 lowercase hex digits.
    pub fn finish(self) -> String {
        self.0
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::KeyMaker;

    #[test]
    fn the_boundaries_between_parts_count() {
        let ab_c = KeyMaker::default().add("ab").add("c").finish();
        let a_bc = KeyMaker::default().add("a").add("bc").finish();
        assert_ne!(ab_c, a_bc);
        assert_eq!(ab_c.len(), 64);
        assert_eq!(ab_c, KeyMaker::default().add("ab").add("c").finish());
    }
}
