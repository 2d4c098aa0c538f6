//! Embedding acopy: `cargo run --example embed` builds a tile-copy kernel
//! through the Rust API (no MLIR text) for sm_80 (cp.async) and sm_90 (TMA),
//! compiles both to PTX with `acopy::compile`, and prints them; then shows a
//! verification error as data. `cargo test` runs it too (the `#[test]` below).

use acopy::{
    dialect::{
        builders::{self, CopyOptions},
        kernel::{self, Dimension, KernelOptions},
        OobMode,
    },
    melior::{
        dialect::arith,
        ir::{
            attribute::IntegerAttribute,
            block::BlockLike,
            r#type::{IntegerType, MemRefType},
            Attribute, Location, Module, Type, Value,
        },
        Context,
    },
    Chip, Options,
};

type Error = Box<dyn std::error::Error + Send + Sync>;

/// The first result of an op just inserted.
fn value<'c, 'a>(op: acopy::melior::ir::OperationRef<'c, 'a>) -> Result<Value<'c, 'a>, Error> {
    Ok(op.result(0)?.into())
}

/// One block copies a 32x128 f32 tile global → shared at (32·by, 128·bx).
fn tile_copy<'c>(context: &'c Context, chip: Chip) -> Result<Module<'c>, Error> {
    let location = Location::new(context, "embed.rs", 1, 1);
    let tma = chip.major() >= 9;
    let module = kernel::container_module(location);
    let gpu_module = kernel::gpu_module(context, location, "tiles", chip)?;
    let f32 = Type::float32(context);
    let shared = Attribute::parse(context, "3");
    let global = MemRefType::new(f32, &[1024, 1024], None, None).into();
    let tile = MemRefType::new(f32, &[32, 128], None, shared).into();
    let barrier = MemRefType::new(IntegerType::new(context, 64).into(), &[1], None, shared).into();
    let workgroup = if tma { vec![tile, barrier] } else { vec![tile] };
    let options = KernelOptions {
        known_block_size: Some([128, 1, 1]),
        ..Default::default()
    };
    let function = kernel::kernel(context, location, "copy", &[global], &workgroup, &options)?;
    let entry = kernel::body(&function).ok_or("a kernel has a body")?;
    let end = entry.terminator().ok_or("a kernel ends in gpu.return")?;
    let index = |n| {
        arith::constant(
            context,
            IntegerAttribute::new(Type::index(context), n).into(),
            location,
        )
    };
    let by = value(
        entry.insert_operation_before(end, kernel::block_id(context, location, Dimension::Y)?),
    )?;
    let bx = value(
        entry.insert_operation_before(end, kernel::block_id(context, location, Dimension::X)?),
    )?;
    let c32 = value(entry.insert_operation_before(end, index(32)))?;
    let c128 = value(entry.insert_operation_before(end, index(128)))?;
    let row = value(entry.insert_operation_before(end, arith::muli(by, c32, location)))?;
    let col = value(entry.insert_operation_before(end, arith::muli(bx, c128, location)))?;
    let (src, smem) = (entry.argument(0)?.into(), entry.argument(1)?.into());
    let copy = CopyOptions {
        oob_mode: Some(OobMode::PromiseInBounds),
        ..Default::default()
    };
    if tma {
        // TMA completes on an mbarrier: init, copy, wait for phase 0.
        let bar = entry.argument(2)?.into();
        let i1 = IntegerType::new(context, 1).into();
        let phase = value(entry.insert_operation_before(
            end,
            arith::constant(context, IntegerAttribute::new(i1, 0).into(), location),
        ))?;
        entry.insert_operation_before(end, builders::barrier_init(context, location, bar, 1)?);
        entry.insert_operation_before(
            end,
            builders::copy_gmem_to_smem(
                context,
                location,
                src,
                smem,
                &[row, col],
                Some(bar),
                None,
                &copy,
            )?,
        );
        entry.insert_operation_before(end, builders::barrier_wait(location, bar, phase)?);
    } else {
        // cp.async completes in groups: copy, then wait for every group.
        entry.insert_operation_before(
            end,
            builders::copy_gmem_to_smem(
                context,
                location,
                src,
                smem,
                &[row, col],
                None,
                None,
                &copy,
            )?,
        );
        entry.insert_operation_before(end, builders::wait_gmem_to_smem(context, location, 0)?);
    }
    kernel::body(&gpu_module)
        .ok_or("a gpu.module has a body")?
        .append_operation(function);
    module.body().append_operation(gpu_module);
    Ok(module)
}

// README-BEGIN
/// Compiles MLIR text; errors come back as located diagnostics with rule ids.
fn compile_text(
    source: &str,
    chip: &str,
) -> Result<String, Box<dyn std::error::Error + Send + Sync>> {
    let options = acopy::Options {
        chip: Some(acopy::Chip::parse(chip)?), // else each gpu.module's #nvvm.target
        emit: acopy::Emit::Ptx,                // or Emit::Llvm, Emit::Mlir
        ..Default::default()
    };
    match acopy::compile(acopy::Input::file("kernels.mlir", source), &options) {
        Ok(compiled) => {
            // TMA kernels take tensor maps; the manifest says how to encode them.
            println!("{}", compiled.manifest.to_json_pretty());
            Ok(compiled.outputs.iter().map(|o| o.text.as_str()).collect())
        }
        Err(failed) => {
            for d in &failed.diagnostics {
                // e.g. kernels.mlir:6:7: error: The cp.async implementation ... (rule E4)
                eprintln!("{d} (rule {})", d.rule.unwrap_or("-"));
            }
            Err(failed.into())
        }
    }
}
// README-END

fn run() -> Result<Vec<String>, Error> {
    let context = acopy::create_context()?;
    let mut ptx = Vec::new();
    for chip in ["sm_80", "sm_90"] {
        let module = tile_copy(&context, Chip::parse(chip)?)?;
        let compiled = acopy::compile(&module, &Options::default())?;
        for output in compiled.outputs {
            println!("// {chip}: gpu.module @{}\n{}", output.module, output.text);
            ptx.push(output.text);
        }
    }
    // The same kernel as text, asking for a zero fill: E4 on sm_80, as data.
    let module_text = tile_copy(&context, Chip::parse("sm_80")?)?
        .as_operation()
        .to_string();
    // Printed in the dialect's custom form, and parsed back from it below.
    assert!(
        module_text.contains("acopy.copy_gmem_to_smem %"),
        "{module_text}"
    );
    println!("// the sm_80 kernel as built, before lowering:\n{module_text}");
    let module_text = module_text.replace("\"promise_in_bounds\"", "\"zeros\"");
    let error = compile_text(&module_text, "sm_80").expect_err("E4: zero fill on cp.async");
    let failed = error.downcast::<acopy::Failed>().map_err(|_| "a Failed")?;
    assert_eq!(failed.errors().next().and_then(|d| d.rule), Some("E4"));
    // And as TMA on sm_90, where the copy needs a barrier: E6.
    let error = compile_text(&module_text, "sm_90").expect_err("E6");
    let failed = error.downcast::<acopy::Failed>().map_err(|_| "a Failed")?;
    assert_eq!(failed.errors().next().and_then(|d| d.rule), Some("E6"));
    Ok(ptx)
}

fn main() -> Result<(), Error> {
    run().map(|_| ())
}

#[test]
fn builds_and_compiles_for_both_paths() {
    let ptx = run().expect("the example runs");
    assert_eq!(ptx.len(), 2);
    assert!(ptx[0].contains(".target sm_80") && ptx[0].contains("cp.async.cg.shared.global"));
    assert!(ptx[1].contains(".target sm_90") && ptx[1].contains("cp.async.bulk.tensor.2d"));
}
