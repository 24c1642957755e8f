//! The tools the build and the tests need, pinned here and nowhere else, and how each is found
//! or installed.
//!
//! A tool already on `PATH` at the pinned version is used as it is. Otherwise it is installed
//! once into its own versioned folder under the tool cache (`$BENCHDECK_TOOLS`, default
//! `~/.cache/benchdeck/tools`), which never touches the user's own installs; the folder is put
//! in front of `PATH` for the commands xtask runs. A second run finds everything and starts in
//! seconds.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::run::{self, step};

/// trunk: 0.22 needs a newer rustc than this project's toolchain (1.95).
pub const TRUNK: &str = "0.21.14";
/// binaryen's `wasm-opt`, from npm: Debian's binaryen (108) cannot read current rustc output.
pub const BINARYEN: &str = "132";
/// The WebAssembly target the app is built for.
pub const WASM_TARGET: &str = "wasm32-unknown-unknown";
/// Debian's Chromium, driven by playwright-core in the end-to-end tests.
pub const CHROMIUM: &str = "/usr/bin/chromium";
/// maturin, from PyPI: packages the `benchdeck` binary as wheels (`cargo xtask dist`, the test's
/// wheel, and `.github/workflows/release.yml`, which a test keeps at this version).
pub const MATURIN: &str = "1.16.0";
/// zig from PyPI's `ziglang`, maturin's linker for an old glibc (manylinux2014) and for aarch64
/// and musl: 0.15.2 is the zig maturin's own CI links with (0.14 broke linking, maturin-action#335).
pub const ZIGLANG: &str = "0.15.2";
/// auditwheel, from PyPI: the platform tags a Linux wheel's binary allows (`auditwheel show`).
pub const AUDITWHEEL: &str = "6.8.2";
/// twiggy, which says what a wasm file's bytes are (`cargo xtask bench`'s "What the app's wasm
/// holds" only).
pub const TWIGGY: &str = "0.8.0";

/// Folders to put in front of `PATH` so that trunk and the tests find the pinned tools, and the
/// tools from PyPI, each in a virtual environment of its own (kept off `PATH`: each environment
/// has its own `python3`).
#[derive(Debug, Default, Clone)]
pub struct Toolbox {
    path_dirs: Vec<PathBuf>,
    python_tools: Vec<(&'static str, PathBuf)>,
}

impl Toolbox {
    /// `PATH` with the toolbox's folders first.
    pub fn path(&self) -> std::ffi::OsString {
        let existing = std::env::var_os("PATH").unwrap_or_default();
        let mut dirs: Vec<PathBuf> = self.path_dirs.clone();
        dirs.extend(std::env::split_paths(&existing));
        std::env::join_paths(dirs).unwrap_or(existing)
    }

    /// A command that sees the toolbox's `PATH`.
    pub fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command.env("PATH", self.path());
        command
    }

    /// A command running a tool installed from PyPI (`maturin`, `auditwheel`), with the
    /// toolbox's `PATH`.
    pub fn python_tool(&self, program: &str) -> Result<Command> {
        let path = self.python_tool_path(program)?;
        let mut command = Command::new(path);
        command.env("PATH", self.path());
        Ok(command)
    }

    /// The file of a tool installed from PyPI; `zig-python` is the interpreter that has `ziglang`.
    pub fn python_tool_path(&self, program: &str) -> Result<&Path> {
        self.python_tools
            .iter()
            .find(|(name, _)| *name == program)
            .map(|(_, path)| path.as_path())
            .with_context(|| format!("`{program}` was not set up: xtask's tools::ensure misses it"))
    }

    fn add(&mut self, dir: PathBuf) {
        if !self.path_dirs.contains(&dir) {
            self.path_dirs.push(dir);
        }
    }
}

/// What a command needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// Building the site: the wasm target, trunk, wasm-bindgen, wasm-opt.
    Site,
    /// Building and testing: the above, plus Chromium, the browser-test driver and maturin (the
    /// install test's wheel).
    Tests,
    /// `cargo xtask dist`: the site's tools, maturin, ziglang, auditwheel and the Rust targets
    /// of the wheels; with `tests`, the browser and its driver too (`--check-install`).
    Dist {
        /// Also what the tests need.
        tests: bool,
    },
}

/// Cargo's target folder: `CARGO_TARGET_DIR` (relative to the repository), else `target/`.
pub fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), |dir| root.join(dir))
}

/// Finds or installs everything `needs` asks for.
pub fn ensure(root: &Path, needs: Needs) -> Result<Toolbox> {
    let mut toolbox = ensure_site(root)?;
    if matches!(needs, Needs::Tests | Needs::Dist { tests: true }) {
        ensure_chromium()?;
        ensure_e2e_driver(root)?;
    }
    if needs != Needs::Site {
        let maturin = ensure_pypi_package("maturin", MATURIN)?;
        toolbox
            .python_tools
            .push(("maturin", venv_program(&maturin, "maturin")));
    }
    if let Needs::Dist { .. } = needs {
        let zig = ensure_pypi_package("ziglang", ZIGLANG)?;
        toolbox
            .python_tools
            .push(("zig-python", venv_program(&zig, "python3")));
        let auditwheel = ensure_pypi_package("auditwheel", AUDITWHEEL)?;
        toolbox
            .python_tools
            .push(("auditwheel", venv_program(&auditwheel, "auditwheel")));
    }
    Ok(toolbox)
}

/// The site's tools: the wasm target, trunk, wasm-bindgen, wasm-opt.
fn ensure_site(root: &Path) -> Result<Toolbox> {
    let mut toolbox = Toolbox::default();
    ensure_wasm_target()?;
    let bindgen = wasm_bindgen_version(root)?;
    ensure_cargo_tool(
        &mut toolbox,
        "trunk",
        "trunk",
        TRUNK,
        "about 5 minutes",
        &["--locked"],
    )?;
    // wasm-bindgen-cli's own lock file pins a crate version the registry no longer has, so it is
    // installed without `--locked`.
    ensure_cargo_tool(
        &mut toolbox,
        "wasm-bindgen-cli",
        "wasm-bindgen",
        &bindgen,
        "about 2 minutes",
        &[],
    )?;
    ensure_wasm_opt(&mut toolbox)?;
    Ok(toolbox)
}

/// Where pinned tools are installed: `$BENCHDECK_TOOLS`, else `~/.cache/benchdeck/tools`.
pub fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("BENCHDECK_TOOLS") {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    home.join("benchdeck").join("tools")
}

/// Adds the wasm32 target with rustup when it is missing.
pub fn ensure_wasm_target() -> Result<()> {
    ensure_rust_target(WASM_TARGET)
}

/// Adds a Rust target with rustup when it is missing.
pub fn ensure_rust_target(target: &str) -> Result<()> {
    let installed = run::output(Command::new("rustup").args(["target", "list", "--installed"]))
        .with_context(|| {
            format!("cannot run `rustup`; benchdeck needs rustup to add the Rust target {target}")
        })?;
    if installed.lines().any(|l| l.trim() == target) {
        return Ok(());
    }
    step(&format!(
        "adding the Rust target {target} (one time, about a minute)"
    ));
    run::status(Command::new("rustup").args(["target", "add", target]))
}

/// `package` from PyPI at `version`, in a virtual environment of its own under the tool cache
/// (made with `python3 -m venv`, filled with its pip); returns the environment's folder.
fn ensure_pypi_package(package: &str, version: &str) -> Result<PathBuf> {
    let venv = cache_dir().join(format!("{package}-{version}"));
    let python = venv_program(&venv, "python3");
    if installed_version(&python, package).as_deref() == Some(version) {
        return Ok(venv);
    }
    step(&format!(
        "installing {package} {version} from PyPI (one time, seconds) into {}",
        venv.display()
    ));
    if venv.exists() {
        std::fs::remove_dir_all(&venv)
            .with_context(|| format!("cannot remove `{}`", venv.display()))?;
    }
    run::status(Command::new("python3").args(["-m", "venv"]).arg(&venv)).context(
        "cannot make a Python virtual environment: benchdeck's packaging needs python3 with its \
         venv module (Debian: `apt-get install python3-venv`)",
    )?;
    let mut pip = Command::new(&python);
    pip.args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
    ])
    .arg(format!("{package}=={version}"));
    run::status(&mut pip).with_context(|| format!("installing {package} {version} failed"))?;
    match installed_version(&python, package) {
        Some(found) if found == version => Ok(venv),
        found => bail!(
            "{package} {version} was installed into `{}` but it reports {found:?}",
            venv.display()
        ),
    }
}

/// A program in a virtual environment (`bin/`, or `Scripts\` on Windows).
pub fn venv_program(venv: &Path, program: &str) -> PathBuf {
    if cfg!(windows) {
        venv.join("Scripts").join(format!("{program}.exe"))
    } else {
        venv.join("bin").join(program)
    }
}

/// The version of `package` that `python` imports, if it runs and has the package.
fn installed_version(python: &Path, package: &str) -> Option<String> {
    let script = format!("import importlib.metadata as m; print(m.version({package:?}))");
    run::output(Command::new(python).args(["-c", &script]))
        .ok()
        .map(|v| v.trim().to_string())
}

/// The `wasm-bindgen` version in `Cargo.lock`: the CLI must be exactly this version.
pub fn wasm_bindgen_version(root: &Path) -> Result<String> {
    let lock_path = root.join("Cargo.lock");
    let lock = std::fs::read_to_string(&lock_path)
        .with_context(|| format!("cannot read `{}`", lock_path.display()))?;
    locked_version(&lock, "wasm-bindgen").with_context(|| {
        format!(
            "`{}` has no `wasm-bindgen` package; expected the app's dependency on it",
            lock_path.display()
        )
    })
}

/// The version of package `name` in the text of a `Cargo.lock`.
fn locked_version(lock: &str, name: &str) -> Option<String> {
    let wanted = format!("name = \"{name}\"");
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == wanted {
            let version = lines.next()?.trim();
            return version
                .strip_prefix("version = \"")
                .and_then(|v| v.strip_suffix('"'))
                .map(str::to_string);
        }
    }
    None
}

/// The version a tool prints for `--version` (`trunk 0.21.14`, `wasm-bindgen 0.2.100`,
/// `wasm-opt version 132 (version_132)`), if it runs.
fn version_of(program: &Path) -> Option<String> {
    let text = run::output(Command::new(program).arg("--version")).ok()?;
    text.split_whitespace()
        .find(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .map(str::to_string)
}

/// `program` on `PATH`, if there is one.
fn on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

/// twiggy, for the bench's look inside the app's wasm.
pub fn ensure_twiggy(toolbox: &mut Toolbox) -> Result<()> {
    ensure_cargo_tool(
        toolbox,
        "twiggy",
        "twiggy",
        TWIGGY,
        "about 3 minutes",
        &["--locked"],
    )
}

fn ensure_cargo_tool(
    toolbox: &mut Toolbox,
    krate: &str,
    binary: &str,
    version: &str,
    duration: &str,
    extra: &[&str],
) -> Result<()> {
    if let Some(found) = on_path(binary) {
        if version_of(&found).as_deref() == Some(version) {
            return Ok(());
        }
    }
    let install_root = cache_dir().join(format!("{krate}-{version}"));
    let bin_dir = install_root.join("bin");
    if version_of(&bin_dir.join(binary)).as_deref() == Some(version) {
        toolbox.add(bin_dir);
        return Ok(());
    }
    step(&format!(
        "installing {krate} {version} (one time, {duration}) into {}",
        install_root.display()
    ));
    let mut command = Command::new("cargo");
    command
        .args(["install", &format!("{krate}@{version}"), "--root"])
        .arg(&install_root)
        .args(extra)
        // A tool is compiled once per machine and what it runs is not what anyone waits on, but
        // its crate's own release profile may (trunk's: fat LTO in one codegen unit, a long
        // single-threaded link). Without them the compile uses both cores of a small machine.
        .env("CARGO_PROFILE_RELEASE_LTO", "off")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16");
    run::status(&mut command).with_context(|| format!("installing {krate} {version} failed"))?;
    toolbox.add(bin_dir);
    Ok(())
}

fn ensure_wasm_opt(toolbox: &mut Toolbox) -> Result<()> {
    if let Some(found) = on_path("wasm-opt") {
        if version_of(&found).as_deref() == Some(BINARYEN) {
            return Ok(());
        }
    }
    let prefix = cache_dir().join(format!("binaryen-{BINARYEN}"));
    let bin_dir = prefix.join("node_modules").join(".bin");
    if version_of(&bin_dir.join("wasm-opt")).as_deref() == Some(BINARYEN) {
        toolbox.add(bin_dir);
        return Ok(());
    }
    require_npm()?;
    step(&format!(
        "installing wasm-opt from binaryen {BINARYEN} (one time, under a minute) into {}",
        prefix.display()
    ));
    std::fs::create_dir_all(&prefix)
        .with_context(|| format!("cannot create `{}`", prefix.display()))?;
    let mut command = Command::new("npm");
    command
        .args(["install", "--no-audit", "--no-fund", "--prefix"])
        .arg(&prefix)
        .arg(format!("binaryen@{BINARYEN}"));
    run::status(&mut command).context("installing binaryen from npm failed")?;
    if version_of(&bin_dir.join("wasm-opt")).as_deref() != Some(BINARYEN) {
        bail!(
            "binaryen {BINARYEN} was installed but `{}` does not report that version",
            bin_dir.join("wasm-opt").display()
        );
    }
    toolbox.add(bin_dir);
    Ok(())
}

fn require_npm() -> Result<()> {
    if on_path("npm").is_none() || on_path("node").is_none() {
        bail!(
            "Node.js and npm are needed (for wasm-opt and the browser tests) but are not on PATH; \
             install them, for example with `apt-get install -y nodejs npm`, and run again"
        );
    }
    Ok(())
}

fn ensure_chromium() -> Result<()> {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| CHROMIUM.to_string());
    if Path::new(&chromium).is_file() {
        return Ok(());
    }
    let install = "apt-get update -qq && apt-get install -y -qq chromium chromium-driver";
    if !is_root() {
        bail!(
            "the browser tests need Chromium at {chromium}; install it as root with:\n    \
             sudo sh -c '{install}'\nthen run again (or set CHROMIUM to another Chromium binary)"
        );
    }
    step("installing Chromium from Debian's packages (one time, about 2 minutes)");
    let mut command = Command::new("sh");
    command
        .args(["-c", install])
        .env("DEBIAN_FRONTEND", "noninteractive");
    run::status(&mut command).context("installing Chromium failed")?;
    if !Path::new(&chromium).is_file() {
        bail!("Chromium was installed but {chromium} is not there");
    }
    Ok(())
}

/// GNU time (`/usr/bin/time`), which reports a command's peak memory: installed from Debian's
/// packages when missing and running as root; `None` when it cannot be had.
pub fn ensure_gnu_time() -> Option<PathBuf> {
    let time = PathBuf::from("/usr/bin/time");
    if time.is_file() {
        return Some(time);
    }
    if !is_root() {
        step("GNU time is missing (as root: apt-get install time); peak memory is asked of Python");
        return None;
    }
    step("installing GNU time from Debian's packages");
    let mut command = Command::new("sh");
    command
        .args(["-c", "apt-get update -qq && apt-get install -y -qq time"])
        .env("DEBIAN_FRONTEND", "noninteractive");
    run::status(&mut command).ok()?;
    time.is_file().then_some(time)
}

fn is_root() -> bool {
    run::output(Command::new("id").arg("-u")).is_ok_and(|uid| uid.trim() == "0")
}

/// The browser tests' packages: their driver, and the accessibility rules they run.
const E2E_PACKAGES: [&str; 2] = ["playwright-core", "axe-core"];

/// playwright-core and axe-core, at the versions `tests/e2e/package-lock.json` pins.
fn ensure_e2e_driver(root: &Path) -> Result<()> {
    let dir = root.join("tests").join("e2e");
    let installed = |package: &str| {
        dir.join("node_modules")
            .join(package)
            .join("package.json")
            .is_file()
    };
    if E2E_PACKAGES.iter().all(|p| installed(p)) {
        return Ok(());
    }
    require_npm()?;
    step("installing the browser tests' packages playwright-core and axe-core (one time, seconds)");
    let mut command = Command::new("npm");
    command
        .args(["ci", "--no-audit", "--no-fund"])
        .current_dir(&dir);
    run::status(&mut command).context("installing the browser tests' packages failed")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locked_version_reads_the_line_after_the_name() {
        let lock = "[[package]]\nname = \"wasm-bindgen-macro\"\nversion = \"0.2.99\"\n\n\
                    [[package]]\nname = \"wasm-bindgen\"\nversion = \"0.2.100\"\n";
        assert_eq!(
            locked_version(lock, "wasm-bindgen").as_deref(),
            Some("0.2.100")
        );
        assert_eq!(locked_version(lock, "trunk"), None);
    }

    #[test]
    fn the_project_lock_file_pins_wasm_bindgen() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let version = wasm_bindgen_version(root).unwrap();
        assert!(version.starts_with("0.2."), "{version}");
    }
}
