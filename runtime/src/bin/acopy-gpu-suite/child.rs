//! Running this binary again in a child process, so that a trapping or hung
//! kernel costs one child, not the run: the GPU suite runs each case this way
//! and the pipeline suite each module, resumed after a faulting case (its
//! `#[path]` includes this file).

use std::ffi::OsStr;
use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Runs this binary with `args`, its stderr passed through; returns its exit
/// status (an error when it was killed after `timeout` or could not be waited
/// for) and its standard output, which comes back in every case, so that a
/// caller keeps the results a child printed before it hung.
pub fn run_self<A: AsRef<OsStr>>(
    args: &[A],
    timeout: Duration,
) -> (Result<ExitStatus, String>, String) {
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => return (Err(format!("cannot find own binary: {e}")), String::new()),
    };
    let mut child = match Command::new(exe)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => {
            return (
                Err(format!("cannot start child process: {e}")),
                String::new(),
            )
        }
    };
    let Some(mut stdout) = child.stdout.take() else {
        return (
            Err("the child process has no standard output".into()),
            String::new(),
        );
    };
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Ok(s),
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break Err(format!(
                    "no result after {}s (hung kernel?); the process was killed",
                    timeout.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                break Err(format!("waiting for the child process: {e}"));
            }
        }
    };
    (status, reader.join().unwrap_or_default())
}
