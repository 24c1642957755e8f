//! A chart's view switches: the statistic shown (when the chart has alternatives), the log
//! scale (lines, scatter plots, trends) and a CDF's SLA slider with the share of requests at or
//! below it. Only with JavaScript: the build's drawing shows the default view.

use benchdeck_core::chart::{ChartKind, ChartSpec, Scale};
use benchdeck_core::export;
use leptos::prelude::*;

use crate::components::handler;

/// The statistic switch (when the chart has alternatives) and the log-scale switch (for lines
/// and scatter plots).
#[component]
pub(super) fn ViewControls(
    base: StoredValue<ChartSpec>,
    choice: RwSignal<Option<usize>>,
    y_scale: RwSignal<Scale>,
) -> impl IntoView {
    let (labels, scalable) = base.with_value(|s| {
        (
            s.alternatives
                .iter()
                .map(|a| a.label.clone())
                .collect::<Vec<_>>(),
            matches!(
                s.kind,
                ChartKind::Lines | ChartKind::Scatter | ChartKind::Trend { .. }
            ),
        )
    });
    if labels.is_empty() && !scalable {
        return None;
    }
    let on_choice = move |ev: leptos::ev::Event| {
        let index = event_target_value(&ev).parse::<usize>().ok();
        choice.set(index);
    };
    let on_log = move |ev: leptos::ev::Event| {
        let checked = event_target_checked(&ev);
        y_scale.set(if checked { Scale::Log } else { Scale::Linear });
    };
    Some(view! {
        <div class="chart-controls js-only">
            {(!labels.is_empty()).then(|| view! {
                <label>
                    "Statistic "
                    <select class="stat-select" on:change=handler(on_choice)>
                        {labels.into_iter().enumerate().map(|(i, label)| view! {
                            <option value=i.to_string() selected=move || choice.get() == Some(i)>{label}</option>
                        }).collect_view()}
                    </select>
                </label>
            })}
            {scalable.then(|| view! {
                <label>
                    <input type="checkbox" class="log-toggle" checked=y_scale.get_untracked() == Scale::Log prop:checked=move || y_scale.get() == Scale::Log on:change=handler(on_log)/>
                    " Log scale"
                </label>
            })}
        </div>
    })
}

/// The SLA slider of a CDF and what share of each series' requests is at or below it.
#[component]
pub(super) fn SlaControl(
    base: StoredValue<ChartSpec>,
    spec: Memo<ChartSpec>,
    sla: RwSignal<Option<f64>>,
) -> impl IntoView {
    let (min, max, unit) = base.with_value(|s| {
        let xs = s
            .series
            .iter()
            .flat_map(|x| &x.points)
            .map(|p| p.x)
            .filter(|x| x.is_finite());
        let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
            (a.min(x), b.max(x))
        });
        (lo, hi, s.x.unit.clone())
    });
    if !(min.is_finite() && max.is_finite() && max > min) {
        return None;
    }
    let step = (max - min) / 500.0;
    let on_input = move |ev: leptos::ev::Event| {
        if let Some(v) = crate::browser::number::parse_f64(&event_target_value(&ev)) {
            sla.set(Some(v));
        }
    };
    let unit_label = unit.clone();
    let readout = move || {
        let Some(x) = sla.get() else {
            return "Move the slider to set an SLA.".to_string();
        };
        let shares: Vec<String> = spec.with(|s| {
            s.series
                .iter()
                .filter_map(|series| {
                    let share = export::cdf_share_at(series, x)?;
                    Some(format!(
                        "{}: {}%",
                        series.name,
                        benchdeck_core::format::fixed(share, 1)
                    ))
                })
                .collect()
        });
        format!(
            "At or below {}: {}",
            benchdeck_core::format::with_unit(x, &unit_label),
            shares.join(" · ")
        )
    };
    Some(view! {
        <div class="sla-control">
            <label class="js-only">
                "SLA "
                <input
                    type="range"
                    class="sla-slider"
                    min=min.to_string()
                    max=max.to_string()
                    step=step.to_string()
                    value=sla.get_untracked().unwrap_or(max).to_string()
                    prop:value=move || sla.get().unwrap_or(max).to_string()
                    aria-label=format!("SLA threshold in {unit}")
                    on:input=handler(on_input)
                />
            </label>
            <p class="sla-readout" role="status" aria-live="polite">{readout}</p>
        </div>
    })
}
