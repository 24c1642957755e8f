//! The reader's prices: what a page lets them change, and every cost at their rates.

use super::*;
use crate::chart::{Axis, HBarMetric};
use crate::decision::LoadValues;

fn stated(key: &str, rate: f64, per: RateUnit, gpus: u32) -> StatedPrice {
    StatedPrice {
        key: key.into(),
        label: key.to_uppercase(),
        color: 0,
        rate,
        per,
        gpus,
    }
}

fn sheet() -> PriceSheet {
    PriceSheet {
        configs: vec![
            stated("a", 1.5, RateUnit::GpuHour, 4),
            stated("b", 0.0003, RateUnit::Second, 1),
        ],
        charts: Vec::new(),
    }
}

fn series(name: &str, ys: &[f64]) -> Series {
    Series {
        name: name.into(),
        color: 0,
        points: ys
            .iter()
            .enumerate()
            .map(|(i, &y)| Point {
                x: i as f64,
                y: Some(y),
                ..Point::default()
            })
            .collect(),
    }
}

fn cost_lines() -> ChartSpec {
    ChartSpec {
        id: "cost".into(),
        y: Axis::new("Cost per 1M output tokens", COST_UNIT),
        series: vec![
            series("A", &[2.0, 1.0]),
            series("B", &[4.0, 3.0]),
            series("C", &[9.0]),
        ],
        ..ChartSpec::default()
    }
}

fn key_of(name: &str) -> Option<String> {
    ["A", "B"].contains(&name).then(|| name.to_lowercase())
}

#[test]
fn a_stated_rate_is_dollars_per_hour_for_the_whole_deployment() {
    let sheet = sheet();
    let (a, b) = (&sheet.configs[0], &sheet.configs[1]);
    assert_eq!(a.usd_per_hour(1.5), 6.0);
    assert!((b.usd_per_hour(0.0003) - 1.08).abs() < 1e-12);
    assert_eq!(a.per_text(), "per GPU-hour × 4 GPUs");
    let front = PriceFront {
        gpu_hour: Some(1.418),
        per_second: None,
        gpus: None,
        kwh: None,
    };
    let one = StatedPrice::from_front("q", "Q", 3, &front, None).unwrap();
    assert_eq!((one.rate, one.per, one.gpus), (1.418, RateUnit::GpuHour, 1));
}

#[test]
fn a_chart_with_cost_on_an_axis_knows_each_series_configuration() {
    let priced = PricedChart::of(&cost_lines(), key_of).unwrap();
    assert_eq!(priced.on, PricedValues::Y);
    assert_eq!(priced.keys, ["a", "b", ""]);
    let mut scatter = cost_lines();
    std::mem::swap(&mut scatter.x, &mut scatter.y);
    assert_eq!(
        PricedChart::of(&scatter, key_of).unwrap().on,
        PricedValues::X
    );
    let mut latency = cost_lines();
    latency.y = Axis::new("TTFT p99", "ms");
    assert_eq!(PricedChart::of(&latency, key_of), None);
    // A chart of configurations without a price has nothing to re-price.
    assert_eq!(PricedChart::of(&cost_lines(), |_| None), None);
    // A head-to-head chart: only its cost rows.
    let metric = |unit: &str| HBarMetric {
        label: String::new(),
        unit: unit.into(),
        better: crate::quantity::Better::Lower,
    };
    let hbars = ChartSpec {
        kind: ChartKind::HBars {
            metrics: vec![metric("ms"), metric(COST_UNIT)],
        },
        y: Axis::new("Metric", ""),
        ..cost_lines()
    };
    let priced = PricedChart::of(&hbars, key_of).unwrap();
    assert_eq!(priced.on, PricedValues::Rows(vec![1]));
    let doubled = Repricing::new(&sheet(), &[3.0, 0.0003]).chart(&hbars, &priced);
    assert_eq!(
        doubled.series[0].points[0].y,
        Some(2.0),
        "a latency row stays"
    );
    assert_eq!(
        doubled.series[0].points[1].y,
        Some(2.0),
        "the cost row doubles"
    );
}

#[test]
fn the_readers_rates_scale_each_configurations_costs_and_nothing_else() {
    let sheet = sheet();
    let spec = cost_lines();
    let priced = PricedChart::of(&spec, key_of).unwrap();
    // As stated: nothing changes.
    let same = Repricing::new(&sheet, &[1.5, 0.0003]);
    assert!(same.is_identity());
    assert_eq!(same.chart(&spec, &priced), spec);
    // A's rate doubled, B's halved: A's costs double, B's halve, C (no price) stays.
    let r = Repricing::new(&sheet, &[3.0, 0.00015]);
    let out = r.chart(&spec, &priced);
    let ys = |s: &Series| s.points.iter().map(|p| p.y.unwrap()).collect::<Vec<_>>();
    assert_eq!(ys(&out.series[0]), [4.0, 2.0]);
    assert_eq!(ys(&out.series[1]), [2.0, 1.5]);
    assert_eq!(ys(&out.series[2]), [9.0]);
    assert_eq!(
        out.series[0].points[1].x, 1.0,
        "x stays on a y-priced chart"
    );
}

#[test]
fn a_rate_that_is_not_a_positive_number_keeps_the_stated_price() {
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let r = Repricing::new(&sheet(), &[bad, 0.0003]);
        assert!(r.is_identity(), "{bad}");
        assert_eq!(r.factor("a"), 1.0);
    }
}

#[test]
fn the_wizard_ranks_on_costs_at_the_readers_rates() {
    let candidate = |key: &str, cost: f64| Candidate {
        key: key.into(),
        label: key.into(),
        attributes: Default::default(),
        points: vec![LoadValues {
            load: 4.0,
            values: vec![
                (Quantity::CostPerMillionOutput, cost),
                (Quantity::OutputThroughput, 100.0),
            ],
            intervals: vec![
                (Quantity::CostPerMillionOutput, cost * 0.9, cost * 1.1),
                (Quantity::OutputThroughput, 90.0, 110.0),
            ],
        }],
    };
    let candidates = [candidate("a", 2.0), candidate("b", 3.0)];
    let out = Repricing::new(&sheet(), &[4.5, 0.0003]).candidates(&candidates);
    assert_eq!(out[0].points[0].values[0].1, 6.0, "a's rate tripled");
    let interval = out[0].points[0].intervals[0];
    assert!(
        (interval.1 - 5.4).abs() < 1e-12 && (interval.2 - 6.6).abs() < 1e-12,
        "and its interval"
    );
    assert_eq!(
        out[0].points[0].intervals[1],
        (Quantity::OutputThroughput, 90.0, 110.0)
    );
    assert_eq!(
        out[0].points[0].values[1].1, 100.0,
        "a throughput is no cost"
    );
    assert_eq!(out[1], candidates[1]);
}

#[test]
fn an_address_gives_a_rate_only_when_it_is_a_positive_number() {
    assert_eq!(
        stated("vllm", 1.0, RateUnit::GpuHour, 1).address_key(),
        "price.vllm"
    );
    assert_eq!(StatedPrice::rate_from_address(" 2.5 "), Some(2.5));
    for bad in ["0", "-1", "NaN", "inf", "1e999", "", "two"] {
        assert_eq!(StatedPrice::rate_from_address(bad), None, "{bad}");
    }
}
