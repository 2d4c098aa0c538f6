//! Memory spaces the route to PTX cannot map: MLIR's GPU-to-NVVM conversion
//! turns a memref's memory space into an LLVM address space only when it is
//! none, an integer or a `#gpu.address_space<...>`; any other attribute (a
//! string, a dictionary, another dialect's) stops the lowering with "conversion
//! of memref memory space ... failed" and no op named. `acopy-verify` (and so
//! `acopy-lower`, which verifies first) reports it at the op instead
//! (docs/robustness.md).

use melior::ir::{
    attribute::IntegerAttribute, block::BlockLike, operation::OperationLike, r#type::MemRefType,
    Attribute, OperationRef, RegionLike, Type, TypeLike, ValueLike,
};

/// The message for the first memref type `op` defines (its results and its
/// regions' entry-block arguments: a kernel's arguments and attributions)
/// whose memory space cannot be mapped; each value is named once, where it
/// is defined, not at every use.
pub(crate) fn unmappable(op: OperationRef) -> Option<String> {
    let mut types: Vec<Type> = Vec::new();
    types.extend(
        (0..op.result_count())
            .filter_map(|i| op.result(i).ok())
            .map(|v| v.r#type()),
    );
    for region in op.regions() {
        if let Some(block) = region.first_block() {
            types.extend(
                (0..block.argument_count())
                    .filter_map(|i| block.argument(i).ok())
                    .map(|v| v.r#type()),
            );
        }
    }
    types.into_iter().find_map(|r#type| {
        // melior's failed `try_from` prints the type into its error: most
        // values are not memrefs, so ask first.
        if !r#type.is_mem_ref() {
            return None;
        }
        let space = MemRefType::try_from(r#type).ok()?.memory_space()?;
        (!mappable(space)).then(|| {
            format!(
                "'{}' uses {type}, whose memory space {space} the lowering to NVVM cannot map to an address space: use no memory space (global), an integer (3 is shared) or #gpu.address_space<global|workgroup|private>",
                crate::ir::op_name(&op),
                type = r#type,
            )
        })
    })
}

fn mappable(space: Attribute) -> bool {
    IntegerAttribute::try_from(space).is_ok()
        || space.to_string().starts_with("#gpu.address_space<")
}

#[cfg(test)]
mod tests {
    use melior::{
        dialect::DialectRegistry,
        ir::{block::BlockLike, operation::OperationLike, Module, RegionLike},
        utility::register_all_dialects,
        Context,
    };

    /// Each function's first op's verdict.
    fn verdicts(text: &str) -> Vec<Option<String>> {
        let registry = DialectRegistry::new();
        register_all_dialects(&registry);
        let context = Context::new();
        context.append_dialect_registry(&registry);
        context.load_all_available_dialects();
        let module = Module::parse(&context, text).expect("parses");
        let mut out = Vec::new();
        let mut op = module.body().first_operation();
        while let Some(function) = op {
            out.push(super::unmappable(function));
            let body = function.region(0).ok().and_then(|r| r.first_block());
            out.push(
                body.and_then(|b| b.first_operation())
                    .and_then(super::unmappable),
            );
            op = function.next_in_block();
        }
        out
    }

    #[test]
    fn only_unmappable_spaces_are_named() {
        let got = verdicts(
            r#"func.func @ok(%a: memref<4xf32>, %b: memref<4xf32, 3>, %c: memref<4xf32, #gpu.address_space<workgroup>>) {
                 %x = memref.load %b[%b0] : memref<4xf32, 3>
                 return
               }
               func.func @bad(%a: memref<4xf32, "shared">) {
                 %c0 = arith.constant 0 : index
                 %x = memref.load %a[%c0] : memref<4xf32, "shared">
                 return
               }"#
            .replace("%b[%b0]", "%b[%i]")
            .replace("%b: memref<4xf32, 3>,", "%b: memref<4xf32, 3>, %i: index,")
            .as_str(),
        );
        assert_eq!(got[0], None);
        assert_eq!(got[1], None);
        let function = got[2].as_deref().expect("the function's argument is named");
        assert!(function.contains("memref<4xf32, \"shared\">"), "{function}");
        assert!(function.starts_with("'func.func' uses"), "{function}");
        assert_eq!(got[3], None, "arith.constant defines no memref");
    }
}
