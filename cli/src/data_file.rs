//! The app's data files (`data/index.bin`, `data/reports/<slug>.bin`): the bytes of
//! `benchdeck_core::site::wire`, gzipped by the build. Hosts compress by content type and
//! leave binary files as they are (GitHub Pages), or compress nothing on the fly (GitLab
//! Pages); gzipped here, the data travels small from any of them. The app inflates it with the
//! browser's own `DecompressionStream`, so no inflater is added to the wasm.

use std::io::{Read, Write};
use std::path::Path;

use anyhow::{anyhow, Context, Result};
use benchdeck_core::site::wire::{self, GZIP_MAGIC};
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// `value` as a data file: encoded, then gzipped.
pub fn pack(value: &impl Serialize) -> Result<Vec<u8>> {
    let bytes = wire::encode(value).map_err(|e| anyhow!(e))?;
    let mut gzip = GzEncoder::new(Vec::new(), Compression::best());
    gzip.write_all(&bytes)?;
    Ok(gzip.finish()?)
}

/// The value a data file holds (gzipped or not), or why it cannot be read, naming `path`.
pub fn unpack<T: DeserializeOwned>(bytes: &[u8], path: &Path) -> Result<T> {
    let mut plain = Vec::new();
    let bytes = if bytes.starts_with(&GZIP_MAGIC) {
        GzDecoder::new(bytes)
            .read_to_end(&mut plain)
            .with_context(|| format!("`{}` is not a complete gzip stream", path.display()))?;
        &plain
    } else {
        bytes
    };
    wire::decode(bytes).map_err(|e| anyhow!("`{}`: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use benchdeck_core::site::{ReportSummary, SiteIndex};

    fn index() -> SiteIndex {
        SiteIndex {
            reports: (0..20)
                .map(|i| ReportSummary {
                    slug: format!("report-{i}"),
                    title: format!("Report {i}"),
                    date: Some("2026-01-01".into()),
                    authors: vec!["benchdeck".into()],
                    summary: "The same words again and again, as summaries often are.".into(),
                    charts: i,
                    runs: 10 * i,
                    first_chart: None,
                    automatic: None,
                    changes: Vec::new(),
                })
                .collect(),
        }
    }

    #[test]
    fn packed_data_is_gzip_smaller_than_its_encoding_and_reads_back() {
        let packed = pack(&index()).unwrap();
        assert!(packed.starts_with(&GZIP_MAGIC));
        assert!(packed.len() < wire::encode(&index()).unwrap().len() / 2);
        let back: SiteIndex = unpack(&packed, Path::new("index.bin")).unwrap();
        assert_eq!(back, index());
    }

    #[test]
    fn unpacked_encodings_read_too_and_damage_is_named() {
        let plain = wire::encode(&index()).unwrap();
        assert_eq!(
            unpack::<SiteIndex>(&plain, Path::new("a.bin")).unwrap(),
            index()
        );
        let packed = pack(&index()).unwrap();
        let err =
            unpack::<SiteIndex>(&packed[..packed.len() / 2], Path::new("cut.bin")).unwrap_err();
        assert!(
            format!("{err:#}").contains("`cut.bin` is not a complete gzip stream"),
            "{err:#}"
        );
        let err = unpack::<SiteIndex>(b"{}", Path::new("j.bin")).unwrap_err();
        assert!(
            format!("{err:#}").contains("`j.bin`: expected data written by"),
            "{err:#}"
        );
    }
}
