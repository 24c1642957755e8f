//! YAML text to JSON values within budgets: the one YAML reader of benchdeck, for a report's front
//! matter and its ```` ```chart ````, ```` ```table ```` and ```` ```tiles ```` blocks
//! ([`Schema::Core`]) and for GuideLLM's `benchmarks.yaml` ([`Schema::PyYaml`]).
//!
//! yaml-rust2's event parser is folded into a [`serde_json::Value`] with an explicit stack (no
//! recursion, so deep nesting cannot overflow the stack), within two budgets a hostile text cannot
//! get around:
//!
//! - nesting at most [`MAX_DEPTH`] levels deep;
//! - anchors and aliases (PyYAML writes `&id001`/`*id001` for objects shared in a dump) expanded
//!   to at most twice the text's length plus 1,024 values in all, so a chain of aliases that
//!   doubles at each level (an "alias bomb") is refused instead of exhausting memory.
//!
//! Scalars are resolved by the schema: [`Schema::Core`] as yaml-rust2's loader does (YAML 1.2's
//! core schema: `null`/`~`/empty, `true`/`false`, decimal, `0x` and `0o` integers, floats),
//! [`Schema::PyYaml`] as PyYAML writes them (YAML 1.1's `yes`/`no`/`on`/`off` too, `_` in
//! numbers; non-finite floats as the strings `"NaN"`, `"Infinity"`, `"-Infinity"` that
//! [`crate::number::json_number`] reads back). Quoted and block scalars stay text, and
//! `!!str`/`!!int`/`!!float`/`!!bool`/`!!null` tags are obeyed.

use std::collections::HashMap;
use std::fmt;

use serde_json::{Map, Number, Value};
use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

use crate::model::Location;

/// The first line of `text` that holds content, trimmed at its end: blank lines, `#` comments,
/// `%YAML` directives and a `---` document start before it are passed over ("" when none).
pub fn first_content_line(text: &str) -> &str {
    crate::json::strip_bom(text)
        .lines()
        .map(str::trim_end)
        .find(|l| {
            let t = l.trim_start();
            !(t.is_empty() || t.starts_with('#') || t.starts_with('%') || t == "---")
        })
        .unwrap_or("")
}

/// Deepest nesting accepted, as serde_json's own limit: values nested deeper would overflow the
/// stack when dropped.
pub const MAX_DEPTH: usize = 128;

/// How scalars are resolved: see the module documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Schema {
    /// YAML 1.2's core schema, as yaml-rust2's loader resolves it; a key given twice is an error.
    Core,
    /// YAML 1.1 as PyYAML writes it; a key given twice keeps its last value, as PyYAML does.
    PyYaml,
}

/// Why a YAML text could not be read, with its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
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

    /// The error with its line counted from `first_line` (the text's first line in its file).
    pub fn shifted(mut self, first_line: usize) -> Self {
        if let Location::Line { line, .. } = &mut self.location {
            *line = line.saturating_add(first_line.saturating_sub(1) as u64);
        }
        self
    }
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Location::Line { line, .. } => write!(f, "line {line}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

/// A container being filled.
enum Container {
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
    schema: Schema,
    stack: Vec<Container>,
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
        matches!(self.stack.last(), Some(Container::Map { key: None, .. }))
    }

    fn count(&mut self, n: usize, mark: &Marker) -> Result<(), YamlError> {
        self.created = self.created.saturating_add(n);
        if self.created > self.budget {
            return Err(YamlError::at(
                mark,
                format!(
                    "the YAML expands to more than {} values (through aliases), the limit for a \
                     text of its length; refusing to expand it further",
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
                format!("the YAML nests deeper than {MAX_DEPTH} levels, the limit"),
            ));
        }
        Ok(())
    }

    /// Places a finished value in its parent (or as the document), remembering its anchor.
    fn place(
        &mut self,
        value: Value,
        anchor: usize,
        size: usize,
        mark: &Marker,
    ) -> Result<(), YamlError> {
        if anchor > 0 {
            self.anchors.insert(anchor, (value.clone(), size));
        }
        let strict = self.schema == Schema::Core;
        match self.stack.last_mut() {
            None => {
                self.root.get_or_insert(value);
            }
            Some(Container::Seq { items, .. }) => items.push(value),
            Some(Container::Map { map, key, .. }) => match key.take() {
                None => {
                    let text = key_text(value).ok_or_else(|| {
                        YamlError::at(
                            mark,
                            "a sequence or a mapping as a key; expected a key that is text or a \
                             number",
                        )
                    })?;
                    if strict && map.contains_key(&text) {
                        return Err(YamlError::at(
                            mark,
                            format!("the key `{text}` is given twice; expected each key once"),
                        ));
                    }
                    *key = Some(text);
                }
                Some(k) => {
                    map.insert(k, value);
                }
            },
        }
        Ok(())
    }

    /// Closes the innermost container and places it.
    fn close(&mut self, mark: &Marker) -> Result<(), YamlError> {
        let (value, anchor, created_before) = match self.stack.pop() {
            Some(Container::Seq {
                items,
                anchor,
                created_before,
            }) => (Value::Array(items), anchor, created_before),
            Some(Container::Map {
                map,
                anchor,
                created_before,
                ..
            }) => (Value::Object(map), anchor, created_before),
            None => return Err(YamlError::at(mark, "unbalanced YAML structure")),
        };
        let size = self.created.saturating_sub(created_before) + 1;
        self.place(value, anchor, size, mark)
    }

    /// Opens a sequence or mapping.
    fn open(&mut self, frame: Container, mark: &Marker) -> Result<(), YamlError> {
        self.count(1, mark)?;
        self.deeper(mark)?;
        self.stack.push(frame);
        Ok(())
    }
}

/// A mapping key as text: strings as they are, other scalars as JSON; `None` for a sequence or
/// a mapping, which no file benchdeck reads uses as a key (PyYAML refuses them as unhashable,
/// and as text each level of nesting would double the key's escaping).
fn key_text(value: Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s),
        Value::Array(_) | Value::Object(_) => None,
        other => Some(other.to_string()),
    }
}

/// Parses the first (and only) YAML document of `text` into a JSON value; `Null` when the text
/// holds no document.
pub fn parse(text: &str, schema: Schema) -> Result<Value, YamlError> {
    let text = crate::json::strip_bom(text);
    let mut parser = Parser::new_from_str(text);
    let mut b = Builder {
        schema,
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
                b.place(value, 0, size, &mark)?;
            }
            Event::Scalar(raw, style, anchor, tag) => {
                b.count(1, &mark)?;
                let value = if b.expects_key() {
                    Value::String(raw)
                } else {
                    scalar(raw, style, tag.as_ref(), schema, &mark)?
                };
                b.place(value, anchor, 1, &mark)?;
            }
            Event::SequenceStart(anchor, _) => {
                let frame = Container::Seq {
                    items: Vec::new(),
                    anchor,
                    created_before: b.created + 1,
                };
                b.open(frame, &mark)?;
            }
            Event::MappingStart(anchor, _) => {
                let frame = Container::Map {
                    map: Map::new(),
                    key: None,
                    anchor,
                    created_before: b.created + 1,
                };
                b.open(frame, &mark)?;
            }
            Event::SequenceEnd | Event::MappingEnd => b.close(&mark)?,
        }
    }
    Ok(b.root.unwrap_or(Value::Null))
}

/// Resolves one scalar: plain scalars by their text, quoted and block scalars as text, unless a
/// core-schema tag says otherwise.
fn scalar(
    raw: String,
    style: TScalarStyle,
    tag: Option<&Tag>,
    schema: Schema,
    mark: &Marker,
) -> Result<Value, YamlError> {
    let core = tag
        .filter(|t| t.handle == "tag:yaml.org,2002:" || t.handle == "!!")
        .map(|t| t.suffix.as_str());
    let plain = |raw: String| match schema {
        Schema::Core => core_plain(raw),
        Schema::PyYaml => pyyaml_plain(raw),
    };
    Ok(match (core, schema) {
        (Some("str"), _) => Value::String(raw),
        (Some(kind @ ("int" | "float" | "bool" | "null")), Schema::Core) => {
            let value = plain(raw.clone());
            let fits = match kind {
                "int" => value.is_i64(),
                "float" => value.is_number(),
                "bool" => value.is_boolean(),
                _ => value.is_null(),
            };
            if !fits {
                return Err(YamlError::at(
                    mark,
                    format!("`!!{kind} {raw}`: `{raw}` is not a{} {kind}", article(kind)),
                ));
            }
            value
        }
        (Some("int" | "float" | "bool" | "null"), Schema::PyYaml) => plain(raw),
        // yaml-rust2's loader reads a plain scalar with any other tag as text.
        (Some(_), Schema::Core) => Value::String(raw),
        (None, Schema::Core) if tag.is_some() => Value::String(raw),
        _ if style == TScalarStyle::Plain => plain(raw),
        _ => Value::String(raw),
    })
}

fn article(kind: &str) -> &'static str {
    if kind == "int" {
        "n"
    } else {
        ""
    }
}

/// A plain scalar the way yaml-rust2's loader resolves it (`Yaml::from_str`); a float that JSON
/// cannot hold (`.inf`, `.nan`) stays text, which a number field then refuses by name.
fn core_plain(raw: String) -> Value {
    let radix = |digits: &str, radix: u32| i64::from_str_radix(digits, radix).ok();
    let integer = if let Some(hex) = raw.strip_prefix("0x") {
        radix(hex, 16)
    } else if let Some(octal) = raw.strip_prefix("0o") {
        radix(octal, 8)
    } else if let Some(positive) = raw.strip_prefix('+') {
        positive.parse::<i64>().ok()
    } else {
        None
    };
    if let Some(i) = integer {
        return Value::Number(i.into());
    }
    match raw.as_str() {
        "" | "~" | "null" => Value::Null,
        "true" | "True" | "TRUE" => Value::Bool(true),
        "false" | "False" | "FALSE" => Value::Bool(false),
        text => {
            if let Ok(i) = text.parse::<i64>() {
                return Value::Number(i.into());
            }
            let float = text
                .bytes()
                .any(|b| b.is_ascii_digit())
                .then(|| text.parse::<f64>().ok())
                .flatten()
                .and_then(Number::from_f64);
            float.map_or(Value::String(raw), Value::Number)
        }
    }
}

/// A plain scalar the way PyYAML resolves it.
fn pyyaml_plain(raw: String) -> Value {
    match raw.as_str() {
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        "true" | "True" | "TRUE" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => Value::Bool(true),
        "false" | "False" | "FALSE" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => {
            Value::Bool(false)
        }
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Value::String("Infinity".into()),
        "-.inf" | "-.Inf" | "-.INF" => Value::String("-Infinity".into()),
        ".nan" | ".NaN" | ".NAN" => Value::String("NaN".into()),
        text => pyyaml_number(text).unwrap_or(Value::String(raw)),
    }
}

/// A decimal integer or float (YAML 1.1 allows `_` separators), or `None` for other text.
fn pyyaml_number(text: &str) -> Option<Value> {
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

/// A report's YAML (front matter or a directive block), parsed with [`Schema::Core`] and ready to
/// be read into the directive's type.
#[derive(Debug, Clone, PartialEq)]
pub struct Document(Value);

impl Document {
    /// Parses `text`, whose first line is line `first_line` of its file (errors name the file's
    /// line).
    pub fn parse(text: &str, first_line: usize) -> Result<Document, YamlError> {
        parse(text, Schema::Core)
            .map(Document)
            .map_err(|e| e.shifted(first_line))
    }

    /// The document read as `T`.
    pub fn deserialize<T: serde::de::DeserializeOwned>(self) -> Result<T, serde_json::Error> {
        serde_json::from_value(self.0)
    }
}

#[cfg(test)]
mod tests;
