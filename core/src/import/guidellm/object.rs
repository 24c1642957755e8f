//! The report's JSON objects as the readers step through them: the object at a path, the text
//! at a key.

use serde_json::{Map, Value};

/// Text at `key` of a JSON object: strings (trimmed, non-empty) and numbers; `None` otherwise.
pub(super) fn text(obj: &Map<String, Value>, key: &str) -> Option<String> {
    match obj.get(key)? {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The object at `path` below `obj`, if every step is an object.
pub(super) fn object_at<'a>(
    obj: &'a Map<String, Value>,
    path: &[&str],
) -> Option<&'a Map<String, Value>> {
    path.iter()
        .try_fold(obj, |o, key| o.get(*key).and_then(Value::as_object))
}
