//! The fuzzer's checks cannot pass silently: acopy-fuzz runs against a fake
//! acopy-opt (a shell script) that breaks one rule at a time, and must report
//! a crash naming that rule, save the input and exit 1; against the same fake
//! behaving well it must report `crashes: 0`.

use std::{
    fs,
    os::unix::fs::PermissionsExt,
    path::{Path, PathBuf},
    process::{Command, Output},
};

const SEED: &str = "1";

/// A fake acopy-opt. `FAKE_MODE` picks the rule it breaks; otherwise it
/// accepts everything and, for `-o FILE`, writes one PTX `.target` line per
/// `gpu.module`: the `--chip` override, else the module's chip.
const FAKE: &str = r#"#!/usr/bin/env bash
input=$1; shift
out= manifest= chip= verify=0 emit= fallback=0 prev=
for a in "$@"; do
  case $a in
    --acopy-fallback) fallback=1 ;;
    --tma-manifest=*) manifest=${a#*=} ;;
    --chip=*) chip=${a#*=} ;;
    --acopy-verify) verify=1 ;;
    --emit=*) emit=${a#*=} ;;
  esac
  [[ $prev == -o ]] && out=$a
  prev=$a
done
case ${FAKE_MODE:-} in
  signal) [[ $verify == 0 ]] && kill -SEGV $$ ;;
  panic) echo "thread 'main' panicked at src/main.rs:1:1:" >&2; exit 101 ;;
  unlocated) echo "error: nowhere" >&2; exit 1 ;;
  bad-status) exit 3 ;;
  hang) exec sleep 30 ;;
  emit-fails) if [[ -n $emit ]]; then echo "$input:1:1: error: cannot emit" >&2; exit 1; fi ;;
  wrong-target) chip=sm_52 ;;
  fallback-emit-fails)
    if [[ $verify == 1 && $fallback == 0 ]]; then echo "$input:1:1: error: strict mode rejects" >&2; exit 1; fi
    if [[ -n $emit && $fallback == 1 ]]; then echo "$input:1:1: error: cannot emit" >&2; exit 1; fi ;;
esac
if [[ -n $manifest ]]; then
  if [[ ${FAKE_MODE:-} == bad-manifest ]]; then echo '{}'; else echo '{"version": 1, "kernels": []}'; fi > "$manifest"
fi
if [[ -n $out ]]; then
  awk -v chip="$chip" '/gpu\.module/ {
    if (chip != "") print ".target " chip
    else if (match($0, /chip = "[^"]*"/)) print ".target " substr($0, RSTART + 8, RLENGTH - 9)
    else print ".target sm_50"
  }' "$input" > "$out"
  [[ ${FAKE_MODE:-} == nondeterministic ]] && echo "// $RANDOM$RANDOM$BASHPID" >> "$out"
fi
exit 0
"#;

fn fuzz() -> Command {
    Command::new(env!("CARGO_BIN_EXE_acopy-fuzz"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("acopy-fuzz-judge")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("create the scratch directory");
    dir
}

/// A generated case of one chunk with one gpu.module and one `chip = "sm_…"`
/// target, so that every check (the `.target` one too) applies to it.
fn plain_case() -> String {
    for case in 0..500 {
        let shown = fuzz()
            .args(["--seed", SEED, "--case", &case.to_string(), "--show"])
            .output()
            .expect("run acopy-fuzz --show");
        let text = String::from_utf8_lossy(&shown.stdout);
        if !text.contains("// -----")
            && text.matches("gpu.module").count() == 1
            && text.matches("#nvvm.target<chip = \"sm_").count() == 1
            && text.contains("acopy.copy_")
            && !text.contains("nvvm.cluster_dim")
        {
            return case.to_string();
        }
    }
    panic!("no plain case among the first 500");
}

/// A generated multicast loop with a P9 fault drawn (`producer = "warp"` on
/// a multicast copy), which acopy-opt must refuse.
fn multicast_fault_case() -> String {
    for case in 0..3000 {
        let shown = fuzz()
            .args(["--seed", SEED, "--case", &case.to_string(), "--show"])
            .output()
            .expect("run acopy-fuzz --show");
        let expected = String::from_utf8_lossy(&shown.stderr);
        if expected.contains("must refuse it") && expected.contains("with producer = \"warp\"") {
            return case.to_string();
        }
    }
    panic!("no multicast fault among the first 3000 cases");
}

fn run_fake(mode: &str) -> (Output, String, PathBuf) {
    run_fake_on(mode, &plain_case())
}

fn run_fake_on(mode: &str, case: &str) -> (Output, String, PathBuf) {
    let dir = scratch(mode);
    let fake = dir.join("fake-acopy-opt");
    fs::write(&fake, FAKE).expect("write the fake");
    fs::set_permissions(&fake, fs::Permissions::from_mode(0o755)).expect("chmod the fake");
    let crashes = dir.join("crashes");
    let output = fuzz()
        .args([
            "--seed",
            SEED,
            "--case",
            case,
            "--timeout",
            "1",
            "--threads",
            "1",
        ])
        .arg("--bin")
        .arg(&fake)
        .arg("--out")
        .arg(dir.join("out"))
        .arg("--crashes")
        .arg(&crashes)
        .env("FAKE_MODE", mode)
        .output()
        .expect("run acopy-fuzz");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    (output, stdout, crashes)
}

fn assert_flags(mode: &str, reason: &str) {
    let (output, stdout, crashes) = run_fake(mode);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{mode}: acopy-fuzz must fail:\n{stdout}"
    );
    assert!(
        stdout.contains(reason),
        "{mode}: no `{reason}` in:\n{stdout}"
    );
    assert!(!stdout.contains("crashes: 0"), "{mode}:\n{stdout}");
    assert!(
        stdout.contains("again: bash scripts/fuzz.sh 0 --seed"),
        "{mode}: no replay line:\n{stdout}"
    );
    let saved = fs::read_dir(&crashes).map(|d| d.count()).unwrap_or(0);
    assert_eq!(
        saved,
        1,
        "{mode}: the input is not saved in {}",
        crashes.display()
    );
}

#[test]
fn a_well_behaved_acopy_opt_passes() {
    let (output, stdout, crashes) = run_fake("none");
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("crashes: 0"), "{stdout}");
    // verify, lower, ptx, ptx again, llvm, fallback, pipeline, chip,
    // verify-diagnostics.
    assert!(stdout.contains("executions: 9"), "{stdout}");
    assert_eq!(fs::read_dir(&crashes).map(|d| d.count()).unwrap_or(0), 0);
}

#[test]
fn a_drawn_p9_fault_that_verifies_is_a_crash() {
    // The well-behaved fake accepts everything, the drawn fault too.
    let (output, stdout, _) = run_fake_on("none", &multicast_fault_case());
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("a drawn fault that --acopy-verify must refuse (rule P9"),
        "{stdout}"
    );
}

#[test]
fn a_signal_is_a_crash() {
    assert_flags("signal", "killed by signal 11");
}

#[test]
fn a_panic_is_a_crash() {
    assert_flags("panic", "stderr contains \"panicked\"");
}

#[test]
fn an_unlocated_error_is_a_crash() {
    assert_flags(
        "unlocated",
        "an error without a location in the input: error: nowhere",
    );
}

#[test]
fn another_exit_status_is_a_crash() {
    assert_flags("bad-status", "exit status Some(3)");
}

#[test]
fn a_hang_is_a_crash() {
    assert_flags("hang", "no exit within 1 s");
}

#[test]
fn verify_accepting_what_emit_rejects_is_a_crash() {
    assert_flags(
        "emit-fails",
        "--acopy-verify accepts the input, but --emit=ptx fails",
    );
}

#[test]
fn fallback_verify_accepting_what_fallback_emit_rejects_is_a_crash() {
    assert_flags(
        "fallback-emit-fails",
        "--acopy-verify --acopy-fallback accepts the input, but --acopy-fallback --emit=ptx fails",
    );
}

#[test]
fn different_output_from_the_same_command_is_a_crash() {
    assert_flags("nondeterministic", "the same command twice");
}

#[test]
fn a_manifest_that_does_not_read_back_is_a_crash() {
    assert_flags("bad-manifest", "the manifest does not read back");
}

#[test]
fn a_wrong_ptx_target_is_a_crash() {
    assert_flags("wrong-target", "PTX .target lines [\"sm_52\"]");
}

#[test]
fn bad_flags_are_a_usage_error() {
    let output = fuzz()
        .args(["--seconds", "soon"])
        .output()
        .expect("run acopy-fuzz");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--seconds: not a number: soon"));
    let output = fuzz().arg("--frobnicate").output().expect("run acopy-fuzz");
    assert_eq!(output.status.code(), Some(2));
    // No scratch directory: a usage error, not a run with 0 executions that passes.
    let dir = scratch("no-scratch");
    let output = fuzz()
        .args([
            "--seconds",
            "1",
            "--bin",
            "/bin/true",
            "--out",
            "/dev/null/x",
            "--crashes",
        ])
        .arg(dir.join("crashes"))
        .output()
        .expect("run acopy-fuzz");
    assert_eq!(
        output.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot create /dev/null/x/work-"));
}
