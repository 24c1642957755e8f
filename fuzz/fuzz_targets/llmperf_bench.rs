#![no_main]
//! Fuzzes the llmperf-bench importer (llmperf summaries keyed by concurrency).

use benchdeck_core::import::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| benchdeck_fuzz::check(Format::LlmperfBench, data));
