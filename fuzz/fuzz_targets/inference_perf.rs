#![no_main]
//! Fuzzes the inference-perf importer (lifecycle and Prometheus reports, `config.yaml`).

use benchdeck_core::import::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| benchdeck_fuzz::check(Format::InferencePerf, data));
