//! The app's wasm budget, written here and nowhere else: `cargo xtask test` (on the site it
//! builds at `/`) and `cargo xtask bench` fail when the published pages' app's wasm (the
//! islands, `app/src/islands.rs`), gzipped at level 9 as a static host would send it, is larger.
//! The whole app (`benchdeck-full`, downloaded only for dropped files and on `/local/`) and the
//! worker's wasm (only for dropped files) are not counted.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use flate2::{write::GzEncoder, Compression};

/// At most this many bytes of gzipped app wasm: issue #43's 300 KB. The islands' app was
/// 272,652 bytes when it replaced the whole app on the published pages (28 November 2026).
pub const APP_WASM_GZIP_BUDGET: u64 = 300_000;

/// The app's wasm in a built site and its sizes.
pub struct AppWasm {
    pub path: PathBuf,
    pub bytes: u64,
    pub gzip_bytes: u64,
}

/// Measures the app's wasm in `site` (a `dist/` folder).
pub fn measure(site: &Path) -> Result<AppWasm> {
    let path = std::fs::read_dir(site)
        .with_context(|| format!("cannot read the site `{}`", site.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| {
            p.extension().is_some_and(|x| x == "wasm")
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("benchdeck-app"))
        })
        .with_context(|| format!("no benchdeck-app*.wasm in `{}`", site.display()))?;
    let bytes =
        std::fs::read(&path).with_context(|| format!("cannot read `{}`", path.display()))?;
    Ok(AppWasm {
        gzip_bytes: gzip_size(&bytes),
        bytes: bytes.len() as u64,
        path,
    })
}

/// Measures the app's wasm in `site` and fails when it is over [`APP_WASM_GZIP_BUDGET`].
pub fn check(site: &Path) -> Result<AppWasm> {
    let wasm = measure(site)?;
    if wasm.gzip_bytes > APP_WASM_GZIP_BUDGET {
        bail!(
            "the app's wasm `{}` is {} bytes gzipped, over its budget of {} \
             (xtask/src/wasm_budget.rs); find what grew with twiggy (docs/PERFORMANCE.md)",
            wasm.path.display(),
            wasm.gzip_bytes,
            APP_WASM_GZIP_BUDGET
        );
    }
    Ok(wasm)
}

/// The length of `bytes` gzipped at level 9.
fn gzip_size(bytes: &[u8]) -> u64 {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    // Writing into memory cannot fail.
    encoder.write_all(bytes).expect("gzip into memory");
    encoder.finish().expect("gzip into memory").len() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site_with(wasm: &[u8]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "benchdeck-wasm-budget-{}-{}",
            std::process::id(),
            wasm.len()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("benchdeck-app-0123_bg.wasm"), wasm).unwrap();
        std::fs::write(dir.join("benchdeck-worker_bg.wasm"), vec![7u8; 10]).unwrap();
        dir
    }

    #[test]
    fn the_apps_wasm_within_its_budget_passes_and_over_it_fails() {
        // Repetitive bytes compress to almost nothing.
        let small = site_with(&vec![0u8; 2_000_000]);
        let measured = check(&small).unwrap();
        assert_eq!(measured.bytes, 2_000_000);
        assert!(measured.gzip_bytes < 10_000);
        // Bytes that do not compress: over the budget, named in the error.
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let noise: Vec<u8> = (0..APP_WASM_GZIP_BUDGET + 1000)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect();
        let big = site_with(&noise);
        let error = check(&big).err().unwrap().to_string();
        assert!(error.contains("over its budget"), "{error}");
        for dir in [small, big] {
            std::fs::remove_dir_all(dir).unwrap();
        }
    }
}
