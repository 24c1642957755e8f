//! A history's findings as the sentences `benchdeck history` prints and the site shows under a
//! trend.

use super::findings::{ChangePoint, LevelView, OutlierNight};
use super::newest::{Newest, Verdict};
use crate::format;
use crate::noise::Interval;

impl LevelView {
    /// `210 ms (95% CI 205–215 ms) over 13 nights`.
    pub fn text(&self, unit: &str) -> String {
        let nights = format!("{} night{}", self.nights, format::plural(self.nights));
        match (self.lo, self.hi) {
            (Some(lo), Some(hi)) => format!(
                "{} ({}) over {nights}",
                format::with_unit(self.mean, unit),
                Interval { lo, hi }.text(unit)
            ),
            _ => format!("{} over {nights}", format::with_unit(self.mean, unit)),
        }
    }
}

impl LevelView {
    /// `27.84 ms (27.61–28.07)`: the mean and its interval's ends, for a table cell.
    pub fn short(&self, unit: &str) -> String {
        match (self.lo, self.hi) {
            (Some(lo), Some(hi)) => format!(
                "{} ({}–{})",
                format::with_unit(self.mean, unit),
                format::number(lo),
                format::number(hi)
            ),
            _ => format::with_unit(self.mean, unit),
        }
    }
}

impl ChangePoint {
    /// `Mean TTFT +38% (worse) from 2026-11-14: 210 ms (…) over 13 nights, then 290 ms over 1
    /// night`.
    pub fn text(&self) -> String {
        format!(
            "{} {} ({}) from {}: {}, then {}",
            self.metric,
            signed_pct(self.change_pct),
            self.direction,
            self.date,
            self.before.text(self.unit),
            self.after.text(self.unit)
        )
    }

    /// `Median TPOT −8.1% (better) from 2026-11-08`.
    pub fn metric_change(&self) -> String {
        format!(
            "{} {} ({}) from {}",
            self.metric,
            signed_pct(self.change_pct),
            self.direction,
            self.date
        )
    }

    /// `driver 550 → 560; commit c11 → c12`, or that the runs' files state no difference.
    pub fn what_changed_text(&self) -> String {
        if self.what_changed.is_empty() {
            return "nothing the two runs' files state".into();
        }
        self.what_changed
            .iter()
            .map(super::changed::Difference::text)
            .collect::<Vec<_>>()
            .join("; ")
    }
}

impl OutlierNight {
    /// `Mean TTFT on 2026-11-07: 150 ms against 100 ms around it (+50%)`.
    pub fn text(&self) -> String {
        format!(
            "{} on {}: {} against {} around it ({})",
            self.metric,
            self.date,
            format::with_unit(self.value, self.unit),
            format::with_unit(self.expected, self.unit),
            signed_pct((self.value / self.expected - 1.0) * 100.0)
        )
    }
}

impl Newest {
    /// `125 ms on 2026-11-16: worse (+25%) than the 95% range of the current level's 14
    /// nights (96.1–103.9 ms)`.
    pub fn text(&self, unit: &str) -> String {
        let value = format::with_unit(self.value, unit);
        let (Some(range), Some(change)) = (self.expected, self.change_pct) else {
            return format!(
                "{value} on {}: not judged: {} night{} at the current level, and a verdict \
                 needs two there and four before it in all to know the nights' noise",
                self.date,
                self.level_nights,
                format::plural(self.level_nights)
            );
        };
        let range = range.text(unit).replacen("95% CI ", "", 1);
        let verdict = match self.verdict {
            Verdict::Worse => format!("worse ({})", signed_pct(change)),
            Verdict::Better => format!("better ({})", signed_pct(change)),
            _ if self.within_family_noise => format!(
                "as before ({}; outside its range, but within the noise of every series \
                 judged, by Holm's correction)",
                signed_pct(change)
            ),
            _ => format!("as before ({})", signed_pct(change)),
        };
        format!(
            "{value} on {}: {verdict} against the 95% range the current level's {} nights \
             predict ({range})",
            self.date, self.level_nights
        )
    }
}

/// `+38%` or `−12%` (a true minus sign).
pub fn signed_pct(pct: f64) -> String {
    let sign = if pct >= 0.0 { "+" } else { "−" };
    format!("{sign}{}%", format::number_within(pct.abs(), 1))
}
