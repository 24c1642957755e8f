//! Every kind tolerates empty series, missing and non-finite values, a single point and hidden
//! series: an error for nothing to draw, never a panic or a blank chart.

use super::super::*;
use super::fixtures;
use plotters::prelude::IntoDrawingArea;

fn draw_svg(spec: &ChartSpec, hidden: u64) -> Result<(String, Frame), DrawError> {
    let mut out = String::new();
    let frame = {
        let root = plotters_svg::SVGBackend::with_string(&mut out, (480, 300)).into_drawing_area();
        let options = DrawOptions {
            hidden,
            ..DrawOptions::default()
        };
        let frame = draw(&root, spec, &options)?;
        root.present()?;
        frame
    };
    Ok((out, frame))
}

fn with_points(spec: &ChartSpec, f: impl Fn(usize, &mut Point)) -> ChartSpec {
    let mut spec = spec.clone();
    for s in &mut spec.series {
        for (i, p) in s.points.iter_mut().enumerate() {
            f(i, p);
        }
    }
    spec
}

#[test]
fn no_series_or_no_points_is_empty() {
    for spec in fixtures::every_kind() {
        let mut none = spec.clone();
        none.series.clear();
        assert!(
            matches!(draw_svg(&none, 0), Err(DrawError::Empty(id)) if id == spec.id),
            "{}",
            spec.id
        );
        let mut pointless = spec.clone();
        for s in &mut pointless.series {
            s.points.clear();
        }
        assert!(
            matches!(draw_svg(&pointless, 0), Err(DrawError::Empty(_))),
            "{}",
            spec.id
        );
    }
}

#[test]
fn all_missing_values_are_drawn_as_marked_gaps() {
    for spec in fixtures::every_kind() {
        let missing = with_points(&spec, |_, p| {
            p.y = None;
            p.lo = None;
            p.hi = None;
            p.summary = None;
        });
        let (svg, frame) = draw_svg(&missing, 0).unwrap_or_else(|e| panic!("{}: {e}", spec.id));
        assert!(svg.contains("✕"), "{}: gaps are marked", spec.id);
        assert!(!frame.targets.is_empty(), "{}: gaps have tooltips", spec.id);
    }
}

#[test]
fn nan_and_infinite_values_do_not_panic() {
    let poisons = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -1.0, 0.0, 1e300];
    for spec in fixtures::every_kind() {
        for (k, &poison) in poisons.iter().enumerate() {
            let odd = with_points(&spec, |i, p| {
                if (i + k) % 2 == 0 {
                    p.y = Some(poison);
                    p.lo = Some(poison);
                }
            });
            draw_svg(&odd, 0).unwrap_or_else(|e| panic!("{} with {poison}: {e}", spec.id));
            let odd_x = with_points(&spec, |i, p| {
                if (i + k) % 2 == 0 {
                    p.x = poison;
                }
            });
            draw_svg(&odd_x, 0)
                .unwrap_or_else(|e| panic!("{} with some x = {poison}: {e}", spec.id));
            let all_x = with_points(&spec, |_, p| p.x = poison);
            // Nothing placeable is Empty; anything else draws.
            match draw_svg(&all_x, 0) {
                Ok(_) | Err(DrawError::Empty(_)) => {}
                Err(e) => panic!("{} with x = {poison}: {e}", spec.id),
            }
        }
    }
}

#[test]
fn a_single_point_draws() {
    for spec in fixtures::every_kind() {
        let mut one = spec.clone();
        one.series.truncate(1);
        one.series[0].points.truncate(1);
        let (_, frame) = draw_svg(&one, 0).unwrap_or_else(|e| panic!("{}: {e}", spec.id));
        assert_eq!(frame.targets.len(), 1, "{}", spec.id);
    }
}

#[test]
fn hidden_series_draw_nothing_but_keep_their_legend_entry() {
    for spec in fixtures::every_kind() {
        let (_, all) = draw_svg(&spec, 0).unwrap();
        assert!(all.targets.iter().any(|t| t.series == 1), "{}", spec.id);
        let (svg, some) = draw_svg(&spec, 0b10).unwrap();
        assert!(some.targets.iter().all(|t| t.series == 0), "{}", spec.id);
        assert!(
            svg.contains(&spec.series[1].name),
            "{}: legend kept",
            spec.id
        );
        let (svg, none) = draw_svg(&spec, u64::MAX).unwrap();
        assert!(none.targets.is_empty(), "{}", spec.id);
        assert!(svg.contains(&spec.title), "{}: still a chart", spec.id);
    }
}

#[test]
fn every_drawn_point_has_a_target_inside_the_drawing() {
    for spec in fixtures::every_kind() {
        let (_, frame) = draw_svg(&spec, 0).unwrap();
        let drawn: usize = spec.series.iter().map(|s| s.points.len()).sum();
        assert_eq!(frame.targets.len(), drawn, "{}", spec.id);
        for t in &frame.targets {
            assert!(
                (0..=480).contains(&t.x) && (0..=300).contains(&t.y),
                "{}: {t:?}",
                spec.id
            );
            assert!(spec.series[t.series].points.get(t.point).is_some());
        }
    }
}

#[test]
fn tiny_drawings_do_not_panic() {
    for spec in fixtures::every_kind() {
        for size in [(1, 1), (20, 10), (60, 400)] {
            let mut out = String::new();
            let root = plotters_svg::SVGBackend::with_string(&mut out, size).into_drawing_area();
            draw(&root, &spec, &DrawOptions::default()).unwrap();
        }
    }
}
