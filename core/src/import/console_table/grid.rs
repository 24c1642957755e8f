//! The box tables rich draws (`HEAVY_HEAD`: `┏━┳━┓` / `┃ head ┃` / `┡━╇━┩` / `│ row │` /
//! `└─┴─┘`) under a title line, read back into cells. A cell rich wrapped onto more lines is
//! joined again: a name continues on a line whose other cells are blank (joined with a space),
//! a number on a line whose name is blank (joined without one).

/// One table: its title, its column names and its rows.
#[derive(Debug)]
pub(super) struct Table {
    /// `NVIDIA AIPerf` or `NVIDIA GenAI-Perf`.
    pub tool: String,
    /// `LLM Metrics`, `Error Summary`, …
    pub title: String,
    /// 1-based line of the title.
    pub line: u64,
    /// The header cells, the first one the names' column (`Metric`, `Statistic`, `Code`).
    pub columns: Vec<String>,
    pub rows: Vec<Row>,
    /// Lines of the body that did not have the header's cells: (line, cells found).
    pub ragged: Vec<(u64, usize)>,
    /// 1-based line after the table.
    pub end: u64,
}

/// One row: its first cell and the others, in the header's order.
#[derive(Debug)]
pub(super) struct Row {
    pub line: u64,
    pub name: String,
    pub cells: Vec<String>,
}

/// The tools whose titles open a table.
const TOOLS: [&str; 2] = ["NVIDIA AIPerf", "NVIDIA GenAI-Perf"];

/// `(tool, title)` of a title line: `NVIDIA AIPerf | LLM Metrics`.
pub(super) fn title(line: &str) -> Option<(&'static str, String)> {
    let text = line.trim();
    TOOLS.iter().find_map(|tool| {
        let rest = text.strip_prefix(tool)?.trim_start().strip_prefix('|')?;
        Some((*tool, rest.trim().to_string()))
    })
}

/// Every table of `lines` (ANSI colours already taken off).
pub(super) fn tables(lines: &[String]) -> Vec<Table> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some((tool, name)) = title(&lines[i]) else {
            i += 1;
            continue;
        };
        let top = (i + 1..lines.len().min(i + 4)).find(|&j| lines[j].trim_start().starts_with('┏'));
        match top {
            Some(top) => {
                let table = read_table(lines, i, top, tool, name);
                i = (table.end as usize).saturating_sub(1).max(i + 1);
                out.push(table);
            }
            None => i += 1,
        }
    }
    out
}

/// The cells between the vertical bars of a line (`┃` in the header, `│` in the body).
fn cells(line: &str, bar: char) -> Vec<String> {
    let text = line.trim();
    let inner = text
        .strip_prefix(bar)
        .map(|t| t.strip_suffix(bar).unwrap_or(t))
        .unwrap_or(text);
    inner.split(bar).map(|c| c.trim().to_string()).collect()
}

fn read_table(lines: &[String], title_at: usize, top: usize, tool: &str, title: String) -> Table {
    let mut table = Table {
        tool: tool.to_string(),
        title,
        line: title_at as u64 + 1,
        columns: Vec::new(),
        rows: Vec::new(),
        ragged: Vec::new(),
        end: top as u64 + 1,
    };
    let mut j = top + 1;
    while let Some(line) = lines.get(j).map(|l| l.trim()) {
        if line.starts_with('┃') {
            join_cells(&mut table.columns, cells(line, '┃'), " ");
        } else if !line.starts_with('┡') {
            break;
        }
        j += 1;
    }
    while let Some(line) = lines.get(j).map(|l| l.trim()) {
        if !line.starts_with('│') {
            if line.starts_with('└') {
                j += 1;
            }
            break;
        }
        let found = cells(line, '│');
        if found.len() == table.columns.len() {
            add_row(&mut table.rows, j as u64 + 1, found);
        } else {
            table.ragged.push((j as u64 + 1, found.len()));
        }
        j += 1;
    }
    table.end = j as u64 + 1;
    table
}

/// `into`'s cells continued by `more`'s (the first line of cells when `into` is empty).
fn join_cells(into: &mut Vec<String>, more: Vec<String>, separator: &str) {
    if into.is_empty() {
        *into = more;
        return;
    }
    for (cell, add) in into.iter_mut().zip(more) {
        if add.is_empty() {
            continue;
        }
        if !cell.is_empty() {
            cell.push_str(separator);
        }
        cell.push_str(&add);
    }
}

/// A body line: a new row, or the continuation of the last one's wrapped cells.
fn add_row(rows: &mut Vec<Row>, line: u64, mut found: Vec<String>) {
    let name = found.remove(0);
    let values_blank = found.iter().all(String::is_empty);
    match rows.last_mut() {
        Some(last) if values_blank && !name.is_empty() => {
            last.name.push(' ');
            last.name.push_str(&name);
        }
        Some(last) if name.is_empty() && !values_blank => join_cells(&mut last.cells, found, ""),
        _ if name.is_empty() => {}
        _ => rows.push(Row {
            line,
            name,
            cells: found,
        }),
    }
}
