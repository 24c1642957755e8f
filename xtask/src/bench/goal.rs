//! A goal's cell in the sections' tables: whether the measurement met it.

/// A goal's cell in a table: `yes`, or a bold `no`.
pub(super) fn met(ok: bool) -> &'static str {
    if ok {
        "yes"
    } else {
        "**no**"
    }
}
