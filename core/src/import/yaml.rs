//! YAML to JSON values, for the YAML files the importers read: GuideLLM's `benchmarks.yaml` (the
//! report object dumped by PyYAML), llm-d's benchmark reports and inference-perf's `config.yaml`.
//!
//! yaml-rust2's event parser is folded into a [`serde_json::Value`] with an explicit stack (no
//! recursion, so deep nesting cannot overflow the stack), and the result is read by the same code
//! as the JSON form of each file, with the same JSON-path locations (`benchmarks[2].metrics…`).
//!
//! Scalars are resolved the way PyYAML writes them: plain `null`/`~`/empty, `true`/`false` (and
//! YAML 1.1's `yes`/`no`/`on`/`off`), integers, floats with `.inf`/`-.inf`/`.nan`; quoted and
//! block scalars stay text, and `!!str`/`!!int`/`!!float` tags are obeyed. Non-finite floats
//! become the strings `"NaN"`, `"Infinity"` and `"-Infinity"`, as [`crate::json`] does for
//! Python's JSON, so [`crate::number::json_number`] reads them back. Python-specific tags
//! (`!!python/tuple`) are read as the plain sequence or scalar they tag.
//!
//! Anchors and aliases (PyYAML writes `&id001`/`*id001` for objects shared in the dump) are
//! expanded, within a budget of values proportional to the text, so a file of nested aliases
//! cannot exhaust memory.

use std::collections::HashMap;

use serde_json::{Map, Number, Value};
use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

use crate::model::Location;

/// Why a YAML text could not be read, with its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct YamlError {
    /// Line and column of the error.
    pub location: Location,
    /// What was wrong.
    pub message: String,
}

impl YamlError {
    fn at(mark: &Marker, message: impl Into<String>) -> Self {
        YamlError {
            location: Location::Line {
                line: mark.line().max(1) as u64,
                column: Some(mark.col() as u64 + 1),
            },
            message: message.into(),
        }
    }
}

/// Deepest nesting accepted, as serde_json's own limit: values nested deeper would overflow the
/// stack when dropped.
const MAX_DEPTH: usize = 128;

/// A container being filled.
enum Frame {
    Seq {
        items: Vec<Value>,
        anchor: usize,
        created_before: usize,
    },
    Map {
        map: Map<String, Value>,
        key: Option<String>,
        anchor: usize,
        created_before: usize,
    },
}

/// Folds parser events into one value.
struct Builder {
    stack: Vec<Frame>,
    /// Anchored values with the number of values each holds.
    anchors: HashMap<usize, (Value, usize)>,
    root: Option<Value>,
    /// Values created so far, aliases counted in full.
    created: usize,
    /// Most values the text may expand to.
    budget: usize,
}

impl Builder {
    /// True when the next value completes a mapping key.
    fn expects_key(&self) -> bool {
        matches!(self.stack.last(), Some(Frame::Map { key: None, .. }))
    }

    fn count(&mut self, n: usize, mark: &Marker) -> Result<(), YamlError> {
        self.created = self.created.saturating_add(n);
        if self.created > self.budget {
            return Err(YamlError::at(
                mark,
                format!(
                    "the YAML expands to more than {} values (through aliases); refusing to \
                     expand it further",
                    self.budget
                ),
            ));
        }
        Ok(())
    }

    /// Refuses nesting deeper than [`MAX_DEPTH`] before opening another container.
    fn deeper(&self, mark: &Marker) -> Result<(), YamlError> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(YamlError::at(
                mark,
                format!(
                    "the YAML nests deeper than {MAX_DEPTH} levels; a GuideLLM report nests about \
                     ten"
                ),
            ));
        }
        Ok(())
    }

    /// Places a finished value in its parent (or as the document), remembering its anchor.
    fn place(&mut self, value: Value, anchor: usize, size: usize) {
        if anchor > 0 {
            self.anchors.insert(anchor, (value.clone(), size));
        }
        match self.stack.last_mut() {
            None => {
                self.root.get_or_insert(value);
            }
            Some(Frame::Seq { items, .. }) => items.push(value),
            Some(Frame::Map { map, key, .. }) => match key.take() {
                None => *key = Some(key_text(value)),
                Some(k) => {
                    map.insert(k, value);
                }
            },
        }
    }
}

/// A mapping key as text: strings as they are, anything else as JSON.
fn key_text(value: Value) -> String {
    match value {
        Value::String(s) => s,
        other => other.to_string(),
    }
}

/// The first line of `text` that holds content, trimmed at its end: blank lines, `#` comments,
/// `%YAML` directives and a `---` document start before it are passed over ("" when none).
pub(super) fn first_content_line(text: &str) -> &str {
    crate::json::strip_bom(text)
        .lines()
        .map(str::trim_end)
        .find(|l| {
            let t = l.trim_start();
            !(t.is_empty() || t.starts_with('#') || t.starts_with('%') || t == "---")
        })
        .unwrap_or("")
}

/// Parses the first (and only) YAML document of `text` into a JSON value.
pub(super) fn parse(text: &str) -> Result<Value, YamlError> {
    let text = crate::json::strip_bom(text);
    let mut parser = Parser::new_from_str(text);
    let mut b = Builder {
        stack: Vec::new(),
        anchors: HashMap::new(),
        root: None,
        created: 0,
        budget: text.len().saturating_mul(2).saturating_add(1024),
    };
    let mut documents = 0usize;
    loop {
        let (event, mark) = parser
            .next_token()
            .map_err(|e| YamlError::at(e.marker(), format!("invalid YAML: {}", e.info())))?;
        match event {
            Event::StreamEnd => break,
            Event::Nothing | Event::StreamStart | Event::DocumentEnd => {}
            Event::DocumentStart => {
                documents += 1;
                if documents > 1 {
                    return Err(YamlError::at(
                        &mark,
                        "a second YAML document starts here; expected one document",
                    ));
                }
            }
            Event::Alias(id) => {
                let Some((value, size)) = b.anchors.get(&id).cloned() else {
                    return Err(YamlError::at(
                        &mark,
                        "alias to an anchor not defined before it",
                    ));
                };
                b.count(size, &mark)?;
                b.place(value, 0, size);
            }
            Event::Scalar(raw, style, anchor, tag) => {
                b.count(1, &mark)?;
                let value = if b.expects_key() {
                    Value::String(raw)
                } else {
                    scalar(raw, style, tag.as_ref())
                };
                b.place(value, anchor, 1);
            }
            Event::SequenceStart(anchor, _) => {
                b.count(1, &mark)?;
                b.deeper(&mark)?;
                b.stack.push(Frame::Seq {
                    items: Vec::new(),
                    anchor,
                    created_before: b.created,
                });
            }
            Event::MappingStart(anchor, _) => {
                b.count(1, &mark)?;
                b.deeper(&mark)?;
                b.stack.push(Frame::Map {
                    map: Map::new(),
                    key: None,
                    anchor,
                    created_before: b.created,
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let (value, anchor, created_before) = match b.stack.pop() {
                    Some(Frame::Seq {
                        items,
                        anchor,
                        created_before,
                    }) => (Value::Array(items), anchor, created_before),
                    Some(Frame::Map {
                        map,
                        anchor,
                        created_before,
                        ..
                    }) => (Value::Object(map), anchor, created_before),
                    None => return Err(YamlError::at(&mark, "unbalanced YAML structure")),
                };
                let size = b.created.saturating_sub(created_before) + 1;
                b.place(value, anchor, size);
            }
        }
    }
    b.root.ok_or_else(|| YamlError {
        location: Location::line(1),
        message: "the YAML holds no document; expected the GuideLLM report".to_string(),
    })
}

/// Resolves one scalar: plain scalars by their text, quoted and block scalars as text, unless a
/// core-schema tag says otherwise.
fn scalar(raw: String, style: TScalarStyle, tag: Option<&Tag>) -> Value {
    let core = tag
        .filter(|t| t.handle == "tag:yaml.org,2002:" || t.handle == "!!")
        .map(|t| t.suffix.as_str());
    match core {
        Some("str") => Value::String(raw),
        Some("int" | "float" | "bool" | "null") => plain(raw),
        _ if style == TScalarStyle::Plain => plain(raw),
        _ => Value::String(raw),
    }
}

/// A plain scalar the way PyYAML resolves it.
fn plain(raw: String) -> Value {
    match raw.as_str() {
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        "true" | "True" | "TRUE" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => Value::Bool(true),
        "false" | "False" | "FALSE" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => {
            Value::Bool(false)
        }
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Value::String("Infinity".into()),
        "-.inf" | "-.Inf" | "-.INF" => Value::String("-Infinity".into()),
        ".nan" | ".NaN" | ".NAN" => Value::String("NaN".into()),
        text => number(text).unwrap_or(Value::String(raw)),
    }
}

/// A decimal integer or float (YAML 1.1 allows `_` separators), or `None` for other text.
fn number(text: &str) -> Option<Value> {
    if !text.bytes().any(|b| b.is_ascii_digit())
        || !text
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.' | b'_' | b'e' | b'E'))
    {
        return None;
    }
    let cleaned: String = text.chars().filter(|&c| c != '_').collect();
    if let Ok(i) = cleaned.parse::<i64>() {
        return Some(Value::Number(i.into()));
    }
    if let Ok(u) = cleaned.parse::<u64>() {
        return Some(Value::Number(u.into()));
    }
    let f = cleaned.parse::<f64>().ok()?;
    Some(Number::from_f64(f).map_or_else(|| Value::String(cleaned), Value::Number))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pyyaml_scalars_anchors_and_tags() {
        let text = "\
a: &id001
  kind: openai_http
  timeout: null
b: *id001
n: 12
f: 1.0e-05
big: 1785311999.6520002
s: '4'
t: true
nan: .nan
inf: -.inf
tuple: !!python/tuple
- 1
- x
empty:
";
        let v = parse(text).unwrap();
        assert_eq!(
            v,
            json!({
                "a": {"kind": "openai_http", "timeout": null},
                "b": {"kind": "openai_http", "timeout": null},
                "n": 12, "f": 1.0e-05, "big": 1785311999.6520002, "s": "4", "t": true,
                "nan": "NaN", "inf": "-Infinity", "tuple": [1, "x"], "empty": null
            })
        );
    }

    #[test]
    fn errors_have_lines() {
        let e = parse("benchmarks:\n- a: 1\n  b: [1, 2\n").unwrap_err();
        assert!(e.message.starts_with("invalid YAML: "), "{e:?}");
        assert!(
            matches!(e.location, Location::Line { line, .. } if line >= 3),
            "{e:?}"
        );
        let e = parse("a: 1\n---\nb: 2\n").unwrap_err();
        assert_eq!(
            e.location,
            Location::Line {
                line: 2,
                column: Some(1)
            }
        );
    }

    #[test]
    fn alias_bombs_are_refused_and_deep_nesting_does_not_overflow() {
        let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 0..8 {
            let prev = if i == 0 {
                "a".to_string()
            } else {
                format!("l{}", i - 1)
            };
            bomb.push_str(&format!(
                "l{i}: &l{i} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"
            ));
        }
        let e = parse(&bomb).unwrap_err();
        assert!(e.message.contains("refusing"), "{e:?}");

        let deep = "- ".repeat(50_000) + "1\n";
        let e = parse(&deep).unwrap_err();
        assert!(e.message.contains("deeper than 128"), "{e:?}");
        let flow = "[".repeat(100_000);
        assert!(parse(&flow).is_err());
    }
}
