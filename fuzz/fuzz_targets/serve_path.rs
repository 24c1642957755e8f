#![no_main]
//! Fuzzes the URL paths `benchdeck serve` decodes (`site::served_file`): whatever the bytes, a
//! path it accepts stays below the site on every system.

use benchdeck_core::site::served_file;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(url) = std::str::from_utf8(data) else {
        return;
    };
    let Some(segments) = served_file(url) else {
        return;
    };
    for segment in &segments {
        assert!(
            !segment.is_empty() && segment != "." && segment != "..",
            "{url}"
        );
        assert!(
            !segment.contains(['/', '\\', ':', '\0']),
            "{url}: {segment}"
        );
    }
    let path: std::path::PathBuf = segments.iter().collect();
    assert!(path.is_relative(), "{url}");
    assert!(
        path.components()
            .all(|c| matches!(c, std::path::Component::Normal(_))),
        "{url}"
    );
});
