//! The one sentence a comparison opens with: what a head-to-head or a summary table says, in
//! words a reader can repeat ("vLLM is faster from 1 req/s to 30 req/s (by 13–51%); at 50 req/s
//! there is no clear difference"), built from the verdicts its cells show.

use crate::format;
use crate::html::escape;

/// `sentence` as the paragraph above a table.
pub(super) fn lead(sentence: &str) -> String {
    format!("<p class=\"table-lead\">{}</p>", escape(sentence))
}

/// `a`, `a and b`, `a, b and c`.
pub(super) fn list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", rest.join(", "), last.as_ref())
        }
    }
}

/// What one row of a head-to-head found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Outcome {
    /// Configuration 0 or 1 is better by this many percent; `judged` when the 95% interval of
    /// the gap excludes none, not when the noise is unknown.
    Wins {
        winner: usize,
        by: Option<f64>,
        judged: bool,
    },
    /// The interval of the gap includes none.
    Unclear,
    /// Equal values.
    Tie,
    /// A value is missing.
    Unknown,
}

impl Outcome {
    /// Whether two rows read as one stretch.
    fn same_kind(self, other: Outcome) -> bool {
        match (self, other) {
            (
                Outcome::Wins {
                    winner: a,
                    judged: ja,
                    ..
                },
                Outcome::Wins {
                    winner: b,
                    judged: jb,
                    ..
                },
            ) => a == b && ja == jb,
            (a, b) => std::mem::discriminant(&a) == std::mem::discriminant(&b),
        }
    }
}

/// A head-to-head's sentence: its rows (load, outcome) in load order grouped into stretches
/// of one outcome, each said once. `better` is the comparative the table's metric takes
/// ("faster", "cheaper", "higher"). `None` without a row.
pub(super) fn head_to_head(
    names: &[String; 2],
    better: &str,
    rows: &[(String, Outcome)],
) -> Option<String> {
    let mut stretches: Vec<&[(String, Outcome)]> = Vec::new();
    let mut start = 0;
    for i in 1..=rows.len() {
        if i == rows.len() || !rows[i].1.same_kind(rows[start].1) {
            stretches.push(&rows[start..i]);
            start = i;
        }
    }
    let every = stretches.len() == 1;
    let parts: Vec<String> = stretches
        .iter()
        .filter_map(|stretch| {
            let span = span(stretch, every);
            match stretch.first()?.1 {
                Outcome::Wins { winner, judged, .. } => {
                    let by = by_range(stretch);
                    let noise = if judged { "" } else { ", noise unknown" };
                    Some(format!(
                        "{} is {better} {span}{}",
                        names[winner],
                        match by {
                            Some(by) => format!(" (by {by}{noise})"),
                            None if judged => String::new(),
                            None => " (noise unknown)".to_string(),
                        }
                    ))
                }
                Outcome::Unclear => Some(format!("{span} there is no clear difference")),
                Outcome::Tie => Some(format!("{span} they are equal")),
                Outcome::Unknown => None,
            }
        })
        .collect();
    finished(&parts.join("; "))
}

/// `text` as a sentence: our own first word capitalised (never a configuration's name: vLLM
/// stays vLLM), a full stop; `None` when empty.
fn finished(text: &str) -> Option<String> {
    if text.is_empty() {
        return None;
    }
    let ours = ["at ", "from ", "on "].iter().any(|w| text.starts_with(w));
    let mut chars = text.chars();
    let first = chars.next()?;
    Some(if ours {
        format!("{}{}.", first.to_uppercase(), chars.as_str())
    } else {
        format!("{text}.")
    })
}

/// `at every load`, `at 4 req/s`, `from 1 req/s to 30 req/s`, `at saturation` (an unlimited
/// rate).
fn span(stretch: &[(String, Outcome)], every: bool) -> String {
    let place = |load: &str| {
        if load.starts_with('∞') {
            "saturation".to_string()
        } else {
            load.to_string()
        }
    };
    match stretch {
        _ if every && stretch.len() > 1 => "at every load".to_string(),
        [(only, _)] => format!("at {}", place(only)),
        [(first, _), .., (last, _)] => format!("from {} to {}", place(first), place(last)),
        [] => String::new(),
    }
}

/// `13–51%` over a stretch's gaps, or `13%` for one.
fn by_range(stretch: &[(String, Outcome)]) -> Option<String> {
    let gaps: Vec<f64> = stretch
        .iter()
        .filter_map(|(_, o)| match o {
            Outcome::Wins { by, .. } => *by,
            _ => None,
        })
        .collect();
    let lo = gaps.iter().copied().reduce(f64::min)?;
    let hi = gaps.iter().copied().reduce(f64::max)?;
    let pct = |v: f64| format::number_within(v, 1);
    Some(if pct(lo) == pct(hi) {
        format!("{}%", pct(lo))
    } else {
        format!("{}–{}%", pct(lo), pct(hi))
    })
}

/// A summary's sentence: which configuration is best on which rows, and which rows are tied
/// within the noise. `best_for[i]` holds the rows configuration `i` is best on; `tied` each
/// tied row with the configurations tied. `None` when no row marks a best or a tie.
pub(super) fn summary(
    names: &[String],
    best_for: &[Vec<String>],
    tied: &[(String, Vec<usize>)],
) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    for (name, rows) in names.iter().zip(best_for) {
        if rows.is_empty() {
            continue;
        }
        let what = if parts.is_empty() { " is best" } else { "" };
        parts.push(format!("{name}{what} on {}", list(rows)));
    }
    for (row, who) in tied {
        let who: Vec<&str> = who.iter().map(|&i| names[i].as_str()).collect();
        if who.len() == names.len() {
            parts.push(format!("on {row} there is no clear best"));
        } else {
            parts.push(format!("on {row}, {} are within the noise", list(&who)));
        }
    }
    finished(&parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wins(winner: usize, by: f64) -> Outcome {
        Outcome::Wins {
            winner,
            by: Some(by),
            judged: true,
        }
    }

    #[test]
    fn a_head_to_head_says_each_stretch_of_loads_once() {
        let names = ["vLLM".to_string(), "SGLang".to_string()];
        let rows = [
            ("1 req/s".to_string(), wins(0, 13.2)),
            ("10 req/s".to_string(), wins(0, 51.0)),
            ("30 req/s".to_string(), wins(0, 20.0)),
            ("∞ req/s".to_string(), Outcome::Unclear),
        ];
        assert_eq!(
            head_to_head(&names, "faster", &rows).unwrap(),
            "vLLM is faster from 1 req/s to 30 req/s (by 13.2–51%); at saturation there is no \
             clear difference."
        );
        let all = &rows[..2];
        assert_eq!(
            head_to_head(&names, "faster", all).unwrap(),
            "vLLM is faster at every load (by 13.2–51%)."
        );
        let bare = [(
            "4 req/s".to_string(),
            Outcome::Wins {
                winner: 1,
                by: Some(8.0),
                judged: false,
            },
        )];
        assert_eq!(
            head_to_head(&names, "higher", &bare).unwrap(),
            "SGLang is higher at 4 req/s (by 8%, noise unknown)."
        );
        assert_eq!(head_to_head(&names, "faster", &[]), None);
        let unknown = [("4 req/s".to_string(), Outcome::Unknown)];
        assert_eq!(head_to_head(&names, "faster", &unknown), None);
    }

    #[test]
    fn a_summary_names_each_best_and_each_tie() {
        let names = ["A".to_string(), "B".to_string(), "C".to_string()];
        let best_for = [
            vec!["Mean TTFT".to_string(), "TTFT p99".to_string()],
            vec!["Output throughput".to_string()],
            vec![],
        ];
        let tied = [
            ("Mean TPOT".to_string(), vec![0, 1, 2]),
            ("Success".to_string(), vec![1, 2]),
        ];
        assert_eq!(
            summary(&names, &best_for, &tied).unwrap(),
            "A is best on Mean TTFT and TTFT p99; B on Output throughput; on Mean TPOT there is \
             no clear best; on Success, B and C are within the noise."
        );
        assert_eq!(summary(&names, &[vec![], vec![], vec![]], &[]), None);
    }
}
