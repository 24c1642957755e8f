//! Tables of gauges over time: an engine's metrics sampled every second (`time [s],
//! num_requests_running, num_requests_waiting, gpu_cache_usage_perc, …`), `nvidia-smi
//! --query-gpu=timestamp,index,power.draw,utilization.gpu --format=csv` (units in the header and
//! in every value, `N/A` where a GPU reports nothing) and `nvidia-smi dmon` (whitespace or
//! commas, a second header row of units, the header repeated every screenful).
//!
//! Columns are known by name, units in brackets left out. A time column of numbers counts
//! seconds from when the recorder started; one of dates is wall-clock time; without one the
//! samples are taken one a second (dmon's default), and the reader says so.

use jiff::fmt::strtime;

use super::readings::{Measure, Readings, Series};

/// What reading a table gave: its series, notes on what was assumed or missing, and the
/// lines that could not be read (1-based, with what was expected).
#[derive(Debug, Default)]
pub struct Table {
    /// The series read.
    pub readings: Readings,
    /// What a reader should know: an interval assumed, values missing.
    pub notes: Vec<String>,
    /// Lines that could not be read.
    pub bad: Vec<(usize, String)>,
}

/// What a column holds.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Column {
    Time,
    Gpu,
    Uuid,
    Measure(Measure),
    Other,
}

fn column(name: &str) -> Column {
    let name = name.trim().trim_start_matches('#').trim();
    let name = name
        .split('[')
        .next()
        .unwrap_or(name)
        .trim()
        .to_ascii_lowercase();
    let name = name
        .strip_prefix("vllm:")
        .or_else(|| name.strip_prefix("sglang:"))
        .unwrap_or(&name);
    match name {
        "time" | "timestamp" | "time (s)" | "seconds" | "elapsed" | "elapsed_s" | "time_s" => {
            Column::Time
        }
        "index" | "gpu" | "gpu_index" => Column::Gpu,
        "uuid" | "gpu_uuid" => Column::Uuid,
        "power.draw" | "power.draw.instant" | "power.draw.average" | "pwr" | "power_w"
        | "power" => Column::Measure(Measure::PowerW),
        "utilization.gpu" | "sm" | "gpu_util" | "gpu_utilization" => {
            Column::Measure(Measure::GpuUtilPct)
        }
        "num_requests_waiting" | "num_queue_reqs" => Column::Measure(Measure::Waiting),
        "num_requests_running" | "num_running_reqs" => Column::Measure(Measure::Running),
        "gpu_cache_usage_perc" | "kv_cache_usage_perc" | "token_usage" => {
            Column::Measure(Measure::KvCachePct)
        }
        "num_preemptions_total" | "num_preemptions" => Column::Measure(Measure::Preemptions),
        _ => Column::Other,
    }
}

/// The fields of a line: split at commas when the header has them, else at whitespace.
fn fields(line: &str, commas: bool) -> Vec<&str> {
    if commas {
        line.split(',').map(str::trim).collect()
    } else {
        line.split_whitespace().collect()
    }
}

/// The header's columns when `text` is a table of engine or GPU gauges: a known measure, and
/// a time column unless it is a GPU log (which may go without).
fn header(text: &str) -> Option<(usize, Vec<Column>, bool)> {
    let (at, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| !l.trim().is_empty())?;
    let line = line.trim().trim_start_matches('#');
    let commas = line.contains(',');
    let columns: Vec<Column> = fields(line, commas).into_iter().map(column).collect();
    let measures: Vec<Measure> = columns
        .iter()
        .filter_map(|c| match c {
            Column::Measure(m) => Some(*m),
            _ => None,
        })
        .collect();
    let gpu_log = measures
        .iter()
        .any(|m| matches!(m, Measure::PowerW | Measure::GpuUtilPct));
    let timed = columns.contains(&Column::Time);
    (!measures.is_empty() && (timed || gpu_log) && columns.len() >= 2)
        .then_some((at, columns, commas))
}

/// True when `text` is a table of engine or GPU gauges over time.
pub fn is_table(text: &str) -> bool {
    header(text).is_some()
}

/// A value as such logs write it: `95 %`, `301.24 W`, `N/A`, `[N/A]`, `-`; `None` for what
/// is no number at all.
fn value(field: &str) -> Option<f64> {
    let f = field.trim();
    if matches!(f, "N/A" | "[N/A]" | "-" | "" | "[Not Supported]") {
        return Some(f64::NAN);
    }
    let number = f
        .trim_end_matches(|c: char| c.is_alphabetic() || c == '%' || c.is_whitespace())
        .trim();
    number.parse().ok()
}

/// Seconds of a time field: a number, or a date and time (wall clock), or a time of day.
fn seconds(field: &str) -> Option<(f64, bool)> {
    let f = field.trim();
    if let Ok(s) = f.parse::<f64>() {
        return Some((s, s > 1e9));
    }
    for format in [
        "%Y/%m/%d %H:%M:%S%.f",
        "%Y-%m-%d %H:%M:%S%.f",
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y/%m/%d %H:%M:%S",
        "%Y-%m-%d %H:%M:%S",
    ] {
        if let Ok(at) = strtime::parse(format, f).and_then(|t| t.to_datetime()) {
            return Some((super::readings::utc_seconds(at)?, true));
        }
    }
    let time = strtime::parse("%H:%M:%S", f)
        .and_then(|t| t.to_time())
        .ok()?;
    let s = f64::from(time.hour()) * 3600.0 + f64::from(time.minute()) * 60.0;
    Some((s + f64::from(time.second()), false))
}

/// Reads a table of gauges over time; `None` when `text` is none.
pub fn read(text: &str) -> Option<Table> {
    let (at, columns, commas) = header(text)?;
    let mut table = Table::default();
    let time_col = columns.iter().position(|c| *c == Column::Time);
    let gpu_col = columns
        .iter()
        .position(|c| *c == Column::Gpu)
        .or_else(|| columns.iter().position(|c| *c == Column::Uuid));
    let mut series: Vec<Series> = Vec::new();
    let mut wall = false;
    let mut rows_per_gpu = std::collections::BTreeMap::<String, usize>::new();
    for (i, line) in text.lines().enumerate().skip(at + 1) {
        let trimmed = line.trim();
        // dmon's units row and repeated headers start with `#`; blank lines end nothing.
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let f = fields(trimmed, commas);
        if f.len() != columns.len() {
            let expected = format!("expected {} fields, found {}", columns.len(), f.len());
            table.bad.push((i + 1, expected));
            continue;
        }
        let gpu = gpu_col.map(|c| f[c].to_string());
        let nth = rows_per_gpu
            .entry(gpu.clone().unwrap_or_default())
            .or_insert(0);
        let time = match time_col {
            Some(c) => match seconds(f[c]) {
                Some((s, is_wall)) => {
                    wall |= is_wall;
                    s
                }
                // A units row (`s,Idx,W,…`) under a comma header: no data.
                None if columns.iter().zip(&f).all(|(_, v)| value(v).is_none()) => continue,
                None => {
                    let expected =
                        format!("expected a time in seconds or a date, found `{}`", f[c]);
                    table.bad.push((i + 1, expected));
                    continue;
                }
            },
            None => *nth as f64,
        };
        *nth += 1;
        for (c, kind) in columns.iter().enumerate() {
            let Column::Measure(measure) = *kind else {
                continue;
            };
            let Some(v) = value(f[c]) else {
                table
                    .bad
                    .push((i + 1, format!("expected a number, found `{}`", f[c])));
                continue;
            };
            let gpu = matches!(measure, Measure::PowerW | Measure::GpuUtilPct)
                .then(|| gpu.clone())
                .flatten();
            push(&mut series, measure, gpu, time, v);
        }
    }
    finish(&mut table, series, time_col.is_some(), wall);
    Some(table)
}

fn push(series: &mut Vec<Series>, measure: Measure, gpu: Option<String>, time: f64, v: f64) {
    match series
        .iter_mut()
        .find(|s| s.measure == measure && s.gpu == gpu)
    {
        Some(s) => {
            s.time_s.push(time);
            s.values.push(v);
        }
        None => series.push(Series {
            measure,
            gpu,
            time_s: vec![time],
            values: vec![v],
        }),
    }
}

/// Ratios become percent; notes on missing values and the assumed clock.
fn finish(table: &mut Table, mut series: Vec<Series>, timed: bool, wall: bool) {
    for s in &mut series {
        if s.measure == Measure::KvCachePct && s.values.iter().all(|v| v.is_nan() || *v <= 1.0) {
            s.values.iter_mut().for_each(|v| *v *= 100.0);
        }
        let missing = s.values.iter().filter(|v| v.is_nan()).count();
        if missing > 0 {
            let gpu = s
                .gpu
                .as_deref()
                .map(|g| format!(" of GPU {g}"))
                .unwrap_or_default();
            table.notes.push(format!(
                "{missing} of {} {} readings{gpu} are empty (`N/A`); they are left out",
                s.values.len(),
                label(s.measure)
            ));
        }
    }
    if !timed {
        table.notes.push(
            "no time column: the samples are taken as one a second (nvidia-smi dmon's default)"
                .to_string(),
        );
    }
    table.readings = Readings {
        series,
        snapshot: None,
        relative_clock: !wall,
    };
}

/// What a measure is called in a note.
pub fn label(measure: Measure) -> &'static str {
    match measure {
        Measure::Waiting => "requests waiting",
        Measure::Running => "requests running",
        Measure::KvCachePct => "KV-cache use",
        Measure::GpuUtilPct => "GPU utilisation",
        Measure::PowerW => "power",
        Measure::Preemptions => "preemption",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_nvidia_smi_query_log_gives_power_per_gpu_in_wall_time() {
        let text = "timestamp, index, power.draw [W], utilization.gpu [%]\n\
                    2025/01/02 10:00:00.000, 0, 300.50 W, 95 %\n\
                    2025/01/02 10:00:00.000, 1, [N/A], 90 %\n\
                    2025/01/02 10:00:01.000, 0, 310.50 W, 97 %\n\
                    2025/01/02 10:00:01.000, 1, 280.00 W, 91 %\n";
        let t = read(text).unwrap();
        assert!(t.bad.is_empty(), "{:?}", t.bad);
        assert!(!t.readings.relative_clock);
        let power: Vec<&Series> = t
            .readings
            .series
            .iter()
            .filter(|s| s.measure == Measure::PowerW)
            .collect();
        assert_eq!(power.len(), 2);
        assert_eq!(power[0].values, vec![300.5, 310.5]);
        assert_eq!(power[0].time_s[1] - power[0].time_s[0], 1.0);
        assert!(power[1].values[0].is_nan());
        assert_eq!(t.notes.len(), 1, "{:?}", t.notes);
        assert!(
            t.notes[0].contains("1 of 2 power readings of GPU 1"),
            "{:?}",
            t.notes
        );
    }

    #[test]
    fn a_dmon_log_skips_its_units_row_and_repeated_headers() {
        let text = "# gpu    pwr  gtemp     sm    mem\n\
                    # Idx      W      C      %      %\n\
                        0     43     34      0      0\n\
                        0    250     40     88     70\n\
                    # gpu    pwr  gtemp     sm    mem\n\
                    # Idx      W      C      %      %\n\
                        0    260     41     90     71\n";
        let t = read(text).unwrap();
        let power = &t.readings.series[0];
        assert_eq!(power.values, vec![43.0, 250.0, 260.0]);
        assert_eq!(power.time_s, vec![0.0, 1.0, 2.0]);
        assert!(t.readings.relative_clock);
        assert!(t.notes.iter().any(|n| n.contains("one a second")));
        let csv = "time,gpu,pwr,sm\ns,Idx,W,%\n0.5,0,116,0\n1.5,0,303,95\n";
        let t = read(csv).unwrap();
        assert!(t.bad.is_empty(), "{:?}", t.bad);
        assert_eq!(t.readings.series[0].values, vec![116.0, 303.0]);
    }

    #[test]
    fn an_engine_series_turns_its_kv_ratio_into_percent() {
        let text = "time [s],gpu_cache_usage_perc,num_requests_running,num_requests_waiting\n\
                    0.1,0,0,0\n1.1,0.5,10,2\n2.1,0.99,12,x\n";
        let t = read(text).unwrap();
        let kv = t
            .readings
            .series
            .iter()
            .find(|s| s.measure == Measure::KvCachePct)
            .unwrap();
        assert_eq!(kv.values, vec![0.0, 50.0, 99.0]);
        assert_eq!(t.bad, vec![(4, "expected a number, found `x`".to_string())]);
    }

    #[test]
    fn a_csv_of_other_things_is_no_series() {
        assert!(!is_table("time,latency_ms\n1,2\n"));
        assert!(!is_table("num_requests_waiting,ttft\n1,2\n"));
        assert!(is_table("time,num_requests_waiting\n1,2\n"));
    }
}
