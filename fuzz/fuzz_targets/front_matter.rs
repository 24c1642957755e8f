#![no_main]
//! Fuzzes a report's front matter as a whole file (title, results, configurations and their
//! prices, the decision wizard's SLAs, criteria and question tree): the page is built over the
//! repository's results, the question tree laid out and walked. Seeded with the seed reports.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        benchdeck_fuzz::site::check_report(text);
    }
});
