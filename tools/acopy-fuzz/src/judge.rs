//! Runs acopy-opt on one input in every mode and checks what it must never do.
//!
//! Checks, per run: no signal, no hang (a time limit), no panic or LLVM abort
//! text, an exit status of 0, 1 or 2, and every `error:` line located in the
//! input (`FILE:LINE:COL: error: ...`, LINE inside the file). Across runs:
//! when `--acopy-verify` accepts the input, lowering and every `--emit` must
//! succeed; the PTX `.target` of each module must be its chip (or the
//! `--chip` override); and `--verify-diagnostics`, given directives built
//! from acopy's own diagnostics, must accept them.

use acopy_fuzz::{run_acopy_opt, Run, CRASH_TEXTS};
use std::{fs, os::unix::process::ExitStatusExt, path::Path, time::Duration};

use crate::generate::{Input, CHIPS};
use crate::rng::Rng;

pub struct Settings {
    pub binary: std::path::PathBuf,
    pub timeout: Duration,
    /// ptxas, which must accept the PTX of every input that verifies.
    pub ptxas: Option<std::path::PathBuf>,
}

/// One broken rule: the command line and why.
pub struct Finding {
    pub flags: Vec<String>,
    pub reason: String,
    pub stderr: String,
}

pub struct Outcome {
    pub runs: usize,
    pub verified: bool,
    pub findings: Vec<Finding>,
    /// (mode, exit status, first error without numbers): what this input did,
    /// to keep inputs that do something new in the corpus.
    pub behaviour: Vec<String>,
}

fn run(settings: &Settings, input: &Path, flags: &[String], work: &Path) -> Run {
    let stderr_path = work.join("stderr.txt");
    match run_acopy_opt(
        &settings.binary,
        input,
        flags,
        &stderr_path,
        settings.timeout,
    ) {
        Ok(run) => run,
        Err(error) => {
            eprintln!(
                "acopy-fuzz: cannot run {}: {error}",
                settings.binary.display()
            );
            std::process::exit(2);
        }
    }
}

/// Why a run broke a per-run rule, or None.
fn judge_run(
    settings: &Settings,
    run: &Run,
    input: &Path,
    lines: usize,
    usage_ok: bool,
) -> Option<String> {
    let Some(status) = run.status else {
        return Some(format!(
            "no exit within {} s (a hang)",
            settings.timeout.as_secs()
        ));
    };
    if let Some(signal) = status.signal() {
        return Some(format!("killed by signal {signal}"));
    }
    if let Some(text) = CRASH_TEXTS.iter().find(|t| run.stderr.contains(*t)) {
        return Some(format!("stderr contains \"{text}\""));
    }
    let errors: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.contains("error: "))
        .collect();
    match status.code() {
        Some(0) => {}
        Some(1) if errors.is_empty() => {
            return Some("exit status 1 without an `error:` line".into())
        }
        Some(1) => {
            if let Some(line) = errors.iter().find(|l| !located(l, input, lines)) {
                return Some(format!("an error without a location in the input: {line}"));
            }
        }
        Some(2) if usage_ok => {}
        Some(2) => return Some("exit status 2 (bad usage) for a valid command line".into()),
        other => return Some(format!("exit status {other:?}")),
    }
    None
}

/// `INPUT:LINE:COL: error: ...` with LINE in 1..=lines.
fn located(line: &str, input: &Path, lines: usize) -> bool {
    let Some((place, _)) = line.split_once(": error: ") else {
        return false;
    };
    let mut parts = place.rsplitn(3, ':');
    let (Some(column), Some(row), Some(file)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let row: usize = row.parse().unwrap_or(0);
    column.parse::<usize>().is_ok() && row >= 1 && row <= lines && Path::new(file) == input
}

/// Every `.target` line of a PTX file, in order.
fn ptx_targets(ptx: &str) -> Vec<String> {
    ptx.lines()
        .filter_map(|l| l.trim().strip_prefix(".target "))
        .map(|t| {
            t.split(|c: char| c == ',' || c.is_whitespace())
                .next()
                .unwrap_or("")
                .to_string()
        })
        .collect()
}

/// A message with its numbers blanked, so that one kind of error is one behaviour.
fn shape(message: &str) -> String {
    let message = message.split_once("error: ").map_or(message, |(_, m)| m);
    message
        .chars()
        .map(|c| if c.is_ascii_digit() { '#' } else { c })
        .take(90)
        .collect()
}

/// Runs `input` (already written to `work/input.mlir`) in the modes, judging each.
pub fn check(settings: &Settings, input: &Input, work: &Path, rng: &mut Rng) -> Outcome {
    let path = work.join("input.mlir");
    let line_count = input.bytes.split(|b| *b == b'\n').count();
    let lines = line_count.max(1) + 1;
    let mut outcome = Outcome {
        runs: 0,
        verified: false,
        findings: Vec::new(),
        behaviour: Vec::new(),
    };
    let split: Vec<String> = if input.split {
        vec!["--split-input-file".into()]
    } else {
        vec![]
    };
    let manifest = work.join("manifest.json");
    let ptx = work.join("out.ptx");

    let go = |name: &str, flags: Vec<String>, usage_ok: bool, outcome: &mut Outcome| -> Run {
        let mut flags = flags;
        flags.extend(split.iter().cloned());
        let result = run(settings, &path, &flags, work);
        outcome.runs += 1;
        let first_error = result
            .stderr
            .lines()
            .find(|l| l.contains("error: "))
            .map(shape)
            .unwrap_or_default();
        outcome
            .behaviour
            .push(format!("{name}:{:?}:{first_error}", result.code()));
        if let Some(reason) = judge_run(settings, &result, &path, lines, usage_ok) {
            outcome.findings.push(Finding {
                flags: flags.clone(),
                reason,
                stderr: result.stderr.clone(),
            });
        }
        result
    };
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<String>>();

    let verify = go("verify", s(&["--acopy-verify"]), false, &mut outcome);
    outcome.verified = verify.code() == Some(0);
    if let Some(reason) = unrefused(&verify, &input.refusals) {
        outcome.findings.push(Finding {
            flags: with(&s(&["--acopy-verify"]), &split),
            reason,
            stderr: verify.stderr.clone(),
        });
    }
    let must_pass = |outcome: &mut Outcome, name: &str, run: &Run, flags: Vec<String>| {
        if outcome.verified
            && run.status.is_some()
            && run.code() != Some(0)
            && !emit_only(&run.stderr)
            && !outcome.findings.iter().any(|f| f.flags == flags)
        {
            outcome.findings.push(Finding {
                flags,
                reason: format!("--acopy-verify accepts the input, but {name} fails"),
                stderr: run.stderr.clone(),
            });
        }
    };
    let check_targets =
        |outcome: &mut Outcome, flags: Vec<String>, expected: Vec<Option<String>>| {
            let Ok(text) = fs::read_to_string(&ptx) else {
                outcome.findings.push(Finding {
                    flags,
                    reason: "exit status 0 but no PTX file".into(),
                    stderr: String::new(),
                });
                return;
            };
            let found = ptx_targets(&text);
            let agrees = found.len() == expected.len()
                && found
                    .iter()
                    .zip(&expected)
                    .all(|(f, e)| e.as_ref().is_none_or(|e| e == f));
            if !agrees {
                outcome.findings.push(Finding {
                    flags,
                    reason: format!("PTX .target lines {found:?}, expected {expected:?}"),
                    stderr: String::new(),
                });
            }
        };

    if outcome.verified {
        let flags = s(&["--acopy-lower"]);
        let r = go("lower", flags.clone(), false, &mut outcome);
        must_pass(&mut outcome, "--acopy-lower", &r, with(&flags, &split));

        let _ = fs::remove_file(&ptx);
        let flags = vec![
            "--acopy-lower".into(),
            "--emit=ptx".into(),
            format!("--tma-manifest={}", manifest.display()),
            "-o".into(),
            ptx.display().to_string(),
        ];
        let r = go("ptx", flags.clone(), false, &mut outcome);
        must_pass(&mut outcome, "--emit=ptx", &r, with(&flags, &split));
        if r.code() == Some(0) {
            if let Some(reason) = settings
                .ptxas
                .as_deref()
                .and_then(|ptxas| ptxas_problem(ptxas, &ptx, work))
            {
                outcome.findings.push(Finding {
                    flags: with(&flags, &split),
                    reason,
                    stderr: String::new(),
                });
            }
        }
        if let (Some(0), false, Some(chips)) = (r.code(), input.split, &input.chips) {
            check_targets(&mut outcome, with(&flags, &split), chips.clone());
            if let Some(reason) = manifest_problem(&manifest, chips) {
                outcome.findings.push(Finding {
                    flags: with(&flags, &split),
                    reason,
                    stderr: String::new(),
                });
            }
        }
        if r.code() == Some(0) {
            // The same command again must write the same files (issue 10 had
            // an exit status that flipped from run to run).
            let (ptx2, manifest2) = (work.join("again.ptx"), work.join("again.json"));
            let again = vec![
                "--acopy-lower".into(),
                "--emit=ptx".into(),
                format!("--tma-manifest={}", manifest2.display()),
                "-o".into(),
                ptx2.display().to_string(),
            ];
            let r2 = go("ptx-again", again.clone(), false, &mut outcome);
            let same = |a: &Path, b: &Path| fs::read(a).ok() == fs::read(b).ok();
            if r2.status.is_some()
                && (r2.code() != Some(0) || !same(&ptx, &ptx2) || !same(&manifest, &manifest2))
            {
                outcome.findings.push(Finding {
                    flags: with(&again, &split),
                    reason: format!(
                        "the same command twice: exit status 0 then {:?}, or different PTX or manifest files",
                        r2.code()
                    ),
                    stderr: r2.stderr.clone(),
                });
            }
            let _ = (fs::remove_file(&ptx2), fs::remove_file(&manifest2));
        }

        let flags = s(&["--acopy-lower", "--emit=llvm"]);
        let r = go("llvm", flags.clone(), false, &mut outcome);
        must_pass(&mut outcome, "--emit=llvm", &r, with(&flags, &split));

        let flags = s(&["--acopy-lower", "--acopy-fallback", "--emit=ptx"]);
        let r = go("fallback", flags.clone(), false, &mut outcome);
        must_pass(
            &mut outcome,
            "--acopy-fallback --emit=ptx",
            &r,
            with(&flags, &split),
        );

        // canonicalize before acopy-lower folds a marked loop of one trip into
        // its body, and its mark with it (docs/pipelining.md, "Pass order"): not
        // for inputs with a marked loop.
        let marked = input
            .bytes
            .windows(b"acopy.pipeline".len())
            .any(|window| window == b"acopy.pipeline");
        let pipelines: &[&str] = if marked {
            &[
                "builtin.module(acopy-lower,canonicalize,cse)",
                "builtin.module(acopy-verify,acopy-lower)",
            ]
        } else {
            &[
                "builtin.module(acopy-lower,canonicalize,cse)",
                "builtin.module(acopy-verify,acopy-lower)",
                "builtin.module(canonicalize,acopy-lower)",
            ]
        };
        let pipeline = rng.pick(pipelines);
        let flags = vec![format!("--pass-pipeline={pipeline}")];
        let r = go("pipeline", flags.clone(), false, &mut outcome);
        must_pass(&mut outcome, "--pass-pipeline", &r, with(&flags, &split));
    } else {
        // Rejected input: fallback mode may still accept it (it admits copies
        // that have a non-TMA path), and what it accepts it must lower and
        // emit. Otherwise another mode must still end cleanly and located.
        let flags = s(&["--acopy-verify", "--acopy-fallback"]);
        let accepted = go("fallback-verify", flags, false, &mut outcome).code() == Some(0);
        if accepted {
            let flags = s(&["--acopy-lower", "--acopy-fallback", "--emit=ptx"]);
            let r = go("fallback-ptx", flags.clone(), false, &mut outcome);
            let flags = with(&flags, &split);
            if r.status.is_some()
                && r.code() != Some(0)
                && !emit_only(&r.stderr)
                && !outcome.findings.iter().any(|f| f.flags == flags)
            {
                outcome.findings.push(Finding {
                    flags,
                    reason: "--acopy-verify --acopy-fallback accepts the input, but --acopy-fallback --emit=ptx fails".into(),
                    stderr: r.stderr.clone(),
                });
            }
        } else {
            let flags = match rng.below(4) {
                0 => s(&["--acopy-lower"]),
                1 => s(&["--acopy-lower", "--emit=ptx"]),
                2 => s(&["--acopy-lower", "--acopy-fallback", "--emit=llvm"]),
                _ => vec!["--pass-pipeline=builtin.module(acopy-lower{fallback=true},cse)".into()],
            };
            go("other", flags, false, &mut outcome);
        }
    }

    // A chip override: the PTX must be for that chip.
    let chip = rng.pick(&CHIPS).to_string();
    let _ = fs::remove_file(&ptx);
    let flags = vec![
        format!("--chip={chip}"),
        "--acopy-lower".into(),
        "--emit=ptx".into(),
        "-o".into(),
        ptx.display().to_string(),
    ];
    let r = go("chip", flags.clone(), false, &mut outcome);
    if let (Some(0), false, Some(chips)) = (r.code(), input.split, &input.chips) {
        check_targets(
            &mut outcome,
            with(&flags, &split),
            chips.iter().map(|_| Some(chip.clone())).collect(),
        );
    }

    // --verify-diagnostics: acopy's own diagnostics, written as directives,
    // must be accepted; without directives, it fails exactly when verify did.
    // Not for a file cut short (no final newline): its parse error is at the
    // end of the file, which the appended directives move (see also
    // `moved_to_the_end` below).
    let directives = if input.split || !input.bytes.ends_with(b"\n") {
        None
    } else {
        directives_for(&verify.stderr, &path, input_lines(&input.bytes))
    };
    match directives {
        Some(extra) if verify.code() == Some(1) => {
            let checked = work.join("expected.mlir");
            let _ = fs::write(
                &checked,
                [input.bytes.as_slice(), extra.as_bytes()].concat(),
            );
            let flags = vec![
                "--acopy-verify".to_string(),
                "--verify-diagnostics".to_string(),
            ];
            let result = run(settings, &checked, &flags, work);
            outcome.runs += 1;
            let checked_lines = line_count + extra.lines().count() + 1;
            if let Some(reason) = judge_run(settings, &result, &checked, checked_lines, false) {
                outcome.findings.push(Finding {
                    flags: flags.clone(),
                    reason,
                    stderr: result.stderr.clone(),
                });
            } else if result.code() != Some(0)
                && !moved_to_the_end(&result.stderr, &checked, input_lines(&input.bytes))
            {
                outcome.findings.push(Finding {
                    flags,
                    reason: format!("--verify-diagnostics rejects directives written from acopy's own diagnostics (saved as {})", checked.display()),
                    stderr: result.stderr,
                });
            }
        }
        _ => {
            let flags = s(&["--acopy-verify", "--verify-diagnostics"]);
            let r = go("verify-diagnostics", flags.clone(), false, &mut outcome);
            let expected = if outcome.verified { Some(0) } else { Some(1) };
            if r.status.is_some() && r.code() != expected && verify.status.is_some() {
                outcome.findings.push(Finding {
                    flags: with(&flags, &split),
                    reason: format!(
                        "--verify-diagnostics without directives exits {:?}, --acopy-verify {:?}",
                        r.code(),
                        verify.code()
                    ),
                    stderr: r.stderr,
                });
            }
        }
    }
    outcome
}

/// Why a `--acopy-verify` run did not refuse a drawn fault (one of
/// `refusals`: a text its error must hold), or None. A hang or a crash is
/// the per-run rules' to report.
fn unrefused(verify: &Run, refusals: &[&str]) -> Option<String> {
    if verify.status.is_none() || verify.code().is_some_and(|code| code > 1) {
        return None;
    }
    let missing = refusals.iter().find(|text| {
        verify.code() != Some(1)
            || !verify
                .stderr
                .lines()
                .any(|line| line.contains("error: ") && line.contains(*text))
    })?;
    Some(format!(
        "a drawn fault that --acopy-verify must refuse (rule P9, an error with \"{missing}\") exits {:?} without that error",
        verify.code()
    ))
}

/// Why ptxas refuses a module of the PTX file `ptx` (modules split as
/// acopy-opt writes them: `// -----` between chunks, `// acopy-opt:
/// gpu.module` before each module of a chunk), each assembled for its own
/// `.target`, or None. A chip this ptxas does not know is skipped.
fn ptxas_problem(ptxas: &Path, ptx: &Path, work: &Path) -> Option<String> {
    let text = fs::read_to_string(ptx).ok()?;
    let mut modules: Vec<String> = vec![String::new()];
    for line in text.lines() {
        if line == "// -----" || line.starts_with("// acopy-opt: gpu.module ") {
            modules.push(String::new());
        }
        let current = modules.last_mut()?;
        current.push_str(line);
        current.push('\n');
    }
    let part = work.join("module.ptx");
    for module in modules {
        let Some(target) = ptx_targets(&module).into_iter().next() else {
            continue;
        };
        if fs::write(&part, &module).is_err() {
            return None;
        }
        let output = std::process::Command::new(ptxas)
            .arg(format!("-arch={target}"))
            .arg(&part)
            .arg("-o")
            .arg(work.join("module.cubin"))
            .output()
            .ok()?;
        let stderr = String::from_utf8_lossy(&output.stderr);
        if !output.status.success() && !stderr.contains("is not defined for option") {
            return Some(format!(
                "--acopy-verify accepts the input, but ptxas -arch={target} refuses its PTX: {}",
                stderr.trim()
            ));
        }
    }
    None
}

/// What is wrong with the manifest a successful `--tma-manifest` run wrote,
/// if anything: it must exist, parse and validate as acopy-manifest reads it,
/// and name only chips of the input's gpu.modules.
fn manifest_problem(path: &Path, chips: &[Option<String>]) -> Option<String> {
    let Ok(text) = fs::read_to_string(path) else {
        return Some("exit status 0 but no manifest".into());
    };
    let manifest = match acopy_manifest::Manifest::from_json(&text) {
        Ok(manifest) => manifest,
        Err(error) => return Some(format!("the manifest does not read back: {error}")),
    };
    let known: Vec<&str> = chips.iter().flatten().map(String::as_str).collect();
    let all_known = chips.iter().all(Option::is_some);
    manifest
        .kernels
        .iter()
        .find(|kernel| all_known && !known.contains(&kernel.chip.as_str()))
        .map(|kernel| {
            format!(
                "the manifest gives kernel {} chip {}, not one of the input's {known:?}",
                kernel.kernel, kernel.chip
            )
        })
}

/// Whether `--verify-diagnostics` reports an unexpected diagnostic among the
/// appended directives (past the input's `lines`): only a parse error at the
/// end of the file lands there, and appending moved it, so the round trip
/// says nothing about acopy's diagnostics.
fn moved_to_the_end(stderr: &str, checked: &Path, lines: usize) -> bool {
    let prefix = format!("{}:", checked.display());
    stderr.lines().any(|line| {
        let Some(rest) = line.strip_prefix(&prefix) else {
            return false;
        };
        let row = rest
            .split(':')
            .next()
            .and_then(|row| row.parse::<usize>().ok());
        line.contains("error: unexpected") && row.is_some_and(|row| row > lines)
    })
}

/// `--emit`'s own refusals, which concern no acopy op and so are outside
/// "verify accepts => emit succeeds" (docs/verification.md, "Verify and lower
/// agree"; the same list as tools/acopy-opt/tests/verify_lower_agree.rs),
/// and an input with no gpu.module at all (outside that agreement's scope:
/// damage can cut a draw down to nothing, which `--acopy-verify` accepts).
const EMIT_ONLY: [&str; 4] = [
    "cannot be written in PTX",
    "attribution",
    "cannot determine the target chip",
    "compiled from gpu.modules, and this input has none",
];

/// Whether every error of a failed run is one of `--emit`'s own refusals.
fn emit_only(stderr: &str) -> bool {
    let mut errors = stderr.lines().filter(|l| l.contains("error: ")).peekable();
    errors.peek().is_some() && errors.all(|l| EMIT_ONLY.iter().any(|text| l.contains(text)))
}

/// Lines of a file as `str::lines` counts them (a last line without `\n` counts).
fn input_lines(bytes: &[u8]) -> usize {
    let newlines = bytes.iter().filter(|b| **b == b'\n').count();
    newlines + usize::from(!bytes.is_empty() && !bytes.ends_with(b"\n"))
}

fn with(flags: &[String], split: &[String]) -> Vec<String> {
    flags.iter().chain(split).cloned().collect()
}

/// `// expected-<severity>@-N {{message}}` lines for every diagnostic of a
/// run, appended after the input's `lines` lines; None when a message cannot
/// be written as a directive (it holds `{{`, `}}`) or a diagnostic is not in the file.
fn directives_for(stderr: &str, input: &Path, lines: usize) -> Option<String> {
    let prefix = format!("{}:", input.display());
    let mut out = String::new();
    let mut directive_line = lines;
    for line in stderr.lines() {
        let Some(rest) = line.strip_prefix(&prefix) else {
            if line.starts_with(' ') || line.is_empty() {
                continue; // a source excerpt or caret line
            }
            return None;
        };
        let mut parts = rest.splitn(3, ':');
        let (Some(row), Some(_column), Some(message)) = (parts.next(), parts.next(), parts.next())
        else {
            return None;
        };
        let row: usize = row.parse().ok()?;
        let (severity, message) = message.trim_start().split_once(": ")?;
        if !["error", "warning", "note", "remark"].contains(&severity)
            || message.contains("{{")
            || message.contains("}}")
            || message.trim().is_empty()
        {
            return None;
        }
        directive_line += 1;
        // A diagnostic past the input's end (the judge reports it as
        // unlocated) cannot be written as a directive.
        let back = directive_line.checked_sub(row).filter(|_| row <= lines)?;
        out.push_str(&format!(
            "// expected-{severity}@-{back} {{{{{}}}}}\n",
            message.trim()
        ));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::ExitStatus;

    #[test]
    fn ptxas_sees_each_module_with_its_target() {
        let work = std::env::temp_dir().join(format!("acopy-fuzz-ptxas-{}", std::process::id()));
        fs::create_dir_all(&work).unwrap();
        let ptx = work.join("out.ptx");
        fs::write(
            &ptx,
            "// acopy-opt: gpu.module @a\n.target sm_80\n// acopy-opt: gpu.module @b\n.target sm_90a\n",
        )
        .unwrap();
        // A ptxas that accepts everything, and one that refuses everything.
        assert_eq!(ptxas_problem(Path::new("/bin/true"), &ptx, &work), None);
        let refused = ptxas_problem(Path::new("/bin/false"), &ptx, &work).unwrap();
        assert!(refused.contains("ptxas -arch=sm_80 refuses"), "{refused}");
        // No module with a target: nothing to assemble.
        fs::write(&ptx, "// nothing\n").unwrap();
        assert_eq!(ptxas_problem(Path::new("/bin/false"), &ptx, &work), None);
        let _ = fs::remove_dir_all(&work);
    }

    #[test]
    fn judge_recognises_each_broken_rule() {
        let settings = Settings {
            binary: "acopy-opt".into(),
            timeout: Duration::from_secs(20),
            ptxas: None,
        };
        let input = Path::new("/w/input.mlir");
        let exit = |code: i32, stderr: &str| Run {
            status: Some(ExitStatus::from_raw(code << 8)),
            stderr: stderr.into(),
        };
        assert!(judge_run(&settings, &exit(0, ""), input, 5, false).is_none());
        assert!(judge_run(
            &settings,
            &exit(1, "/w/input.mlir:3:4: error: bad\n"),
            input,
            5,
            false
        )
        .is_none());
        assert!(judge_run(
            &settings,
            &exit(1, "/w/input.mlir:9:4: error: past the end\n"),
            input,
            5,
            false
        )
        .is_some());
        assert!(judge_run(&settings, &exit(1, "error: nowhere\n"), input, 5, false).is_some());
        assert!(judge_run(&settings, &exit(1, ""), input, 5, false).is_some());
        assert!(judge_run(&settings, &exit(2, "acopy-opt: error: x"), input, 5, false).is_some());
        assert!(judge_run(&settings, &exit(2, "acopy-opt: error: x"), input, 5, true).is_none());
        assert!(judge_run(&settings, &exit(101, ""), input, 5, false).is_some());
        assert!(judge_run(
            &settings,
            &Run {
                status: Some(ExitStatus::from_raw(11)),
                stderr: String::new()
            },
            input,
            5,
            false
        )
        .is_some());
        assert!(judge_run(
            &settings,
            &Run {
                status: None,
                stderr: String::new()
            },
            input,
            5,
            false
        )
        .is_some());
        for text in CRASH_TEXTS {
            assert!(judge_run(
                &settings,
                &exit(1, &format!("/w/input.mlir:1:1: error: x\n{text}")),
                input,
                5,
                false
            )
            .is_some());
        }
    }

    #[test]
    fn drawn_faults_must_be_refused() {
        let exit = |code: i32, stderr: &str| Run {
            status: Some(ExitStatus::from_raw(code << 8)),
            stderr: stderr.into(),
        };
        let p9 =
            "/w/input.mlir:7:5: error: pipelining a copy with leader_tracked is not supported: x\n";
        let text = ["pipelining a copy with leader_tracked is not supported"];
        assert_eq!(unrefused(&exit(1, p9), &text), None);
        assert_eq!(unrefused(&exit(0, ""), &[]), None);
        let accepted = unrefused(&exit(0, ""), &text).unwrap();
        assert!(accepted.contains("rule P9"), "{accepted}");
        // Refused, but by another rule only.
        let other = "/w/input.mlir:7:5: error: something else\n";
        assert!(unrefused(&exit(1, other), &text).is_some());
        // A crash or a hang is reported by the per-run rules, not here.
        assert_eq!(unrefused(&exit(101, ""), &text), None);
        let hang = Run {
            status: None,
            stderr: String::new(),
        };
        assert_eq!(unrefused(&hang, &text), None);
    }

    #[test]
    fn manifests_are_read_back() {
        let dir = std::env::temp_dir().join(format!("acopy-fuzz-manifest-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("m.json");
        let chips = [Some("sm_90".to_string())];
        assert!(manifest_problem(&path, &chips)
            .unwrap()
            .contains("no manifest"));
        fs::write(&path, "{\"version\": 1, \"kernels\": []}").unwrap();
        assert_eq!(manifest_problem(&path, &chips), None);
        fs::write(&path, "{\"version\": 99, \"kernels\": []}").unwrap();
        assert!(manifest_problem(&path, &chips)
            .unwrap()
            .contains("does not read back"));
        let kernel = |chip: &str| {
            format!("{{\"version\": 1, \"kernels\": [{{\"module\": \"m\", \"kernel\": \"k\", \"chip\": \"{chip}\", \"cluster\": [1, 1, 1], \"tensor_maps\": []}}]}}")
        };
        fs::write(&path, kernel("sm_90")).unwrap();
        assert_eq!(manifest_problem(&path, &chips), None);
        fs::write(&path, kernel("sm_80")).unwrap();
        assert!(manifest_problem(&path, &chips)
            .unwrap()
            .contains("chip sm_80"));
        // A module whose chip the generator cannot name: no chip check.
        assert_eq!(manifest_problem(&path, &[None]), None);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn end_of_file_errors_moved_by_directives() {
        let checked = Path::new("/w/expected.mlir");
        let moved = "/w/expected.mlir:2:59: error: unexpected error: expected operation name in quotes\n/w/expected.mlir:2:4: error: expected error \"x\" was not produced\n";
        assert!(moved_to_the_end(moved, checked, 1));
        let inside =
            "/w/expected.mlir:1:9: error: unexpected error: expected operation name in quotes\n";
        assert!(!moved_to_the_end(inside, checked, 1));
        assert!(!moved_to_the_end(
            "/w/expected.mlir:2:4: error: expected error \"x\" was not produced\n",
            checked,
            1
        ));
    }

    #[test]
    fn emit_only_refusals() {
        let own = "/w/input.mlir:3:5: error: the workgroup attribution memref<4xtf32, 3> cannot be compiled: tf32 has no LLVM type\n";
        assert!(emit_only(own));
        let acopy =
            "/w/input.mlir:9:7: error: 'llvm.load' op result #0 must be LLVM type with size\n";
        assert!(!emit_only(acopy));
        assert!(!emit_only(&format!("{own}{acopy}")));
        assert!(!emit_only(""));
        let nothing = "/w/input.mlir:1:1: error: LLVM IR and PTX are compiled from gpu.modules, and this input has none: put the kernels in a gpu.module\n";
        assert!(emit_only(nothing));
    }

    #[test]
    fn ptx_targets_and_directives() {
        assert_eq!(
            ptx_targets(".version 8.0\n.target sm_90a\n//\n.target sm_80, debug\n"),
            ["sm_90a", "sm_80"]
        );
        let stderr = "/w/input.mlir:2:7: error: bad swizzle\n  %x = ...\n      ^\n/w/input.mlir:1:1: note: see\n";
        let text = directives_for(stderr, Path::new("/w/input.mlir"), 3).unwrap();
        assert_eq!(
            text,
            "// expected-error@-2 {{bad swizzle}}\n// expected-note@-4 {{see}}\n"
        );
        assert!(directives_for(
            "/w/input.mlir:2:7: error: a {{b}}\n",
            Path::new("/w/input.mlir"),
            3
        )
        .is_none());
        assert!(directives_for(
            "elsewhere.mlir:2:7: error: a\n",
            Path::new("/w/input.mlir"),
            3
        )
        .is_none());
        let past_the_end = "/w/input.mlir:99:1: error: past the end\n";
        assert!(directives_for(past_the_end, Path::new("/w/input.mlir"), 3).is_none());
    }
}
