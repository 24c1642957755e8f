//! The YAML reader: both schemas' scalars, anchors and tags, errors with their lines, and the
//! budgets (alias bombs, deep nesting) in every schema.

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
y: yes
nan: .nan
inf: -.inf
tuple: !!python/tuple
- 1
- x
empty:
";
    let v = parse(text, Schema::PyYaml).unwrap();
    assert_eq!(
        v,
        json!({
            "a": {"kind": "openai_http", "timeout": null},
            "b": {"kind": "openai_http", "timeout": null},
            "n": 12, "f": 1.0e-05, "big": 1785311999.6520002, "s": "4", "t": true, "y": true,
            "nan": "NaN", "inf": "-Infinity", "tuple": [1, "x"], "empty": null
        })
    );
}

#[test]
fn core_scalars_are_read_as_yaml_rust2s_loader_reads_them() {
    let text = "\
i: 12
hex: 0x1A
octal: 0o17
plus: +3
f: 2.5
t: True
y: yes
n: ~
inf: .inf
s: \"12\"
tagged: !!str 12
other: !custom 5
list: [1, a]
";
    let v = parse(text, Schema::Core).unwrap();
    assert_eq!(
        v,
        json!({
            "i": 12, "hex": 26, "octal": 15, "plus": 3, "f": 2.5, "t": true, "y": "yes",
            "n": null, "inf": ".inf", "s": "12", "tagged": "12", "other": "5", "list": [1, "a"]
        })
    );
    let e = parse("a: !!int x\n", Schema::Core).unwrap_err();
    assert!(e.message.contains("`x` is not an int"), "{e:?}");
}

#[test]
fn a_key_given_twice_is_an_error_in_reports_and_the_last_value_in_pyyaml() {
    let text = "title: A\nkind: bars\ntitle: B\n";
    let e = parse(text, Schema::Core).unwrap_err();
    assert!(e.message.contains("`title` is given twice"), "{e:?}");
    assert!(
        matches!(e.location, Location::Line { line: 3, .. }),
        "{e:?}"
    );
    assert_eq!(
        parse(text, Schema::PyYaml).unwrap(),
        json!({"title": "B", "kind": "bars"})
    );
}

#[test]
fn errors_have_lines_counted_in_the_file() {
    let e = parse("benchmarks:\n- a: 1\n  b: [1, 2\n", Schema::PyYaml).unwrap_err();
    assert!(e.message.starts_with("invalid YAML: "), "{e:?}");
    assert!(
        matches!(e.location, Location::Line { line, .. } if line >= 3),
        "{e:?}"
    );
    let e = parse("a: 1\n---\nb: 2\n", Schema::Core).unwrap_err();
    assert_eq!(
        e.location,
        Location::Line {
            line: 2,
            column: Some(1)
        }
    );
    // A block whose body starts on line 10 of its report.
    let e = Document::parse("a: 1\n---\nb: 2\n", 10).unwrap_err();
    assert!(
        e.to_string().starts_with("line 11: a second YAML document"),
        "{e}"
    );
}

/// Nine levels of aliases, each ten of the one before: 10^9 values from 700 bytes.
fn alias_bomb() -> String {
    let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 0..9 {
        let prev = if i == 0 {
            "a".to_string()
        } else {
            format!("l{}", i - 1)
        };
        let refs = vec![format!("*{prev}"); 10].join(", ");
        bomb.push_str(&format!("l{i}: &l{i} [{refs}]\n"));
    }
    bomb
}

#[test]
fn alias_bombs_are_refused_in_every_schema() {
    let bomb = alias_bomb();
    for schema in [Schema::Core, Schema::PyYaml] {
        let e = parse(&bomb, schema).unwrap_err();
        assert!(e.message.contains("refusing"), "{e:?}");
        assert!(
            e.message
                .contains(&format!("more than {}", bomb.len() * 2 + 1024)),
            "the limit is named: {e:?}"
        );
    }
    // Aliases within the budget are expanded.
    let v = parse("a: &a [1, 2]\nb: *a\nc: *a\n", Schema::Core).unwrap();
    assert_eq!(v, json!({"a": [1, 2], "b": [1, 2], "c": [1, 2]}));
}

#[test]
fn deep_nesting_is_refused_without_overflowing_the_stack() {
    for schema in [Schema::Core, Schema::PyYaml] {
        let deep = "- ".repeat(50_000) + "1\n";
        let e = parse(&deep, schema).unwrap_err();
        assert!(e.message.contains("deeper than 128"), "{e:?}");
        let flow = "[".repeat(100_000);
        assert!(parse(&flow, schema).is_err());
    }
    let ok = "[".repeat(100) + &"]".repeat(100);
    assert!(parse(&ok, Schema::Core).is_ok());
}

#[test]
fn an_empty_text_is_null() {
    assert_eq!(parse("", Schema::Core).unwrap(), Value::Null);
    assert_eq!(
        parse("# only a comment\n", Schema::PyYaml).unwrap(),
        Value::Null
    );
}

#[cfg(feature = "site")]
#[test]
fn a_reports_front_matter_and_blocks_refuse_an_alias_bomb_at_its_line() {
    use crate::report::{build_report, parse_front_matter, Palette};
    let bomb = alias_bomb();
    let front = format!("---\ntitle: T\n{bomb}---\n");
    let problem = parse_front_matter("reports/r.md", &front).unwrap_err();
    let text = problem.to_string();
    // Line 6 holds the alias that went over (`l2`, a thousand values from 40 bytes).
    assert!(text.starts_with("reports/r.md:6:"), "{text}");
    assert!(
        text.contains("expands to more than") && text.contains("refusing to expand"),
        "{text}"
    );
    // The same in a chart block (its body from line 6): at the block, naming the file's line of
    // that alias.
    let report = format!("---\ntitle: T\n---\n\n```chart\n{bomb}```\n");
    let page = build_report("reports/r.md", "r", &report, &[], &Palette::new());
    let problems: Vec<String> = page.problems.iter().map(ToString::to_string).collect();
    assert!(
        problems.iter().any(|p| p.starts_with("reports/r.md:6")
            && p.contains("line 9: the YAML expands to more than")),
        "{problems:?}"
    );
}

#[test]
fn nested_complex_keys_are_refused_at_once() {
    // A fuzzer's find: keys that are mappings whose keys are mappings … as text, each level
    // doubled the escaping of the one inside (a 900-byte file ran for minutes).
    let mut text = String::new();
    for depth in 0..40 {
        text.push_str(&" ".repeat(depth));
        text.push_str("? \n");
    }
    for schema in [Schema::Core, Schema::PyYaml] {
        let start = std::time::Instant::now();
        let e = parse(&text, schema).unwrap_err();
        assert!(e.message.contains("as a key"), "{e:?}");
        assert!(start.elapsed().as_secs() < 2);
    }
    // A plain complex key of a scalar is read as its text.
    assert_eq!(parse("? a\n: 1\n", Schema::Core).unwrap(), json!({"a": 1}));
}
