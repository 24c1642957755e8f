#![no_main]
//! Fuzzes the llm-load-test output importer (per-request results, no summary).

use benchdeck_core::import::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| benchdeck_fuzz::check(Format::LlmLoadTest, data));
