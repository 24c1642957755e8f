//! The `# benchdeck:` mapping: its `target=source` items, the targets and sources they name,
//! and resolving each item against the CSV header (or saying what was expected).

use crate::import::table::Row;
use crate::model::{Location, Metric, Stat};

/// The load knob of `load=`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum LoadKind {
    Concurrency,
    Rate,
    Batch,
}

/// A rate field of the model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum RateField {
    OutputTokS,
    OutputTokSPerUser,
    TotalTokS,
    InputTokS,
    RequestsPerS,
    GoodputReqS,
    AchievedRps,
}

/// A configuration field of the model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum ConfigField {
    Model,
    Engine,
    Label,
    Hardware,
    Dataset,
}

fn config_field(name: &str) -> Option<ConfigField> {
    Some(match name.to_ascii_lowercase().as_str() {
        "model" => ConfigField::Model,
        "engine" => ConfigField::Engine,
        "label" => ConfigField::Label,
        "hardware" => ConfigField::Hardware,
        "dataset" => ConfigField::Dataset,
        _ => return None,
    })
}

/// A value of one request, in a table whose rows are requests.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum RequestField {
    /// A latency, and its ms per unit.
    Latency(Metric, f64),
    /// When the request was sent, and the seconds per unit.
    Start(f64),
    InputTokens,
    OutputTokens,
    /// A cell that says the request failed when it holds anything (an error text or code)
    /// other than `0`, `false`, `none` or `null`.
    Error,
}

/// Where a mapped value goes.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Destination {
    Load(LoadKind),
    /// A value of one request (the table's rows are requests), and the unit as written.
    Request(RequestField, String),
    /// Metric, statistic, ms per unit, and the unit as written (cells may repeat it).
    Latency(Metric, Stat, f64, String),
    InputLen(Stat),
    OutputLen(Stat),
    /// A rate, and the seconds of its unit of time (60 for `/min`).
    Rate(RateField, f64),
    Total,
    Succeeded,
    Failed,
    TotalInput,
    TotalOutput,
    MaxConcurrency,
    Config(ConfigField),
    /// Another configuration column, joined into the label as `name=value`.
    LabelPart(String),
}

/// Where a mapped value comes from.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Source {
    Column(usize),
    Text(String),
}

/// One mapping, with the place it was written.
#[derive(Debug, Clone)]
pub(super) struct Mapping {
    pub(super) target: Destination,
    pub(super) source: Source,
    pub(super) at: Location,
}

/// One `target=source` item as written.
pub(in crate::import) struct Item<'a> {
    pub(super) text: &'a str,
    pub(super) line: u64,
    pub(super) column: u64,
}

const TARGETS: &str = "load=<kind>:<column>, <metric>.<stat>=<column> (<unit>), \
     per request: <metric>=<column> (<unit>), start=<column> (<unit>), input_tokens, \
     output_tokens, error; \
     input_len.<stat>, output_len.<stat>, output_tok_s, output_tok_s_per_user, total_tok_s, \
     input_tok_s, requests_per_s, goodput_req_s, achieved_rps, total, succeeded, failed, total_input, total_output, \
     max_concurrency, config, config.<field>";

/// Splits a mapping line into items at commas outside double quotes.
pub(in crate::import) fn items(line: &str, body_offset: usize, line_no: u64) -> Vec<Item<'_>> {
    let mut ranges = Vec::new();
    let mut start = body_offset;
    let mut quoted = false;
    for (i, b) in line.bytes().enumerate().skip(body_offset) {
        match b {
            b'"' => quoted = !quoted,
            b',' if !quoted => {
                ranges.push((start, i));
                start = i + 1;
            }
            _ => {}
        }
    }
    ranges.push((start, line.len()));
    ranges
        .into_iter()
        .filter_map(|(from, to)| {
            let raw = line.get(from..to)?;
            let text = raw.trim();
            if text.is_empty() {
                return None;
            }
            let lead = raw.len() - raw.trim_start().len();
            let column = line.get(..from + lead)?.chars().count() as u64 + 1;
            Some(Item {
                text,
                line: line_no,
                column,
            })
        })
        .collect()
}

/// "in the header at line 3", or for a JSON file's flattened keys (a header without a line)
/// "among the file's keys".
fn where_header(header: &Row) -> String {
    match header.line {
        0 => "among the file's keys".to_string(),
        line => format!("in the header at line {line}"),
    }
}

/// `ttft_p50 (s)` → (`ttft_p50`, `Some("s")`).
fn split_unit(source: &str) -> (&str, Option<&str>) {
    let s = source.trim();
    if let Some(inner) = s.strip_suffix(')') {
        if let Some(open) = inner.rfind('(') {
            let name = inner[..open].trim_end();
            if !name.is_empty() {
                return (name, Some(inner[open + 1..].trim()));
            }
        }
    }
    (s, None)
}

fn time_unit(unit: &str) -> Option<f64> {
    crate::import::json_objects::ms_per(unit)
}

/// Seconds per unit of time of a rate unit: none or `/s` → 1, `/min` → 60.
fn rate_unit(unit: Option<&str>) -> Option<f64> {
    let Some(u) = unit else { return Some(1.0) };
    let u = u.trim().to_ascii_lowercase();
    let (_, per) = u.rsplit_once('/')?;
    match per.trim() {
        "s" | "sec" | "second" => Some(1.0),
        "min" | "minute" => Some(60.0),
        _ => None,
    }
}

/// Resolves one item against the header, or says what was expected.
pub(super) fn resolve(item: &Item<'_>, header: &Row) -> Result<Mapping, String> {
    let at = Location::Line {
        line: item.line,
        column: Some(item.column),
    };
    let Some((target, source)) = item.text.split_once('=') else {
        return Err(format!(
            "`{}`: expected `target=column`, e.g. `ttft.p50=ttft_p50 (ms)`",
            item.text
        ));
    };
    let target = target.trim();
    let source = source.trim();
    if source.is_empty() {
        return Err(format!("`{target}=`: expected a column name after `=`"));
    }
    let look = Lookup { header, target };
    let lower = target.to_ascii_lowercase();
    let (target, source) = if lower == "load" {
        look.load(source)?
    } else if lower == "config" {
        look.config(source)?
    } else if let Some(field) = lower.strip_prefix("config.") {
        look.config_field(field, source)?
    } else if let Some(request) = look.request(&lower, source) {
        request?
    } else if let Some(t) = simple_target(&lower) {
        (t, Source::Column(look.no_unit(source)?))
    } else if let Some(field) = rate_field(&lower) {
        look.rate(field, source)?
    } else {
        look.statistic(&lower, source)?
    };
    Ok(Mapping { target, source, at })
}

/// The counts and totals, whose column takes no unit.
fn simple_target(lower: &str) -> Option<Destination> {
    match lower {
        "total" => Some(Destination::Total),
        "succeeded" => Some(Destination::Succeeded),
        "failed" => Some(Destination::Failed),
        "total_input" => Some(Destination::TotalInput),
        "total_output" => Some(Destination::TotalOutput),
        "max_concurrency" => Some(Destination::MaxConcurrency),
        _ => None,
    }
}

/// The rates per second (or per minute).
fn rate_field(lower: &str) -> Option<RateField> {
    match lower {
        "output_tok_s" => Some(RateField::OutputTokS),
        "output_tok_s_per_user" => Some(RateField::OutputTokSPerUser),
        "total_tok_s" => Some(RateField::TotalTokS),
        "input_tok_s" => Some(RateField::InputTokS),
        "requests_per_s" => Some(RateField::RequestsPerS),
        "goodput_req_s" => Some(RateField::GoodputReqS),
        "achieved_rps" => Some(RateField::AchievedRps),
        _ => None,
    }
}

/// The header a mapping's columns are found in, and the target as written (for messages).
struct Lookup<'a> {
    header: &'a Row,
    target: &'a str,
}

impl Lookup<'_> {
    /// The index of the one column named `name`.
    fn column(&self, name: &str) -> Result<usize, String> {
        let (header, target) = (self.header, self.target);
        let found: Vec<usize> = header
            .cells
            .iter()
            .enumerate()
            .filter(|(_, c)| c.as_str() == name)
            .map(|(i, _)| i)
            .collect();
        match found.as_slice() {
            [i] => Ok(*i),
            [] => Err(format!(
                "`{target}`: no column `{name}` {}; expected one of {}",
                where_header(header),
                header
                    .cells
                    .iter()
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            several => Err(format!(
                "`{target}`: the column `{name}` appears {} times {}; expected a unique name",
                several.len(),
                where_header(header)
            )),
        }
    }

    /// The column of a target that takes no unit.
    fn no_unit(&self, name: &str) -> Result<usize, String> {
        let target = self.target;
        match split_unit(name) {
            (_, Some(unit)) if self.column(name).is_err() => Err(format!(
                "`{target}` takes no unit, but `({unit})` was given; expected `{target}=<column>`"
            )),
            _ => self.column(name),
        }
    }

    /// `load=<kind>:<column>`.
    fn load(&self, source: &str) -> Result<(Destination, Source), String> {
        let Some((kind, name)) = source.split_once(':') else {
            return Err(format!(
                "`load={source}`: expected `load=<kind>:<column>` with kind `concurrency`, \
                 `rate` or `batch`"
            ));
        };
        let kind = match kind.trim().to_ascii_lowercase().as_str() {
            "concurrency" | "users" => LoadKind::Concurrency,
            "rate" | "request_rate" | "rps" => LoadKind::Rate,
            "batch" | "batch_size" => LoadKind::Batch,
            other => {
                return Err(format!(
                    "`load`: unknown load kind `{other}`; expected `concurrency`, `rate` or `batch`"
                ))
            }
        };
        Ok((
            Destination::Load(kind),
            Source::Column(self.no_unit(name.trim())?),
        ))
    }

    /// A per-request target (`ttft=<column> (<unit>)`, `start=<column> (s)`, `input_tokens`,
    /// `output_tokens`, `error`); `None` for any other target.
    fn request(&self, lower: &str, source: &str) -> Option<Result<(Destination, Source), String>> {
        let plain = |field: RequestField| {
            self.no_unit(source).map(|i| {
                (
                    Destination::Request(field, String::new()),
                    Source::Column(i),
                )
            })
        };
        let timed = |field: fn(f64) -> RequestField, per: f64| {
            let (name, unit) = split_unit(source);
            let target = self.target;
            let unit = unit.ok_or_else(|| {
                format!(
                    "`{target}={source}`: expected the column's time unit in parentheses, e.g. \
                     `{target}={source} (ms)`; units are never guessed"
                )
            })?;
            let scale = time_unit(unit).ok_or_else(|| {
                format!("`{target}`: unknown time unit `({unit})`; expected `(ms)`, `(s)`, `(us)` or `(ns)`")
            })?;
            let i = self.column(name)?;
            Ok((
                Destination::Request(field(scale / per), unit.to_string()),
                Source::Column(i),
            ))
        };
        Some(match lower {
            "start" => timed(RequestField::Start, 1000.0),
            "input_tokens" => plain(RequestField::InputTokens),
            "output_tokens" => plain(RequestField::OutputTokens),
            "error" => plain(RequestField::Error),
            _ => {
                let metric = Metric::from_id(lower)?;
                match metric {
                    Metric::Ttft => timed(|s| RequestField::Latency(Metric::Ttft, s), 1.0),
                    Metric::Ttst => timed(|s| RequestField::Latency(Metric::Ttst, s), 1.0),
                    Metric::Tpot => timed(|s| RequestField::Latency(Metric::Tpot, s), 1.0),
                    Metric::Itl => timed(|s| RequestField::Latency(Metric::Itl, s), 1.0),
                    Metric::E2e => timed(|s| RequestField::Latency(Metric::E2e, s), 1.0),
                    other => Err(format!(
                        "`{}`: {} is not a value of one request; expected ttft, ttst, tpot, \
                         itl or e2e",
                        self.target,
                        other.id()
                    )),
                }
            }
        })
    }

    /// `config=<column>`: a configuration field by the column's name, or a part of the label.
    fn config(&self, source: &str) -> Result<(Destination, Source), String> {
        let i = self.no_unit(source)?;
        let name = self.header.cell(i);
        let target = config_field(name).map_or_else(
            || Destination::LabelPart(name.to_string()),
            Destination::Config,
        );
        Ok((target, Source::Column(i)))
    }

    /// `config.<field>=<column>` or `config.<field>="text"`.
    fn config_field(&self, field: &str, source: &str) -> Result<(Destination, Source), String> {
        let target = self.target;
        let Some(field) = config_field(field) else {
            return Err(format!(
                "`{target}`: unknown configuration field; expected `config.model`, \
                 `config.engine`, `config.label`, `config.hardware` or `config.dataset`"
            ));
        };
        if let Some(text) = source.strip_prefix('"') {
            let Some(text) = text.strip_suffix('"') else {
                return Err(format!(
                    "`{target}`: the text `{source}` has no closing `\"`"
                ));
            };
            return Ok((Destination::Config(field), Source::Text(text.to_string())));
        }
        Ok((
            Destination::Config(field),
            Source::Column(self.no_unit(source)?),
        ))
    }

    /// A rate, with an optional unit of time: `(/s)` or `(/min)`.
    fn rate(&self, field: RateField, source: &str) -> Result<(Destination, Source), String> {
        let (name, unit) = split_unit(source);
        let Some(seconds) = rate_unit(unit) else {
            return Err(format!(
                "`{}`: unknown rate unit `({})`; expected none (per second), `(/s)` or \
                 `(/min)`",
                self.target,
                unit.unwrap_or("")
            ));
        };
        Ok((
            Destination::Rate(field, seconds),
            Source::Column(self.column(name)?),
        ))
    }

    /// `<metric>.<stat>`: a token length statistic, or a latency statistic with its time unit.
    fn statistic(&self, lower: &str, source: &str) -> Result<(Destination, Source), String> {
        let target = self.target;
        let Some((metric, stat)) = lower.split_once('.') else {
            return Err(format!(
                "`{target}`: unknown target; expected one of {TARGETS}"
            ));
        };
        let Some(stat_value) = Stat::parse(stat) else {
            return Err(format!(
                "`{target}`: unknown statistic `{stat}`; expected mean, median, std, min, max or \
                 p<N> such as p99"
            ));
        };
        match metric {
            "input_len" => {
                return Ok((
                    Destination::InputLen(stat_value),
                    Source::Column(self.no_unit(source)?),
                ))
            }
            "output_len" => {
                return Ok((
                    Destination::OutputLen(stat_value),
                    Source::Column(self.no_unit(source)?),
                ))
            }
            _ => {}
        }
        let Some(metric) = Metric::from_id(metric) else {
            return Err(format!(
                "`{target}`: unknown metric `{metric}`; expected ttft, ttst, tpot, tpot_incl_first, \
                 itl, e2e, input_len or output_len"
            ));
        };
        let (name, unit) = split_unit(source);
        let Some(unit) = unit else {
            return Err(format!(
                "`{target}={source}`: expected the column's time unit in parentheses, e.g. \
                 `{target}={source} (ms)`; units are never guessed"
            ));
        };
        let Some(scale) = time_unit(unit) else {
            return Err(format!(
                "`{target}`: unknown time unit `({unit})`; expected `(ms)`, `(s)`, `(us)` or `(ns)`"
            ));
        };
        Ok((
            Destination::Latency(metric, stat_value, scale, unit.to_string()),
            Source::Column(self.column(name)?),
        ))
    }
}

/// A short name of a target, to find the same target mapped twice.
pub(super) fn target_key(t: &Destination) -> String {
    match t {
        Destination::Load(_) => "load".into(),
        Destination::Latency(m, s, _, _) => format!("{}.{s}", m.id()),
        Destination::InputLen(s) => format!("input_len.{s}"),
        Destination::OutputLen(s) => format!("output_len.{s}"),
        Destination::Rate(f, _) => format!("{f:?}"),
        Destination::Config(f) => format!("config.{f:?}"),
        Destination::LabelPart(name) => format!("label part {name}"),
        Destination::Request(RequestField::Latency(m, _), _) => m.id().to_string(),
        other => format!("{other:?}"),
    }
}
