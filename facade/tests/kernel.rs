//! A whole kernel built through the Rust API alone (skeleton builders and
//! acopy's op builders, no MLIR text), compiled to PTX by `acopy::compile`
//! and assembled by ptxas.

use std::path::PathBuf;

use acopy::{
    dialect::{
        builders::{self, CopyOptions},
        kernel::{self, Dimension, KernelError, KernelOptions},
        OobMode,
    },
    melior::{
        dialect::arith,
        ir::{
            attribute::IntegerAttribute,
            block::BlockLike,
            operation::OperationLike,
            r#type::{IntegerType, MemRefType},
            Attribute, Location, Module, Type,
        },
        Context,
    },
    Chip, Options,
};

/// A tile copy: global → shared (with a barrier on TMA chips), and on TMA
/// chips shared → global too. `block` is the known block size.
fn build<'c>(context: &'c Context, chip: Chip, tma: bool, block: [u32; 3]) -> Module<'c> {
    let location = Location::new(context, "built", 1, 1);
    let module = kernel::container_module(location);
    let gpu_module = kernel::gpu_module(context, location, "tiles", chip).expect("gpu.module");
    let shared = Some(Attribute::parse(context, "3").unwrap());
    let f32 = Type::float32(context);
    let global = MemRefType::new(f32, &[1024, 1024], None, None).into();
    let tile = MemRefType::new(f32, &[32, 128], None, shared).into();
    let barrier = MemRefType::new(IntegerType::new(context, 64).into(), &[1], None, shared).into();
    let workgroup: Vec<Type> = if tma { vec![tile, barrier] } else { vec![tile] };
    let function = kernel::kernel(
        context,
        location,
        "copy_tile",
        &[global, global],
        &workgroup,
        &KernelOptions {
            cluster_dim: tma.then_some([1, 1, 1]),
            known_block_size: Some(block),
        },
    )
    .expect("gpu.func");
    {
        let entry = kernel::body(&function).expect("entry block");
        let terminator = entry.terminator().expect("gpu.return");
        let add =
            |op: acopy::melior::ir::Operation<'c>| entry.insert_operation_before(terminator, op);
        let index = |value: i64| {
            arith::constant(
                context,
                IntegerAttribute::new(Type::index(context), value).into(),
                location,
            )
        };
        let by = add(kernel::block_id(context, location, Dimension::Y).unwrap())
            .result(0)
            .unwrap()
            .into();
        let bx = add(kernel::block_id(context, location, Dimension::X).unwrap())
            .result(0)
            .unwrap()
            .into();
        let c32 = add(index(32)).result(0).unwrap().into();
        let c128 = add(index(128)).result(0).unwrap().into();
        let row = add(arith::muli(by, c32, location))
            .result(0)
            .unwrap()
            .into();
        let col = add(arith::muli(bx, c128, location))
            .result(0)
            .unwrap()
            .into();
        let src = entry.argument(0).unwrap().into();
        let dst = entry.argument(1).unwrap().into();
        let smem = entry.argument(2).unwrap().into();
        let options = CopyOptions {
            oob_mode: Some(OobMode::PromiseInBounds),
            ..Default::default()
        };
        if tma {
            let bar = entry.argument(3).unwrap().into();
            let parity = add(arith::constant(
                context,
                IntegerAttribute::new(IntegerType::new(context, 1).into(), 0).into(),
                location,
            ))
            .result(0)
            .unwrap()
            .into();
            add(builders::barrier_init(context, location, bar, 1).unwrap());
            add(builders::copy_gmem_to_smem(
                context,
                location,
                src,
                smem,
                &[row, col],
                Some(bar),
                None,
                &options,
            )
            .unwrap());
            add(builders::barrier_wait(location, bar, parity).unwrap());
            add(builders::copy_smem_to_gmem(
                context,
                location,
                smem,
                dst,
                &[row, col],
                None,
                true,
                None,
            )
            .unwrap());
            add(builders::wait_smem_to_gmem(context, location, 0, false).unwrap());
        } else {
            add(builders::copy_gmem_to_smem(
                context,
                location,
                src,
                smem,
                &[row, col],
                None,
                None,
                &options,
            )
            .unwrap());
            add(builders::wait_gmem_to_smem(context, location, 0).unwrap());
        }
    }
    kernel::body(&gpu_module)
        .expect("gpu.module body")
        .append_operation(function);
    module.body().append_operation(gpu_module);
    assert!(module.as_operation().verify(), "{}", module.as_operation());
    module
}

/// ptxas from ACOPY_PTXAS or the one scripts/install-deps.sh puts in .venv.
fn ptxas() -> PathBuf {
    let path = std::env::var_os("ACOPY_PTXAS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin/ptxas"));
    assert!(
        path.exists(),
        "no ptxas at {}: run scripts/install-deps.sh or set ACOPY_PTXAS",
        path.display()
    );
    path
}

fn assemble(ptx: &str, chip: &str) {
    let dir = std::env::temp_dir().join(format!("acopy-kernel-test-{}-{chip}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("kernel.ptx");
    std::fs::write(&file, ptx).unwrap();
    let output = std::process::Command::new(ptxas())
        .arg(format!("-arch={chip}"))
        .arg("--warning-as-error")
        .arg(&file)
        .arg("-o")
        .arg(dir.join("kernel.cubin"))
        .output()
        .expect("ptxas runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        output.status.success(),
        "ptxas -arch={chip} failed:\n{}{}\n{ptx}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn a_built_tma_kernel_compiles_and_assembles() {
    let context = acopy::create_context().unwrap();
    let module = build(&context, Chip::parse("sm_90").unwrap(), true, [128, 1, 1]);
    let text = module.as_operation().to_string();
    assert!(
        text.contains("gpu.module @tiles [#nvvm.target<chip = \"sm_90\", features = \"+ptx80\">]"),
        "{text}"
    );
    assert!(text.contains("workgroup(%arg2 : memref<32x128xf32, 3>, %arg3 : memref<1xi64, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>, nvvm.cluster_dim = array<i32: 1, 1, 1>}"), "{text}");
    assert!(
        text.contains("gpu.block_id  y") || text.contains("gpu.block_id y"),
        "{text}"
    );
    let compiled = acopy::compile(&module, &Options::default()).expect("compiles");
    let ptx = &compiled.outputs[0].text;
    assert!(ptx.contains(".target sm_90"), "{ptx}");
    assert!(ptx.contains(".entry copy_tile"), "{ptx}");
    // known_block_size reaches the PTX as .maxntid; the cluster as .reqnctapercluster.
    assert!(ptx.contains(".maxntid 128, 1, 1"), "{ptx}");
    assert!(ptx.contains(".reqnctapercluster 1, 1, 1"), "{ptx}");
    assert!(
        ptx.contains("cp.async.bulk.tensor.2d.shared::cluster.global"),
        "{ptx}"
    );
    assert!(
        ptx.contains("cp.async.bulk.tensor.2d.global.shared::cta"),
        "{ptx}"
    );
    let kernel = compiled
        .manifest
        .kernel_in("tiles", "copy_tile")
        .expect("manifest entry");
    assert_eq!(kernel.tensor_maps.len(), 2);
    assert_eq!(kernel.tensor_maps[0].map.box_shape, vec![32, 128]);
    assemble(ptx, "sm_90");
}

#[test]
fn a_built_cp_async_kernel_compiles_and_assembles() {
    let context = acopy::create_context().unwrap();
    let module = build(&context, Chip::parse("sm_80").unwrap(), false, [64, 2, 1]);
    let compiled = acopy::compile(&module, &Options::default()).expect("compiles");
    let ptx = &compiled.outputs[0].text;
    assert!(ptx.contains(".target sm_80"), "{ptx}");
    assert!(ptx.contains(".maxntid 64, 2, 1"), "{ptx}");
    assert!(!ptx.contains(".reqnctapercluster"), "{ptx}");
    assert!(ptx.contains("cp.async.cg.shared.global"), "{ptx}");
    assert!(ptx.contains("cp.async.wait_group"), "{ptx}");
    let [kernel] = compiled.manifest.kernels.as_slice() else {
        panic!("one kernel: {:?}", compiled.manifest);
    };
    assert!(kernel.tensor_maps.is_empty());
    let facts = kernel.launch.as_ref().expect("launch facts");
    assert_eq!(facts.block, Some([64, 2, 1]));
    assemble(ptx, "sm_80");
}

#[test]
fn skeleton_misuse_is_an_error() {
    let context = acopy::create_context().unwrap();
    let location = Location::unknown(&context);
    let f32 = Type::float32(&context);
    let global: Type = MemRefType::new(f32, &[16], None, None).into();
    let no_options = KernelOptions::default();
    match kernel::kernel(&context, location, "k", &[], &[global], &no_options) {
        Err(KernelError::WorkgroupNotShared { index: 0, found }) => {
            assert_eq!(found, "memref<16xf32>")
        }
        other => panic!(
            "expected WorkgroupNotShared, got {:?}",
            other.map(|op| op.to_string())
        ),
    }
    match kernel::kernel(&context, location, "k", &[], &[f32], &no_options) {
        Err(KernelError::WorkgroupNotShared { found, .. }) => assert_eq!(found, "f32"),
        other => panic!(
            "expected WorkgroupNotShared, got {:?}",
            other.map(|op| op.to_string())
        ),
    }
    let zero = KernelOptions {
        cluster_dim: Some([2, 0, 1]),
        ..Default::default()
    };
    assert_eq!(
        kernel::kernel(&context, location, "k", &[], &[], &zero).map(|_| ()),
        Err(KernelError::ZeroSize {
            attribute: "nvvm.cluster_dim",
            dims: [2, 0, 1]
        })
    );
    let huge = KernelOptions {
        known_block_size: Some([u32::MAX, 1, 1]),
        ..Default::default()
    };
    assert_eq!(
        kernel::kernel(&context, location, "k", &[], &[], &huge).map(|_| ()),
        Err(KernelError::TooLarge {
            attribute: "known_block_size",
            dims: [u32::MAX, 1, 1]
        })
    );
}

#[test]
fn a_context_without_the_gpu_dialects_is_an_error() {
    let context = Context::new();
    let location = Location::unknown(&context);
    assert_eq!(
        kernel::block_id(&context, location, Dimension::X).map(|_| ()),
        Err(KernelError::MissingDialect("gpu"))
    );
    assert_eq!(
        kernel::gpu_module(&context, location, "m", Chip::parse("sm_80").unwrap()).map(|_| ()),
        Err(KernelError::MissingDialect("nvvm"))
    );
}
