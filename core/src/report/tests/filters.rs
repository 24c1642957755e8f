//! The filter a report with many configurations offers: their engines, models and hardware as
//! the files state them.

use super::decision::production;
use crate::site::filter::NOT_STATED;

#[test]
fn the_seed_blogs_seven_configurations_can_be_filtered_by_engine_model_and_hardware() {
    let page = production();
    let sheet = page.filters.expect("seven configurations");
    let names: Vec<&str> = sheet.facets.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["Engine", "Model", "Hardware"]);
    assert_eq!(sheet.configs.len(), 7);
    assert_eq!(
        sheet.facets[1].values,
        [
            "Qwen2.5-7B-Instruct",
            "DeepSeek-V2-Lite-Chat",
            "Llama-3.1-8B-Instruct",
            NOT_STATED
        ]
    );
    // Turning off Modal's hardware leaves out the two Modal configurations that state it, by
    // the labels their series and columns carry.
    let off = vec![vec![], vec![], vec!["A10G (Modal)".to_string()]];
    assert_eq!(sheet.hidden(&off), ["LLaMA 3.1-8B + LMCache (Modal)"]);
    let unstated = vec![vec![], vec![NOT_STATED.to_string()], vec![]];
    assert_eq!(sheet.hidden(&unstated), ["Modal vLLM (run of 2026-04-03)"]);
}

#[test]
fn a_report_of_few_configurations_has_no_filter() {
    let page = super::build_report(
        "reports/r.md",
        "r",
        super::REPORT,
        &super::results(),
        &super::Palette::new(),
    );
    assert_eq!(page.filters, None);
}
