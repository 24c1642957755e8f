//! One SVG snapshot per kind (light; one dark), with checks of what each must show.

use super::super::*;
use super::fixtures;
use crate::chart::text::estimate_text_width;
use crate::quantity::Better;
use plotters::prelude::IntoDrawingArea;

const SIZE: (u32, u32) = (640, 360);

fn svg(spec: &ChartSpec) -> String {
    to_svg(spec, SIZE, &DrawOptions::default()).unwrap()
}

/// The text elements of an SVG, in order.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            t.split_once('>')
                .and_then(|(_, rest)| rest.split_once("</text>"))
        })
        .map(|(text, _)| text.trim().to_string())
        .collect()
}

#[test]
fn lines_svg_snapshot() {
    let svg = svg(&fixtures::lines());
    let texts = texts(&svg);
    assert!(texts.contains(&"∞".to_string()), "an ∞ tick: {texts:?}");
    assert!(
        texts.contains(&"Mean TTFT (ms)".to_string()),
        "y title with unit"
    );
    assert!(texts.contains(&"Request rate (req/s)".to_string()));
    assert!(
        texts.contains(&"2,000".to_string()),
        "thousands separators: {texts:?}"
    );
    assert!(texts.contains(&"SLA 500 ms".to_string()));
    assert!(texts.contains(&"breaking point".to_string()));
    assert!(texts.contains(&"✕".to_string()), "the failed run is marked");
    assert!(svg.contains("<polygon"), "a band");
    insta::assert_snapshot!("lines_light", svg);
}

#[test]
fn lines_log_svg_snapshot() {
    let svg = svg(&fixtures::lines_log());
    let texts = texts(&svg);
    // Decades on both axes.
    for tick in ["10", "100", "1,000"] {
        assert!(texts.contains(&tick.to_string()), "{tick}: {texts:?}");
    }
    insta::assert_snapshot!("lines_log_light", svg);
}

#[test]
fn scatter_svg_snapshot() {
    let svg = svg(&fixtures::scatter());
    assert!(texts(&svg).contains(&"Output throughput (tok/s)".to_string()));
    insta::assert_snapshot!("scatter_light", svg);
}

#[test]
fn tokens_svg_snapshot() {
    let spec = fixtures::tokens();
    let svg = svg(&spec);
    // Each fitted line is drawn in its series' colour with its slope at its right end.
    assert!(svg.contains("ms/token"), "the slopes are labelled");
    insta::assert_snapshot!("tokens_light", svg);
}

#[test]
fn cdf_svg_snapshot() {
    let spec = fixtures::cdf();
    let svg = svg(&spec);
    let texts = texts(&svg);
    assert!(texts.contains(&"SLA 250 ms".to_string()), "{texts:?}");
    // Each series' share under the SLA, exact (the builder keeps the point at the threshold).
    for (series, samples) in [
        (0, fixtures::latencies(1, 2000, 120.0)),
        (1, fixtures::latencies(2, 1500, 150.0)),
    ] {
        let sorted = crate::analysis::sorted_finite(&samples);
        let share = crate::analysis::share_at_or_below(&sorted, 250.0).unwrap() * 100.0;
        let label = format!(
            "{}: {}",
            spec.series[series].name,
            crate::format::with_unit(share, "%")
        );
        assert!(texts.contains(&label), "{label}: {texts:?}");
    }
    insta::assert_snapshot!("cdf_light", svg);
}

#[test]
fn histogram_svg_snapshot() {
    let svg = svg(&fixtures::histogram());
    assert!(texts(&svg).contains(&"Share of requests (%)".to_string()));
    insta::assert_snapshot!("histogram_light", svg);
}

#[test]
fn box_svg_snapshot() {
    let svg = svg(&fixtures::boxes());
    let texts = texts(&svg);
    assert!(texts.contains(&"10 req/s".to_string()));
    assert!(
        texts.contains(&"✕".to_string()),
        "the missing box is marked"
    );
    insta::assert_snapshot!("box_light", svg);
}

#[test]
fn hbars_svg_snapshot() {
    let svg = svg(&fixtures::hbars());
    let texts = texts(&svg);
    assert!(texts.contains(&"4,313 ms ✓".to_string()), "{texts:?}");
    assert!(texts.contains(&"5,028 ms".to_string()));
    assert!(texts.contains(&"3,120 tok/s ✓".to_string()));
    // Equal values: nothing to beat, no mark.
    assert_eq!(texts.iter().filter(|t| t.as_str() == "100%").count(), 2);
    assert!(texts.contains(&"n/a".to_string()));
    assert!(texts.contains(&"lower is better".to_string()));
    insta::assert_snapshot!("hbars_light", svg);
}

#[test]
fn bars_with_error_bars_and_guide_lines_svg_snapshot() {
    let mut spec = super::two_engines();
    for p in &mut spec.series[0].points {
        if let Some(y) = p.y {
            p.lo = Some(y * 0.8);
            p.hi = Some(y * 1.25);
        }
    }
    spec.annotations.push(Annotation::Threshold {
        axis: AxisName::Y,
        value: 20_000.0,
        label: "SLA 20,000 ms".into(),
    });
    let svg = svg(&spec);
    let texts = texts(&svg);
    assert!(texts.contains(&"SLA 20,000 ms".to_string()), "{texts:?}");
    // The whisker above the tallest bar (18,107 × 1.25) fits under the axis' top.
    assert!(texts.contains(&"25,000".to_string()), "{texts:?}");
    insta::assert_snapshot!("bars_error_bars_light", svg);
}

#[test]
fn stacked_svg_snapshot() {
    let svg = svg(&fixtures::stacked());
    let texts = texts(&svg);
    assert!(
        texts.contains(&"85%".to_string()),
        "the waiting share: {texts:?}"
    );
    assert!(texts.contains(&"15%".to_string()), "the decoding share");
    assert!(texts.contains(&"12,250 ms".to_string()), "the row's total");
    assert!(
        texts.contains(&"900 ms + n/a".to_string()),
        "a missing part is said"
    );
    assert!(texts.contains(&"Week 3".to_string()));
    insta::assert_snapshot!("stacked_light", svg);
}

#[test]
fn hbars_dark_svg_snapshot() {
    let options = DrawOptions {
        theme: Theme::named(ThemeName::Dark),
        ..DrawOptions::default()
    };
    let svg = to_svg(&fixtures::hbars(), SIZE, &options).unwrap();
    assert!(svg.contains("#16181D"), "dark background");
    insta::assert_snapshot!("hbars_dark", svg);
}

#[test]
fn percentile_bars_svg_snapshot() {
    let spec = fixtures::percentiles();
    let ChartKind::GroupedBars { categories } = &spec.kind else {
        panic!("percentile bars are grouped bars")
    };
    assert_eq!(categories, &["p50", "p90", "p95", "p99"]);
    assert_eq!(spec.series[1].points[2].y, None);
    assert_eq!(spec.series[1].points[2].note, "p95 not reported");
    insta::assert_snapshot!("percentile_bars_light", svg(&spec));
}

#[test]
fn grid_svg_snapshot() {
    let mut throughput = fixtures::lines();
    throughput.id = "tput".into();
    throughput.title = "Output throughput".into();
    throughput.y = Axis::new("Output throughput", "tok/s");
    throughput.annotations.clear();
    let specs = vec![
        fixtures::lines(),
        throughput,
        fixtures::percentiles(),
        fixtures::hbars(),
    ];
    let mut out = String::new();
    let frames = {
        let root = plotters_svg::SVGBackend::with_string(&mut out, (960, 640)).into_drawing_area();
        let frames = draw_grid(&root, &specs, 2, &[], &DrawOptions::default()).unwrap();
        root.present().unwrap();
        frames
    };
    assert_eq!(frames.len(), 4);
    // Each panel's targets lie in its quarter.
    for (i, frame) in frames.iter().enumerate() {
        assert!(!frame.targets.is_empty());
        let (col, row) = ((i % 2) as i32, (i / 2) as i32);
        for t in &frame.targets {
            assert!(
                t.x >= col * 480 && t.x < (col + 1) * 480,
                "panel {i}: {t:?}"
            );
            assert!(t.y >= row * 300 && t.y <= 640, "panel {i}: {t:?}");
        }
    }
    // One shared legend: each name once, with the panel titles.
    assert_eq!(
        out.matches(">\nvLLM\n</text>").count(),
        1,
        "one legend entry"
    );
    assert!(out.contains("Output throughput"));
    insta::assert_snapshot!("grid_light", out);
}

#[test]
fn grid_hides_by_legend_entry_and_tolerates_an_empty_panel() {
    let mut empty = fixtures::lines();
    empty.series.clear();
    let specs = vec![fixtures::lines(), empty, fixtures::percentiles()];
    assert_eq!(
        grid_legend(&specs),
        vec![("vLLM".to_string(), 0), ("SGLang".to_string(), 1)]
    );
    let mut out = String::new();
    let frames = {
        let root = plotters_svg::SVGBackend::with_string(&mut out, (900, 600)).into_drawing_area();
        let options = DrawOptions {
            hidden: 0b10,
            ..DrawOptions::default()
        };
        draw_grid(&root, &specs, 2, &[], &options).unwrap()
    };
    assert_eq!(frames.len(), 3);
    assert!(frames[1].targets.is_empty());
    assert!(out.contains("No data to draw"));
    assert!(frames
        .iter()
        .flat_map(|f| &f.targets)
        .all(|t| t.series == 0));
    // Nothing anywhere, or no specs: an error, not a blank drawing.
    let mut out = String::new();
    let root = plotters_svg::SVGBackend::with_string(&mut out, (300, 200)).into_drawing_area();
    let none = vec![specs[1].clone()];
    assert!(matches!(
        draw_grid(&root, &none, 2, &[], &DrawOptions::default()),
        Err(DrawError::Empty(_))
    ));
    assert!(matches!(
        draw_grid(&root, &[], 2, &[], &DrawOptions::default()),
        Err(DrawError::Empty(_))
    ));
}

#[test]
fn scatter_frontier_is_drawn_only_with_better_directions() {
    let with = svg(&fixtures::scatter());
    let mut spec = fixtures::scatter();
    spec.x.better = None;
    let without = svg(&spec);
    // The staircase is one extra path per series.
    assert_eq!(
        with.matches("<polyline").count(),
        without.matches("<polyline").count() + 2
    );
    spec.x.better = Some(Better::Higher);
    assert_eq!(svg(&spec), with);
}

#[test]
fn tick_labels_never_overlap() {
    // Narrow and tall charts of every kind: neighbouring x tick labels do not collide.
    for spec in fixtures::every_kind() {
        for size in [(240, 200), (640, 360), (1200, 300)] {
            let svg = to_svg(&spec, size, &DrawOptions::default()).unwrap();
            let mut spans: Vec<(f64, f64, f64)> = Vec::new();
            for part in svg.split("<text").skip(1) {
                let attr = |name: &str| {
                    part.split(&format!(" {name}=\""))
                        .nth(1)
                        .and_then(|r| r.split('"').next())
                        .and_then(|v| v.parse::<f64>().ok())
                };
                let (Some(x), Some(y)) = (attr("x"), attr("y")) else {
                    continue;
                };
                if !part.contains("text-anchor=\"middle\"") || part.contains("rotate") {
                    continue;
                }
                let text = part.split_once('>').map_or("", |(_, r)| r);
                let text = text.split("</text>").next().unwrap_or("").trim();
                let half = text.chars().count() as f64 * 12.0 * 0.6 / 2.0;
                spans.push((y, x - half, x + half));
            }
            // Every kind with an x axis has tick labels to compare (hbars has no x axis).
            if !matches!(spec.kind, ChartKind::HBars { .. }) {
                assert!(
                    spans.len() >= 2,
                    "{} at {size:?}: {} tick labels found",
                    spec.id,
                    spans.len()
                );
            }
            for (i, a) in spans.iter().enumerate() {
                for b in &spans[i + 1..] {
                    if a.0 == b.0 {
                        assert!(
                            a.2 <= b.1 || b.2 <= a.1,
                            "{} at {size:?}: labels at {a:?} and {b:?} overlap",
                            spec.id
                        );
                    }
                }
            }
        }
    }
}

/// The boxes of an SVG's direct labels (bold names on a backdrop): left, top, right, bottom.
fn direct_label_boxes(svg: &str) -> Vec<(i32, i32, i32, i32)> {
    let attr = |tag: &str, name: &str| -> i32 {
        let from = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        tag[from..].split('"').next().unwrap().parse().unwrap()
    };
    svg.split("<rect")
        .skip(1)
        .filter(|rest| {
            let (tag, after) = rest.split_once("/>").unwrap();
            tag.contains("opacity=\"0.85\"")
                && after.trim_start().starts_with("<text")
                && after
                    .split_once("</text>")
                    .unwrap()
                    .0
                    .contains("font-weight=\"bold\"")
        })
        .map(|rest| {
            let tag = rest.split_once("/>").unwrap().0;
            let (x, y) = (attr(tag, "x"), attr(tag, "y"));
            (x, y, x + attr(tag, "width"), y + attr(tag, "height"))
        })
        .collect()
}

#[test]
fn a_lines_name_hides_no_line_where_there_is_room_for_it() {
    // Two lines rising steeply together to their ends (log-log TTFT): above or below its end,
    // the second name would lie across both.
    let spec = fixtures::lines_log();
    let mut out = String::new();
    let frame = {
        let root = plotters_svg::SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        draw(&root, &spec, &DrawOptions::default()).unwrap()
    };
    let boxes = direct_label_boxes(&out);
    assert_eq!(boxes.len(), 2, "{out}");
    for series in 0..spec.series.len() {
        let mut line: Vec<(i32, i32)> = frame
            .targets
            .iter()
            .filter(|t| t.series == series)
            .map(|t| (t.x, t.y))
            .collect();
        line.sort_by_key(|p| p.0);
        for pair in line.windows(2) {
            let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
            let steps = (x1 - x0).abs().max((y1 - y0).abs()).max(1);
            for i in 0..=steps {
                let x = x0 + (x1 - x0) * i / steps;
                let y = y0 + (y1 - y0) * i / steps;
                for &(l, t, r, b) in &boxes {
                    assert!(
                        !(l < x && x < r && t < y && y < b),
                        "a name's box {:?} hides series {series} at ({x}, {y})",
                        (l, t, r, b)
                    );
                }
            }
        }
    }
}

#[test]
fn each_line_is_named_at_its_end_in_its_colour_where_the_name_fits() {
    let no_legend = DrawOptions {
        legend: false,
        ..DrawOptions::default()
    };
    let names = |spec: &ChartSpec, options: &DrawOptions| {
        let svg = to_svg(spec, SIZE, options).unwrap();
        ["vLLM", "SGLang"].map(|n| svg.matches(&format!(">\n{n}\n</text>")).count())
    };
    let spec = fixtures::lines();
    assert_eq!(names(&spec, &no_legend), [1, 1], "one direct label each");
    let svg = to_svg(&spec, SIZE, &no_legend).unwrap();
    assert!(svg.contains("fill=\"#0072B2\" font-weight=\"bold\">\nvLLM\n</text>"));
    // Small multiples share a legend and leave them out.
    let off = DrawOptions {
        direct_labels: false,
        ..no_legend
    };
    assert_eq!(names(&spec, &off), [0, 0]);
    // A name wider than two fifths of the plot does not fit.
    let mut long = spec.clone();
    long.series[0].name = format!("vLLM {}", "with a very long description ".repeat(3));
    let svg = to_svg(&long, SIZE, &no_legend).unwrap();
    assert!(!svg.contains("with a very long"), "{svg}");
    assert_eq!(names(&long, &no_legend)[1], 1);
    // Two lines ending 2% apart at the top of the plot (seed 002's TTFT tail): no room for the
    // second name above, so it goes below its end.
    let mut together = spec.clone();
    for (series, y) in together.series.iter_mut().zip([1810.0, 1775.0]) {
        *series.points.last_mut().unwrap() = fixtures::point(f64::INFINITY, Some(y));
    }
    for size in [SIZE, (960, 460), (360, 260)] {
        let svg = to_svg(&together, size, &no_legend).unwrap();
        for name in ["vLLM", "SGLang"] {
            assert!(
                svg.contains(&format!(">\n{name}\n</text>")),
                "{name} at {size:?}"
            );
        }
    }
}

#[test]
fn a_long_y_title_never_runs_into_the_legend_on_a_phone() {
    // At a phone's width the legend's rows stand over the plot, left; the turned y title beside
    // the plot is cut to the plot's height rather than run up through them.
    let mut legends = 0;
    for mut spec in fixtures::every_kind() {
        spec.y = Axis::new("Mean end-to-end latency of a request", "ms");
        let svg = to_svg(&spec, narrow_size(&spec), &DrawOptions::default()).unwrap();
        let attr = |part: &str, name: &str| -> Option<f64> {
            part.split(&format!(" {name}=\""))
                .nth(1)?
                .split('"')
                .next()?
                .parse()
                .ok()
        };
        let title = svg
            .split("<text")
            .skip(1)
            .find(|t| t.contains("rotate(270"));
        let Some(title) = title else { continue };
        let text = title[title.find('>').unwrap() + 1..title.find("</text>").unwrap()].trim();
        let half = f64::from(estimate_text_width(text, 13)) / 2.0;
        let middle = attr(title, "y").unwrap();
        for marker in svg.split("<rect").skip(1) {
            let (Some(x), Some(y), Some(10.0)) =
                (attr(marker, "x"), attr(marker, "y"), attr(marker, "width"))
            else {
                continue;
            };
            if x < 30.0 {
                legends += 1;
                assert!(
                    y + 10.0 <= middle - half || y >= middle + half,
                    "chart `{}`: the y title `{text}` spans {:.0}..{:.0}, a legend row {y}..{}",
                    spec.id,
                    middle - half,
                    middle + half,
                    y + 10.0
                );
            }
        }
    }
    assert!(legends > 0, "no chart had a legend row to check");
}
