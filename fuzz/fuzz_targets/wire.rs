#![no_main]
//! Fuzzes the binary form the app decodes (`site::wire`): any bytes decode to a value or an
//! error, never a panic or an allocation the bytes do not pay for, and a value that decodes
//! encodes back to the same bytes.

use benchdeck_core::site::{wire, ReportPage, SiteIndex, WorkerReport};
use libfuzzer_sys::fuzz_target;

/// Decodes `bytes` as `T` and, when they are one, checks the round trip.
fn check<T: serde::Serialize + serde::de::DeserializeOwned>(bytes: &[u8]) {
    if let Ok(value) = wire::decode::<T>(bytes) {
        benchdeck_fuzz::site::round_trip(&value);
    }
}

fuzz_target!(|data: &[u8]| {
    // The header is fixed; mutations belong in what follows it.
    let mut bytes = wire::encode(&()).expect("the header encodes");
    bytes.extend_from_slice(data);
    check::<ReportPage>(&bytes);
    check::<SiteIndex>(&bytes);
    check::<WorkerReport>(&bytes);
    let _ = wire::decode::<ReportPage>(data);
});
