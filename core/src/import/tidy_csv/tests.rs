use crate::import::{import, import_text, ImportedFile};
use crate::model::{LoadTarget, Location, Metric, Producer, Rate, Stat};
use crate::problem::Severity;

fn fixture_text(name: &str) -> String {
    crate::fixtures::text(&format!("tidy-csv/{name}"))
}

fn fixture(name: &str) -> ImportedFile {
    import(name, fixture_text(name).as_bytes())
}

fn close(actual: Option<f64>, expected: f64) {
    let a = actual.unwrap_or(f64::NAN);
    assert!((a - expected).abs() < 1e-9, "{a} != {expected}");
}

#[test]
fn a_mapped_sweep_of_two_engines() {
    let f = fixture("engines.csv");
    assert_eq!(f.producer, Some(Producer::TidyCsv));
    let loads: Vec<LoadTarget> = f.runs.iter().map(|r| r.load.target).collect();
    assert_eq!(
        loads,
        [1.0, 8.0, 1.0, 8.0, 16.0, 4.0]
            .map(LoadTarget::Concurrency)
            .to_vec()
    );
    let first = &f.runs[0];
    assert_eq!(first.provenance.location, Location::line(7));
    assert_eq!(first.provenance.producer, Producer::TidyCsv);
    assert_eq!(first.config.engine.as_deref(), Some("vllm"));
    assert_eq!(first.config.hardware.as_deref(), Some("1x A10G"));
    assert_eq!(first.config.label.as_deref(), Some("tp=1"), "`config=tp`");
    assert_eq!(first.config.model, None);
    // Seconds, milliseconds and microseconds, all converted to ms.
    close(first.latency_stat(Metric::Ttft, Stat::P(50.0)), 81.0);
    close(first.latency_stat(Metric::Ttft, Stat::P(99.0)), 120.0);
    close(first.latency_stat(Metric::E2e, Stat::Mean), 2500.0);
    close(first.latency_stat(Metric::Tpot, Stat::Median), 15.25);
    // Tokens per minute, converted to per second.
    close(first.throughput.output_tok_s, 48.5);
    close(f.runs[1].throughput.output_tok_s, 310.2);
    assert_eq!(first.requests.total, Some(20), "derived from ok + errors");
    assert_eq!(first.requests.failed, Some(0));
    assert_eq!(
        first.tokens.input_len.as_ref().and_then(|d| d.mean),
        Some(512.0)
    );
    // A cell may carry the declared unit.
    close(f.runs[1].latency_stat(Metric::Ttft, Stat::P(50.0)), 240.0);
    let sglang8 = &f.runs[3];
    assert_eq!(sglang8.config.engine.as_deref(), Some("sglang"));
    assert_eq!(sglang8.config.label.as_deref(), Some("tp=2"));
    assert_eq!(
        sglang8.latency_stat(Metric::Ttft, Stat::P(50.0)),
        None,
        "N/A"
    );
    assert_eq!(sglang8.requests.total, Some(20));
    assert_eq!(sglang8.requests.success_rate(), Some(0.9));
}

#[test]
fn a_row_with_no_success_is_a_failed_run_and_bad_cells_are_located() {
    let f = fixture("engines.csv");
    let failed = &f.runs[4];
    assert!(failed.all_failed());
    assert!(failed.latency.is_empty(), "zeros are not latencies");
    assert_eq!(failed.throughput.output_tok_s, None);
    let mut got: Vec<String> = f.all_problems().map(ToString::to_string).collect();
    got.sort();
    let mut expected = vec![
        "engines.csv:6: warning: no `# benchdeck:` mapping names the columns `notes`; their \
         values are ignored",
        "engines.csv:11: warning: no request succeeded; the run is shown as failed and its \
         latencies are ignored",
        "engines.csv:12:1: error: `users`: expected a concurrency of at least 1, found `x`; this \
         row is skipped",
        "engines.csv:13:4: error: `ttft_p50`: expected a number of at least 0, found `fast`",
    ];
    expected.sort();
    assert_eq!(got, expected);
    let last = &f.runs[5];
    assert_eq!(last.latency_stat(Metric::Ttft, Stat::P(50.0)), None);
    close(last.latency_stat(Metric::Ttft, Stat::P(99.0)), 200.0);
}

/// 1-based column of `item` in `line`, in characters.
fn col(line: &str, item: &str) -> usize {
    line[..line.find(item).expect("item in line")]
        .chars()
        .count()
        + 1
}

#[test]
fn every_mapping_mistake_is_an_error_at_its_line_and_column() {
    let text = fixture_text("bad-mapping.csv");
    let lines: Vec<&str> = text.lines().collect();
    let f = import("bad-mapping.csv", text.as_bytes());
    let at =
        |line: usize, item: &str| format!("bad-mapping.csv:{line}:{}", col(lines[line - 1], item));
    let header = "`users`, `engine`, `ttft_p50`, `lat`, `tok_s`, `tpot`";
    let second_ttft = lines[1].rfind("ttft.p50").unwrap() + 1;
    let expected = vec![
        format!(
            "{}: error: `load=concurrency users`: expected `load=<kind>:<column>` with kind \
             `concurrency`, `rate` or `batch`",
            at(1, "load=")
        ),
        format!(
            "{}: error: `ttft.p50=ttft_p50`: expected the column's time unit in parentheses, \
             e.g. `ttft.p50=ttft_p50 (ms)`; units are never guessed",
            at(1, "ttft.p50")
        ),
        format!(
            "{}: error: `e2e.p99`: unknown time unit `(minutes)`; expected `(ms)`, `(s)`, `(us)` \
             or `(ns)`",
            at(1, "e2e.p99")
        ),
        format!(
            "bad-mapping.csv:2:{second_ttft}: error: `ttft.p50` is mapped twice (first at \
             {}); expected each target once, this one is ignored",
            at(2, "ttft.p50")
        ),
        format!(
            "{}: error: `speed`: unknown target; expected one of load=<kind>:<column>, \
             <metric>.<stat>=<column> (<unit>), per request: <metric>=<column> (<unit>), start=<column> (<unit>), input_tokens, output_tokens, error; input_len.<stat>, output_len.<stat>, \
             output_tok_s, output_tok_s_per_user, total_tok_s, input_tok_s, requests_per_s, \
             goodput_req_s, \
             achieved_rps, total, succeeded, failed, total_input, total_output, \
             max_concurrency, config, config.<field>",
            at(2, "speed")
        ),
        format!(
            "{}: error: `tpot.p101`: unknown statistic `p101`; expected mean, median, std, min, \
             max or p<N> such as p99",
            at(2, "tpot.p101")
        ),
        format!(
            "{}: error: `itl.mean`: no column `missing_col` in the header at line 5; expected \
             one of {header}",
            at(3, "itl.mean")
        ),
        format!(
            "{}: error: `config.gpu`: unknown configuration field; expected `config.model`, \
             `config.engine`, `config.label`, `config.hardware` or `config.dataset`",
            at(3, "config.gpu")
        ),
        format!(
            "{}: error: `config` takes no unit, but `(ms)` was given; expected \
             `config=<column>`",
            at(3, "config=engine")
        ),
        format!(
            "{}: error: `output_tok_s`: unknown rate unit `(/hour)`; expected none (per second), \
             `(/s)` or `(/min)`",
            at(3, "output_tok_s")
        ),
        format!(
            "{}: error: `latency_p50`: unknown target; expected one of load=<kind>:<column>, \
             <metric>.<stat>=<column> (<unit>), per request: <metric>=<column> (<unit>), start=<column> (<unit>), input_tokens, output_tokens, error; input_len.<stat>, output_len.<stat>, \
             output_tok_s, output_tok_s_per_user, total_tok_s, input_tok_s, requests_per_s, \
             goodput_req_s, \
             achieved_rps, total, succeeded, failed, total_input, total_output, \
             max_concurrency, config, config.<field>",
            at(4, "latency_p50")
        ),
        "bad-mapping.csv:5: warning: no `# benchdeck:` mapping names the columns `engine`, \
         `lat`, `tok_s`, `tpot`; their values are ignored"
            .to_string(),
    ];
    let got: Vec<String> = f.all_problems().map(ToString::to_string).collect();
    assert_eq!(got, expected);
    // What was mapped right is used.
    let [run] = f.runs.as_slice() else {
        panic!("{:?}", f.runs)
    };
    assert_eq!(run.load.target, LoadTarget::Concurrency(1.0));
    assert_eq!(run.latency_stat(Metric::Ttft, Stat::P(50.0)), Some(100.0));
}

#[test]
fn rates_infinity_literal_model_and_crlf() {
    let f = fixture("rates-crlf.csv");
    let loads: Vec<LoadTarget> = f.runs.iter().map(|r| r.load.target).collect();
    assert_eq!(
        loads,
        [
            LoadTarget::RequestRate(Rate::PerSecond(0.5)),
            LoadTarget::RequestRate(Rate::Infinite),
        ]
    );
    assert_eq!(f.runs[0].config.model.as_deref(), Some("acme/chat-13b"));
    assert_eq!(
        f.runs[1].latency_stat(Metric::E2e, Stat::P(99.0)),
        Some(5100.0)
    );
    assert_eq!(f.runs[1].requests.total, Some(100));
    let got: Vec<String> = f.all_problems().map(ToString::to_string).collect();
    assert_eq!(
        got,
        [
            "rates-crlf.csv:5:1: error: `qps`: expected a positive request rate (or `inf`), found \
          `-1`; this row is skipped"
        ]
    );
}

#[test]
fn without_a_load_mapping_nothing_imports_and_it_says_why() {
    let f = import_text(
        "x.csv",
        "# a comment\n# benchdeck: ttft.p50=a (ms)\na,b\n1,2\n",
    );
    assert!(f.failed());
    let got: Vec<String> = f.problems.iter().map(ToString::to_string).collect();
    assert_eq!(
        got,
        ["x.csv:2: error: expected a `load=<kind>:<column>` mapping (kind `concurrency`, `rate` \
          or `batch`); without a load point no row can become a run"]
    );
}

#[test]
fn batch_loads_counts_and_a_late_mapping_line() {
    let text = "# benchdeck: load=batch:bs, total=n, succeeded=ok, max_concurrency=cap, \
                achieved_rps=rps, config.dataset=ds\nbs,n,ok,cap,rps,ds\n\
                # benchdeck: e2e.mean=x (ms)\n4,10,9,8,1.5,sharegpt\n2.5,1,1,1,1,x\n";
    let f = import_text("b.csv", text);
    let run = &f.runs[0];
    assert_eq!(run.load.target, LoadTarget::BatchSize(4));
    assert_eq!(run.requests.failed, Some(1));
    assert_eq!(run.load.max_concurrency, Some(8));
    assert_eq!(run.load.achieved_rps, Some(1.5));
    assert_eq!(run.config.dataset.as_deref(), Some("sharegpt"));
    let got: Vec<String> = f.all_problems().map(ToString::to_string).collect();
    assert_eq!(
        got,
        [
            "b.csv:3: warning: a `# benchdeck:` line after the header is ignored; expected the \
             mapping before the header",
            "b.csv:5:1: error: `bs`: expected a whole batch size of at least 1, found `2.5`; \
             this row is skipped",
        ]
    );
}

#[test]
fn odd_files_never_panic() {
    for text in [
        "# benchdeck:",
        "# benchdeck: load=concurrency:a\n",
        "# benchdeck: load=concurrency:a\na\n\"unclosed\n",
        "# BENCHDECK: load=concurrency:a, ttft.p50=a (ms), config.model=\"x\na,a\n1,2\n",
        "# benchdeck: ===,,, =, load=:, config=, ttft.=a (ms), .p50=a (s)\na\n1\n",
        "#benchdeck:load=rate:é (ms)\né\n∞\n",
    ] {
        let f = import_text("t.csv", text);
        assert_eq!(f.producer, Some(Producer::TidyCsv), "{text:?}");
        assert!(
            f.all_problems().any(|p| p.severity == Severity::Error),
            "{text:?}: {:?}",
            f.problems
        );
    }
}

#[test]
fn the_documented_example_imports_as_described() {
    let text = "# benchdeck: load=concurrency:users, config=engine, config.hardware=\"1x A10G\"\n\
                # benchdeck: ttft.p50=ttft_p50 (s), ttft.p99=ttft_p99 (s), e2e.mean=latency_ms (ms)\n\
                # benchdeck: output_tok_s=tok_per_s, succeeded=ok, failed=errors\n\
                users,engine,ttft_p50,ttft_p99,latency_ms,tok_per_s,ok,errors\n\
                1,vllm,0.081,0.120,2500,48.5,20,0\n\
                8,vllm,0.240,0.410,3900,310.2,20,0\n";
    let f = import_text("doc.csv", text);
    assert!(f.all_problems().next().is_none(), "{:?}", f.problems);
    let run = &f.runs[1];
    assert_eq!(run.load.target, LoadTarget::Concurrency(8.0));
    assert_eq!(run.config.engine.as_deref(), Some("vllm"));
    assert_eq!(run.config.hardware.as_deref(), Some("1x A10G"));
    close(run.latency_stat(Metric::Ttft, Stat::P(99.0)), 410.0);
    assert_eq!(run.throughput.output_tok_s, Some(310.2));
    assert_eq!(run.requests.total, Some(20));
}

#[test]
fn the_rate_one_user_sees_is_kept_apart_from_the_servers_throughput() {
    let text = "# benchdeck: load=concurrency:users, output_tok_s=tok_s, output_tok_s_per_user=user_tok_s\n\
                users,tok_s,user_tok_s\n\
                4,310.5,85.1\n";
    let f = import("per-user.csv", text.as_bytes());
    assert_eq!(f.problems, vec![]);
    close(f.runs[0].throughput.output_tok_s, 310.5);
    close(f.runs[0].throughput.output_tok_s_per_user, 85.1);
}
