#![no_main]
//! Fuzzes one directive block's YAML under a fixed front matter over the repository's results:
//! the first byte picks the block (`chart`, `table`, `tiles` or `flowchart`), the rest is its
//! body. Seeded with every block of the seed reports.

use libfuzzer_sys::fuzz_target;

/// The block kinds, by the input's first byte.
const KINDS: [&str; 4] = ["chart", "table", "tiles", "flowchart"];

fuzz_target!(|data: &[u8]| {
    let Some((&kind, body)) = data.split_first() else {
        return;
    };
    let Ok(body) = std::str::from_utf8(body) else {
        return;
    };
    let kind = KINDS[usize::from(kind) % KINDS.len()];
    let text = format!(
        "{}```{kind}\n{body}\n```\n",
        benchdeck_fuzz::site::FRONT_MATTER
    );
    benchdeck_fuzz::site::check_report(&text);
});
