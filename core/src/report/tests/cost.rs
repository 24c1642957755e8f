//! Prices in front matter: the seed blog's configurations at their stated example prices give the
//! dollars per million tokens computed by hand, and a configuration without a price has no cost.

use super::decision::production;
use super::*;

/// The value of `chart`'s series named `series` at x.
fn y_at(page: &ReportPage, chart: &str, series: &str, x: f64) -> Option<f64> {
    let chart = page.charts().find(|c| c.id == chart).unwrap();
    let series = chart.series.iter().find(|s| s.name == series).unwrap();
    series.points.iter().find(|p| p.x == x).and_then(|p| p.y)
}

#[test]
fn the_seed_blogs_example_prices_give_the_cost_per_million_tokens_computed_by_hand() {
    let page = production();
    assert_eq!(page_errors(&page), Vec::<String>::new());
    // $/h × 10⁶ / (3600 × output tok/s), with the throughputs of the ShareGPT runs' CSVs.
    for (series, concurrency, dollars) in [
        // One A10G at $1.418/h, 320.54 tok/s.
        (
            "Qwen2.5-7B, ShareGPT run",
            64.0,
            1.418e6 / (3600.0 * 320.54),
        ),
        // Four A10Gs at $1.418/h each, 336.44 tok/s.
        (
            "DeepSeek-V2-Lite disaggregated, ShareGPT run",
            64.0,
            5.672e6 / (3600.0 * 336.44),
        ),
        // Modal at $0.000306/s, 26.17 tok/s.
        ("LLaMA 3.1-8B + LMCache (Modal)", 4.0, 0.000306e6 / 26.17),
    ] {
        let cost = y_at(&page, "cost-per-million", series, concurrency).unwrap();
        assert!(
            (cost - dollars).abs() < 1e-9,
            "{series}: {cost} against {dollars}"
        );
    }
    // 1.23 and 4.68 dollars, 11.69 for LLaMA: the figures the narrative quotes.
    let html = page.prose_html();
    for figure in ["1.23", "4.68", "11.69"] {
        assert!(html.contains(figure), "{figure} is not on the page");
    }
    let chart = page.charts().find(|c| c.id == "cost-per-million").unwrap();
    assert_eq!(chart.y.unit, "$/1M tok");
}

#[test]
fn without_a_price_there_is_no_cost_and_a_bad_price_names_its_configuration() {
    let text = "---\ntitle: T\nresults: [\"vllm/*\"]\nconfigs:\n  - key: vllm\n    price: {gpu_hour: -2}\n---\n\n`=value(cost_per_1m_output, vllm, 1)`\n";
    let results = [import(
        "vllm/llama-appended.jsonl",
        &crate::fixtures::bytes("vllm/llama-appended.jsonl"),
    )];
    let page = build_report("reports/r.md", "r", text, &results, &Palette::new());
    let errors = page_errors(&page);
    assert!(
        errors
            .iter()
            .any(|e| e.contains("`price` of configuration `vllm`: `gpu_hour: -2` is not a price")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|e| e.contains("does not report Cost per 1M output tokens (cost needs a `price:`")),
        "the inline value has nothing to show: {errors:?}"
    );
}

#[test]
fn the_seed_blogs_page_lets_its_reader_reprice_every_cost_figure() {
    use crate::cost::{PricedValues, RateUnit, Repricing};
    let page = production();
    let sheet = page.prices.as_ref().expect("the priced configurations");
    let stated: Vec<_> = sheet
        .configs
        .iter()
        .map(|c| (c.key.as_str(), c.rate, c.per, c.gpus))
        .collect();
    assert_eq!(
        stated,
        [
            ("llama-lmcache", 0.000306, RateUnit::Second, 1),
            ("qwen-rayserve-sharegpt", 1.418, RateUnit::GpuHour, 1),
            ("deepseek-disagg-sharegpt", 1.418, RateUnit::GpuHour, 4),
        ]
    );
    // The cost chart, each series with its configuration (and no other chart: the per-GPU
    // frontier needs a GPU count, not a price).
    let charts: Vec<_> = sheet.charts.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(charts, ["cost-per-million"]);
    let priced = &sheet.charts[0];
    assert_eq!(priced.on, PricedValues::Y);
    assert_eq!(
        priced.keys,
        [
            "qwen-rayserve-sharegpt",
            "deepseek-disagg-sharegpt",
            "llama-lmcache"
        ]
    );
    // Qwen at $2.836 a GPU-hour instead of $1.418: its cost doubles, the others stay.
    let spec = page.charts().find(|c| c.id == "cost-per-million").unwrap();
    let repriced = Repricing::new(sheet, &[0.000306, 2.836, 1.418]).chart(spec, priced);
    let at_64 = |s: &crate::chart::ChartSpec, i: usize| {
        s.series[i]
            .points
            .iter()
            .find(|p| p.x == 64.0)
            .and_then(|p| p.y)
    };
    assert!((at_64(&repriced, 0).unwrap() - 2.0 * at_64(spec, 0).unwrap()).abs() < 1e-12);
    assert_eq!(at_64(&repriced, 1), at_64(spec, 1));
    // The narrative's cost figures carry their configuration and exact value for the page.
    let qwen = 1.418e6 / (3600.0 * 320.54);
    let marked = format!(
        "<span data-price=\"qwen-rayserve-sharegpt\" data-usd=\"{qwen}\" \
         data-unit=\"$ per million output tokens\">$1.23 per million output tokens</span>"
    );
    assert!(
        page.prose_html().contains(&marked),
        "no {marked} in the prose"
    );
    // A comparison of two costs carries both sides, to be computed again at the reader's rates.
    let deepseek = at_64(spec, 1).unwrap();
    let compared = format!(
        "<span data-compare=\"ratio\" data-price-a=\"deepseek-disagg-sharegpt\" \
         data-value-a=\"{deepseek}\" data-price-b=\"qwen-rayserve-sharegpt\" \
         data-value-b=\"{qwen}\">3.81x</span>"
    );
    assert!(
        page.prose_html().contains(&compared),
        "no {compared} in the prose"
    );
    // A head-to-head of costs says which is cheaper (not "faster"), marked for the page to
    // judge again at the reader's rates, its figures with the table's two decimals.
    let html = page.prose_html();
    for part in [
        "<figure class=\"data-table head-to-head\" data-versus=\"cost\">",
        "<th scope=\"col\">Cheapest</th><th scope=\"col\">Cheaper by (%)</th>",
        "data-unit=\"$/1M tok\" data-decimals=\"2\">$1.23/1M tok</span></td>",
        "<td>Qwen2.5-7B, ShareGPT run</td><td>73.76%</td>",
    ] {
        assert!(html.contains(part), "no {part} in the prose");
    }
}

#[test]
fn a_priced_run_shares_its_requests_with_the_imported_one() {
    use crate::fixtures::simulated;
    let imported = simulated::run("vllm", "a.json", vec![10.0, 20.0, 30.0]);
    let unpriced = simulated::run("sglang", "b.json", vec![11.0, 21.0]);
    let text = "---\ntitle: T\nconfigs:\n  - key: vllm\n    price: {gpu_hour: 2}\n---\n";
    let (front, _, _) = parse_front_matter("r.md", text).unwrap();
    let mut problems = Vec::new();
    let priced = priced_runs("r.md", &front, &[&imported, &unpriced], &mut problems);
    assert!(problems.is_empty(), "{problems:?}");
    assert!(priced[0].price.is_some());
    assert!(priced[1].price.is_none());
    let (copied, original) = (priced[0].samples.as_ref(), imported.samples.as_ref());
    assert!(std::sync::Arc::ptr_eq(copied.unwrap(), original.unwrap()));
}

#[test]
fn a_gpu_hour_price_without_gpus_is_charged_for_the_gpus_the_results_name() {
    // Four A10Gs by the results' hardware, priced per GPU-hour: four GPU-hours an hour.
    let data = "\
# benchdeck: load=concurrency:users, config=engine, config.hardware=\"4x A10G\", output_tok_s=tok_s
users,engine,tok_s
8,vllm,1000
";
    let results = vec![import("four.csv", data.as_bytes())];
    assert_eq!(results[0].problems, vec![], "the fixture imports cleanly");
    let text = "---\ntitle: T\nresults: [four.csv]\nconfigs:\n  - key: vllm\n    price: {gpu_hour: 2.0}\n---\n\n`=value(cost_per_1m_output, vllm, 8)`\n";
    let page = build_report("reports/r.md", "r", text, &results, &Palette::new());
    assert_eq!(page_errors(&page), Vec::<String>::new());
    // $8/h × 10⁶ / (3600 × 1000 tok/s) = $2.22, not the $0.56 of one GPU.
    assert!(page.prose_html().contains("$2.22"), "{}", page.prose_html());
}

#[test]
fn runs_naming_different_gpu_counts_are_charged_alike_and_said_to_differ() {
    let data = "\
# benchdeck: load=concurrency:users, config=engine, config=hardware, output_tok_s=tok_s
users,engine,hardware,tok_s
8,vllm,4x A10G,1000
16,vllm,8x A10G,1500
";
    let results = vec![import("mixed.csv", data.as_bytes())];
    let text = "---\ntitle: T\nresults: [mixed.csv]\nconfigs:\n  - key: vllm\n    price: {gpu_hour: 2.0}\n---\n\n`=value(cost_per_1m_output, vllm, 16)`\n";
    let page = build_report("reports/r.md", "r", text, &results, &Palette::new());
    let problems: Vec<String> = page.problems.iter().map(|p| p.to_string()).collect();
    assert!(
        problems.iter().any(|p| p.contains(
            "its runs name 4 GPUs and also 8: every run is charged for 4; state `gpus` to say"
        )),
        "{problems:?}"
    );
    // $8/h × 10⁶ / (3600 × 1500 tok/s) = $1.48.
    assert!(page.prose_html().contains("$1.48"), "{}", page.prose_html());
}
