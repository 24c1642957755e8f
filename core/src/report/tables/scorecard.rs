//! ```` ```table ```` `kind: scorecard`: every configuration at one target, InferenceX's
//! question ("at 50 tok/s per user, how much throughput per GPU and what cost per million
//! tokens?"): along each configuration's load sweep, the highest load at which the target
//! still holds, contiguously from the lowest load, with every column's value interpolated
//! where the target is crossed between two load points (and each end of its 95% interval,
//! where both points have one); "not reached" where the lowest load already misses it.
//!
//! The target is `target: {metric: interactivity, min: 50}` or a latency ceiling such as
//! `{metric: ttft:p99, max: 500}`. A reader may read the table at other targets (round
//! interactivities the sweeps cross, or fractions and multiples of the author's): each is
//! built here, and radio buttons show one at a time by CSS alone (`style/main.css`), so the
//! choice works without JavaScript; the author's is the one checked. Costs are priced spans, so
//! the page's price editor reprices them in every variant.

use super::super::context::ReportContext;
use super::super::load::LoadKind;
use super::super::values::{escape, parse_quantity, priced_span};
use super::directive::{MetricEntry, TableDirective, TargetSpec};
use super::figure::figure;
use super::gist;
use crate::format;
use crate::model::Run;
use crate::noise::Interval;
use crate::quantity::{Better, Quantity};

/// The columns when the block names none.
const DEFAULT_COLUMNS: [Quantity; 3] = [
    Quantity::OutputPerGpu,
    Quantity::CostPerMillionOutput,
    Quantity::OutputThroughput,
];

/// A target: a quantity and the side of `value` it must stay on.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Target {
    q: Quantity,
    value: f64,
    /// True for a floor (`min`), false for a ceiling (`max`).
    floor: bool,
}

impl Target {
    fn met(self, v: f64) -> bool {
        if self.floor {
            v >= self.value
        } else {
            v <= self.value
        }
    }

    /// `50 tok/s per user`, `TTFT p99 ≤ 500 ms`.
    fn text(self) -> String {
        let value = format::with_unit(self.value, self.q.unit());
        match self.q {
            Quantity::Interactivity | Quantity::OutputPerUser => {
                format!("{} per user", value.replace("/user", ""))
            }
            _ if self.floor => format!("{} ≥ {value}", self.q),
            _ => format!("{} ≤ {value}", self.q),
        }
    }
}

/// Where a configuration meets the target last.
#[derive(Debug, Clone, Copy)]
enum Reach<'a> {
    /// No run reports the target's quantity.
    Unknown,
    /// The lowest load misses it.
    NotReached,
    /// Every load meets it: the highest load's run.
    Everywhere(&'a Run),
    /// Crossed between two runs, at fraction `t` from the first to the second.
    Between(&'a Run, &'a Run, f64),
}

/// The most targets a reader is offered.
const MOST_CHOICES: usize = 8;

/// A `scorecard` table of the block at `line`: at the author's target, and at the others a
/// reader may pick (radio buttons that show one variant each, by CSS alone, so the choice works
/// without JavaScript too; the author's is checked).
pub(super) fn scorecard(
    ctx: &ReportContext<'_>,
    d: &TableDirective,
    line: usize,
) -> Result<String, String> {
    let target = target(d)?;
    let columns = columns(d)?;
    let keys = ctx.config_keys(d.configs.as_deref())?;
    let sweeps: Vec<(String, Vec<&Run>)> = keys
        .iter()
        .map(|key| (key.clone(), ctx.runs_of(key)))
        .collect();
    let choices = choices(target, &sweeps);
    if choices.len() < 2 {
        return Ok(variant(ctx, d, target, &columns, &sweeps));
    }
    let name = format!("scorecard-{line}");
    let mut inputs = String::new();
    let mut variants = String::new();
    for (n, &choice) in choices.iter().enumerate() {
        let checked = if choice.value == target.value {
            " checked"
        } else {
            ""
        };
        inputs.push_str(&format!(
            "<input type=\"radio\" name=\"{name}\" id=\"{name}-{n}\"{checked}><label for=\"{name}-{n}\">{}</label>",
            escape(&format::with_unit(choice.value, choice.q.unit()))
        ));
        variants.push_str(&format!(
            "<div class=\"scorecard-variant\">{}</div>",
            variant(ctx, d, choice, &columns, &sweeps)
        ));
    }
    let side = if target.floor { "at least" } else { "at most" };
    Ok(format!(
        "<div class=\"scorecard\"><span class=\"scorecard-legend\">{} {side}:</span>{inputs}{variants}</div>",
        escape(&target.q.to_string())
    ))
}

/// The targets offered: the author's and, for a floor on interactivity or tokens per user, the
/// round ones some configuration crosses or reaches (`quantity::ROUND_INTERACTIVITY`), else
/// half, three quarters, one and a half and twice the author's; at most [`MOST_CHOICES`], the
/// nearest to the author's kept, in increasing order.
fn choices(target: Target, sweeps: &[(String, Vec<&Run>)]) -> Vec<Target> {
    let per_user = matches!(target.q, Quantity::Interactivity | Quantity::OutputPerUser);
    let mut values: Vec<f64> = if per_user && target.floor {
        let seen: Vec<f64> = sweeps
            .iter()
            .flat_map(|(_, runs)| runs.iter().filter_map(|r| target.q.of(r)))
            .collect();
        let lo = seen.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = seen.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        crate::quantity::ROUND_INTERACTIVITY
            .into_iter()
            .filter(|&v| lo < v && v <= hi)
            .collect()
    } else {
        [0.5, 0.75, 1.5, 2.0]
            .iter()
            .map(|f| two_digits(target.value * f))
            .collect()
    };
    values.push(target.value);
    values.sort_by(|a, b| a.total_cmp(b));
    values.dedup();
    while values.len() > MOST_CHOICES {
        // Drop the end farther from the author's target.
        let (first, last) = (values[0], values[values.len() - 1]);
        if (first - target.value).abs() > (last - target.value).abs() {
            values.remove(0);
        } else {
            values.pop();
        }
    }
    values
        .into_iter()
        .map(|value| Target { value, ..target })
        .collect()
}

/// `v` to two significant digits: 37.5 → 38, 1,250 → 1,300.
fn two_digits(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let step = 10f64.powi(v.abs().log10().floor() as i32 - 1);
    (v / step).round() * step
}

/// The scorecard at `target`: its sentence and its table.
fn variant(
    ctx: &ReportContext<'_>,
    d: &TableDirective,
    target: Target,
    columns: &[Quantity],
    sweeps: &[(String, Vec<&Run>)],
) -> String {
    let mut rows = Vec::new();
    let mut said = Vec::new();
    for (key, runs) in sweeps {
        let name = ctx.display(key).0;
        let reach = reach(runs, target);
        let cells: String = columns.iter().map(|&q| cell(key, q, reach)).collect();
        rows.push(format!(
            "<tr><th scope=\"row\">{}</th><td>{}</td>{cells}</tr>",
            escape(&name),
            load_cell(reach)
        ));
        said.push((name, reach, value_at(columns[0], reach)));
    }
    let head: String = std::iter::once("Load at the target".to_string())
        .chain(columns.iter().map(ToString::to_string))
        .map(|t| format!("<th scope=\"col\">{}</th>", escape(&t)))
        .collect();
    let title = d
        .title
        .clone()
        .unwrap_or_else(|| format!("At {}", target.text()));
    let caption = d.caption.as_deref().unwrap_or(
        "Each configuration at the highest load where the target holds, from its lowest load \
         up: between two load points the values are interpolated (≈), each end of a 95% \
         interval as its value; \"every load\" where even the highest load measured meets it.",
    );
    let table = figure(
        &title,
        caption,
        &format!("<th scope=\"col\">Configuration</th>{head}"),
        &rows,
    );
    format!(
        "{}{table}",
        gist::lead(&sentence(target, columns[0], &said))
    )
}

/// The block's `target`, interactivity by default; a floor or a ceiling, not both.
fn target(d: &TableDirective) -> Result<Target, String> {
    let expected = "a scorecard needs `target`, such as {metric: interactivity, min: 50} or \
                    {metric: ttft:p99, max: 500}";
    let Some(TargetSpec { metric, min, max }) = &d.target else {
        return Err(expected.into());
    };
    let q = parse_quantity(metric)?;
    let (value, floor) = match (min, max) {
        (Some(v), None) => (*v, true),
        (None, Some(v)) => (*v, false),
        _ => return Err(format!("{expected}: one of `min` or `max`")),
    };
    if !value.is_finite() {
        return Err(format!("{expected}: a finite number"));
    }
    Ok(Target { q, value, floor })
}

/// The columns: `metrics`, or throughput per GPU, cost and throughput.
fn columns(d: &TableDirective) -> Result<Vec<Quantity>, String> {
    match d.metrics.as_deref() {
        None | Some([]) => Ok(DEFAULT_COLUMNS.to_vec()),
        Some(entries) => entries
            .iter()
            .map(|entry| match entry {
                MetricEntry::Name(name) => parse_quantity(name),
                MetricEntry::Detailed { metric, .. } => parse_quantity(metric),
            })
            .collect(),
    }
}

/// Where `runs` (in load order) meet `target` last, contiguously from the lowest load, along
/// the kind of load (concurrency or rate) with the most runs that report the target.
fn reach<'a>(runs: &[&'a Run], target: Target) -> Reach<'a> {
    let along = |kind: Option<LoadKind>| -> Vec<(&'a Run, f64)> {
        runs.iter()
            .filter(|r| LoadKind::of(&r.load.target) == kind)
            .filter_map(|&r| Some((r, target.q.of(r)?)))
            .collect()
    };
    let Some(values) = [Some(LoadKind::Concurrency), Some(LoadKind::Rate), None]
        .into_iter()
        .map(along)
        .filter(|v| !v.is_empty())
        .max_by_key(Vec::len)
    else {
        return Reach::Unknown;
    };
    let Some(first_miss) = values.iter().position(|(_, v)| !target.met(*v)) else {
        return match values.last() {
            Some((run, _)) => Reach::Everywhere(run),
            None => Reach::Unknown,
        };
    };
    if first_miss == 0 {
        return Reach::NotReached;
    }
    let ((a, va), (b, vb)) = (values[first_miss - 1], values[first_miss]);
    let t = if vb == va {
        0.0
    } else {
        ((target.value - va) / (vb - va)).clamp(0.0, 1.0)
    };
    Reach::Between(a, b, t)
}

/// `q` where `reach` says, interpolated; `None` where a run lacks it.
fn value_at(q: Quantity, reach: Reach<'_>) -> Option<f64> {
    match reach {
        Reach::Unknown | Reach::NotReached => None,
        Reach::Everywhere(run) => q.of(run),
        Reach::Between(a, b, t) => Some(mix(q.of(a)?, q.of(b)?, t)),
    }
}

/// Its 95% interval, each end interpolated; `None` where a run has none.
fn interval_at(q: Quantity, reach: Reach<'_>) -> Option<Interval> {
    let of = |run: &Run| crate::noise::estimate(q, run)?.interval.map(|(i, _)| i);
    match reach {
        Reach::Unknown | Reach::NotReached => None,
        Reach::Everywhere(run) => of(run),
        Reach::Between(a, b, t) => {
            let (ia, ib) = (of(a)?, of(b)?);
            Some(Interval {
                lo: mix(ia.lo, ib.lo, t),
                hi: mix(ia.hi, ib.hi, t),
            })
        }
    }
}

fn mix(a: f64, b: f64, t: f64) -> f64 {
    a + (b - a) * t
}

/// The load the target is met at: measured, interpolated (≈), or every load.
fn load_cell(reach: Reach<'_>) -> String {
    match reach {
        Reach::Unknown => "<span class=\"unclear\">no figure</span>".into(),
        Reach::NotReached => "<span class=\"unclear\">not reached</span>".into(),
        Reach::Everywhere(run) => format!(
            "{}<small>every load</small>",
            escape(&run.load.target.to_string())
        ),
        Reach::Between(a, b, t) => match (a.load.target.value(), b.load.target.value()) {
            (Some(la), Some(lb)) if la.is_finite() && lb.is_finite() => {
                let between = a.load.target.to_string();
                let unit = between.split_once(' ').map_or("", |(_, u)| u);
                format!("≈ {} {}", format::number(mix(la, lb, t)), escape(unit))
            }
            _ => format!(
                "{}–{}",
                escape(&a.load.target.to_string()),
                escape(&b.load.target.to_string())
            ),
        },
    }
}

/// One column's cell for configuration `key`.
fn cell(key: &str, q: Quantity, reach: Reach<'_>) -> String {
    let Some(v) = value_at(q, reach) else {
        return "<td>–</td>".into();
    };
    let approx = if matches!(reach, Reach::Between(..)) {
        "≈ "
    } else {
        ""
    };
    let text = format!("{approx}{}", format::with_unit(v, q.unit()));
    let shown = if crate::cost::is_cost(q) {
        priced_span(key, v, &text, q.unit(), None)
    } else {
        escape(&text)
    };
    let ci = interval_at(q, reach).map_or(String::new(), |i| {
        format!(
            "<small class=\"ci\">{}</small>",
            escape(&i.text(q.unit()).replacen("95% CI ", "", 1))
        )
    });
    format!("<td>{shown}{ci}</td>")
}

/// `At 50 tok/s per user, Output throughput per GPU: vLLM 1,234 tok/s/GPU, SGLang 1,100
/// tok/s/GPU; TRT does not reach it.` The first column, best first; `said` holds each
/// configuration's name, where it reaches the target, and its value there.
fn sentence(target: Target, q: Quantity, said: &[(String, Reach<'_>, Option<f64>)]) -> String {
    let mut valued: Vec<(&str, f64)> = said
        .iter()
        .filter_map(|(name, _, v)| Some((name.as_str(), (*v)?)))
        .collect();
    valued.sort_by(|a, b| match q.better() {
        Better::Higher => b.1.total_cmp(&a.1),
        Better::Lower => a.1.total_cmp(&b.1),
    });
    let names = |wanted: fn(&Reach<'_>) -> bool| -> Vec<&str> {
        said.iter()
            .filter(|(_, reach, v)| wanted(reach) && v.is_none())
            .map(|(name, ..)| name.as_str())
            .collect()
    };
    let mut parts = Vec::new();
    if !valued.is_empty() {
        let listed: Vec<String> = valued
            .iter()
            .map(|(name, v)| format!("{name} {}", format::with_unit(*v, q.unit())))
            .collect();
        parts.push(format!("{q}: {}", listed.join(", ")));
    }
    let missed = names(|r| matches!(r, Reach::NotReached));
    if !missed.is_empty() {
        let verb = if missed.len() == 1 { "does" } else { "do" };
        parts.push(format!("{} {verb} not reach it", gist::list(&missed)));
    }
    let unknown = names(|r| matches!(r, Reach::Unknown));
    if !unknown.is_empty() {
        parts.push(format!(
            "{} for {}",
            no_figure(target.q),
            gist::list(&unknown)
        ));
    }
    let blank = names(|r| matches!(r, Reach::Everywhere(_) | Reach::Between(..)));
    if !blank.is_empty() {
        parts.push(format!("no {q} for {}", gist::list(&blank)));
    }
    format!("At {}, {}.", target.text(), parts.join("; "))
}

/// `no Output tok/s per user figure`.
fn no_figure(q: Quantity) -> String {
    format!("no {q} figure")
}
