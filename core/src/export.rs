//! A chart's plotted data as a table: the text alternative shown under every chart and the CSV a
//! reader downloads. Both come from the [`ChartSpec`] alone, so they always match the drawing.
//! Also the runs themselves as CSV ([`runs_csv`]), one row per run: what the build publishes
//! next to each report and what the app offers for dropped files.

use crate::chart::{ChartSpec, Point, Series};
use crate::format;

mod runs;

pub use runs::{combined, runs_csv, runs_json};

/// A chart's data pivoted for reading: one row per x position, one column per series.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataTable {
    /// Column titles: the x axis, then one per series (with the unit).
    pub header: Vec<String>,
    /// Cells, formatted for people (`n/a` where a series has no value there, with the reason).
    pub rows: Vec<Vec<String>>,
    /// Rows left out because the chart has more x positions than [`MAX_TABLE_ROWS`].
    pub omitted: usize,
}

/// Largest number of rows the on-page table shows; the CSV always has everything.
pub const MAX_TABLE_ROWS: usize = 200;

/// The label of point `p` on the x axis: its category for bar charts, else its value.
pub fn x_label(spec: &ChartSpec, p: &Point) -> String {
    spec.kind
        .x_label(p.x)
        .unwrap_or_else(|| format::number(p.x))
}

/// What a tooltip says about one point, every part formatted for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PointLabel {
    /// The series' legend name.
    pub series: String,
    /// The x axis title and the point's x label, e.g. `Request rate: 10`.
    pub x: String,
    /// The y axis title and the value with its unit, e.g. `Mean TTFT: 56.9 ms`.
    pub y: String,
    /// Where the value came from, `file:line`, if known.
    pub source: String,
    /// Why the value is missing, if it is.
    pub note: String,
    /// The value's 95% interval with its unit and basis (`95% CI 41.2–48.9 ms from 400
    /// requests`); empty when its noise is unknown.
    pub interval: String,
    /// The result file the value came from, where a point is one run (see [`Point::link`]).
    pub link: String,
}

/// The tooltip text of point `point` of series `series`, if both exist.
pub fn point_label(spec: &ChartSpec, series: usize, point: usize) -> Option<PointLabel> {
    let s = spec.series.get(series)?;
    let p = s.points.get(point)?;
    let value =
        p.y.map_or_else(|| "n/a".to_string(), |y| format::with_unit(y, &spec.y.unit));
    Some(PointLabel {
        series: s.name.clone(),
        x: format!("{}: {}", spec.x.label(), x_label(spec, p)),
        y: format!("{}: {value}", spec.y.title),
        source: p.source.clone(),
        note: p.note.clone(),
        interval: interval_text(p, &spec.y.unit),
        link: p.link.clone(),
    })
}

/// `95% CI 41.2–48.9 ms from 400 requests`, or empty for a point without an interval.
pub fn interval_text(p: &Point, unit: &str) -> String {
    let Some([lo, hi]) = p.ci else {
        return String::new();
    };
    let interval = crate::noise::Interval { lo, hi };
    format!("{} {}", interval.text(unit), p.ci_basis)
        .trim_end()
        .to_string()
}

/// The share (percent) of a CDF series at or below `x`: the value of its last point at or left
/// of `x`, 0 before the first. `None` for a series without points.
pub fn cdf_share_at(series: &Series, x: f64) -> Option<f64> {
    if series.points.is_empty() || x.is_nan() {
        return None;
    }
    let at = series.points.partition_point(|p| p.x <= x);
    Some(if at == 0 {
        0.0
    } else {
        series.points[at - 1].y.unwrap_or(0.0)
    })
}

/// The pivoted table of a chart.
pub fn data_table(spec: &ChartSpec) -> DataTable {
    let mut xs: Vec<f64> = spec
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.x))
        .filter(|x| !x.is_nan())
        .collect();
    crate::order::sort_f64(&mut xs);
    xs.dedup();
    let unit = if spec.y.unit.is_empty() {
        String::new()
    } else {
        format!(" ({})", spec.y.unit)
    };
    let mut header = vec![spec.x.label()];
    header.extend(spec.series.iter().map(|s| format!("{}{unit}", s.name)));
    let omitted = xs.len().saturating_sub(MAX_TABLE_ROWS);
    let rows = xs
        .iter()
        .take(MAX_TABLE_ROWS)
        .map(|&x| {
            let mut row = Vec::with_capacity(spec.series.len() + 1);
            let label = spec
                .series
                .iter()
                .flat_map(|s| s.points.iter())
                .find(|p| p.x == x)
                .map(|p| x_label(spec, p))
                .unwrap_or_else(|| format::number(x));
            row.push(label);
            for series in &spec.series {
                let cell = match series.points.iter().find(|p| p.x == x) {
                    Some(Point {
                        y: Some(y),
                        ci: Some([lo, hi]),
                        ..
                    }) => format!(
                        "{} (95% CI {}–{})",
                        format::number(*y),
                        format::number(*lo),
                        format::number(*hi)
                    ),
                    Some(Point { y: Some(y), .. }) => format::number(*y),
                    Some(p) if !p.note.is_empty() => format!("n/a ({})", p.note),
                    _ => "n/a".to_string(),
                };
                row.push(cell);
            }
            row
        })
        .collect();
    DataTable {
        header,
        rows,
        omitted,
    }
}

/// What a chart shows, in one sentence: the alternative text of its image. Its title, the kind,
/// what is plotted against what (with units) and the series: "Tail latency: line chart of TTFT
/// p99 (ms) against request rate (req/s), 2 series: vLLM, SGLang."
pub fn alt_text(spec: &ChartSpec) -> String {
    use crate::chart::ChartKind;
    let axis = |a: &crate::chart::Axis| {
        if a.unit.is_empty() {
            a.title.clone()
        } else {
            format!("{} ({})", a.title, a.unit)
        }
    };
    let (kind, x) = match &spec.kind {
        ChartKind::GroupedBars { .. } => ("Bar chart", axis(&spec.x)),
        ChartKind::Lines => ("Line chart", axis(&spec.x)),
        ChartKind::Scatter => ("Scatter plot", axis(&spec.x)),
        ChartKind::Cdf => ("Cumulative distribution", axis(&spec.x)),
        ChartKind::Histogram { .. } => ("Histogram", axis(&spec.x)),
        ChartKind::Box { .. } => ("Box plot", axis(&spec.x)),
        ChartKind::HBars { .. } => ("Horizontal bar chart", axis(&spec.x)),
        ChartKind::Stacked { .. } => ("Stacked bar chart", axis(&spec.x)),
        ChartKind::Trend { .. } => ("Line chart over time", axis(&spec.x)),
    };
    let y = axis(&spec.y);
    let what = match &spec.kind {
        ChartKind::Cdf | ChartKind::Histogram { .. } if !x.is_empty() => format!("{kind} of {x}"),
        _ if y.is_empty() => kind.to_string(),
        _ if x.is_empty() => format!("{kind} of {y}"),
        _ => format!("{kind} of {y} against {x}"),
    };
    let what = if spec.title.is_empty() {
        what
    } else {
        format!(
            "{}: {}{}",
            spec.title,
            what[..1].to_ascii_lowercase(),
            &what[1..]
        )
    };
    let names: Vec<&str> = spec.series.iter().map(|s| s.name.as_str()).collect();
    match names.len() {
        0 => format!("{what}, no data."),
        1 => format!("{what}, {}.", names[0]),
        n => format!("{what}, {n} series: {}.", names.join(", ")),
    }
}

/// Every plotted value as CSV, one line per point, in full precision:
/// `series,x,x_label,y,ci_low,ci_high,unit,source,note` (the interval's ends empty where the
/// noise is unknown).
///
/// Written here rather than by the `csv` crate, byte for byte as its writer does (a test keeps
/// them equal): its writer carries Rust's decimal reader (for a quoting style this never uses),
/// 17 KB of the browser app's gzipped wasm.
pub fn csv(spec: &ChartSpec) -> String {
    let mut out = String::new();
    let mut write = |record: &[&str]| {
        for (i, field) in record.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            csv_field(&mut out, field);
        }
        out.push('\n');
    };
    write(&[
        "series", "x", "x_label", "y", "ci_low", "ci_high", "unit", "source", "note",
    ]);
    for series in &spec.series {
        for p in &series.points {
            write(&[
                &series.name,
                &p.x.to_string(),
                &x_label(spec, p),
                &p.y.map(|y| y.to_string()).unwrap_or_default(),
                &p.ci.map(|[lo, _]| lo.to_string()).unwrap_or_default(),
                &p.ci.map(|[_, hi]| hi.to_string()).unwrap_or_default(),
                &spec.y.unit,
                &p.source,
                &p.note,
            ]);
        }
    }
    out
}

/// One CSV field as the `csv` crate writes it by default: quoted, its quotes doubled, when it
/// holds a comma, a quote or a line break.
fn csv_field(out: &mut String, field: &str) {
    if field.contains([',', '"', '\r', '\n']) {
        out.push('"');
        out.push_str(&field.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(field);
    }
}

#[cfg(test)]
mod alt_text_tests {
    use super::alt_text;
    use crate::chart::{Axis, ChartKind, ChartSpec, Series};

    #[test]
    fn the_alt_text_says_what_is_plotted_against_what_for_whom() {
        let series = |name: &str| Series {
            name: name.into(),
            color: 0,
            points: Vec::new(),
        };
        let spec = ChartSpec {
            title: "Tail latency".into(),
            kind: ChartKind::Lines,
            x: Axis::new("Request rate", "req/s"),
            y: Axis::new("TTFT p99", "ms"),
            series: vec![series("vLLM"), series("SGLang")],
            ..ChartSpec::default()
        };
        assert_eq!(
            alt_text(&spec),
            "Tail latency: line chart of TTFT p99 (ms) against Request rate (req/s), 2 series: \
             vLLM, SGLang."
        );
        let cdf = ChartSpec {
            kind: ChartKind::Cdf,
            title: String::new(),
            series: vec![series("vLLM")],
            ..spec.clone()
        };
        assert_eq!(
            alt_text(&cdf),
            "Cumulative distribution of Request rate (req/s), vLLM."
        );
        let empty = ChartSpec::default();
        assert!(alt_text(&empty).ends_with("no data."));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::{Axis, ChartKind};
    use crate::model::Run;

    fn spec() -> ChartSpec {
        let p = |x: f64, y: Option<f64>, note: &str| Point {
            x,
            y,
            source: format!("r.jsonl:{}", x as u32 + 1),
            note: note.to_string(),
            ..Point::default()
        };
        ChartSpec {
            id: "ttft".into(),
            title: "Mean TTFT".into(),
            caption: String::new(),
            kind: ChartKind::GroupedBars {
                categories: vec!["1".into(), "∞".into()],
            },
            x: Axis::new("Request rate", "req/s"),
            y: Axis::new("Mean TTFT", "ms"),
            series: vec![
                Series {
                    name: "vLLM, \"tuned\"".into(),
                    color: 0,
                    points: vec![p(0.0, Some(45.037), ""), p(1.0, Some(18107.32), "")],
                },
                Series {
                    name: "SGLang".into(),
                    color: 1,
                    points: vec![
                        p(0.0, Some(64.88), ""),
                        p(1.0, None, "every request failed"),
                    ],
                },
            ],
            annotations: Vec::new(),
            alternatives: Vec::new(),
        }
    }

    #[test]
    fn the_table_pivots_by_x_with_units_and_reasons() {
        let table = data_table(&spec());
        assert_eq!(
            table.header,
            [
                "Request rate (req/s)",
                "vLLM, \"tuned\" (ms)",
                "SGLang (ms)"
            ]
        );
        assert_eq!(table.rows[0], ["1", "45.04", "64.88"]);
        assert_eq!(table.rows[1], ["∞", "18,107", "n/a (every request failed)"]);
        assert_eq!(table.omitted, 0);
    }

    #[test]
    fn csv_is_written_as_the_csv_crate_writes_it() {
        let awkward = [
            "plain",
            "",
            "a,b",
            "say \"hi\"",
            "two\nlines",
            "cr\r",
            "∞ ünïcödé",
            "#",
            " spaced ",
            "'",
        ];
        let mut spec = spec();
        for (i, text) in awkward.iter().enumerate() {
            spec.series[0].points[0].source = text.to_string();
            spec.series[0].points[0].note = awkward[(i + 1) % awkward.len()].to_string();
            spec.series[0].name = awkward[(i + 2) % awkward.len()].to_string();
            let mut writer = ::csv::Writer::from_writer(Vec::new());
            let header = [
                "series", "x", "x_label", "y", "ci_low", "ci_high", "unit", "source", "note",
            ];
            writer.write_record(header).unwrap();
            for series in &spec.series {
                for p in &series.points {
                    writer
                        .write_record([
                            series.name.clone(),
                            p.x.to_string(),
                            x_label(&spec, p),
                            p.y.map(|y| y.to_string()).unwrap_or_default(),
                            p.ci.map(|[lo, _]| lo.to_string()).unwrap_or_default(),
                            p.ci.map(|[_, hi]| hi.to_string()).unwrap_or_default(),
                            spec.y.unit.clone(),
                            p.source.clone(),
                            p.note.clone(),
                        ])
                        .unwrap();
                }
            }
            let expected = String::from_utf8(writer.into_inner().unwrap()).unwrap();
            assert_eq!(csv(&spec), expected, "{text:?}");
        }
    }

    #[test]
    fn csv_quotes_names_and_keeps_full_precision() {
        let text = csv(&spec());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "series,x,x_label,y,ci_low,ci_high,unit,source,note"
        );
        assert_eq!(
            lines[1],
            "\"vLLM, \"\"tuned\"\"\",0,1,45.037,,,ms,r.jsonl:1,"
        );
        assert_eq!(lines[4], "SGLang,1,∞,,,,ms,r.jsonl:2,every request failed");
        assert_eq!(lines.len(), 5);
    }

    #[test]
    fn tooltips_name_the_series_the_load_the_value_and_its_source() {
        let label = point_label(&spec(), 0, 1).unwrap();
        assert_eq!(label.series, "vLLM, \"tuned\"");
        assert_eq!(label.x, "Request rate (req/s): ∞");
        assert_eq!(label.y, "Mean TTFT: 18,107 ms");
        assert_eq!(label.source, "r.jsonl:2");
        let missing = point_label(&spec(), 1, 1).unwrap();
        assert_eq!(missing.y, "Mean TTFT: n/a");
        assert_eq!(missing.note, "every request failed");
        assert_eq!(point_label(&spec(), 2, 0), None);
        assert_eq!(point_label(&spec(), 0, 9), None);
    }

    #[test]
    fn cdf_shares_step_at_each_point() {
        let mut s = spec().series[0].clone();
        s.points = [(100.0, 25.0), (200.0, 50.0), (400.0, 100.0)]
            .iter()
            .map(|&(x, y)| Point {
                x,
                y: Some(y),
                ..Point::default()
            })
            .collect();
        assert_eq!(cdf_share_at(&s, 50.0), Some(0.0));
        assert_eq!(cdf_share_at(&s, 100.0), Some(25.0));
        assert_eq!(cdf_share_at(&s, 399.0), Some(50.0));
        assert_eq!(cdf_share_at(&s, 1e9), Some(100.0));
        assert_eq!(cdf_share_at(&s, f64::NAN), None);
    }

    #[test]
    fn long_tables_are_cut_with_a_count() {
        let mut s = spec();
        s.kind = ChartKind::GroupedBars { categories: vec![] };
        s.series[0].points = (0..250)
            .map(|i| Point {
                x: f64::from(i),
                y: Some(1.0),
                source: String::new(),
                note: String::new(),
                ..Point::default()
            })
            .collect();
        let table = data_table(&s);
        assert_eq!(table.rows.len(), MAX_TABLE_ROWS);
        assert_eq!(table.omitted, 50);
    }

    fn fixture_runs() -> Vec<Run> {
        let tidy = crate::import::import(
            "tidy-csv/engines.csv",
            include_bytes!("../../tests/fixtures/tidy-csv/engines.csv"),
        );
        let vllm = crate::import::import(
            "vllm/llama-appended.jsonl",
            include_bytes!("../../tests/fixtures/vllm/llama-appended.jsonl"),
        );
        assert!(!tidy.runs.is_empty() && !vllm.runs.is_empty());
        tidy.runs.into_iter().chain(vllm.runs).collect()
    }

    /// The cells of `text` by column name, one map per row.
    fn rows_by_name(text: &str) -> Vec<std::collections::BTreeMap<String, String>> {
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        reader
            .records()
            .map(|r| {
                header
                    .iter()
                    .cloned()
                    .zip(r.unwrap().iter().map(String::from))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn runs_csv_snapshot() {
        insta::assert_snapshot!(runs_csv(&fixture_runs()));
    }

    #[test]
    fn runs_csv_has_a_column_per_statistic_present_with_units() {
        let text = runs_csv(&fixture_runs());
        let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        for column in [
            "ttft_mean_ms",
            "ttft_median_ms",
            "ttft_p50_ms",
            "ttft_p99_ms",
            "tpot_median_ms",
            "e2e_p99_ms",
            "input_len_mean_tok",
            "output_tok_s",
            "requests_failed",
        ] {
            assert!(header.contains(&column), "{column} in {header:?}");
        }
        // Metrics before throughputs, each metric's statistics together, in Metric::ALL order.
        let at = |c: &str| header.iter().position(|h| *h == c).unwrap();
        assert!(at("ttft_p99_ms") < at("tpot_mean_ms"));
        assert!(at("ttft_median_ms") < at("ttft_p50_ms"));
        assert!(at("e2e_p99_ms") < at("output_tok_s"));
        // No file gives a TTST or output lengths: no such columns.
        assert!(!header.iter().any(|h| h.starts_with("ttst_")), "{header:?}");
        assert!(!header.iter().any(|h| h.starts_with("output_len_")));
        assert_eq!(rows_by_name(&text).len(), fixture_runs().len());
    }

    #[test]
    fn runs_csv_cells_are_full_precision_and_empty_when_missing() {
        let rows = rows_by_name(&runs_csv(&fixture_runs()));
        let first = &rows[0];
        assert_eq!(first["file"], "tidy-csv/engines.csv");
        assert_eq!(first["location"], "7");
        assert_eq!(first["producer"], "tidy_csv");
        assert_eq!(
            (first["config"].as_str(), first["engine"].as_str()),
            ("tp=1", "vllm")
        );
        assert_eq!(first["load_kind"], "concurrency");
        assert_eq!(first["load_value"], "1");
        // Seconds and microseconds in the file, milliseconds here, in full precision.
        assert_eq!(first["ttft_p50_ms"], "81");
        assert_eq!(first["tpot_median_ms"], "15.25");
        // The tidy CSV has no mean TTFT: an empty cell, never a zero.
        assert_eq!(first["ttft_mean_ms"], "");
        let failed = rows
            .iter()
            .find(|r| r["file"].starts_with("tidy") && r["requests_succeeded"] == "0")
            .expect("the tidy CSV's all-failed row");
        assert_eq!(
            failed["ttft_p99_ms"], "",
            "an all-failed run has no latencies"
        );
        assert_eq!(failed["e2e_mean_ms"], "");
        let infinite = rows
            .iter()
            .find(|r| r["load_value"] == "inf")
            .expect("vLLM's infinite rate");
        assert_eq!(infinite["producer"], "vllm_serve");
        assert_eq!(infinite["location"], "2");
        assert_eq!(infinite["load_kind"], "request_rate");
        let vllm = rows.iter().find(|r| r["load_value"] == "5").unwrap();
        assert_eq!(vllm["model"], "meta-llama/Llama-3.1-8B-Instruct");
        assert_eq!(vllm["e2e_p99_ms"], "1440.5");
        assert_eq!(vllm["requests_total"], "100");
    }

    #[test]
    fn runs_csv_quotes_text_and_has_a_header_without_runs() {
        let mut runs = fixture_runs();
        runs.truncate(1);
        runs[0].config.label = Some("vllm, \"tuned\"".into());
        let text = runs_csv(&runs);
        assert!(text.contains(",\"vllm, \"\"tuned\"\"\","), "{text}");
        assert_eq!(rows_by_name(&text)[0]["config"], "vllm, \"tuned\"");
        let empty = runs_csv(&[]);
        assert_eq!(empty.lines().count(), 1);
        assert!(empty.starts_with("file,location,producer,"));
    }
}
