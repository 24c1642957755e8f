//! Reading the numbers a reader types (prices, SLAs) or the address holds, in the browser with
//! its own `parseFloat`: Rust's decimal reader and its table of powers of five are 17 KB of
//! gzipped wasm. The text is checked first by [`float_text`], so exactly what
//! `str::parse::<f64>` accepts is accepted, and a decimal's value is the correctly rounded one
//! either way.

use benchdeck_core::number::{float_text, FloatText};

/// `text` as `text.parse::<f64>().ok()` reads it, without Rust's decimal reader in the wasm.
pub fn parse_f64(text: &str) -> Option<f64> {
    let sign = |negative: bool, v: f64| if negative { -v } else { v };
    match float_text(text)? {
        FloatText::Decimal => Some(decimal(text)),
        FloatText::Infinite { negative } => Some(sign(negative, f64::INFINITY)),
        FloatText::NaN { negative } => Some(sign(negative, f64::NAN)),
    }
}

/// A decimal [`float_text`] accepted, correctly rounded by the browser.
#[cfg(target_arch = "wasm32")]
fn decimal(text: &str) -> f64 {
    js_sys::Number::parse_float(text)
}

/// A decimal [`float_text`] accepted (at build time, natively, where size does not matter).
#[cfg(not(target_arch = "wasm32"))]
fn decimal(text: &str) -> f64 {
    text.parse().unwrap_or(f64::NAN)
}
