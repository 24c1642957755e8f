//! A JSON value as the columns a mapping reads: its scalars by their dotted paths, and the value
//! at a path.

use serde_json::Value;

/// `value`'s scalars by their dotted paths (`a.b`, `a.list[0]`), numbers and text as written,
/// `null` as empty.
pub(super) fn flatten(value: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![(String::new(), value)];
    while let Some((prefix, value)) = stack.pop() {
        match value {
            Value::Object(map) => {
                for (k, v) in map.iter().rev() {
                    let path = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    stack.push((path, v));
                }
            }
            Value::Array(list) => {
                for (i, v) in list.iter().enumerate().rev() {
                    stack.push((format!("{prefix}[{i}]"), v));
                }
            }
            Value::String(s) => out.push((prefix, s.clone())),
            Value::Null => out.push((prefix, String::new())),
            other => out.push((prefix, other.to_string())),
        }
    }
    out
}

/// The value at dotted `path` (`a.b`, `a.list[0].c`) in `value`.
pub(super) fn lookup<'v>(value: &'v Value, path: &str) -> Option<&'v Value> {
    let mut at = value;
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (key, indices) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            at = at.get(key)?;
        }
        for index in indices.split('[').filter(|s| !s.is_empty()) {
            at = at.get(index.strip_suffix(']')?.parse::<usize>().ok()?)?;
        }
    }
    Some(at)
}
