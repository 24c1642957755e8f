//! When a run was measured: a [`RunDate`] read from the result file (vLLM's `date`, GuideLLM's
//! and llmperf's timestamps) or, failing that, from a date in its path
//! (`results/nightly/2026-11-01/…`, `…_2026-01-05-10-00-00.json`).
//!
//! A date is kept as civil time to the second, `2025-10-20T11:00:00`: UTC when the file says
//! which instant it was (a Unix timestamp, an RFC 3339 offset), else the clock time the file
//! wrote (vLLM's `date` is the machine's local time and does not say which zone). Written with
//! a fixed width, the text sorts in time order. The calendar arithmetic is jiff's.

use std::fmt;

use jiff::civil::{Date, DateTime, Time};
use jiff::fmt::strtime;
use jiff::tz::TimeZone;
use jiff::Timestamp;
use serde::{Deserialize, Serialize};

/// A run's date and time, to the second (see the module docs for the time zone).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RunDate(String);

impl RunDate {
    /// The date of a civil date and time.
    fn civil(at: DateTime) -> RunDate {
        RunDate(at.strftime("%Y-%m-%dT%H:%M:%S").to_string())
    }

    /// The UTC date of a Unix timestamp in seconds (fractions allowed), if it is one: finite and
    /// after 2000, since benchmarks of LLM servers are no older (a smaller number is a duration
    /// or a clock that does not count from 1970, such as `time.perf_counter()`).
    pub fn from_unix_seconds(seconds: f64) -> Option<RunDate> {
        const Y2000: f64 = 946_684_800.0;
        if !(seconds.is_finite() && seconds >= Y2000) {
            return None;
        }
        // Milliseconds given as seconds (JavaScript's `Date.now()`) are ~1000x too large.
        let seconds = if seconds > 1.0e11 {
            seconds / 1000.0
        } else {
            seconds
        };
        let at = Timestamp::from_second(seconds.floor() as i64).ok()?;
        Some(RunDate::civil(TimeZone::UTC.to_datetime(at)))
    }

    /// A date written as text: vLLM's `20251020-110000`, RFC 3339 (`2025-10-20T11:00:00Z`,
    /// `…+02:00`, converted to UTC), ISO 8601 without a zone (`2025-10-20T11:00:00`,
    /// `2025-10-20 11:00:00`, `2025-10-20`), or a Unix timestamp as digits. `None` when it is
    /// none of these or not a real date (`2025-02-30`).
    pub fn parse(text: &str) -> Option<RunDate> {
        let text = text.trim();
        if let Ok(at) = text.parse::<Timestamp>() {
            return Some(RunDate::civil(TimeZone::UTC.to_datetime(at)));
        }
        if let Ok(at) = text.parse::<DateTime>() {
            return Some(RunDate::civil(at.round(jiff::Unit::Second).ok()?));
        }
        for format in ["%Y%m%d-%H%M%S", "%Y%m%d_%H%M%S", "%Y-%m-%d-%H-%M-%S"] {
            if let Ok(at) = strtime::parse(format, text).and_then(|t| t.to_datetime()) {
                return Some(RunDate::civil(at));
            }
        }
        if text.len() >= 9 && text.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            return text.parse().ok().and_then(RunDate::from_unix_seconds);
        }
        None
    }

    /// The last date written in a file's path, in a folder or file name: `2026-11-01`,
    /// `20261101`, with a time after it (`2026-11-01-10-00-00`, `20260102_090000`) when there
    /// is one. `None` when no part of the path holds a real date.
    pub fn in_path(path: &str) -> Option<RunDate> {
        path.rsplit(['/', '\\'])
            .flat_map(date_tokens)
            .find_map(|token| RunDate::parse(&token))
    }

    /// `2025-10-20T11:00:00`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The day, `2025-10-20`.
    pub fn day(&self) -> &str {
        self.0.get(..10).unwrap_or(&self.0)
    }

    /// The date for people: `2025-10-20 11:00`, or the day alone at midnight.
    pub fn label(&self) -> String {
        match self.0.get(11..16) {
            Some("00:00") | None => self.day().to_string(),
            Some(time) => format!("{} {time}", self.day()),
        }
    }
}

/// True for a day written `YYYY-MM-DD` (digits where they belong).
pub fn is_day(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            _ => c.is_ascii_digit(),
        })
}

impl fmt::Display for RunDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

/// The candidate dates in one path segment, the last run first (each run's longest shape
/// first): each run of digits and `-`/`_` separators that starts with a plausible year (19xx or
/// 20xx).
fn date_tokens(segment: &str) -> Vec<String> {
    let bytes = segment.as_bytes();
    let mut runs: Vec<Vec<String>> = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let starts_here = bytes[start].is_ascii_digit()
            && (start == 0 || !bytes[start - 1].is_ascii_digit())
            && (segment[start..].starts_with("19") || segment[start..].starts_with("20"));
        if !starts_here {
            start += 1;
            continue;
        }
        let end = bytes[start..]
            .iter()
            .position(|b| !(b.is_ascii_digit() || *b == b'-' || *b == b'_'))
            .map_or(bytes.len(), |n| start + n);
        let token = segment[start..end].trim_end_matches(['-', '_']);
        runs.push(shapes(token));
        start = end.max(start + 1);
    }
    runs.into_iter().rev().flatten().collect()
}

/// The ways a digit run can be a date, longest first: with a time, then the day alone.
fn shapes(token: &str) -> Vec<String> {
    let mut out = Vec::new();
    // `2026-01-05-10-00-00` (19), `20260102_090000` / `20260102-090000` (15).
    for len in [19, 15] {
        if let Some(head) = token.get(..len) {
            out.push(head.to_string());
        }
    }
    // `2026-11-01` (10) or `20261101` (8), as a day at midnight.
    let day = if token.get(4..5) == Some("-") {
        token.get(..10)
    } else {
        token
            .get(..8)
            .filter(|d| d.bytes().all(|b| b.is_ascii_digit()))
    };
    if let Some(day) = day {
        let date = if day.len() == 8 {
            strtime::parse("%Y%m%d", day).and_then(|t| t.to_date()).ok()
        } else {
            day.parse::<Date>().ok()
        };
        if let Some(date) = date {
            out.push(date.to_datetime(Time::midnight()).to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Option<String> {
        RunDate::parse(text).map(|d| d.as_str().to_string())
    }

    #[test]
    fn the_dates_result_files_write_are_read() {
        assert_eq!(
            parsed("20251020-110000").as_deref(),
            Some("2025-10-20T11:00:00")
        );
        assert_eq!(
            parsed("2025-10-20T11:00:00Z").as_deref(),
            Some("2025-10-20T11:00:00")
        );
        assert_eq!(
            parsed("2025-10-20T13:00:00+02:00").as_deref(),
            Some("2025-10-20T11:00:00")
        );
        assert_eq!(
            parsed("2025-10-20 11:00:00.75").as_deref(),
            Some("2025-10-20T11:00:01")
        );
        assert_eq!(parsed("2025-10-20").as_deref(), Some("2025-10-20T00:00:00"));
        assert_eq!(parsed("1767261600").as_deref(), Some("2026-01-01T10:00:00"));
    }

    #[test]
    fn what_is_not_a_date_is_none() {
        for text in [
            "",
            "x",
            "2025-02-30",
            "20251{: ",
            "12.5",
            "2025-13-01",
            "99999999999999999999",
        ] {
            assert_eq!(parsed(text), None, "{text:?}");
        }
    }

    #[test]
    fn unix_seconds_before_2000_are_not_dates_and_milliseconds_are_recognised() {
        assert_eq!(RunDate::from_unix_seconds(12.5), None);
        assert_eq!(RunDate::from_unix_seconds(f64::NAN), None);
        assert_eq!(
            RunDate::from_unix_seconds(1_767_700_000.9).map(|d| d.as_str().to_string()),
            Some("2026-01-06T11:46:40".into())
        );
        assert_eq!(
            RunDate::from_unix_seconds(1_767_700_000_000.0).map(|d| d.as_str().to_string()),
            Some("2026-01-06T11:46:40".into())
        );
    }

    #[test]
    fn a_date_in_a_path_is_found_in_folder_or_file_names_last_first() {
        let date = |p: &str| RunDate::in_path(p).map(|d| d.as_str().to_string());
        assert_eq!(
            date("nightly/2026-11-01/vllm.json").as_deref(),
            Some("2026-11-01T00:00:00")
        );
        assert_eq!(
            date("ib/acme_chat-13b_2026-01-05-10-00-00.json").as_deref(),
            Some("2026-01-05T10:00:00")
        );
        assert_eq!(
            date("locust/results/20260102_090000/acme_u8/stats.csv").as_deref(),
            Some("2026-01-02T09:00:00")
        );
        assert_eq!(
            date("2025-01-01/runs/20260301/x.json").as_deref(),
            Some("2026-03-01T00:00:00")
        );
        assert_eq!(date("qwen-7b/concurrency-16.json"), None);
        assert_eq!(date("run-20251399/x.json"), None);
    }

    #[test]
    fn dates_sort_in_time_order_and_read_short() {
        let a = RunDate::parse("20251020-110000").unwrap();
        let b = RunDate::parse("2025-10-21").unwrap();
        assert!(a < b);
        assert_eq!(a.label(), "2025-10-20 11:00");
        assert_eq!(b.label(), "2025-10-21");
        assert_eq!(b.day(), "2025-10-21");
    }
}
