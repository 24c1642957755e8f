//! A reader's view of one chart (the statistic chosen, the y scale, the series hidden, a CDF's
//! SLA line, a zoom) as a short text for the page's address, `s2_log_h5_sla250`, so a shared link shows
//! the chart as its sender saw it. Unknown or malformed parts are ignored: an address is typed
//! by people.

use super::{Scale, Zoom};

/// What a reader changed on a chart; `None` and `0` are the chart's own defaults.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ViewState {
    /// Index of the statistic chosen among the chart's alternatives.
    pub statistic: Option<usize>,
    /// The y scale chosen.
    pub y_scale: Option<Scale>,
    /// Bit `i` set when series `i` is hidden.
    pub hidden: u64,
    /// A CDF's SLA line, in the x axis' unit.
    pub sla: Option<f64>,
    /// The box a reader zoomed into (lines and scatter).
    pub zoom: Option<Zoom>,
}

impl ViewState {
    /// The text for the address; empty for the default view.
    pub fn encode(&self) -> String {
        let mut parts = Vec::new();
        if let Some(s) = self.statistic {
            parts.push(format!("s{s}"));
        }
        match self.y_scale {
            Some(Scale::Log) => parts.push("log".to_string()),
            Some(Scale::Linear) => parts.push("lin".to_string()),
            None => {}
        }
        if self.hidden != 0 {
            parts.push(format!("h{}", self.hidden));
        }
        if let Some(sla) = self.sla.filter(|v| v.is_finite()) {
            parts.push(format!("sla{sla}"));
        }
        if let Some(zoom) = self.zoom {
            parts.push(zoom.encode());
        }
        parts.join("_")
    }

    /// Reads [`ViewState::encode`]'s text.
    pub fn decode(text: &str) -> ViewState {
        ViewState::decode_with(text, &|v| v.parse().ok())
    }

    /// Reads [`ViewState::encode`]'s text with `number` reading each decimal as
    /// `str::parse::<f64>` does (the browser app's reader, [`crate::number::float_text`] and the
    /// browser's own `parseFloat`, is far smaller than Rust's).
    pub fn decode_with(text: &str, number: &dyn Fn(&str) -> Option<f64>) -> ViewState {
        let mut state = ViewState::default();
        for part in text.split('_') {
            if part == "log" {
                state.y_scale = Some(Scale::Log);
            } else if part == "lin" {
                state.y_scale = Some(Scale::Linear);
            } else if let Some(v) = part.strip_prefix('z') {
                state.zoom = Zoom::decode_with(v, number);
            } else if let Some(v) = part.strip_prefix("sla") {
                state.sla = number(v).filter(|v| v.is_finite());
            } else if let Some(v) = part.strip_prefix('s') {
                state.statistic = v.parse().ok();
            } else if let Some(v) = part.strip_prefix('h') {
                state.hidden = v.parse().unwrap_or(0);
            }
        }
        state
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_defaults_to_nothing() {
        assert_eq!(ViewState::default().encode(), "");
        let state = ViewState {
            statistic: Some(2),
            y_scale: Some(Scale::Log),
            hidden: 5,
            sla: Some(250.5),
            zoom: Some(Zoom {
                x: (1.0, 8.5),
                y: (-2.0, 300.0),
            }),
        };
        assert_eq!(state.encode(), "s2_log_h5_sla250.5_z1,8.5,-2,300");
        assert_eq!(ViewState::decode(&state.encode()), state);
    }

    #[test]
    fn typed_addresses_never_fail() {
        assert_eq!(ViewState::decode(""), ViewState::default());
        assert_eq!(
            ViewState::decode("sx_hNaN_slainf_zzz"),
            ViewState::default()
        );
        assert_eq!(
            ViewState::decode("lin_s0"),
            ViewState {
                statistic: Some(0),
                y_scale: Some(Scale::Linear),
                ..ViewState::default()
            }
        );
    }
}
