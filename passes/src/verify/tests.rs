//! Tests of the pass as a library (what the driver cannot show), and of the
//! rule table against the lit suite and the docs.

use std::{cell::RefCell, collections::BTreeSet, path::PathBuf, rc::Rc};

use acopy_target::{Chip, CopyPath};
use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    Module,
};

use super::{rules, verify_operation, RULES};
use crate::{context::create_context, PassOptions};

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Parses `text`, runs [`verify_operation`] on it and returns the result and
/// the error messages, in order (fallback mode's remarks are left out: the
/// lit tests `tests/verify/fallback*.mlir` check those).
fn verify(text: &str, options: &PassOptions) -> (Result<(), ()>, Vec<String>) {
    let context = create_context().expect("the acopy dialect loads");
    let messages = Rc::new(RefCell::new(Vec::new()));
    let sink = messages.clone();
    context.attach_diagnostic_handler(move |diagnostic| {
        if matches!(
            diagnostic.severity(),
            melior::diagnostic::DiagnosticSeverity::Error
        ) {
            sink.borrow_mut().push(diagnostic.to_string());
        }
        true
    });
    let module = Module::parse(&context, text).expect("the test input parses");
    let result = verify_operation(module.as_operation(), options);
    let messages = messages.borrow().clone();
    (result, messages)
}

const COPY_TYPES: &str = "(memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()";

fn in_kernel(chip: &str, body: &str) -> String {
    format!(
        r#"gpu.module @m [#nvvm.target<chip = "{chip}">] {{
  gpu.func @k(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {{
{body}
    gpu.return
  }}
}}"#
    )
}

fn load(attributes: &str) -> String {
    format!(
        r#"    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {{operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>{attributes}}} : {COPY_TYPES}"#
    )
}

#[test]
fn valid_module_passes_silently() {
    let text = in_kernel("sm_80", &load(", oob_mode = \"promise_in_bounds\""));
    assert_eq!(verify(&text, &PassOptions::default()), (Ok(()), vec![]));
}

#[test]
fn every_bad_op_gets_one_error_and_checking_goes_on() {
    // E4 (default oob_mode) twice, then E2 (its first rule) on the third op.
    let body = [
        load(""),
        load(", oob_mode = \"zeros\""),
        load(", collective_axes = [\"x\"], oob_mode = \"zeros\""),
    ]
    .join("\n");
    let (result, messages) = verify(&in_kernel("sm_80", &body), &PassOptions::default());
    assert_eq!(result, Err(()));
    assert_eq!(
        messages,
        vec![
            "The cp.async implementation only supports oob_mode=OOBFillMode.PROMISE_IN_BOUNDS",
            "The cp.async implementation only supports oob_mode=OOBFillMode.PROMISE_IN_BOUNDS",
            "Only the TMA implementation supports collective copies",
        ]
    );
}

/// The driver reports view errors before any pass runs, so only a library
/// caller sees acopy-verify report them itself.
#[test]
fn view_errors_are_reported_by_the_pass() {
    let body = [
        load(", swizzle = 48 : i64"),
        "    \"acopy.wait_gmem_to_smem\"() {pending = -1 : i64} : () -> ()".to_string(),
    ]
    .join("\n");
    let (result, messages) = verify(&in_kernel("sm_80", &body), &PassOptions::default());
    assert_eq!(result, Err(()));
    assert_eq!(
        messages,
        vec![
            "attribute 'swizzle' must be one of 0, 32, 64, 128 (i64), but got 48 : i64",
            "attribute 'pending' must be one of a non-negative i64, but got -1 : i64",
        ]
    );
}

#[test]
fn target_errors_are_reported_at_each_op() {
    let text = format!(
        "func.func @f(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {{\n{}\n{}\n  return\n}}",
        load(""),
        load("")
    );
    let (result, messages) = verify(&text, &PassOptions::default());
    assert_eq!(result, Err(()));
    assert_eq!(messages.len(), 2);
    assert!(messages[0].starts_with("cannot determine the target chip"));
    // With an override the same ops verify against that chip.
    let options = PassOptions {
        chip: Some(Chip::parse("sm_90").expect("known chip")),
        fallback: false,
        ..PassOptions::default()
    };
    let (_, messages) = verify(&text, &options);
    assert_eq!(
        messages,
        vec![
            super::rules::RULES
                .iter()
                .find(|rule| rule.id == "E6")
                .map(|rule| rule.template.to_string())
                .expect("E6 exists");
            2
        ]
    );
}

#[test]
fn ops_outside_acopy_are_ignored() {
    let text = "func.func @f() { return }";
    assert_eq!(verify(text, &PassOptions::default()), (Ok(()), vec![]));
}

#[test]
fn fallback_waives_only_what_it_can_keep() {
    let fallback = PassOptions {
        chip: None,
        fallback: true,
        ..PassOptions::default()
    };
    let keepable = in_kernel(
        "sm_80",
        &load(", oob_mode = \"zeros\", collective_axes = [\"x\"], leader_tracked = \"replicated\""),
    );
    assert_eq!(verify(&keepable, &fallback), (Ok(()), vec![]));
    // A partitioned copy needs 2 CTAs: E2 is waived, E3 is not.
    let partitioned = in_kernel(
        "sm_80",
        &load(", collective_axes = [\"x\"], leader_tracked = \"partitioned\", partition_axis = 0 : i64"),
    );
    let (result, messages) = verify(&partitioned, &fallback);
    assert_eq!(result, Err(()));
    assert_eq!(
        messages,
        vec!["Only the TMA implementation supports leader_tracked copies"]
    );
    // Hopper is not affected by fallback mode.
    let hopper = in_kernel("sm_90", &load(""));
    let (_, messages) = verify(&hopper, &fallback);
    assert_eq!(
        messages,
        vec!["copy_gmem_to_smem without a barrier is only supported on pre-Hopper GPUs, which use the cp.async implementation"]
    );
}

/// Odd but parseable IR never panics: huge shapes and clusters, zero-sized
/// tiles, high ranks, odd element types, constant indices at the extremes.
#[test]
fn odd_input_never_panics() {
    let cases = [
        r#"gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%src: memref<9223372036854775807x9223372036854775807xi8>, %dst: memref<4611686018427387904x2xi8, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2147483647, 2147483647, 2147483647>} {
    %big = arith.constant 9223372036854775807 : index
    %neg = arith.constant -9223372036854775808 : index
    "acopy.copy_gmem_to_smem"(%src, %dst, %big, %neg, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x", "y", "z"], oob_mode = "promise_in_bounds", swizzle = 128 : i64} : (memref<9223372036854775807x9223372036854775807xi8>, memref<4611686018427387904x2xi8, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}"#,
        r#"gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2147483647, 2147483647, 2147483647>} {
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x", "y", "z"]} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x", "y", "z"], leader_tracked = "partitioned", partition_axis = 0 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["y"], leader_tracked = "replicated"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}"#,
        r#"gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<4611686018427387904x4611686018427387904x4611686018427387904x2xf32>, %dst: memref<4611686018427387904x4611686018427387904x4611686018427387904x2xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 4, 1, 0>} : (memref<4611686018427387904x4611686018427387904x4611686018427387904x2xf32>, memref<4611686018427387904x4611686018427387904x4611686018427387904x2xf32, 3>, index, index, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}"#,
        r#"gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @k(%src: memref<1x1x1x1x1x1x1x0xcomplex<f32>>, %dst: memref<0xcomplex<f32>, 3>, %i: index, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %i, %i, %i, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 8, 1, 0>, collective_axes = [], leader_tracked = "partitioned", partition_axis = 9223372036854775807 : i64, swizzle = 32 : i64} : (memref<1x1x1x1x1x1x1x0xcomplex<f32>>, memref<0xcomplex<f32>, 3>, index, index, index, index, index, index, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}"#,
        r#"gpu.module @m [#nvvm.target<chip = "sm_120">] {
  gpu.func @k(%t: memref<8xindex, 3>, %g: memref<?xindex, strided<[?], offset: ?>>, %i: index) kernel {
    "acopy.copy_smem_to_gmem"(%t, %g, %i) {operandSegmentSizes = array<i32: 1, 1, 1, 0>, reduction_op = "inc"} : (memref<8xindex, 3>, memref<?xindex, strided<[?], offset: ?>>, index) -> ()
    gpu.return
  }
}"#,
    ];
    for text in cases {
        for chip in [None, Some("sm_80"), Some("sm_90a")] {
            for fallback in [false, true] {
                let options = PassOptions {
                    chip: chip.map(|name| Chip::parse(name).expect("known chip")),
                    fallback,
                    ..PassOptions::default()
                };
                let (result, messages) = verify(text, &options);
                assert_eq!(result.is_err(), !messages.is_empty(), "{text}");
                // Each case breaks some rule of its own chip in strict mode.
                if chip.is_none() && !fallback {
                    assert!(result.is_err(), "{text}");
                }
            }
        }
    }
}

#[test]
fn rule_ids_and_fragments_are_unique() {
    let mut ids = BTreeSet::new();
    for rule in RULES {
        assert!(ids.insert(rule.id), "duplicate rule id {}", rule.id);
        assert!(
            rule.fragment().len() >= 20,
            "{}: fragment too short",
            rule.id
        );
        for other in RULES.iter().filter(|other| other.id != rule.id) {
            assert!(
                !other.template.contains(rule.fragment()),
                "{}'s fragment {:?} also appears in {}",
                rule.id,
                rule.fragment(),
                other.id
            );
        }
    }
}

/// Filtering the table by path gives the documented orders of the documented rules.
#[test]
fn documented_rules_follow_spec_order() {
    let order = |op: &str, path: CopyPath| -> Vec<&str> {
        RULES
            .iter()
            .filter(|rule| {
                rule.applies(op, path) && !rule.id.starts_with('A') && !rule.id.starts_with('P')
            })
            .map(|rule| rule.id)
            .collect()
    };
    let load = acopy_dialect::names::COPY_GMEM_TO_SMEM;
    assert_eq!(
        order(load, CopyPath::CpAsync),
        ["E10", "E1", "E2", "E3", "E4", "E5", "E11", "T4"]
    );
    assert_eq!(
        order(load, CopyPath::Tma),
        ["E10", "E8", "E9", "E6", "E11", "T1", "T2", "T3", "T4"]
    );
    // Our own rules come after every documented one.
    let first_own = RULES
        .iter()
        .position(|rule| rule.id.starts_with('A'))
        .expect("own rules exist");
    // Our own rules: the A rules of acopy ops, then the P rules of pipelined
    // loops (docs/pipelining.md).
    assert!(RULES[first_own..]
        .iter()
        .all(|rule| rule.id.starts_with('A') || rule.id.starts_with('P')));
    let first_loop = RULES
        .iter()
        .position(|rule| rule.id.starts_with('P'))
        .expect("pipeline rules exist");
    assert!(RULES[first_loop..]
        .iter()
        .all(|rule| rule.id.starts_with('P') && rule.ops == ["scf.for"]));
    // Only E1–E5 (cp.async chips), T2 and T4 (wide tiles, split or refused
    // by A33) and A18 (TMA chips) can be waived by fallback mode.
    let waivable: Vec<&str> = RULES
        .iter()
        .filter(|rule| rule.fallback.is_some())
        .map(|rule| rule.id)
        .collect();
    assert_eq!(waivable, ["E1", "E2", "E3", "E4", "E5", "T2", "T4", "A18"]);
}

#[test]
fn templates_split_into_literal_pieces() {
    assert_eq!(
        rules::literal_pieces("a {X} b {Y}."),
        vec!["a ", " b ", "."]
    );
    assert_eq!(rules::literal_pieces("{X}"), Vec::<&str>::new());
    assert_eq!(rules::literal_pieces("unclosed {X"), vec!["unclosed "]);
}

/// `docs/verification.md` carries the table exactly as the code has it (the README
/// points there).
#[test]
fn docs_table_matches_the_rules() {
    let table = rules::markdown_table();
    // The table has its header and one row per rule, in order (an empty table
    // would be "contained" in any document).
    let rows: Vec<&str> = table.lines().collect();
    assert_eq!(rows.len(), RULES.len() + 2, "{table}");
    assert!(rows[0].starts_with("| id | op | chips |"), "{table}");
    for (row, rule) in rows[2..].iter().zip(RULES) {
        assert!(row.starts_with(&format!("| {} | ", rule.id)), "{row}");
    }
    let doc = "docs/verification.md";
    let text = std::fs::read_to_string(repo_root().join(doc)).expect("the document exists");
    assert!(
        text.contains(&table),
        "{doc} is out of date; paste this table in:\n{table}"
    );
}

/// A lit case that triggers a rule: a `// RULE: <id>` line, directly followed
/// by an `expected-error` whose text contains the rule's fragment, in a file
/// under `tests/verify/` that runs with `--verify-diagnostics`.
#[test]
fn every_rule_has_a_lit_case() {
    let dir = repo_root().join("tests/verify");
    let mut covered: BTreeSet<String> = BTreeSet::new();
    let mut problems = Vec::new();
    let entries = std::fs::read_dir(&dir).expect("tests/verify exists");
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().and_then(|ext| ext.to_str()) != Some("mlir") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable test file");
        let runs_checked = text
            .lines()
            .any(|line| line.contains("RUN:") && line.contains("--verify-diagnostics"));
        let lines: Vec<&str> = text.lines().collect();
        for (index, line) in lines.iter().enumerate() {
            let Some(id) = line.trim().strip_prefix("// RULE:") else {
                continue;
            };
            let id = id.trim();
            let Some(rule) = RULES.iter().find(|rule| rule.id == id) else {
                problems.push(format!(
                    "{}:{}: unknown rule {id}",
                    path.display(),
                    index + 1
                ));
                continue;
            };
            let expected = lines
                .get(index + 1)
                .and_then(|next| next.split_once("expected-error"))
                .and_then(|(_, rest)| rest.split_once("{{"))
                .and_then(|(_, rest)| rest.rsplit_once("}}"))
                .map(|(text, _)| text);
            match expected {
                Some(text) if runs_checked && text.contains(rule.fragment()) => {
                    covered.insert(id.to_string());
                }
                _ => problems.push(format!(
                    "{}:{}: RULE {id} is not followed by an expected-error containing {:?} in a --verify-diagnostics file",
                    path.display(),
                    index + 1,
                    rule.fragment()
                )),
            }
        }
    }
    let missing: Vec<&str> = RULES
        .iter()
        .map(|rule| rule.id)
        .filter(|id| !covered.contains(*id))
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(missing.is_empty(), "rules without a lit case: {missing:?}");
}

/// `fact` of every acopy op of `text`, in program order.
fn each_acopy_op<T>(text: &str, fact: impl Fn(&acopy_dialect::AcopyOp) -> T) -> Vec<T> {
    use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
    let context = create_context().expect("the acopy dialect loads");
    let module = Module::parse(&context, text).expect("the test input parses");
    let mut found = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if let Some(Ok(view)) = acopy_dialect::AcopyOp::from_op(op) {
            found.push(fact(&view));
        }
        WalkResult::Advance
    });
    found
}

/// The fallback predicate the TMA lowering shares with A18's waiver: loads
/// without leader_tracked (swizzled ones too) and every store (reductions
/// too, through atomics).
#[test]
fn tma_fallback_exists_for_all_but_pair_copies() {
    let text = r#"gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @k(%g: memref<256x512xf32>, %i: index) workgroup(%t: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    "acopy.copy_gmem_to_smem"(%g, %t, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"]} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%g, %t, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, swizzle = 128 : i64} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%g, %t, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], leader_tracked = "replicated"} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_smem_to_gmem"(%t, %g, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%t, %g, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "add"} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64} : () -> ()
    gpu.return
  }
}"#;
    let found = each_acopy_op(text, crate::plan::tma_facts::tma_fallback_exists);
    // Multicast, swizzled, pair, store, reduction, store wait.
    assert_eq!(found, [true, true, false, true, true, false]);
}

/// `assumes_aligned_start` reads the promise from loads and stores alike (a
/// public fact embedders may query; within acopy-verify only A19 reads it, and
/// every store has a non-TMA path, so no lit test reaches the store side).
#[test]
fn assumes_aligned_start_reads_loads_and_stores() {
    let text = r#"gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%g: memref<256x512xf32>, %i: index) workgroup(%t: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    "acopy.copy_gmem_to_smem"(%g, %t, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, assume_aligned_start} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%g, %t, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_smem_to_gmem"(%t, %g, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, assume_aligned_start} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%t, %g, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (memref<64x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.wait_smem_to_gmem"() {pending = 0 : i64} : () -> ()
    gpu.return
  }
}"#;
    let found = each_acopy_op(text, crate::plan::tma_facts::assumes_aligned_start);
    assert_eq!(found, [true, false, true, false, false]);
}

/// A27 inside `verify_operation` answers from one replay per kernel (cached
/// by op address for the length of the walk); each kernel must still get its
/// own count, and the answers must equal the uncached replay of `check_op`.
#[test]
fn tensor_map_limit_is_counted_per_kernel_with_and_without_the_cache() {
    let kernel = |name: &str| {
        let tiles: Vec<String> = (1..=17)
            .map(|rows| format!("%t{rows}: memref<{rows}x32xf32, 3>"))
            .collect();
        let copy = |rows: usize| {
            format!(
                r#"    "acopy.copy_gmem_to_smem"(%src, %t{rows}, %i, %i, %bar) {{operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>}} : (memref<256x512xf32>, memref<{rows}x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()"#
            )
        };
        // 16 distinct maps, the 17th (over the limit), then a known one.
        let body: Vec<String> = (1..=17).chain([16]).map(copy).collect();
        format!(
            "  gpu.func @{name}(%src: memref<256x512xf32>, %i: index) workgroup({}, %bar: memref<1xi64, 3>) kernel {{\n{}\n    gpu.return\n  }}",
            tiles.join(", "),
            body.join("\n")
        )
    };
    let text = format!(
        "gpu.module @m [#nvvm.target<chip = \"sm_90\">] {{\n{}\n{}\n}}",
        kernel("a"),
        kernel("b")
    );
    let options = PassOptions::default();
    let walks = || super::tensor_maps::KERNEL_WALKS.with(|walks| walks.get());
    let before = walks();
    let (result, messages) = verify(&text, &options);
    // One replay per kernel, not one per copy: the reason for the cache (a
    // shard-9 mutation survivor, 2026-12-03, replayed per copy unnoticed).
    assert_eq!(walks() - before, 2, "kernel walks of verify_operation");
    assert_eq!(result, Err(()));
    assert_eq!(messages.len(), 2, "one A27 error per kernel: {messages:?}");
    assert!(messages
        .iter()
        .all(|message| message.contains("more than 16 TMA tensor maps")));

    // Outside verify_operation (no scope): op by op, the same answers.
    let context = create_context().expect("the acopy dialect loads");
    let module = Module::parse(&context, &text).expect("the test input parses");
    let mut rules_fired = Vec::new();
    let chips = crate::target::ModuleChips::resolve(module.as_operation(), &options);
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if acopy_dialect::AcopyOp::from_op(op).is_some() {
            rules_fired
                .push(super::check_op(op, &chips, &options).and_then(|finding| finding.rule));
        }
        WalkResult::Advance
    });
    let over = |rule: &Option<&str>| *rule == Some("A27");
    assert_eq!(rules_fired.len(), 36);
    let positions: Vec<usize> = (0..36).filter(|&i| over(&rules_fired[i])).collect();
    assert_eq!(positions, vec![16, 34]);
    assert!(rules_fired.iter().all(|rule| rule.is_none() || over(rule)));
}

/// The rules' text that names element types (A23's list, A15's table) says
/// what the typed lists in the code hold: `ElementType::ALL` and
/// `shape::reduction_types`.
#[test]
fn element_type_texts_match_the_typed_lists() {
    use acopy_dialect::ReductionOp;
    use acopy_manifest::ElementType;
    let rule = |id: &str| RULES.iter().find(|rule| rule.id == id).expect("the rule");
    let names = |types: &[ElementType]| {
        types
            .iter()
            .map(|ty| ty.mlir_name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let all = names(&ElementType::ALL);
    assert!(rule("A23").template.ends_with(&all), "{all}");
    assert!(rule("A23").when.contains(&format!("(all but {all})")));
    for (ops, op) in [
        ("add", ReductionOp::Add),
        ("min, max", ReductionOp::Max),
        ("smin, smax", ReductionOp::Smin),
        ("and, or, xor", ReductionOp::Xor),
    ] {
        let entry = format!("{ops}: {}", names(crate::plan::shape::reduction_types(op)));
        assert!(rule("A15").when.contains(&entry), "A15 should say {entry}");
    }
}

/// The chip is read once per gpu.module, not once per op: two modules of
/// three copies each read their `targets` twice in all, and each copy still
/// gets its own module's chip (a copy with a barrier is refused on sm_80 only).
#[test]
fn each_module_chip_is_resolved_once() {
    let module = |name: &str, chip: &str| {
        let copies: Vec<String> = (0..3)
            .map(|_| {
                r#"    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()"#.to_string()
            })
            .collect();
        format!(
            r#"gpu.module @{name} [#nvvm.target<chip = "{chip}">] {{
  gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%dst: memref<64x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {{
{}
    gpu.return
  }}
}}"#,
            copies.join("\n")
        )
    };
    let text = format!(
        "{}\n{}",
        module("ampere", "sm_80"),
        module("hopper", "sm_90")
    );
    let before = crate::target::MODULE_CHIP_READS.with(|reads| reads.get());
    let (result, messages) = verify(&text, &PassOptions::default());
    let reads = crate::target::MODULE_CHIP_READS.with(|reads| reads.get()) - before;
    assert_eq!(reads, 2, "one read per gpu.module");
    assert_eq!(result, Err(()));
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert!(
        messages
            .iter()
            .all(|message| message.contains("only supported Hopper and newer")),
        "{messages:?}"
    );
}

/// Every loop rule of the table is the one `loop_rule` names for its breakage, so a
/// marked loop's error carries its id (P1 for a bad request, P10 for the budget, ...).
#[test]
fn loop_rule_names_each_loop_rules_id() {
    use crate::plan::loops::loop_plan::Broken;
    let mut seen = 0;
    for rule in RULES.iter() {
        if let rules::Check::Loop(broken) = rule.check {
            assert_eq!(
                rules::loop_rule(broken).map(|found| found.id),
                Some(rule.id)
            );
            seen += 1;
        }
    }
    assert!(seen >= 18, "only {seen} loop rules");
    assert_eq!(rules::loop_rule(Broken::Request).map(|r| r.id), Some("P1"));
    assert_eq!(rules::loop_rule(Broken::Budget).map(|r| r.id), Some("P10"));
}
