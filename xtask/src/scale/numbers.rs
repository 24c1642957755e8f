//! Numbers as the generated reports and result files write them: a value without trailing
//! zeros, and a day count since 1970-01-01 as a calendar date.

/// A number as the files and reports write it: no trailing zeros.
pub(super) fn number(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `YYYY-MM-DD` of a day count since 1970-01-01 (proleptic Gregorian).
pub(super) fn ymd(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

pub(super) fn date_text(days: i64) -> String {
    let (y, m, d) = ymd(days);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_calendar_dates() {
        assert_eq!(date_text(0), "1970-01-01");
        assert_eq!(date_text(19_358), "2023-01-01");
        assert_eq!(date_text(19_358 + 365 + 31 + 28), "2024-02-29");
    }
}
