//! Addresses of the site's files both ways: a published result file's URL path, each segment
//! percent-encoded (a file may be named `run#1.json` or `a b.csv`), and the file a request's URL
//! path names when `benchdeck serve` answers it, percent-decoded and refused when it could leave
//! the site on any system (`..`, `\`, a drive such as `C:`, NUL).
//!
//! Encoding and decoding are the `percent-encoding` crate's (rust-url's own).

use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

/// What a path segment leaves as it is: letters, digits and `-_.~`, as JavaScript's
/// `encodeURIComponent` (the same at build time as in the browser).
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

/// `path` (`/`-separated) with each segment percent-encoded: `nightly/run#1.json` →
/// `nightly/run%231.json`.
pub fn encode_path(path: &str) -> String {
    path.split('/')
        .map(|segment| utf8_percent_encode(segment, SEGMENT).to_string())
        .collect::<Vec<_>>()
        .join("/")
}

/// The link to a result file as published with the site (relative to the site's root), its
/// segments percent-encoded: [`super::paths::result_file_path`] as a URL.
pub fn result_file_href(source: &str) -> String {
    encode_path(&super::paths::result_file_path(source))
}

/// The file below the site's root that the URL path of a request names (its query and fragment
/// ignored), as segments, percent-decoded; `None` for a path that is not UTF-8, holds a `%` not
/// followed by two hex digits, or has a segment that could leave the site or name a drive on any
/// system: `..`, one holding `\`, `:` or NUL. Empty and `.` segments are skipped.
pub fn served_file(url: &str) -> Option<Vec<String>> {
    let path = url.split(['?', '#']).next().unwrap_or("");
    if !well_formed_escapes(path) {
        return None;
    }
    let decoded = percent_decode_str(path).decode_utf8().ok()?;
    let mut segments = Vec::new();
    for segment in decoded.split('/').filter(|s| !s.is_empty() && *s != ".") {
        if segment == ".." || segment.contains(['\\', ':', '\0']) {
            return None;
        }
        segments.push(segment.to_string());
    }
    Some(segments)
}

/// True when every `%` in `path` starts an escape of two hex digits.
fn well_formed_escapes(path: &str) -> bool {
    let bytes = path.as_bytes();
    bytes.iter().enumerate().all(|(i, &b)| {
        b != b'%'
            || bytes
                .get(i + 1..i + 3)
                .is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_file_links_encode_each_segment() {
        assert_eq!(
            result_file_href("nightly/run#1.json"),
            "results/nightly/run%231.json"
        );
        assert_eq!(
            result_file_href("a b/ü?.csv"),
            "results/a%20b/%C3%BC%3F.csv"
        );
        assert_eq!(
            result_file_href("plain-1_x.~json"),
            "results/plain-1_x.~json"
        );
    }

    #[test]
    fn a_link_decodes_back_to_its_file() {
        for source in ["nightly/run#1.json", "a b/ü?.csv", "100%/x&y=1.json"] {
            let served = served_file(&format!("/{}", result_file_href(source))).unwrap();
            assert_eq!(served.join("/"), format!("results/{source}"));
        }
    }

    #[test]
    fn urls_map_into_the_site_and_never_out_of_it() {
        let path = |url: &str| served_file(url).map(|s| s.join("/"));
        assert_eq!(path("/"), Some(String::new()));
        assert_eq!(path("/a%20b/c.svg?x=1"), Some("a b/c.svg".into()));
        assert_eq!(path("/./a//b/#top"), Some("a/b".into()));
        for outside in [
            "/../etc/passwd",
            "/a/%2e%2e/%2e%2e/x",
            "/%zz",
            "/%4",
            "/C:/Windows/win.ini",
            "/results/c%3A%5Cx",
            "/a%5C..%5Cb",
            "/a%00b",
            "/%FF",
        ] {
            assert_eq!(path(outside), None, "{outside}");
        }
    }
}
