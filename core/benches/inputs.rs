//! Inputs that were once slow, timed where speed is measured rather than in the unit tests
//! (whose wall-clock bounds would flake on a loaded runner): a 2,000,000-character inline
//! value (its reader was once quadratic: minutes), 100,000 nested block quotes (the sanitiser's
//! work grew with the square of the depth: a minute), a flowchart of 30 nodes each joined to the
//! next 10 (about 10^8 paths, which the loop search once followed one by one: 92 s for 25
//! nodes) and the largest flowchart allowed (100 nodes, 299 arrows). Each now takes
//! milliseconds; the unit tests keep what each must produce.
//!
//! Run with `cargo bench -p benchdeck-core --bench inputs` (or `cargo xtask bench`, which
//! writes the times into docs/PERFORMANCE.md).

// `criterion_group!` defines an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;

use benchdeck_core::report::{build_report, Palette};
use criterion::{criterion_group, criterion_main, Criterion};

/// A report of `body` with no results.
fn report(body: &str) -> usize {
    let text = format!("---\ntitle: Inputs\n---\n\n{body}\n");
    build_report("reports/r.md", "r", &text, &[], &Palette::new())
        .problems
        .len()
}

/// A flowchart of `n` nodes, each joined to the next `reach`.
fn dense(n: usize, reach: usize) -> String {
    let mut text = String::from("```flowchart\nflowchart TD\n");
    for i in 0..n {
        for j in i + 1..(i + 1 + reach).min(n) {
            text.push_str(&format!("N{i} --> N{j}\n"));
        }
    }
    text.push_str("```\n");
    text
}

/// The largest flowchart allowed: a chain of 100 nodes and 200 more arrows from its first
/// nodes to its last, long arrows through every layer.
fn largest() -> String {
    let mut body = String::from("```flowchart\nflowchart TD\n");
    for i in 0..99 {
        body.push_str(&format!("N{i} --> N{}\n", i + 1));
    }
    for i in 0..200 {
        body.push_str(&format!("N{} --> N{}\n", i % 20, 99 - (i / 20)));
    }
    body.push_str("```\n");
    body
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("inputs");
    group.sample_size(10);
    let value = format!("`={}`", "1".repeat(2_000_000));
    group.bench_function("an inline value of 2,000,000 digits", |b| {
        b.iter(|| report(black_box(&value)))
    });
    let quotes = format!("Intro.\n\n{} deep\n", ">".repeat(100_000));
    group.bench_function("100,000 nested block quotes", |b| {
        b.iter(|| report(black_box(&quotes)))
    });
    let paths = dense(30, 10);
    group.bench_function("a flowchart of 10^8 paths", |b| {
        b.iter(|| report(black_box(&paths)))
    });
    let big = largest();
    group.bench_function("the largest flowchart allowed", |b| {
        b.iter(|| report(black_box(&big)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
