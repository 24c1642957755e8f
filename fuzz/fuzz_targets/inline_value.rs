#![no_main]
//! Fuzzes inline-value expressions (`` `=ratio(max(ttft:p50, vllm), …)` ``): the grammar and
//! every function over the repository's results, in a sentence and in a tile.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(expr) = std::str::from_utf8(data) else {
        return;
    };
    if expr.contains(['`', '\n', '\r']) {
        return;
    }
    let front = benchdeck_fuzz::site::FRONT_MATTER;
    benchdeck_fuzz::site::check_report(&format!("{front}A value: `={expr}`.\n"));
    let quoted = expr.replace('\\', "\\\\").replace('"', "\\\"");
    benchdeck_fuzz::site::check_report(&format!(
        "{front}```tiles\n- label: L\n  value: \"{quoted}\"\n```\n"
    ));
});
