use super::*;
use proptest::prelude::*;

#[test]
fn plain_and_decorated_numbers() {
    assert_eq!(parse_number("45.04", &[]), Reading::Value(45.04));
    assert_eq!(parse_number(" 2,973.53 ", &[]), Reading::Value(2973.53));
    assert_eq!(parse_number("**85.1**", &[]), Reading::Value(85.1));
    assert_eq!(parse_number("36.5 tok/s", &["tok/s"]), Reading::Value(36.5));
    assert_eq!(parse_number("117ms", &["ms"]), Reading::Value(117.0));
    assert_eq!(parse_number("64.7%", &["%"]), Reading::Value(64.7));
    assert_eq!(parse_number("1e3", &[]), Reading::Value(1000.0));
    assert_eq!(parse_number("-3", &[]), Reading::Value(-3.0));
}

#[test]
fn infinities() {
    for s in ["inf", "Infinity", "+inf", "∞"] {
        assert_eq!(parse_number(s, &[]), Reading::Value(f64::INFINITY), "{s}");
    }
    assert_eq!(
        parse_number("-Infinity", &[]),
        Reading::Value(f64::NEG_INFINITY)
    );
}

#[test]
fn placeholders_are_missing_not_zero() {
    for s in [
        "", "N/A", "NaN", "-", "—", "null", "None", "0.x", "117xxxms", "1,2xx",
    ] {
        assert_eq!(parse_number(s, &["ms"]), Reading::Missing, "{s:?}");
    }
}

#[test]
fn words_are_invalid() {
    for s in ["fast", "12 apples", "1.2.3", "⚠ 1.0"] {
        assert_eq!(parse_number(s, &[]), Reading::Invalid, "{s:?}");
    }
}

#[test]
fn json_values() {
    use serde_json::json;
    assert_eq!(json_number(&json!(3)), Reading::Value(3.0));
    assert_eq!(json_number(&json!("131")), Reading::Value(131.0));
    assert_eq!(json_number(&json!("inf")), Reading::Value(f64::INFINITY));
    assert_eq!(json_number(&json!(null)), Reading::Missing);
    assert_eq!(json_number(&json!([1])), Reading::Invalid);
}

/// `float_text` accepts exactly what `str::parse::<f64>` accepts, and says which kind: every
/// string of up to five characters over the characters a float is written with, and the words.
#[test]
fn float_text_agrees_with_the_standard_reader() {
    let alphabet: Vec<char> = "0159.eE+-nai_ x".chars().collect();
    let mut texts: Vec<String> = vec![String::new()];
    let mut last = vec![String::new()];
    for _ in 0..5 {
        let longer: Vec<String> = last
            .iter()
            .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
            .collect();
        texts.extend(longer.iter().cloned());
        last = longer;
    }
    for word in [
        "inf",
        "Infinity",
        "INFINITY",
        "infinit",
        "nan",
        "NaN",
        "nana",
        "infinityy",
    ] {
        for sign in ["", "+", "-", "--"] {
            texts.push(format!("{sign}{word}"));
        }
    }
    texts.extend(
        [
            "1e400",
            "-1e-400",
            "00.00e-0",
            "123456789012345678901234567890",
            "١",
        ]
        .map(String::from),
    );
    for text in &texts {
        let kind = float_text(text);
        match text.parse::<f64>() {
            Err(_) => assert_eq!(kind, None, "{text:?}"),
            Ok(v) if v.is_nan() => assert_eq!(
                kind,
                Some(FloatText::NaN {
                    negative: text.starts_with('-')
                }),
                "{text:?}"
            ),
            Ok(v) if v.is_infinite() && !text.contains(|c: char| c.is_ascii_digit()) => assert_eq!(
                kind,
                Some(FloatText::Infinite { negative: v < 0.0 }),
                "{text:?}"
            ),
            Ok(_) => assert_eq!(kind, Some(FloatText::Decimal), "{text:?}"),
        }
    }
}

proptest! {
    #[test]
    fn any_finite_number_round_trips(v in -1e12f64..1e12) {
        let text = format!("{v}");
        prop_assert_eq!(parse_number(&text, &[]), Reading::Value(v));
    }

    #[test]
    fn thousands_separators_are_ignored(v in 0u64..10_000_000_000) {
        let grouped = crate::format::fixed(v as f64, 0);
        prop_assert_eq!(parse_number(&grouped, &[]), Reading::Value(v as f64));
    }

    #[test]
    fn never_panics(s in "\\PC{0,40}") {
        let _ = parse_number(&s, &["ms", "%", "tok/s"]);
    }

    #[test]
    fn values_with_units_read_back(
        v in 0f64..1e9,
        unit in proptest::sample::select(vec!["ms", "%", "tok/s"]),
        space in proptest::bool::ANY,
    ) {
        let text = if space { format!("{v} {unit}") } else { format!("{v}{unit}") };
        prop_assert_eq!(parse_number(&text, &["ms", "%", "tok/s"]), Reading::Value(v));
    }

    #[test]
    fn displayed_numbers_read_back_within_their_precision(v in -1e9f64..1e9) {
        let shown = crate::format::number(v);
        let Reading::Value(back) = parse_number(&shown, &[]) else {
            return Err(TestCaseError::fail(format!("{shown} did not read back")));
        };
        // Three significant digits at least, two decimals below 100.
        let tolerance = (v.abs() * 0.0051).max(0.0051);
        prop_assert!((back - v).abs() <= tolerance, "{} -> {} -> {}", v, shown, back);
    }

    #[test]
    fn redacted_values_are_missing_never_numbers(digits in "[0-9]{1,4}", xs in 1usize..4, suffix in proptest::sample::select(vec!["", "ms", "%"])) {
        let text = format!("{digits}{}{suffix}", "x".repeat(xs));
        prop_assert_eq!(parse_number(&text, &["ms", "%"]), Reading::Missing);
    }

    #[test]
    fn time_units_scale_to_milliseconds(v in 0f64..1e6) {
        use crate::import::ms_per;
        prop_assert_eq!(ms_per("s").map(|k| v * k), Some(v * 1000.0));
        prop_assert_eq!(ms_per("ms").map(|k| v * k), Some(v));
        prop_assert!((ms_per("us").unwrap() * 1000.0 - 1.0).abs() < 1e-12);
    }
}

#[test]
fn a_comma_groups_thousands_and_nothing_else() {
    for (text, value) in [
        ("2,973.53", 2973.53),
        ("1,234,567", 1_234_567.0),
        ("-12,345", -12_345.0),
        ("1_000", 1000.0),
        ("999", 999.0),
    ] {
        assert_eq!(parse_number(text, &[]), Reading::Value(value), "{text}");
    }
    // Decimal commas, as European locales write them, are refused, never read as thousands:
    // `0,3` s was 3,000 ms.
    for text in [
        "0,3",
        "45,50",
        "1,5",
        "12,34",
        "1.234,5",
        "1,2345",
        "0,300",
        "-0,250",
        "00,123",
        ",5",
        "1,,000",
        "1,000.5,0",
        "1e3,0",
    ] {
        assert_eq!(parse_number(text, &[]), Reading::Invalid, "{text}");
    }
}
