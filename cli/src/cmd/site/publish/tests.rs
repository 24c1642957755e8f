//! What is published of a `results/` folder holding result files beside a page, a drawing with a
//! script, logs with a token, and a result log with a token.

use super::*;
use benchdeck_core::assemble::build_site;

const RESULT: &str = include_str!("../../../../../tests/fixtures/vllm/concurrency2-qwen.json");
const CONSOLE: &str = include_str!("../../../../../tests/fixtures/console/sglang.log");
const TOKEN: &str = "HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh";

/// The folder: two result files, and what must not be published beside them.
fn results() -> Vec<InputFile> {
    let file = |path: &str, text: &str| InputFile {
        path: path.into(),
        bytes: text.as_bytes().to_vec(),
    };
    vec![
        file("qwen/a.json", RESULT),
        file("qwen/b.log", CONSOLE),
        file("qwen/index.html", "<script>indexedDB.open('kept')</script>"),
        file(
            "qwen/chart.svg",
            "<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>",
        ),
        file("qwen/server.log", &format!("starting\n{TOKEN}\nready\n")),
        file("qwen/tokened.log", &format!("{CONSOLE}\n{TOKEN}\n")),
        // A result log named as a page: it gives runs, and is still not served.
        file("qwen/results.html", CONSOLE),
        // A result named with a time: a drive letter's `:` on Windows.
        file("qwen/run-2025-01-01T10:00:00.log", CONSOLE),
        // Documentation, without results: neither published nor listed.
        file("qwen/README.md", "# Qwen runs\n\nOn one L4.\n"),
    ]
}

fn publication(publish_secrets: bool) -> Publication {
    let inputs = results();
    let site = build_site(&[], &inputs);
    let unread = [(
        "qwen/huge.json".to_string(),
        "600 MB, over the limit".to_string(),
    )];
    plan(
        &site.pages,
        &site.imports,
        &inputs,
        &unread,
        publish_secrets,
    )
}

#[test]
fn only_result_files_of_a_served_type_without_secrets_are_published() {
    let p = publication(false);
    let published: Vec<&str> = p.published.iter().map(String::as_str).collect();
    assert_eq!(published, ["qwen/a.json", "qwen/b.log"]);
    let withheld: Vec<(&str, &Withheld)> =
        p.withheld.iter().map(|(f, w)| (f.as_str(), w)).collect();
    assert_eq!(withheld.len(), 7, "{withheld:?}");
    assert_eq!(
        p.withheld["qwen/run-2025-01-01T10:00:00.log"],
        Withheld::NotPlain
    );
    assert!(!p.withheld.contains_key("qwen/README.md"));
    assert_eq!(p.withheld["qwen/index.html"], Withheld::NoRun);
    assert_eq!(p.withheld["qwen/chart.svg"], Withheld::NoRun);
    assert_eq!(p.withheld["qwen/server.log"], Withheld::NoRun);
    assert_eq!(p.withheld["qwen/results.html"], Withheld::NotServed);
    let Withheld::Secret(secret) = &p.withheld["qwen/tokened.log"] else {
        panic!("{:?}", p.withheld["qwen/tokened.log"]);
    };
    assert_eq!(secret.line, CONSOLE.lines().count() + 2);
    assert!(matches!(p.withheld["qwen/huge.json"], Withheld::NotRead(_)));
}

#[test]
fn the_build_says_how_many_are_not_published_and_why_each() {
    let lines = publication(false).report();
    assert_eq!(
        lines[0],
        "benchdeck: 7 files in results/ not published (3 gave no run, 1 named with `:` or `\\`, \
         1 not read, 1 of a type the site does not serve, 1 with what looks like a secret); only \
         result files that gave runs are:"
    );
    let line = |file: &str| lines.iter().find(|l| l.contains(file)).unwrap().clone();
    let secret = line("tokened.log");
    assert!(
        secret.starts_with(&format!(
            "  results/qwen/tokened.log:{}: holds what looks like a Hugging Face token",
            CONSOLE.lines().count() + 2
        )),
        "{secret}"
    );
    assert!(secret.contains("--publish-secrets"), "{secret}");
    assert!(
        !lines.join("\n").contains("hf_AbCd"),
        "the secret itself is never printed"
    );
    assert!(
        line("results.html").contains("only .json, .jsonl, .csv"),
        "{lines:?}"
    );
    assert!(line("huge.json").contains("600 MB"), "{lines:?}");
}

#[test]
fn publish_secrets_publishes_a_result_file_with_a_token() {
    let p = publication(true);
    assert!(p.published.contains("qwen/tokened.log"));
    assert!(
        !p.published.contains("qwen/server.log"),
        "it still gave no run"
    );
}

#[test]
fn pages_link_only_to_published_files() {
    let inputs = results();
    let mut site = build_site(&[], &inputs);
    let p = plan(&site.pages, &site.imports, &inputs, &[], false);
    site.pages[0]
        .blocks
        .push(benchdeck_core::site::Block::Chart {
            chart: benchdeck_core::chart::ChartSpec {
                series: vec![benchdeck_core::chart::Series {
                    name: "s".into(),
                    color: 0,
                    points: ["qwen/a.json", "qwen/tokened.log"]
                        .iter()
                        .map(|f| benchdeck_core::chart::Point {
                            link: result_file_href(f),
                            ..Default::default()
                        })
                        .collect(),
                }],
                ..Default::default()
            },
        });
    p.strip_links(&mut site.pages);
    assert_eq!(site.pages[0].sources, ["qwen/a.json", "qwen/b.log"]);
    let links: Vec<&str> = site.pages[0].charts().last().unwrap().series[0]
        .points
        .iter()
        .map(|p| p.link.as_str())
        .collect();
    assert_eq!(links, ["results/qwen/a.json", ""]);
}

#[test]
fn served_types_go_by_the_last_extension() {
    for ok in ["a.json", "a/b.JSONL", "x.tar.csv", "r.md", "server.log"] {
        assert!(is_served(ok), "{ok}");
    }
    for bad in [
        "a.html",
        "a.svg",
        "a.json.html",
        "json",
        ".json",
        "a/b",
        "a.htm",
        "a.xhtml",
    ] {
        assert!(!is_served(bad), "{bad}");
    }
}
