//! The producer-warpgroup plan of a marked loop, through the loop analysis:
//! which blocks and chips it takes (P17, P19) and the registers it moves.

use melior::ir::Module;

use super::analysis::analyze;
use super::registers::RegisterSplit;
use super::warp::WarpPlan;
use super::LoopPlan;
use crate::{context::create_context, PassOptions};

/// A kernel for `chip` with a block of `block` threads and `extra` kernel
/// attributes, whose one loop asks for `producer`.
fn kernel(chip: &str, block: &str, extra: &str, producer: &str) -> String {
    format!(
        r#"gpu.module @m [#nvvm.target<chip = "{chip}">] {{
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {{{block}{extra}}} {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {{
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {{oob_mode = "promise_in_bounds"}} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {{pending = 0 : i64}}
      %v = memref.load %tile[%c0, %c0] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %c0] : memref<4096x128xf32>
    }} {{acopy.pipeline = {{stages = 2 : i64, producer = "{producer}"}}}}
    gpu.return
  }}
}}"#
    )
}

/// What `read` takes from the plan of `text`'s one marked loop, or the
/// refusal's message (also for `super::warp_prologue`'s tests).
pub(super) fn analyzed<T>(text: &str, read: impl FnOnce(&LoopPlan) -> T) -> Result<T, String> {
    let context = create_context().expect("the acopy dialect loads");
    let module = Module::parse(&context, text).expect("the test input parses");
    let options = PassOptions::default();
    let chips = crate::target::ModuleChips::resolve(module.as_operation(), &options);
    let loops = crate::pipeliner::marked_ops(module.as_operation());
    assert_eq!(loops.len(), 1);
    match analyze(loops[0], &chips, &options) {
        Ok(plan) => Ok(read(&plan)),
        Err(problem) => Err(problem.message),
    }
}

/// The loop's warp plan, or the refusal's message.
fn plan(text: &str) -> Result<Option<WarpPlan>, String> {
    analyzed(text, |plan| plan.warp)
}

fn block(x: u32) -> String {
    format!("known_block_size = array<i32: {x}, 1, 1>")
}

#[test]
fn a_warpgroup_of_two_consumer_warpgroups_moves_registers() {
    let plan = plan(&kernel("sm_90a", &block(256), "", "warpgroup")).expect("a plan");
    assert_eq!(
        plan,
        Some(WarpPlan {
            consumers: 256,
            producers: 128,
            registers: Some(RegisterSplit {
                launch: 168,
                producer: 40,
                consumers: 232
            }),
            warp_release: false,
        })
    );
    assert_eq!(plan.map(|warp| warp.block()), Some(384));
}

#[test]
fn a_producer_warpgroup_keeps_the_registers_the_loop_asks_for() {
    let text = kernel("sm_90a", &block(256), "", "warpgroup").replace(
        r#"producer = "warpgroup"}"#,
        r#"producer = "warpgroup", producer_registers = 24 : i64}"#,
    );
    let split = plan(&text).expect("a plan").and_then(|warp| warp.registers);
    assert_eq!(
        split,
        Some(RegisterSplit {
            launch: 168,
            producer: 24,
            consumers: 240
        })
    );
}

#[test]
fn the_blocks_per_sm_the_kernel_asks_for_halve_the_registers() {
    for (blocks, want) in [(2, (80, 96)), (1, (168, 232))] {
        let extra = format!(", nvvm.minctasm = {blocks} : i32");
        let planned = plan(&kernel("sm_90a", &block(256), &extra, "warpgroup"));
        let split = planned.expect("a plan").and_then(|warp| warp.registers);
        assert_eq!(
            split.map(|s| (s.launch, s.consumers)),
            Some(want),
            "{blocks}"
        );
    }
}

#[test]
fn a_producer_warp_moves_none() {
    let plan = plan(&kernel("sm_90a", &block(992), "", "warp")).expect("a plan");
    assert_eq!(
        plan,
        Some(WarpPlan {
            consumers: 992,
            producers: 32,
            registers: None,
            warp_release: false
        })
    );
}

#[test]
fn the_block_is_whole_warpgroups_with_room_for_one_more() {
    assert!(plan(&kernel("sm_90a", &block(896), "", "warpgroup")).is_ok());
    for refused in [64, 1024, 160] {
        let message =
            plan(&kernel("sm_90a", &block(refused), "", "warpgroup")).expect_err("refused");
        assert!(
            message.contains("producer = \"warpgroup\" needs its kernel's block size known and one-dimensional, a multiple of 128 and at most 896 threads (the pass adds one 128-thread producer warpgroup after them), but it is"),
            "{message}"
        );
    }
    // A producer warp takes any multiple of 32 that leaves room for it.
    assert!(plan(&kernel("sm_90a", &block(160), "", "warp")).is_ok());
    let message = plan(&kernel("sm_90a", &block(1024), "", "warp")).expect_err("refused");
    assert!(message.contains("a multiple of 32 and at most 992 threads (the pass adds one 32-thread producer warp after them), but it is 1024"), "{message}");
}

#[test]
fn a_two_dimensional_block_is_refused_for_either_producer() {
    let two_d = "known_block_size = array<i32: 128, 2, 1>";
    for (producer, granule) in [("warpgroup", 128), ("warp", 32)] {
        let message = plan(&kernel("sm_90a", two_d, "", producer)).expect_err(producer);
        assert!(
            message.contains(&format!("a multiple of {granule}"))
                && message.ends_with("but it is 128 x 2 x 1"),
            "{message}"
        );
    }
}

#[test]
fn a_store_before_the_loop_is_refused_naming_the_warpgroup() {
    let text = kernel("sm_90a", &block(256), "", "warpgroup").replace(
        "    %tid = gpu.thread_id x\n",
        "    %tid = gpu.thread_id x\n    %f = arith.constant 1.0 : f32\n    memref.store %f, %out[%c0, %c0] : memref<4096x128xf32>\n",
    );
    let message = plan(&text).expect_err("refused");
    assert!(
        message.starts_with("a loop marked acopy.pipeline with producer = \"warpgroup\" must stand at the top level")
            && message.contains("(the producer warpgroup runs that code too)")
            && message.ends_with("but 'memref.store' comes before it and writes global memory, which the producer's copies may read meanwhile"),
        "{message}"
    );
}

#[test]
fn only_chips_with_setmaxnreg_take_a_warpgroup() {
    for chip in ["sm_90a", "sm_100a", "sm_120a"] {
        assert!(
            plan(&kernel(chip, &block(256), "", "warpgroup")).is_ok(),
            "{chip}"
        );
    }
    for chip in ["sm_90", "sm_100", "sm_80"] {
        let message = plan(&kernel(chip, &block(256), "", "warpgroup")).expect_err(chip);
        assert!(
            message.ends_with(&format!("but {chip} has no setmaxnreg")),
            "{message}"
        );
    }
}

#[test]
fn release_warp_is_kept_where_the_chip_counts_arrivals() {
    // `producer` is spliced into the mark: the release entry rides after it.
    let asked = r#"warp", release = "warp"#;
    let warp_release = |chip: &str, producer: &str| {
        plan(&kernel(chip, &block(128), "", producer))
            .expect("a plan")
            .map(|warp| warp.warp_release)
    };
    assert_eq!(warp_release("sm_90", asked), Some(true));
    assert_eq!(
        warp_release("sm_90a", r#"warpgroup", release = "warp"#),
        Some(true)
    );
    // sm_80 has no counted arrive: every consumer thread keeps arriving.
    assert_eq!(warp_release("sm_80", asked), Some(false));
    // The default, and "thread", release a thread at a time.
    assert_eq!(warp_release("sm_90", "warp"), Some(false));
    assert_eq!(
        warp_release("sm_90", r#"warp", release = "thread"#),
        Some(false)
    );
}
