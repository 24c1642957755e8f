//! The `benchdeck` binary as Python wheels (maturin, `bindings = "bin"` in `pyproject.toml`),
//! the web app embedded as in every build of the CLI: `pip install benchdeck-cli` puts
//! `benchdeck` on `PATH` in seconds where `cargo install` compiles for minutes.
//!
//! - [`release`], run by `cargo xtask dist`: the Linux wheels, linked by zig against glibc 2.17
//!   (`manylinux_2_17`, x86_64 and aarch64) and musl (`musllinux_1_2`), each checked by
//!   `auditwheel show` and against [`MAX_WHEEL_BYTES`]; the musl wheel's static binary also goes
//!   into a `.tar.gz` for machines without Python. `.github/workflows/release.yml` runs the same
//!   maturin commands with maturin's GitHub Action, and macOS and Windows with [`RELEASE_ARGS`]
//!   (the tests below keep them equal).
//! - [`dev_wheel`]: the install test's wheel: the dev binary the test run has already built,
//!   packaged by maturin in seconds instead of a release build of minutes.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::run::{self, step};
use crate::tools::Toolbox;

/// The distribution's name on PyPI (`benchdeck` there is an unrelated project).
pub const DIST_NAME: &str = "benchdeck-cli";

/// Where wheels and the tarball go, relative to the repository; release.yml uploads from there.
pub const OUT: &str = "target/wheels";

/// The largest wheel benchdeck ships.
pub const MAX_WHEEL_BYTES: u64 = 15_000_000;

/// `maturin build`'s arguments for every release wheel; Linux adds [`Linux::args`]' own.
pub const RELEASE_ARGS: [&str; 3] = ["--release", "--out", OUT];

/// A Linux wheel: its Rust target and the platform tag zig links it for.
#[derive(Debug, Clone, Copy)]
pub struct Linux {
    /// The Rust target (maturin-action's input `target`).
    pub target: &'static str,
    /// maturin's `--compatibility`: the oldest glibc (or musl) the binary runs on.
    pub compatibility: &'static str,
}

/// The Linux wheels `cargo xtask dist` builds, here and in release.yml.
pub const LINUX: [Linux; 3] = [
    Linux {
        target: "x86_64-unknown-linux-gnu",
        compatibility: "manylinux2014",
    },
    Linux {
        target: "aarch64-unknown-linux-gnu",
        compatibility: "manylinux2014",
    },
    Linux {
        target: STATIC_TARGET,
        compatibility: "musllinux_1_2",
    },
];

/// The target whose binary is static and goes into the tarball.
pub const STATIC_TARGET: &str = "x86_64-unknown-linux-musl";

impl Linux {
    /// `maturin build`'s arguments but `--target`, which maturin-action passes from its input.
    pub fn args(&self) -> Vec<&'static str> {
        let mut args = RELEASE_ARGS.to_vec();
        args.extend(["--zig", "--compatibility", self.compatibility]);
        args
    }
}

/// The static binary's tarball: `benchdeck-VERSION-x86_64-unknown-linux-musl.tar.gz`, holding
/// `benchdeck` alone (`tar -C <its folder> -czf <tarball> benchdeck`, here and in release.yml).
pub fn tarball_name(version: &str) -> String {
    format!("benchdeck-{version}-{STATIC_TARGET}.tar.gz")
}

/// Builds, checks and lists the release wheels and the static tarball (in [`OUT`]).
pub fn release(root: &Path, toolbox: &Toolbox) -> Result<Vec<PathBuf>> {
    let out = root.join(OUT);
    fresh_dir(&out)?;
    for linux in LINUX {
        crate::tools::ensure_rust_target(linux.target)?;
    }
    for linux in LINUX {
        build(root, toolbox, &linux)?;
    }
    let wheels = wheels_in(&out)?;
    for wheel in &wheels {
        check_size(wheel)?;
        audit(toolbox, wheel)?;
    }
    let tarball = tarball(root)?;
    Ok(wheels.into_iter().chain([tarball]).collect())
}

/// `maturin build` of one Linux wheel, linked by zig (the pinned `ziglang`).
fn build(root: &Path, toolbox: &Toolbox, linux: &Linux) -> Result<()> {
    step(&format!(
        "the {} wheel ({}, a release build of a few minutes)",
        linux.target, linux.compatibility
    ));
    let mut maturin = toolbox.python_tool("maturin")?;
    maturin
        .current_dir(root)
        .arg("build")
        .args(linux.args())
        .args(["--target", linux.target])
        .env(
            "CARGO_ZIGBUILD_PYTHON_PATH",
            toolbox.python_tool_path("zig-python")?,
        );
    run::status(&mut maturin).with_context(|| format!("building the {} wheel failed", linux.target))
}

/// The install test's wheel: the dev profile's binary, already built by the test run (only
/// `benchdeck` itself recompiles, for the bundle it embeds), stored uncompressed.
pub fn dev_wheel(root: &Path, toolbox: &Toolbox, out: &Path) -> Result<PathBuf> {
    fresh_dir(out)?;
    let mut maturin = toolbox.python_tool("maturin")?;
    maturin
        .current_dir(root)
        .args([
            "build",
            "--profile",
            "dev",
            "--compression-method",
            "stored",
        ])
        .arg("--out")
        .arg(out);
    run::status(&mut maturin).context("packaging the dev binary as a wheel failed")?;
    match wheels_in(out)?.as_slice() {
        [wheel] if file_name(wheel).starts_with(&DIST_NAME.replace('-', "_")) => Ok(wheel.clone()),
        [wheel] => bail!(
            "maturin wrote `{}`, expected a wheel of {DIST_NAME} (pyproject.toml's name)",
            wheel.display()
        ),
        found => bail!(
            "maturin wrote {} wheels into `{}`; expected one",
            found.len(),
            out.display()
        ),
    }
}

/// The `.whl` files in `dir`, sorted.
fn wheels_in(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut wheels = Vec::new();
    for entry in
        std::fs::read_dir(dir).with_context(|| format!("cannot read `{}`", dir.display()))?
    {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "whl") {
            wheels.push(path);
        }
    }
    wheels.sort();
    Ok(wheels)
}

fn check_size(wheel: &Path) -> Result<()> {
    let size = std::fs::metadata(wheel)
        .with_context(|| format!("cannot read `{}`", wheel.display()))?
        .len();
    step(&format!(
        "{} ({:.1} MB)",
        wheel.display(),
        size as f64 / 1_000_000.0
    ));
    if size > MAX_WHEEL_BYTES {
        bail!(
            "`{}` is {size} bytes, more than the {MAX_WHEEL_BYTES} a wheel may be",
            wheel.display()
        );
    }
    Ok(())
}

/// `auditwheel show`: a manylinux wheel must be consistent with the tag in its name.
fn audit(toolbox: &Toolbox, wheel: &Path) -> Result<()> {
    let report = run::output(toolbox.python_tool("auditwheel")?.arg("show").arg(wheel))?;
    eprintln!("{}", report.trim());
    consistent(&file_name(wheel), &report)
}

/// Whether auditwheel's `report` on the wheel `name` finds its `manylinux_X_Y` tag.
fn consistent(name: &str, report: &str) -> Result<()> {
    let Some(tag) = name
        .split(['-', '.'])
        .find(|part| part.starts_with("manylinux_"))
    else {
        return Ok(());
    };
    // auditwheel wraps its lines.
    let words = report.split_whitespace().collect::<Vec<_>>().join(" ");
    if !words.contains(&format!("platform tag: \"{tag}\"")) {
        bail!("auditwheel does not find `{name}` consistent with {tag}: {report}");
    }
    Ok(())
}

/// Packs the musl wheel's static binary as `benchdeck-VERSION-TARGET.tar.gz` in [`OUT`].
fn tarball(root: &Path) -> Result<PathBuf> {
    let folder = crate::tools::target_dir(root)
        .join(STATIC_TARGET)
        .join("release");
    let binary = folder.join("benchdeck");
    check_static(&binary)?;
    let tarball = root.join(OUT).join(tarball_name(env!("CARGO_PKG_VERSION")));
    run::status(
        Command::new("tar")
            .arg("-C")
            .arg(&folder)
            .arg("-czf")
            .arg(&tarball)
            .arg("benchdeck"),
    )?;
    let size = std::fs::metadata(&tarball)?.len();
    step(&format!(
        "{} ({:.1} MB, a static binary for Linux x86_64 without Python)",
        tarball.display(),
        size as f64 / 1_000_000.0
    ));
    Ok(tarball)
}

/// The binary needs no dynamic loader (no ELF `PT_INTERP` header), so it runs on any Linux
/// x86_64, and it runs here.
fn check_static(binary: &Path) -> Result<()> {
    let bytes =
        std::fs::read(binary).with_context(|| format!("cannot read `{}`", binary.display()))?;
    match elf_interpreter(&bytes) {
        Some(false) => {}
        Some(true) => bail!(
            "`{}` names a dynamic loader; the tarball's binary must be static",
            binary.display()
        ),
        None => bail!("`{}` is not a 64-bit ELF file", binary.display()),
    }
    let version = run::output(Command::new(binary).arg("--version"))?;
    step(&format!("the static binary runs: {}", version.trim()));
    Ok(())
}

/// Whether a little-endian ELF64 file has a `PT_INTERP` program header (None: not one).
fn elf_interpreter(bytes: &[u8]) -> Option<bool> {
    if bytes.get(..6)? != b"\x7fELF\x02\x01" {
        return None;
    }
    let u16_at = |at: usize| Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?));
    let offset = u64::from_le_bytes(bytes.get(0x20..0x28)?.try_into().ok()?) as usize;
    let (size, count) = (usize::from(u16_at(0x36)?), usize::from(u16_at(0x38)?));
    (0..count)
        .map(|i| {
            let at = offset + i * size;
            Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?) == 3)
        })
        .try_fold(false, |any, interp| Some(any || interp?))
}

fn fresh_dir(dir: &Path) -> Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)
            .with_context(|| format!("cannot remove `{}`", dir.display()))?;
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create `{}`", dir.display()))
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::{AUDITWHEEL, MATURIN, ZIGLANG};
    use yaml_rust2::{Yaml, YamlLoader};

    fn repository_file(relative: &str) -> String {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(relative);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{relative}: {e}"))
    }

    fn release() -> Yaml {
        let text = repository_file(".github/workflows/release.yml");
        YamlLoader::load_from_str(&text)
            .unwrap_or_else(|e| panic!("release.yml is not valid YAML: {e}"))
            .remove(0)
    }

    fn steps<'a>(workflow: &'a Yaml, job: &str) -> &'a [Yaml] {
        workflow["jobs"][job]["steps"]
            .as_vec()
            .unwrap_or_else(|| panic!("release.yml has no job `{job}` with steps"))
    }

    fn runs<'a>(workflow: &'a Yaml, job: &str) -> Vec<&'a str> {
        steps(workflow, job)
            .iter()
            .filter_map(|step| step["run"].as_str())
            .collect()
    }

    /// The wheels release.yml builds on Linux are the ones `cargo xtask dist` builds, with the
    /// same maturin arguments; macOS and Windows take the release arguments alone.
    #[test]
    fn release_yml_builds_the_linux_wheels_with_the_arguments_dist_uses() {
        let workflow = release();
        let matrix = workflow["jobs"]["wheels"]["strategy"]["matrix"]["include"]
            .as_vec()
            .expect("a wheels matrix");
        let mut linux_targets = Vec::new();
        for entry in matrix {
            let target = entry["target"]
                .as_str()
                .expect("each entry names its target");
            let args = entry["args"].as_str().expect("each entry has args");
            let expected = match LINUX.iter().find(|l| l.target == target) {
                Some(linux) => {
                    linux_targets.push(target);
                    linux.args().join(" ")
                }
                None => {
                    assert!(!target.contains("linux"), "{target} is not built by dist");
                    RELEASE_ARGS.join(" ")
                }
            };
            assert_eq!(args, expected, "{target}");
        }
        assert_eq!(linux_targets, LINUX.map(|l| l.target));
        for target in [
            "x86_64-apple-darwin",
            "aarch64-apple-darwin",
            "x86_64-pc-windows-msvc",
        ] {
            assert!(
                matrix.iter().any(|e| e["target"].as_str() == Some(target)),
                "{target}"
            );
        }
    }

    /// maturin, zig and auditwheel are the versions xtask pins; the size limit is dist's.
    #[test]
    fn release_yml_uses_the_pinned_tools_and_the_size_limit() {
        let workflow = release();
        for job in ["wheels", "sdist"] {
            let maturin: Vec<_> = steps(&workflow, job)
                .iter()
                .filter(|s| {
                    s["uses"]
                        .as_str()
                        .is_some_and(|u| u.starts_with("PyO3/maturin-action@"))
                })
                .collect();
            assert_eq!(maturin.len(), 1, "{job}");
            assert_eq!(
                maturin[0]["with"]["maturin-version"].as_str(),
                Some(format!("v{MATURIN}").as_str()),
                "{job}"
            );
        }
        let wheels = runs(&workflow, "wheels").join("\n");
        assert!(wheels.contains(&format!("pip install ziglang=={ZIGLANG}")));
        assert!(wheels.contains(&format!("pip install auditwheel=={AUDITWHEEL}")));
        let limit = MAX_WHEEL_BYTES.to_string();
        let (millions, rest) = limit.split_at(limit.len() - 6);
        let underscored = format!("{millions}_{}_{}", &rest[..3], &rest[3..]);
        assert!(
            wheels.contains(&format!("> {underscored}")),
            "{underscored}"
        );
        assert_eq!(workflow["env"]["DIST_NAME"].as_str(), Some(DIST_NAME));
    }

    /// The tarball is packed as dist packs it, from the musl build's binary.
    #[test]
    fn release_yml_packs_the_tarball_as_dist_does() {
        let workflow = release();
        let wheels = runs(&workflow, "wheels").join("\n");
        let tar = format!(
            "tar -C \"target/{STATIC_TARGET}/release\" -czf \"{OUT}/{}\" benchdeck",
            tarball_name("$VERSION")
        );
        assert!(wheels.contains(&tar), "{tar}");
    }

    /// The bundle job and the cargo install check run the xtask commands themselves.
    #[test]
    fn release_yml_runs_dist_for_the_bundle_and_the_install_check() {
        let workflow = release();
        assert!(runs(&workflow, "bundle").contains(&"cargo xtask dist --bundle-only"));
        assert!(runs(&workflow, "check-install").contains(&"cargo xtask dist --check-install"));
        for job in ["pypi", "crates"] {
            let needs: Vec<_> = workflow["jobs"][job]["needs"]
                .as_vec()
                .expect("publishing waits for the builds")
                .iter()
                .filter_map(Yaml::as_str)
                .collect();
            assert!(needs.contains(&"check-install"), "{job}: {needs:?}");
        }
    }

    /// pyproject.toml names the distribution and packages the CLI's binary.
    #[test]
    fn pyproject_names_the_distribution_and_the_binary() {
        let pyproject = repository_file("pyproject.toml");
        for line in [
            format!("name = \"{DIST_NAME}\""),
            "manifest-path = \"cli/Cargo.toml\"".to_string(),
            "bindings = \"bin\"".to_string(),
            "readme = \"README.md\"".to_string(),
        ] {
            assert!(pyproject.lines().any(|l| l == line), "{line}");
        }
    }

    #[test]
    fn auditwheel_must_agree_with_the_tag_in_the_name() {
        let name = "benchdeck_cli-0.1.0-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl";
        let agrees = format!(
            "{name}\nis consistent with the following platform tag:\n\"manylinux_2_17_aarch64\".\n"
        );
        consistent(name, &agrees).unwrap();
        let newer = agrees.replace("2_17", "2_28");
        assert!(consistent(name, &newer).is_err());
        consistent("benchdeck_cli-0.1.0-py3-none-musllinux_1_2_x86_64.whl", "").unwrap();
    }

    #[test]
    fn the_elf_reader_finds_a_dynamic_loader() {
        let this = std::fs::read(std::env::current_exe().unwrap()).unwrap();
        assert_eq!(
            elf_interpreter(&this),
            Some(true),
            "the test binary is dynamic"
        );
        let mut header = vec![0u8; 64 + 56];
        header[..6].copy_from_slice(b"\x7fELF\x02\x01");
        header[0x20] = 64;
        header[0x36] = 56;
        header[0x38] = 1;
        header[64] = 1; // PT_LOAD
        assert_eq!(elf_interpreter(&header), Some(false));
        header[64] = 3; // PT_INTERP
        assert_eq!(elf_interpreter(&header), Some(true));
        assert_eq!(elf_interpreter(b"#!/bin/sh"), None);
    }
}
