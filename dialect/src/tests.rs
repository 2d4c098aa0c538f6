//! Builders and views agree: an op built through the Rust API reads back, through
//! its view, with the operands and attributes it was built with.

use melior::{
    dialect::DialectRegistry,
    ir::{block::BlockLike, operation::OperationLike, Location, Module, RegionLike},
    utility::register_all_dialects,
    Context,
};

use crate::{
    builders::{self, CopyOptions},
    AcopyOp, Axis, LeaderTracked, OobMode, ReductionOp, Swizzle, ViewError,
};

fn context() -> Context {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    crate::load(&context).expect("the dialect loads");
    context
}

const FUNC: &str = r#"
func.func @f(%src: memref<256x512xf32>, %tile: memref<64x128xf32, 3>, %i: index, %j: index,
             %bar: memref<1xi64, 3>, %p: i1) {
  return
}
"#;

/// Parses `FUNC`, lets `build` add ops before its `return`, and reads every op back.
fn with_built_ops(
    build: impl for<'c> Fn(&'c Context, &[melior::ir::Value<'c, '_>]) -> Vec<melior::ir::Operation<'c>>,
    check: impl Fn(Vec<Result<AcopyOp, ViewError>>),
) {
    let context = context();
    let module = Module::parse(&context, FUNC).expect("parses");
    let func = module.body().first_operation().expect("func");
    let entry = func.region(0).unwrap().first_block().unwrap();
    let arguments: Vec<_> = (0..entry.argument_count())
        .map(|index| entry.argument(index).unwrap().into())
        .collect();
    let terminator = entry.terminator().unwrap();
    for op in build(&context, &arguments) {
        entry.insert_operation_before(terminator, op);
    }
    assert!(module.as_operation().verify(), "{}", module.as_operation());
    let mut views = Vec::new();
    let mut op = entry.first_operation();
    while let Some(current) = op {
        if let Some(view) = AcopyOp::from_op(current) {
            views.push(view);
        }
        op = current.next_in_block();
    }
    check(views);
}

#[test]
fn copy_round_trips_through_builder_and_view() {
    with_built_ops(
        |context, args| {
            let options = CopyOptions {
                oob_mode: Some(OobMode::Undefined),
                collective_axes: vec![Axis::Y, Axis::X],
                leader_tracked: Some(LeaderTracked::Partitioned { axis: 1 }),
                swizzle: Swizzle::B64,
                assume_aligned_start: true,
            };
            let location = Location::unknown(context);
            vec![builders::copy_gmem_to_smem(
                context,
                location,
                args[0],
                args[1],
                &[args[2], args[3]],
                Some(args[4]),
                Some(args[5]),
                &options,
            )
            .unwrap()]
        },
        |views| {
            let [Ok(AcopyOp::CopyGmemToSmem(copy))] = views.as_slice() else {
                panic!("expected one readable copy");
            };
            assert_eq!(copy.indices.len(), 2);
            assert!(copy.barrier.is_some() && copy.predicate.is_some());
            assert_eq!(copy.oob_mode, Some(OobMode::Undefined));
            assert_eq!(
                copy.collective_axes.as_deref(),
                Some(&[Axis::Y, Axis::X][..])
            );
            assert_eq!(
                copy.leader_tracked,
                Some(LeaderTracked::Partitioned { axis: 1 })
            );
            assert_eq!(copy.swizzle, Swizzle::B64);
            assert!(copy.assume_aligned_start);
            assert_eq!(copy.dst_type.to_string(), "memref<64x128xf32, 3>");
        },
    );
}

#[test]
fn a_minimal_copy_gets_the_defaults() {
    with_built_ops(
        |context, args| {
            let location = Location::unknown(context);
            vec![builders::copy_gmem_to_smem(
                context,
                location,
                args[0],
                args[1],
                &[args[2], args[3]],
                None,
                None,
                &CopyOptions::default(),
            )
            .unwrap()]
        },
        |views| {
            let [Ok(AcopyOp::CopyGmemToSmem(copy))] = views.as_slice() else {
                panic!("expected one readable copy");
            };
            assert_eq!(copy.oob_mode, None);
            assert_eq!(copy.oob_mode_or_default(), OobMode::Zeros);
            assert_eq!(copy.collective_axes, None);
            assert_eq!(copy.swizzle, Swizzle::None);
            assert!(!copy.assume_aligned_start);
            assert!(copy.barrier.is_none() && copy.predicate.is_none());
        },
    );
}

#[test]
fn companion_ops_round_trip() {
    with_built_ops(
        |context, args| {
            let location = Location::unknown(context);
            vec![
                builders::wait_gmem_to_smem(context, location, 3).unwrap(),
                builders::barrier_init(context, location, args[4], 128).unwrap(),
                builders::barrier_wait(location, args[4], args[5]).unwrap(),
                builders::copy_smem_to_gmem(
                    context,
                    location,
                    args[1],
                    args[0],
                    &[args[2], args[3]],
                    Some(args[5]),
                    false,
                    Some(ReductionOp::Smax),
                )
                .unwrap(),
                builders::wait_smem_to_gmem(context, location, 1, true).unwrap(),
            ]
        },
        |views| {
            assert_eq!(views.len(), 5);
            match &views[0] {
                Ok(AcopyOp::WaitGmemToSmem(wait)) => assert_eq!(wait.pending, 3),
                _ => panic!("wait_gmem_to_smem"),
            }
            match &views[1] {
                Ok(AcopyOp::BarrierInit(init)) => assert_eq!(init.arrival_count, 128),
                _ => panic!("barrier_init"),
            }
            assert!(matches!(&views[2], Ok(AcopyOp::BarrierWait(_))));
            match &views[3] {
                Ok(AcopyOp::CopySmemToGmem(store)) => {
                    assert!(!store.commit_group);
                    assert_eq!(store.reduction_op, Some(ReductionOp::Smax));
                    assert!(store.predicate.is_some());
                }
                _ => panic!("copy_smem_to_gmem"),
            }
            match &views[4] {
                Ok(AcopyOp::WaitSmemToGmem(wait)) => assert!(wait.pending == 1 && wait.read_only),
                _ => panic!("wait_smem_to_gmem"),
            }
        },
    );
}

#[test]
fn views_reject_misplaced_operands() {
    with_built_ops(
        |context, args| {
            let location = Location::unknown(context);
            // src and dst swapped: the view names the operand and the memory space it needs.
            vec![builders::copy_gmem_to_smem(
                context,
                location,
                args[1],
                args[0],
                &[args[2], args[3]],
                None,
                None,
                &CopyOptions::default(),
            )
            .unwrap()]
        },
        |views| match views.as_slice() {
            [Err(ViewError::Operand(message))] => assert!(
                message.starts_with("src must be a memref in global memory"),
                "{message}"
            ),
            _ => panic!("expected an operand error"),
        },
    );
}

#[test]
fn the_compiled_dialect_loads_into_a_bare_context() {
    // No upstream dialect is needed: the ops are compiled in (dialect/acopy.td).
    let bare = Context::new();
    assert!(!bare.is_registered_operation(crate::names::BARRIER_INIT));
    crate::load(&bare).expect("loads");
    crate::load(&bare).expect("loading twice is harmless");
    for name in crate::names::ALL {
        assert!(bare.is_registered_operation(name), "{name}");
    }
    // Through a registry, as a frontend assembling its own context would.
    let registry = DialectRegistry::new();
    crate::dialect_handle().insert_dialect(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    assert!(context.get_or_load_dialect("acopy").namespace() == Ok("acopy"));
    assert!(context.is_registered_operation(crate::names::COPY_SMEM_TO_GMEM));
}

/// (severity, location, message) of each diagnostic `context` emits from now on.
pub(crate) type Seen = std::sync::Arc<std::sync::Mutex<Vec<(String, String, String)>>>;

/// Collects every diagnostic of `context` into the returned list.
pub(crate) fn collect_diagnostics(context: &Context) -> Seen {
    let seen = Seen::default();
    let sink = seen.clone();
    context.attach_diagnostic_handler(move |diagnostic| {
        sink.lock().unwrap().push((
            format!("{:?}", diagnostic.severity()),
            diagnostic.location().to_string(),
            diagnostic.to_string(),
        ));
        true
    });
    seen
}

#[test]
fn remarks_and_warnings_are_real_diagnostics() {
    let context = context();
    let seen = collect_diagnostics(&context);
    let location = Location::new(&context, "k.mlir", 7, 3);
    crate::diagnostics::emit_remark(location, "kept on sm_80");
    crate::diagnostics::emit_warning(location, "careful\0here");
    crate::diagnostics::emit_error(location, "refused");
    let (remark, warning, error) = (
        "Remark".to_string(),
        "Warning".to_string(),
        "Error".to_string(),
    );
    let seen = seen.lock().unwrap().clone();
    let location = "loc(\"k.mlir\":7:3)".to_string();
    assert_eq!(
        seen,
        [
            (remark, location.clone(), "kept on sm_80".to_string()),
            (warning, location.clone(), "careful here".to_string()),
            (error, location, "refused".to_string()),
        ]
    );
}

/// Cargo reruns a build script on any change in the package unless it names
/// what it reads: the C++ step must name exactly its C++ inputs, so that a
/// Rust edit never recompiles it (bench/RESULTS.md, "Building the C++").
#[test]
fn the_cpp_step_reruns_only_for_its_own_inputs() {
    let script = include_str!("../build.rs");
    let mut watched: Vec<&str> = script
        .lines()
        .filter_map(|line| {
            line.trim()
                .strip_prefix("println!(\"cargo:rerun-if-changed=")
        })
        .map(|rest| rest.trim_end_matches("\");"))
        .collect();
    watched.sort_unstable();
    assert_eq!(
        watched,
        ["acopy.td", "src/diagnostics_shim.cpp", "src/dialect.cpp"]
    );
    // Every file the script compiles or feeds to mlir-tblgen is watched.
    let inputs = script
        .split('"')
        .filter(|s| !s.contains([' ', '=', ':']) && (s.ends_with(".cpp") || s.ends_with(".td")));
    for input in inputs {
        assert!(
            watched.contains(&input),
            "{input} is compiled but not watched"
        );
    }
}

#[test]
fn marking_a_loop_gives_the_text_forms_attribute() {
    let context = context();
    let module = Module::parse(
        &context,
        "func.func @f(%n: index) {\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  scf.for %i = %c0 to %n step %c1 {\n  }\n  return\n}\n",
    )
    .expect("parses");
    let mut found = None;
    module
        .as_operation()
        .walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
            if op.name().as_string_ref().as_str() == Ok("scf.for") {
                found = Some(op.to_raw());
            }
            melior::ir::operation::WalkResult::Advance
        });
    // SAFETY: the loop lives in `module`.
    let loop_op = unsafe { melior::ir::OperationRef::from_raw(found.expect("a loop")) };
    builders::mark_for_pipelining(&context, loop_op, 3);
    let text = module.as_operation().to_string();
    assert!(
        text.contains("} {acopy.pipeline = {stages = 3 : i64}}"),
        "{text}"
    );
    // Marking again replaces the request, as setting an attribute does.
    builders::mark_for_pipelining(&context, loop_op, 5);
    let text = module.as_operation().to_string();
    assert!(
        text.contains("{acopy.pipeline = {stages = 5 : i64}}"),
        "{text}"
    );
    assert!(!text.contains("stages = 3"), "{text}");
}

#[test]
fn every_kernel_skeleton_op_is_registered() {
    let context = context();
    for name in crate::names::gpu::ALL {
        let name_ref = melior::StringRef::new(name);
        // SAFETY: a live context and a string that outlives the call.
        let registered = unsafe {
            mlir_sys::mlirContextIsRegisteredOperation(context.to_raw(), name_ref.to_raw())
        };
        assert!(registered, "{name} is not a registered op");
    }
}
