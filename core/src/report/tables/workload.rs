//! A head-to-head's `workload:` columns: what each row's runs sent, beside its load, as seed
//! 002's tables give `num_prompts` (120 … 4,200) beside each request rate. `requests` is the
//! prompts a run sent, `completed` those that succeeded; the workload's other aspects
//! (`dataset`, `input_length`, `output_length`, `burstiness`, `tokenizer`) as
//! [`Aspect`](crate::model::differences::Aspect) writes them. One value where both runs agree, "A /
//! B" where they differ. The cells carry `class="workload"`, so the reader's price editor,
//! which reads a row's two figures and its verdict, passes them by
//! (`app/src/components/prices.rs`).

use super::super::values::escape;
use crate::format;
use crate::model::differences::Aspect;
use crate::model::Run;

/// One column.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Column {
    /// An aspect of the workload (`requests` is [`Aspect::Prompts`]).
    Aspect(Aspect),
    /// Requests that completed successfully.
    Completed,
}

impl Column {
    fn parse(name: &str) -> Result<Column, String> {
        Ok(match name.trim() {
            "requests" | "prompts" => Column::Aspect(Aspect::Prompts),
            "completed" => Column::Completed,
            "dataset" => Column::Aspect(Aspect::Dataset),
            "input_length" => Column::Aspect(Aspect::InputLength),
            "output_length" => Column::Aspect(Aspect::OutputLength),
            "burstiness" => Column::Aspect(Aspect::Burstiness),
            "tokenizer" => Column::Aspect(Aspect::Tokenizer),
            other => {
                return Err(format!(
                    "`workload: {other}`: expected requests, completed, dataset, input_length, \
                     output_length, burstiness or tokenizer"
                ))
            }
        })
    }

    fn title(self) -> String {
        match self {
            Column::Aspect(Aspect::Prompts) => "Prompts".to_string(),
            Column::Completed => "Completed".to_string(),
            Column::Aspect(a) => {
                let name = a.name();
                let mut chars = name.chars();
                chars
                    .next()
                    .map(|c| c.to_uppercase().chain(chars).collect())
                    .unwrap_or_default()
            }
        }
    }

    fn of(self, run: &Run) -> Option<String> {
        match self {
            Column::Aspect(a) => a.of(run),
            Column::Completed => run.requests.succeeded.map(|n| format::number(n as f64)),
        }
    }
}

/// The directive's `workload` columns, checked.
pub(super) fn columns(names: Option<&[String]>) -> Result<Vec<Column>, String> {
    names
        .unwrap_or_default()
        .iter()
        .map(|n| Column::parse(n))
        .collect()
}

/// The columns' headers.
pub(super) fn head(columns: &[Column]) -> String {
    columns
        .iter()
        .map(|c| {
            format!(
                "<th scope=\"col\" class=\"workload\">{}</th>",
                escape(&c.title())
            )
        })
        .collect()
}

/// A row's cells: each column's value, one where the two runs agree, `A / B` (titled with the
/// two names) where they differ, `–` where neither file says.
pub(super) fn cells(columns: &[Column], (a, b): (&Run, &Run), names: &[String; 2]) -> String {
    columns
        .iter()
        .map(|c| match (c.of(a), c.of(b)) {
            (Some(x), Some(y)) if x == y => format!("<td class=\"workload\">{}</td>", escape(&x)),
            (None, None) => "<td class=\"workload\">–</td>".to_string(),
            (x, y) => {
                let (x, y) = (x.unwrap_or("–".into()), y.unwrap_or("–".into()));
                format!(
                    "<td class=\"workload\" title=\"{}\">{} / {}</td>",
                    escape(&format!("{}: {x}; {}: {y}", names[0], names[1])),
                    escape(&x),
                    escape(&y)
                )
            }
        })
        .collect()
}
