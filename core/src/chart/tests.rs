//! Chart tests: grouped bars here; every other kind, robustness and frames in `tests/`.

use super::*;
use plotters::prelude::IntoDrawingArea;

fn two_engines() -> ChartSpec {
    let point = |x: f64, y: Option<f64>| Point {
        x,
        y,
        source: format!("r.jsonl:{}", x as u32 + 1),
        note: String::new(),
        ..Point::default()
    };
    ChartSpec {
        id: "mean-ttft".into(),
        title: "Mean TTFT by request rate".into(),
        caption: "Mean TTFT at each request rate.".into(),
        kind: ChartKind::GroupedBars {
            categories: vec!["1".into(), "10".into(), "∞".into()],
        },
        x: Axis::new("Request rate (req/s)", ""),
        y: Axis::new("Mean TTFT", "ms"),
        series: vec![
            Series {
                name: "vLLM".into(),
                color: 0,
                points: vec![
                    point(0.0, Some(45.04)),
                    point(1.0, Some(56.9)),
                    point(2.0, Some(18107.32)),
                ],
            },
            Series {
                name: "SGLang".into(),
                color: 1,
                points: vec![
                    point(0.0, Some(64.88)),
                    point(1.0, None),
                    point(2.0, Some(17419.66)),
                ],
            },
        ],
        annotations: Vec::new(),
        alternatives: Vec::new(),
    }
}

#[test]
fn grouped_bars_svg_snapshot() {
    let svg = to_svg(&two_engines(), (640, 360), &DrawOptions::default()).unwrap();
    assert!(svg.contains("Mean TTFT by request rate"));
    assert!(svg.contains("18,107"), "values carry thousands separators");
    insta::assert_snapshot!("grouped_bars_light", svg);
}

#[test]
fn svg_text_has_the_size_the_drawing_asked_for() {
    // The title is drawn at 16 px (`header.rs`) and the tick labels at 12 px, as on a canvas;
    // plotters' SVG backend alone would write 12.9 and 9.68.
    let svg = to_svg(&two_engines(), (640, 360), &DrawOptions::default()).unwrap();
    let sizes: std::collections::BTreeSet<String> = svg
        .split("font-size=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next().map(String::from))
        .collect();
    assert!(sizes.contains("16") && sizes.contains("12"), "{sizes:?}");
    assert!(!sizes.iter().any(|s| s.contains("9.67")), "{sizes:?}");
    assert_eq!(
        super::draw::text_at_drawn_size("a font-size=\"x\" b"),
        "a font-size=\"x\" b"
    );
}

/// Six load points of two engines with the values `value(series, point)`.
fn six_load_points(value: impl Fn(usize, usize) -> f64) -> ChartSpec {
    let mut spec = two_engines();
    let categories = ["1", "10", "20", "30", "35", "∞"]
        .map(String::from)
        .to_vec();
    spec.kind = ChartKind::GroupedBars { categories };
    for (s, series) in spec.series.iter_mut().enumerate() {
        series.points = (0..6)
            .map(|i| Point {
                x: i as f64,
                y: Some(value(s, i)),
                ..Point::default()
            })
            .collect();
    }
    spec
}

/// The texts of an SVG document, trimmed.
fn svg_texts(svg: &str) -> Vec<&str> {
    svg.split("</text>")
        .filter_map(|t| t.rsplit('>').next().map(str::trim))
        .collect()
}

/// The values of `spec` written in its SVG drawing at `width`: how many, and how many of them
/// turned to read upwards.
fn bar_values_shown(spec: &ChartSpec, width: u32) -> (usize, usize) {
    let svg = to_svg(spec, (width, 260), &DrawOptions::default()).unwrap();
    let values: Vec<String> = spec
        .series
        .iter()
        .flat_map(|s| &s.points)
        .map(|p| crate::format::number(p.y.unwrap()))
        .collect();
    let written: Vec<&str> = svg
        .split("</text>")
        .filter(|t| {
            let text = t.rsplit('>').next().map_or("", str::trim);
            values.iter().any(|v| v == text)
        })
        .collect();
    let upright = written.iter().filter(|t| t.contains("rotate(270")).count();
    (written.len(), upright)
}

#[test]
fn bar_values_show_when_they_fit_between_bars() {
    // Values of three digits: at 480 px the bars are 26 px apart and "919" is 20 px wide, so
    // they are written across; at 360 px the bars are 18 px apart, room for a line of text
    // turned upright; at 240 px not even that.
    let spec = six_load_points(|s, i| 512.0 + (s * 6 + i) as f64 * 37.0);
    assert_eq!(
        bar_values_shown(&spec, 480),
        (12, 0),
        "every value, or none, so that a reader can compare"
    );
    assert_eq!(bar_values_shown(&spec, 360), (12, 12));
    assert_eq!(bar_values_shown(&spec, 240), (0, 0));
}

#[test]
fn upright_bar_values_take_at_most_a_fifth_of_the_plot() {
    // "1,234,568" turned upright would reach higher than a fifth of a plot about 170 px high.
    let spec = six_load_points(|s, i| 1_234_567.0 + (s * 6 + i) as f64 * 1_000.0);
    assert_eq!(bar_values_shown(&spec, 360), (0, 0));
    let svg = to_svg(&spec, (360, 700), &DrawOptions::default()).unwrap();
    assert_eq!(
        svg.matches("rotate(270").count(),
        12 + 1,
        "the values and the y title"
    );
}

#[test]
fn a_guide_line_passes_behind_the_bar_values() {
    // Every bar is 100 and the SLA at 103 runs through the values written above them.
    let mut spec = six_load_points(|_, _| 100.0);
    let plain = to_svg(&spec, (960, 460), &DrawOptions::default()).unwrap();
    spec.annotations.push(Annotation::Threshold {
        axis: AxisName::Y,
        value: 103.0,
        label: "SLA 103".into(),
    });
    let svg = to_svg(&spec, (960, 460), &DrawOptions::default()).unwrap();
    let backdrop = "opacity=\"0.85\" fill=\"#FFFFFF\"";
    let backdrops = |svg: &str| svg.matches(backdrop).count();
    assert_eq!(backdrops(&plain), 0, "no line, no backdrop");
    assert_eq!(
        backdrops(&svg),
        13,
        "one behind each value, and one behind the line's label"
    );
    // The values' drawn after the line, so that they cover it.
    let line = svg.find("SLA 103").unwrap();
    assert!(svg.rfind(backdrop).unwrap() > line);
    assert_eq!(
        svg_texts(&svg).iter().filter(|t| **t == "100").count(),
        12 + 1,
        "the twelve values and the axis' tick"
    );
}

#[test]
fn bar_values_lose_decimals_before_they_go() {
    // A success rate: "50.75" does not fit between bars 26 px apart, "51" does.
    let spec = six_load_points(|_, i| if i == 5 { 50.75 } else { 100.0 });
    let svg = to_svg(&spec, (480, 260), &DrawOptions::default()).unwrap();
    let texts = svg_texts(&svg);
    assert_eq!(texts.iter().filter(|t| **t == "51").count(), 2, "{texts:?}");
    assert!(!texts.contains(&"50.75") && !texts.contains(&"50.8"));
    let wide = to_svg(&spec, (960, 460), &DrawOptions::default()).unwrap();
    assert_eq!(
        svg_texts(&wide).iter().filter(|t| **t == "50.75").count(),
        2
    );
}

#[test]
fn dark_theme_and_hidden_series() {
    let options = DrawOptions {
        theme: Theme::named(ThemeName::Dark),
        hidden: 0b10,
        ..DrawOptions::default()
    };
    let svg = to_svg(&two_engines(), (640, 360), &options).unwrap();
    // The hidden series keeps its legend entry (to be shown again) but draws no values.
    assert!(svg.contains("SGLang"));
    assert!(!svg.contains("17,420"));
    insta::assert_snapshot!("grouped_bars_dark_hidden", svg);
}

#[test]
fn frame_targets_every_point_and_finds_the_nearest() {
    let mut out = String::new();
    let frame = {
        let root = plotters_svg::SVGBackend::with_string(&mut out, (640, 360)).into_drawing_area();
        draw(&root, &two_engines(), &DrawOptions::default()).unwrap()
    };
    assert_eq!(frame.targets.len(), 6);
    let t = frame.targets[2];
    assert_eq!(frame.nearest(t.x + 3, t.y - 2, 10), Some(t));
    assert_eq!(frame.nearest(-100, -100, 10), None);
    // Bars of the taller series stand higher (smaller y pixel).
    assert!(frame.targets[2].y < frame.targets[0].y);
}

#[test]
fn empty_specs_are_an_error_not_a_blank_chart() {
    let mut spec = two_engines();
    spec.series.clear();
    let err = to_svg(&spec, (200, 100), &DrawOptions::default()).unwrap_err();
    assert_eq!(err.to_string(), "chart `mean-ttft` has no data to draw");
}

#[test]
fn nice_ceilings() {
    assert_eq!(nice_ceiling(18107.32), 20000.0);
    assert_eq!(nice_ceiling(45.0), 50.0);
    assert_eq!(nice_ceiling(100.0), 120.0);
    assert_eq!(nice_ceiling(0.0), 1.0);
    assert_eq!(nice_ceiling(f64::NAN), 1.0);
    assert_eq!(nice_ceiling(7.3), 8.0);
}

mod failures;
pub(super) mod fixtures;
mod frames;
mod kinds;
mod robust;
mod zoomed;
