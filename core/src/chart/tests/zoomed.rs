//! A reader's zoom: the axes span the box, only the points inside it are targets, nothing is
//! drawn over the axes, and the drawn plot turns pixels back into the data they show.

use super::super::*;
use super::fixtures;
use plotters::prelude::IntoDrawingArea;

/// Draws `spec` as SVG with `zoom`: the SVG and the frame.
fn zoomed(spec: &ChartSpec, zoom: Option<Zoom>) -> (String, Frame) {
    let options = DrawOptions {
        zoom,
        ..DrawOptions::default()
    };
    let mut svg = String::new();
    let frame = {
        let root = plotters_svg::SVGBackend::with_string(&mut svg, (640, 360)).into_drawing_area();
        let frame = draw(&root, spec, &options).unwrap();
        root.present().unwrap();
        frame
    };
    (svg, frame)
}

/// Every coordinate pair of the SVG's paths and polygons.
fn drawn_points(svg: &str) -> Vec<(f64, f64)> {
    svg.split("points=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .flat_map(|list| {
            list.split_whitespace()
                .filter_map(|pair| {
                    let (x, y) = pair.split_once(',')?;
                    Some((x.parse().ok()?, y.parse().ok()?))
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn a_zoomed_line_chart_shows_only_the_box_and_cuts_its_lines_at_the_edges() {
    let spec = fixtures::lines();
    let (_, whole) = zoomed(&spec, None);
    let area = whole.plot.expect("a line chart says where it drew");
    let zoom = Zoom {
        x: (1.5, 5.0),
        y: (40.0, 80.0),
    };
    let (svg, frame) = zoomed(&spec, Some(zoom));
    let plot = frame.plot.unwrap();
    // The points inside the box: vLLM at 2 and 4 (52, 61), SGLang at 2 and 4 (66, 70).
    let mut inside: Vec<(usize, f64)> = frame
        .targets
        .iter()
        .map(|t| (t.series, spec.series[t.series].points[t.point].x))
        .collect();
    inside.sort_by(|a, b| a.partial_cmp(b).unwrap());
    assert_eq!(inside, [(0, 2.0), (0, 4.0), (1, 2.0), (1, 4.0)]);
    assert!(frame.targets.iter().all(|t| plot.contains((t.x, t.y))));
    // No drawn point of a line or band lies outside the plot (the grid and axes are inside
    // its rectangle too; tick marks reach a few pixels out).
    let (l, t, r, b) = plot.rect;
    let outside: Vec<_> = drawn_points(&svg)
        .into_iter()
        .filter(|&(x, y)| {
            x < f64::from(l) - 6.0
                || x > f64::from(r) + 1.0
                || y < f64::from(t) - 1.0
                || y > f64::from(b) + 6.0
        })
        .collect();
    assert_eq!(outside, [], "drawn outside {:?}", plot.rect);
    // The axes span about the box (nice ticks may round it out a little), not the whole data.
    let (x0, y0) = plot.data_at((l, b)).unwrap();
    let (x1, y1) = plot.data_at((r, t)).unwrap();
    assert!(
        (0.5..=1.5).contains(&x0) && (5.0..6.5).contains(&x1),
        "x {x0}..{x1}"
    );
    assert!(
        (20.0..=40.0).contains(&y0) && (80.0..120.0).contains(&y1),
        "y {y0}..{y1}"
    );
    assert_ne!(area, plot);
}

#[test]
fn a_zoomed_scatter_keeps_its_whole_frontier_and_draws_the_points_inside() {
    let spec = fixtures::scatter();
    let (_, whole) = zoomed(&spec, None);
    let area = whole.plot.unwrap();
    let (l, t, r, b) = area.rect;
    let zoom = area
        .zoom_between(
            (l + (r - l) / 4, t + (b - t) / 4),
            ((l + r) / 2, (t + b) / 2),
        )
        .unwrap();
    let (_, frame) = zoomed(&spec, Some(zoom));
    assert!(!frame.targets.is_empty() && frame.targets.len() < whole.targets.len());
    for target in &frame.targets {
        let p = &spec.series[target.series].points[target.point];
        let y = p.y.unwrap();
        assert!(
            (zoom.x.0..=zoom.x.1).contains(&p.x) && (zoom.y.0..=zoom.y.1).contains(&y),
            "({}, {y}) is outside {zoom:?}",
            p.x
        );
    }
}

#[test]
fn kinds_without_numeric_axes_ignore_a_zoom_and_draw_as_before() {
    let zoom = Some(Zoom {
        x: (0.0, 1.0),
        y: (0.0, 1.0),
    });
    for spec in fixtures::every_kind().into_iter().filter(|s| !s.zoomable()) {
        let (svg, _) = zoomed(&spec, None);
        assert_eq!(zoomed(&spec, zoom).0, svg, "{}", spec.id);
    }
}
