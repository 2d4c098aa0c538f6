//! What `convert-gpu-to-nvvm` and LLVM cannot compile in a `gpu.func`'s
//! attributions and in `memref.global`s, refused with an error at the op
//! (upstream makes IR that does not verify, crashes, or fails without a
//! location on these).

use melior::ir::{block::BlockLike, operation::OperationLike, OperationRef, RegionLike};

use crate::ir;

/// `convert-gpu-to-nvvm` assumes workgroup attributions in shared memory and
/// private ones in the default space; with any other memory space it makes
/// IR that does not verify (an `llvm.insertvalue` of a mismatched pointer).
pub(super) fn check_attributions(function: OperationRef) -> Result<(), String> {
    use melior::ir::{attribute::IntegerAttribute, r#type::MemRefType, ValueLike};
    let Some(block) = function.region(0).ok().and_then(|body| body.first_block()) else {
        return Ok(());
    };
    let inputs = ir::function_inputs(function)?;
    let workgroup = function
        .attribute("workgroup_attributions")
        .ok()
        .and_then(|count| IntegerAttribute::try_from(count).ok())
        .and_then(|count| usize::try_from(count.value()).ok())
        .unwrap_or(0);
    for index in inputs..block.argument_count() {
        let Some(memref) = block
            .argument(index)
            .ok()
            .and_then(|argument| MemRefType::try_from(argument.r#type()).ok())
        else {
            continue;
        };
        let space = memref.memory_space().map(|space| space.to_string());
        let (kind, allowed, fits) = if index < inputs + workgroup {
            (
                "workgroup",
                "shared memory (3 or #gpu.address_space<workgroup>)",
                acopy_dialect::MemorySpace::of(memref) == acopy_dialect::MemorySpace::Shared,
            )
        } else {
            (
                "private",
                "the default memory space (none, 0 or #gpu.address_space<private>)",
                matches!(
                    space.as_deref(),
                    None | Some("0 : i64") | Some("#gpu.address_space<private>")
                ),
            )
        };
        if !fits {
            return Err(format!(
                "the {kind} attribution {memref} cannot be compiled: convert-gpu-to-nvvm needs {kind} attributions in {allowed}"
            ));
        }
        if kind == "workgroup" && has_scalable_elements(memref) {
            return Err(format!(
                "the workgroup attribution {memref} cannot be compiled: {SCALABLE}"
            ));
        }
        if holds_tf32(memref) {
            return Err(format!(
                "the {kind} attribution {memref} cannot be compiled: tf32 has no LLVM type, and convert-gpu-to-nvvm crashes on an attribution that holds it"
            ));
        }
    }
    Ok(())
}

/// Whether a memref's elements are tf32, or vectors or complex numbers of it.
/// `convert-gpu-to-nvvm` segfaults on such a workgroup or private attribution
/// (MLIR 22; found by scripts/fuzz.sh); every other element type a memref
/// can hold either converts or is reported with a location.
fn holds_tf32(memref: melior::ir::r#type::MemRefType) -> bool {
    use melior::ir::r#type::{ShapedTypeLike, TypeLike};
    let mut element = memref.element().to_raw();
    // SAFETY: `element` is a live type of the module's context at each call;
    // only type queries are made.
    unsafe {
        loop {
            if mlir_sys::mlirTypeIsAComplex(element) {
                element = mlir_sys::mlirComplexTypeGetElementType(element);
            } else if mlir_sys::mlirTypeIsAVector(element) {
                element = mlir_sys::mlirShapedTypeGetElementType(element);
            } else {
                return mlir_sys::mlirTypeIsATF32(element);
            }
        }
    }
}

/// Why a global of scalable vectors is refused. LLVM's verifier rejects it
/// with a bare "Globals cannot contain scalable types" (no `error:`, no
/// location), and workgroup attributions and `memref.global`s become globals.
const SCALABLE: &str = "a global (shared memory or memref.global) cannot hold scalable vectors, whose size is unknown when compiling";

fn has_scalable_elements(memref: melior::ir::r#type::MemRefType) -> bool {
    use melior::ir::r#type::{ShapedTypeLike, TypeLike};
    let element = memref.element();
    // SAFETY: `element` is a live vector type when the call is made.
    element.is_vector() && unsafe { mlir_sys::mlirVectorTypeIsScalable(element.to_raw()) }
}

/// A `memref.global` of scalable vectors: see [`SCALABLE`].
pub(super) fn check_global(global: OperationRef) -> Result<(), String> {
    use melior::ir::{attribute::TypeAttribute, r#type::MemRefType};
    let memref = global
        .attribute("type")
        .ok()
        .and_then(|attribute| TypeAttribute::try_from(attribute).ok())
        .and_then(|attribute| MemRefType::try_from(attribute.value()).ok());
    match memref {
        Some(memref) if has_scalable_elements(memref) => Err(format!(
            "the global {memref} cannot be compiled: {SCALABLE}"
        )),
        _ => Ok(()),
    }
}
