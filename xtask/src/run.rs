//! Running commands: progress lines, and failures that name the command that failed.

use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context, Result};

/// Prints one progress line for a step the user waits for.
pub fn step(what: &str) {
    eprintln!("xtask: {what}");
}

/// Runs `command` with inherited output; an error names it and its exit status.
pub fn status(command: &mut Command) -> Result<()> {
    let shown = display(command);
    let started = Instant::now();
    let status = command
        .status()
        .with_context(|| format!("cannot start `{shown}`"))?;
    if !status.success() {
        bail!("`{shown}` failed ({status})");
    }
    let seconds = started.elapsed().as_secs();
    if seconds >= 20 {
        step(&format!("done in {}:{:02}", seconds / 60, seconds % 60));
    }
    Ok(())
}

/// Runs `command` and returns its standard output; an error names it and shows its stderr.
pub fn output(command: &mut Command) -> Result<String> {
    let shown = display(command);
    let out = command
        .output()
        .with_context(|| format!("cannot start `{shown}`"))?;
    if !out.status.success() {
        bail!(
            "`{shown}` failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The command as a shell line, for messages.
fn display(command: &Command) -> String {
    std::iter::once(command.get_program())
        .chain(command.get_args())
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}
