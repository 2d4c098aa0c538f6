//! What the fuzzer's judge shares with acopy-opt's mutation robustness test
//! (`tools/acopy-opt/tests/robustness.rs`): both decide the same way whether
//! a run of acopy-opt crashed.

/// Texts that only a crash prints on acopy-opt's standard error.
pub const CRASH_TEXTS: [&str; 8] = [
    "LLVM ERROR",
    "panicked",
    "Assertion",
    "Cannot select",
    "PLEASE submit a bug report",
    "Stack dump",
    "internal error",
    "UNREACHABLE",
];

use std::{
    ffi::OsStr,
    fs,
    path::Path,
    process::{Command, ExitStatus, Stdio},
    thread,
    time::{Duration, Instant},
};

/// One run of acopy-opt: its exit status (`None`: killed after the timeout, a
/// hang) and its standard error.
pub struct Run {
    pub status: Option<ExitStatus>,
    pub stderr: String,
}

impl Run {
    /// The exit code, if it exited.
    pub fn code(&self) -> Option<i32> {
        self.status.and_then(|status| status.code())
    }
}

/// Runs `binary input flags...` as both judges do: no colour, no logging or
/// backtrace settings inherited, standard error to `stderr_path` (a file, so a
/// flood cannot block the child), killed after `timeout`. `Err` only when the
/// binary cannot be started or the stderr file created.
pub fn run_acopy_opt(
    binary: &Path,
    input: &Path,
    flags: &[impl AsRef<OsStr>],
    stderr_path: &Path,
    timeout: Duration,
) -> std::io::Result<Run> {
    let stderr_file = fs::File::create(stderr_path)?;
    let mut child = Command::new(binary)
        .arg(input)
        .args(flags)
        .env("NO_COLOR", "1")
        .env_remove("ACOPY_LOG")
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr_file)
        .spawn()?;
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => thread::sleep(Duration::from_millis(2)),
            Err(_) => break None,
        }
    };
    let stderr = fs::read(stderr_path)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .unwrap_or_default();
    Ok(Run { status, stderr })
}
