#![no_main]
//! Fuzzes format sniffing and every importer behind it, seeded with every fixture.

use benchdeck_core::import::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| benchdeck_fuzz::check(Format::Sniffed, data));
