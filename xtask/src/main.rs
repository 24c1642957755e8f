//! Project automation, run as `cargo xtask <command>` (see `.cargo/config.toml`).
//!
//! Every command that needs tools finds or installs them first ([`tools`]), so a fresh machine
//! with only rustup and cargo needs nothing but `cargo xtask serve` or `cargo xtask test`.

mod bench;
mod bundle;
mod conformance;
mod dist;
mod fuzz;
mod install;
mod lint;
mod measuring;
mod rng;
mod run;
mod scale;
mod serve;
mod synth;
mod test;
mod tools;
mod trunk;
mod wasm_budget;
mod wheel;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

const HELP: &str = "\
usage: cargo xtask <command>

commands:
  serve                       set up what is missing, build the site from results/ and reports/,
                              serve it at http://127.0.0.1:8080/ and reload on every change
  build [--public-url P] [--site-url U] [--dist D]
                              the static site in dist/ (or D); P is the path it is served under,
                              `/` by default, `/<repo>/` for GitHub Pages; U is the site's full
                              address (https://user.github.io/repo/), for link previews' absolute
                              image URLs, and gives P when P is not given
  dist [--bundle-only | --check-install]
                              the installable benchdeck: the web app built once into cli/bundle/
                              (all --bundle-only does), the crates packaged as crates.io would
                              serve them (target/package/*.crate; `cargo install` needs only
                              Rust), and in target/wheels/ the wheels of `pip install
                              benchdeck-cli` (Linux x86_64 and aarch64 for glibc 2.17, musl)
                              and a static x86_64 binary as .tar.gz, checked with auditwheel and
                              against 15 MB; --check-install then installs the crates with
                              `cargo install` in a fresh CARGO_HOME (minutes) and tests that
                              benchdeck's site in headless Chromium
  test                        set up what is missing and run every test: native, WebAssembly,
                              and end to end in headless Chromium
  install-test                the last part of `test` alone: the test run's benchdeck as a wheel,
                              installed with pip into a fresh virtual environment without cargo,
                              rustc, trunk or Node on PATH; its init, build and serve of a
                              project of result files, and its site in headless Chromium
  setup [--tests]             only find or install the tools (the browser too with --tests)
  bench [--only large-files|page-loads|reload|build-speed|wasm-contents]
                              page load against seed 002's Plotly page, the 100k-point scatter
                              drawn by benchdeck (hidden page /_bench/scatter/) and by uPlot in
                              headless Chromium, the scale measurements (as `scale --measure`),
                              740 MB result files read by `benchdeck inspect` against Python's
                              json.load, a saved report's way to its reloaded page under
                              `benchdeck serve`, `benchdeck build`'s times against gzip of
                              24 MB, what the app's wasm holds (by twiggy), and
                              the criterion benchmarks; writes
                              docs/PERFORMANCE.md (not run by CI); --only SECTION measures that
                              part alone and replaces its section in the file
  lint                        cargo fmt --check, and clippy with warnings denied, native and wasm32
  fuzz [TARGET] [--seconds N] the importers under libFuzzer, N seconds per target (default 600);
                              installs nightly and cargo-fuzz when missing
  scale [--reports N] [--runs-per-report M] [--out D] [--measure [--write]]
                              a synthetic project of N reports (200) of M runs (100) each, in
                              D (target/scale), labelled synthetic in every file; --measure
                              builds it at 3, N/4, N/2 and N reports next to the repository's
                              site, measures build time, page loads and memory, and prints the
                              Scale section of docs/PERFORMANCE.md (--write puts it there)
  synth                       regenerate the synthetic per-request data set in
                              results/latency-analysis/ (deterministic)
  conformance [--json]        `benchdeck inspect` over every result file in ../shared (skipped
                              with a notice when ../shared is absent)
  help                        this text

Pinned tools: trunk, wasm-bindgen-cli (the version in Cargo.lock), binaryen's wasm-opt, for the
tests Debian's Chromium, playwright-core and maturin, and for dist maturin, ziglang and
auditwheel from PyPI (each in a virtual environment of its own). They are installed once into
$BENCHDECK_TOOLS (default ~/.cache/benchdeck/tools) unless already on PATH at that version.
";

fn main() -> ExitCode {
    match execute(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("xtask: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn execute(args: Vec<String>) -> Result<()> {
    let root = project_root();
    let (command, rest) = args
        .split_first()
        .map_or(("help", &[][..]), |(c, r)| (c.as_str(), r));
    match command {
        "serve" => {
            no_options(command, rest)?;
            let toolbox = tools::ensure(&root, tools::Needs::Site)?;
            serve::run(&root, &toolbox)
        }
        "build" => command_build(&root, rest),
        "dist" => command_dist(&root, rest),
        "test" => {
            no_options(command, rest)?;
            let toolbox = tools::ensure(&root, tools::Needs::Tests)?;
            test::all(&root, &toolbox)
        }
        "install-test" => {
            no_options(command, rest)?;
            let toolbox = tools::ensure(&root, tools::Needs::Tests)?;
            install::test(&root, &toolbox)
        }
        "setup" => {
            let needs = if rest.iter().any(|a| a == "--tests") {
                tools::Needs::Tests
            } else {
                tools::Needs::Site
            };
            tools::ensure(&root, needs).map(|_| run::step("every tool is in place"))
        }
        "bench" => command_bench(&root, rest),
        "lint" => {
            no_options(command, rest)?;
            tools::ensure_wasm_target()?;
            lint::all(&root)
        }
        "fuzz" => {
            let (target, seconds) = fuzz_args(rest)?;
            fuzz::run(&root, target.as_deref(), seconds)
        }
        "scale" => command_scale(&root, rest),
        "synth" => {
            no_options(command, rest)?;
            synth::run(&root)
        }
        "conformance" => conformance::run(&root, rest.iter().any(|a| a == "--json")),
        "help" | "--help" | "-h" => {
            print!("{HELP}");
            Ok(())
        }
        other => bail!("unknown command `{other}`\n\n{HELP}"),
    }
}

/// `cargo xtask build [--site-url URL] [--public-url PATH] [--dist DIR]`: the site, as the
/// pages workflow builds it.
fn command_build(root: &Path, rest: &[String]) -> Result<()> {
    let site_url = option(rest, "--site-url")?;
    let public_url = public_url_of(
        option(rest, "--public-url")?.as_deref(),
        site_url.as_deref(),
    )?;
    let dist = option(rest, "--dist")?.map_or_else(|| root.join("dist"), PathBuf::from);
    let toolbox = tools::ensure(root, tools::Needs::Site)?;
    trunk::build(
        root,
        &toolbox,
        &trunk::BuildOptions {
            dist: &dist,
            public_url: &public_url,
            site_url: site_url.as_deref(),
        },
    )
}

/// `cargo xtask dist [--bundle-only | --check-install]`: the release files, with the tools its scope
/// needs.
fn command_dist(root: &Path, rest: &[String]) -> Result<()> {
    let scope = dist::Scope::parse(rest)?;
    let needs = match scope {
        dist::Scope::Bundle => tools::Needs::Site,
        dist::Scope::All => tools::Needs::Dist { tests: false },
        dist::Scope::CheckInstall => tools::Needs::Dist { tests: true },
    };
    let toolbox = tools::ensure(root, needs)?;
    dist::run(root, &toolbox, scope)
}

/// `cargo xtask bench [--only large-files | page-loads | reload | build-speed | wasm-contents]`: the
/// benchmarks, all or one section.
fn command_bench(root: &Path, rest: &[String]) -> Result<()> {
    if let Some(only) = bench_only(rest)? {
        return match only.as_str() {
            "large-files" => bench::large_files_only(root),
            "page-loads" => {
                let toolbox = tools::ensure(root, tools::Needs::Tests)?;
                bench::page_loads_only(root, &toolbox)
            }
            "reload" | "build-speed" | "wasm-contents" => {
                let toolbox = tools::ensure(root, tools::Needs::Tests)?;
                bench::section_only(root, &toolbox, &only)
            }
            other => bail!(
                "`bench --only` takes `large-files`, `page-loads`, `reload`, `build-speed` or \
                 `wasm-contents`, found `{other}`; see `cargo xtask help`"
            ),
        };
    }
    let toolbox = tools::ensure(root, tools::Needs::Tests)?;
    bench::all(root, &toolbox)
}

/// `cargo xtask scale …`: a generated set of result files, or its measurement with `--measure`.
fn command_scale(root: &Path, rest: &[String]) -> Result<()> {
    let args = scale::Args::parse(rest)?;
    if args.measure {
        let toolbox = tools::ensure(root, tools::Needs::Tests)?;
        scale::measure::run(root, &toolbox, &args)
    } else {
        scale::generate_into(root, &args)
    }
}

/// The workspace root: the parent of this crate's folder.
fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

fn no_options(command: &str, rest: &[String]) -> Result<()> {
    if let Some(extra) = rest.first() {
        bail!("`{command}` takes no arguments, found `{extra}`; see `cargo xtask help`");
    }
    Ok(())
}

/// The value of `--name VALUE` or `--name=VALUE`; any other argument is an error.
fn option(args: &[String], name: &str) -> Result<Option<String>> {
    let mut value = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == name {
            let v = iter
                .next()
                .with_context(|| format!("`{name}` needs a value"))?;
            value = Some(v.clone());
        } else if let Some(v) = arg.strip_prefix(&format!("{name}=")) {
            value = Some(v.to_string());
        } else if !arg.starts_with("--")
            || !matches!(
                arg.split('=').next(),
                Some("--public-url" | "--site-url" | "--dist")
            )
        {
            bail!("unexpected argument `{arg}`; see `cargo xtask help`");
        } else {
            // Another known option: skip its value.
            if !arg.contains('=') {
                iter.next();
            }
        }
    }
    Ok(value)
}

/// `bench`'s `--only SECTION` (or `--only=SECTION`); no other argument.
fn bench_only(args: &[String]) -> Result<Option<String>> {
    match args {
        [] => Ok(None),
        [flag, value] if flag == "--only" => Ok(Some(value.clone())),
        [flag] if flag.starts_with("--only=") => Ok(Some(flag["--only=".len()..].to_string())),
        [flag] if flag == "--only" => {
            bail!("`--only` needs a section: large-files, page-loads, reload or wasm-contents")
        }
        _ => bail!(
            "`bench` takes only `--only SECTION`, found `{}`; see `cargo xtask help`",
            args.join(" ")
        ),
    }
}

/// `[TARGET] [--seconds N]`; ten minutes per target by default.
fn fuzz_args(args: &[String]) -> Result<(Option<String>, u64)> {
    let (mut target, mut seconds) = (None, 600);
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--seconds" {
            seconds = iter
                .next()
                .and_then(|s| s.parse().ok())
                .context("`--seconds` needs a whole number of seconds")?;
        } else if arg.starts_with("--") || target.is_some() {
            bail!("unexpected argument `{arg}`; see `cargo xtask help`");
        } else {
            target = Some(arg.clone());
        }
    }
    Ok((target, seconds))
}

/// `/repo`, `repo/` and `/repo/` all mean `/repo/`: the app and trunk need both slashes.
fn normalize_public_url(url: &str) -> Result<String> {
    let trimmed = url.trim_matches('/');
    if trimmed
        .chars()
        .any(|c| c.is_whitespace() || c == '?' || c == '#')
    {
        bail!("`--public-url {url}`: expected a path such as `/` or `/my-repo/`");
    }
    Ok(if trimmed.is_empty() {
        "/".to_string()
    } else {
        format!("/{trimmed}/")
    })
}

/// The path the site is served under: `--public-url`, else the path of `--site-url`, else `/`.
/// Both given must agree, or the link previews would point where the site is not.
fn public_url_of(public_url: Option<&str>, site_url: Option<&str>) -> Result<String> {
    let from_site = site_url.map(site_url_path).transpose()?;
    match (public_url.map(normalize_public_url).transpose()?, from_site) {
        (Some(public), Some(path)) if public != path => bail!(
            "`--public-url {public}` and `--site-url {}` disagree: the site URL's path is \
             `{path}`; give one of them",
            site_url.unwrap_or_default()
        ),
        (Some(public), _) => Ok(public),
        (None, Some(path)) => Ok(path),
        (None, None) => Ok("/".to_string()),
    }
}

/// The path of an absolute `http(s)` site URL, normalised like a public URL:
/// `https://user.github.io/repo` is served under `/repo/`.
fn site_url_path(url: &str) -> Result<String> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .filter(|r| !r.is_empty() && !r.starts_with('/'))
        .with_context(|| {
            format!("`--site-url {url}`: expected the site's full address, such as `https://user.github.io/repo/`")
        })?;
    if rest.contains(['?', '#']) {
        bail!("`--site-url {url}`: expected an address without `?` or `#`");
    }
    normalize_public_url(rest.find('/').map_or("/", |i| &rest[i..]))
        .with_context(|| format!("`--site-url {url}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_urls_get_both_slashes() {
        assert_eq!(normalize_public_url("").unwrap(), "/");
        assert_eq!(normalize_public_url("/").unwrap(), "/");
        assert_eq!(normalize_public_url("repo").unwrap(), "/repo/");
        assert_eq!(normalize_public_url("/a/b").unwrap(), "/a/b/");
        assert!(normalize_public_url("/a b/").is_err());
    }

    #[test]
    fn the_site_url_gives_the_public_url_and_must_agree_with_it() {
        let site = Some("https://user.github.io/repo");
        assert_eq!(public_url_of(None, site).unwrap(), "/repo/");
        assert_eq!(public_url_of(Some("/repo"), site).unwrap(), "/repo/");
        assert!(public_url_of(Some("/other/"), site).is_err());
        assert_eq!(
            public_url_of(None, Some("https://example.org")).unwrap(),
            "/"
        );
        assert_eq!(public_url_of(Some("x"), None).unwrap(), "/x/");
        assert_eq!(public_url_of(None, None).unwrap(), "/");
        for bad in [
            "user.github.io/repo",
            "https://",
            "https:///x",
            "https://a/b?c",
        ] {
            assert!(public_url_of(None, Some(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn options_are_read_in_both_spellings() {
        let args: Vec<String> = ["--dist", "out", "--public-url=/x/"]
            .map(String::from)
            .into();
        assert_eq!(
            option(&args, "--public-url").unwrap().as_deref(),
            Some("/x/")
        );
        assert_eq!(option(&args, "--dist").unwrap().as_deref(), Some("out"));
        let args: Vec<String> = ["--site-url", "https://a.b/x/", "--dist=out"]
            .map(String::from)
            .into();
        assert_eq!(
            option(&args, "--site-url").unwrap().as_deref(),
            Some("https://a.b/x/")
        );
        assert_eq!(option(&args, "--public-url").unwrap(), None);
        let bad: Vec<String> = ["--nope".to_string()].into();
        assert!(option(&bad, "--dist").is_err());
        let missing: Vec<String> = ["--dist".to_string()].into();
        assert!(option(&missing, "--dist").is_err());
    }
}
