//! Running this binary again in a child process, so that a trapping or hung
//! kernel costs one child, not the run: the GPU suite runs each case this way
//! and the pipeline suite each module (its `#[path]` includes this file).

use std::ffi::OsStr;
use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Runs this binary with `args`, its stderr passed through; returns its exit
/// status and standard output. Killed after `timeout`.
pub fn run_self<A: AsRef<OsStr>>(
    args: &[A],
    timeout: Duration,
) -> Result<(ExitStatus, String), String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find own binary: {e}"))?;
    let mut child = Command::new(exe)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start child process: {e}"))?;
    let mut stdout = child
        .stdout
        .take()
        .ok_or("the child process has no standard output")?;
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "no result after {}s (hung kernel?); the process was killed",
                    timeout.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(format!("waiting for the child process: {e}")),
        }
    };
    Ok((status, reader.join().unwrap_or_default()))
}
