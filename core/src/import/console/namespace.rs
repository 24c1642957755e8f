//! The `Namespace(...)` that `vllm bench serve` prints before each result block: the command
//! line's arguments as Python writes them (`model='glm-5.2-fp8', dataset_name='random',
//! request_rate=inf, max_concurrency=None, num_prompts=1000`). It names the block's model,
//! dataset, lengths and tokenizer, and its load when no line printed nearer says it.

use serde_json::{Map, Number, Value};

/// The `--save-result` keys the arguments of a `Namespace(...)` on `line` give, by the argument
/// each comes from; `None` when the line holds no `Namespace(`.
pub(super) fn namespace(line: &str) -> Option<Map<String, Value>> {
    let start = line.find("Namespace(")? + "Namespace(".len();
    let mut keys = Map::new();
    for (name, value) in arguments(&line[start..]) {
        let key = match name {
            "model" => "model_id",
            "tokenizer" => "tokenizer_id",
            "dataset_name" | "random_input_len" | "random_output_len" | "num_prompts"
            | "request_rate" | "max_concurrency" | "backend" => name,
            _ => continue,
        };
        if let Some(value) = python_value(value) {
            keys.insert(key.to_string(), value);
        }
    }
    Some(keys)
}

/// The `name=value` arguments of a Python repr up to its closing parenthesis, split at commas
/// outside quotes and brackets (values such as `<function f at 0x7f…>` or `['a', 'b']`).
fn arguments(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let (mut depth, mut quote, mut from) = (0i32, None::<char>, 0);
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(' | '[' | '{' | '<') => depth += 1,
            (None, ')' | ']' | '}' | '>') if depth > 0 => depth -= 1,
            (None, ')') => {
                out.extend(pair(&text[from..i]));
                return out;
            }
            (None, ',') if depth == 0 => {
                out.extend(pair(&text[from..i]));
                from = i + 1;
            }
            _ => {}
        }
    }
    out.extend(pair(&text[from..]));
    out
}

fn pair(text: &str) -> Option<(&str, &str)> {
    let (name, value) = text.split_once('=')?;
    Some((name.trim(), value.trim()))
}

/// A Python literal as JSON: text in quotes, a number, `inf`; `None` and anything else none.
fn python_value(text: &str) -> Option<Value> {
    for q in ['\'', '"'] {
        if let Some(inner) = text.strip_prefix(q).and_then(|t| t.strip_suffix(q)) {
            return (!inner.is_empty()).then(|| Value::String(inner.to_string()));
        }
    }
    if text == "inf" {
        return Some(Value::String("inf".into()));
    }
    if let Ok(n) = text.parse::<u64>() {
        return Some(Value::Number(n.into()));
    }
    let f = text.parse::<f64>().ok().filter(|f| f.is_finite())?;
    Number::from_f64(f).map(Value::Number)
}

#[cfg(test)]
mod tests {
    use super::namespace;
    use serde_json::json;

    #[test]
    fn the_arguments_that_name_a_block_are_read_and_the_rest_left() {
        let line = "Namespace(subparser='bench', bench_type='serve', dispatch_function=<function \
            BenchmarkServingSubcommand.cmd at 0x7f3c>, seed=0, num_prompts=1000, \
            dataset_name='random', model='glm-5.2-fp8', tokenizer=None, request_rate=inf, \
            max_concurrency=64, random_input_len=1024, random_output_len=128, \
            percentile_metrics='ttft,tpot,itl', metric_percentiles='99', goodput=None, \
            extra={'a': (1, 2)}, burstiness=1.0)";
        let keys = namespace(line).unwrap();
        assert_eq!(
            serde_json::Value::Object(keys),
            json!({"num_prompts": 1000, "dataset_name": "random", "model_id": "glm-5.2-fp8",
                   "request_rate": "inf", "max_concurrency": 64, "random_input_len": 1024,
                   "random_output_len": 128})
        );
        assert_eq!(namespace("INFO: starting the server"), None);
    }
}
