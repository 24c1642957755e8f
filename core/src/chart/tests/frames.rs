//! Frames (hover lookup on 100,000 targets) and the JSON contract of specs.

use super::super::frame::{scan_nearest, TargetIndex};
use super::super::*;
use super::fixtures;

fn scattered(n: usize) -> Vec<Target> {
    let u = fixtures::uniform(42, n * 2);
    u.chunks(2)
        .enumerate()
        .map(|(i, c)| Target {
            series: i % 3,
            point: i,
            x: (c[0] * 1600.0) as i32,
            y: (c[1] * 900.0) as i32,
        })
        .collect()
}

#[test]
fn the_bucket_index_agrees_with_a_scan() {
    let targets = scattered(100_000);
    let frame = Frame::new(targets.clone());
    let queries = fixtures::uniform(7, 4_000);
    for q in queries.chunks(2) {
        let (x, y) = ((q[0] * 1700.0) as i32 - 50, (q[1] * 1000.0) as i32 - 50);
        for radius in [0, 3, 12] {
            assert_eq!(
                frame.nearest(x, y, radius),
                scan_nearest(&targets, x, y, radius),
                "({x}, {y}) r={radius}"
            );
        }
    }
}

#[test]
fn a_prepared_frame_has_its_index_and_answers_as_before() {
    let targets = scattered(10_000);
    let frame = Frame::new(targets.clone());
    assert!(frame.index.get().is_none(), "built lazily");
    frame.prepare_lookup();
    assert_eq!(frame.index.get().map(|i| i.len), Some(10_000));
    assert_eq!(
        frame.nearest(800, 450, 12),
        scan_nearest(&targets, 800, 450, 12)
    );
    let small = Frame::new(scattered(10));
    small.prepare_lookup();
    assert!(
        small.index.get().is_none(),
        "a few targets are scanned, never indexed"
    );
}

#[test]
fn the_bucket_index_looks_at_a_few_targets_not_all() {
    let targets = scattered(100_000);
    let index = TargetIndex::build(&targets);
    let mut looked = 0;
    for q in fixtures::uniform(9, 2_000).chunks(2) {
        let (_, n) = index.nearest(&targets, (q[0] * 1600.0) as i32, (q[1] * 900.0) as i32, 12);
        looked += n;
    }
    // About 70 targets per 16-pixel cell and 4 cells per query; a scan would look at 100,000.
    assert!(looked / 1_000 < 1_000, "{} per query", looked / 1_000);
}

#[test]
fn ties_go_to_the_target_drawn_first_and_edits_fall_back_to_a_scan() {
    let mut targets = scattered(1_000);
    targets.push(Target {
        series: 9,
        point: 0,
        x: 5000,
        y: 5000,
    });
    targets.push(Target {
        series: 9,
        point: 1,
        x: 5000,
        y: 5000,
    });
    let mut frame = Frame::new(targets);
    assert_eq!(frame.nearest(5001, 5000, 4).map(|t| t.point), Some(0));
    frame.targets.push(Target {
        series: 9,
        point: 2,
        x: 7000,
        y: 7000,
    });
    assert_eq!(frame.nearest(7000, 7000, 1).map(|t| t.point), Some(2));
    assert_eq!(Frame::default().nearest(0, 0, 100), None);
    // Far-flung targets still index (the cells grow).
    let far = Frame::new(
        (0..600)
            .map(|i| Target {
                series: 0,
                point: i,
                x: i as i32 * 3_000_000,
                y: -(i as i32) * 3_000_000,
            })
            .collect(),
    );
    assert_eq!(
        far.nearest(9_000_000, -9_000_000, 2).map(|t| t.point),
        Some(3)
    );
}

#[test]
fn specs_without_the_new_fields_still_read() {
    let old = r#"{"id":"a","title":"T","kind":{"grouped_bars":{"categories":["1"]}},
        "x":{"title":"Rate"},"y":{"title":"TTFT","unit":"ms"},
        "series":[{"name":"v","color":0,"points":[{"x":0.0,"y":45.0,"source":"f:1"}]}]}"#;
    let spec: ChartSpec = serde_json::from_str(old).unwrap();
    assert!(spec.annotations.is_empty());
    assert_eq!(spec.y.scale, Scale::Linear);
    assert_eq!(spec.series[0].points[0].lo, None);
}

#[test]
fn every_kind_round_trips_through_json() {
    for spec in fixtures::every_kind() {
        // serde_json reads floats to within an ulp, so compare from the first reading on.
        let first: ChartSpec =
            serde_json::from_str(&serde_json::to_string(&spec).unwrap()).unwrap();
        let json = serde_json::to_string(&first).unwrap();
        let back: ChartSpec = serde_json::from_str(&json).unwrap();
        assert_eq!(back, first, "{}", spec.id);
        assert_eq!(back.series.len(), spec.series.len());
    }
    let json = serde_json::to_value(fixtures::lines()).unwrap();
    assert_eq!(json["kind"], serde_json::json!("lines"));
    // An infinite request rate survives JSON (serde_json would write null).
    assert_eq!(json["series"][0]["points"][5]["x"], "inf");
    let back: ChartSpec = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back.series[0].points[5].x, f64::INFINITY);
    assert_eq!(json["series"][0]["points"][0]["lo"], 36.0);
    assert_eq!(
        json["annotations"][0],
        serde_json::json!({"threshold": {"axis": "y", "value": 500.0, "label": "SLA 500 ms"}})
    );
    let json = serde_json::to_value(fixtures::hbars()).unwrap();
    assert_eq!(json["kind"]["hbars"]["metrics"][0]["better"], "lower");
    let json = serde_json::to_value(fixtures::boxes()).unwrap();
    assert!(
        json["kind"] == "box" || json["kind"].get("box").is_some(),
        "{}",
        json["kind"]
    );
    assert!(json["series"][0]["points"][0]["summary"]["q1"].is_number());
}

#[test]
fn index_kinds_label_their_x() {
    let kind = ChartKind::Histogram {
        edges: vec![0.0, 50.0, 100.0],
    };
    assert_eq!(kind.x_label(1.0).as_deref(), Some("50–100"));
    assert_eq!(kind.x_label(2.0), None);
    assert_eq!(
        fixtures::hbars().kind.x_label(1.0).as_deref(),
        Some("Output throughput")
    );
    assert_eq!(fixtures::boxes().kind.x_label(2.0).as_deref(), Some("∞"));
    assert_eq!(ChartKind::Lines.x_label(1.0), None);
    assert_eq!(fixtures::boxes().kind.x_label(f64::NAN), None);
}
