//! IR queries and edits the passes need beyond melior's safe API.

pub(crate) mod build;
pub(crate) mod hoist;
pub(crate) mod memref_layout;
pub(crate) mod merge_ifs;
pub(crate) mod op_names;
pub(crate) mod query;
pub(crate) mod spelled;

use melior::{
    ir::{
        attribute::{
            ArrayAttribute, DenseI64ArrayAttribute, DictionaryAttribute, IntegerAttribute,
            StringAttribute, TypeAttribute,
        },
        operation::OperationLike,
        r#type::{FunctionType, MemRefType},
        Attribute, AttributeLike, BlockRef, OperationRef, ShapedTypeLike, Value, ValueLike,
    },
    Context, StringRef,
};

/// MLIR's marker for a dynamic offset, size or stride (`ShapedType::kDynamic`).
pub(crate) const DYNAMIC: i64 = i64::MIN;

/// Runs `body` with the context that owns `op` (`acopy_dialect::with_context`:
/// the reference cannot leave the closure).
pub(crate) fn with_context<'c: 'a, 'a, T>(
    op: &impl melior::ir::operation::OperationLike<'c, 'a>,
    body: impl for<'x> FnOnce(&'x Context) -> T,
) -> T {
    acopy_dialect::with_context(op.context(), body)
}

/// Sets an inherent attribute (property) of `op`, such as `function_type`.
pub(crate) fn set_inherent(op: OperationRef, name: &str, value: Attribute) {
    let name = StringRef::new(name);
    // SAFETY: `op` and `value` belong to a live context; MLIR copies the name.
    unsafe {
        mlir_sys::mlirOperationSetInherentAttributeByName(
            op.to_raw(),
            name.to_raw(),
            value.to_raw(),
        )
    }
}

/// Sets a discardable attribute of `op`.
pub(crate) fn set_discardable(op: OperationRef, name: &str, value: Attribute) {
    let name = StringRef::new(name);
    // SAFETY: as for `set_inherent`.
    unsafe {
        mlir_sys::mlirOperationSetDiscardableAttributeByName(
            op.to_raw(),
            name.to_raw(),
            value.to_raw(),
        )
    }
}

/// The op's name as a string.
pub(crate) fn op_name(op: &OperationRef) -> String {
    op.name()
        .as_string_ref()
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Whether `op` is named `name`, read in place (no `String`): for the acopy
/// ops (`acopy_dialect::names`), which the table does not hold.
pub(crate) fn named(op: &OperationRef, name: &str) -> bool {
    op.name().as_string_ref().as_str() == Ok(name)
}

/// Whether `op` is the op `name` of the table (`op_names`), the one way the
/// passes match an op by name.
pub(crate) fn is(op: &OperationRef, name: op_names::OpName) -> bool {
    op.name().as_string_ref().as_str() == Ok(name.name)
}

/// Whether `op` is a function (`gpu.func`, `func.func`, `llvm.func`). Its
/// body holds no symbol, so no `gpu.module` and no function: MLIR's verifier
/// refuses a symbol whose parent is no symbol table. A walk for those skips
/// the body, most of a module's ops.
pub(crate) fn is_function(op: &OperationRef) -> bool {
    let name = op.name();
    let name = name.as_string_ref().as_str().unwrap_or_default();
    [
        op_names::gpu::FUNC,
        op_names::func::FUNC,
        op_names::llvm::FUNC,
    ]
    .iter()
    .any(|function| function.name == name)
}

/// The table's entry for `op` (`op_names`), if it has one, for a `match` on
/// the table's constants: `Some(arith::ADDI | arith::SUBI) => …`.
pub(crate) fn table_op(op: &OperationRef) -> Option<op_names::OpName> {
    op_names::lookup(op.name().as_string_ref().as_str().ok()?)
}

/// The op's `sym_name`, if it has one.
pub(crate) fn symbol_name(op: OperationRef) -> Option<String> {
    op.attribute("sym_name")
        .ok()
        .and_then(|value| StringAttribute::try_from(value).ok())
        .map(|value| acopy_dialect::string_value(value).to_string())
}

/// The `function_type` of a function op (`gpu.func`, `func.func`).
pub(crate) fn function_type<'c>(
    function: OperationRef<'c, '_>,
) -> Result<FunctionType<'c>, String> {
    function
        .attribute("function_type")
        .ok()
        .and_then(|attribute| TypeAttribute::try_from(attribute).ok())
        .and_then(|attribute| FunctionType::try_from(attribute.value()).ok())
        .ok_or_else(|| "internal error: gpu.func without a function_type".to_string())
}

/// The number of inputs of a function op's `function_type`.
pub(crate) fn function_inputs(function: OperationRef) -> Result<usize, String> {
    Ok(function_type(function)?.input_count())
}

/// A function op's `arg_attrs`, exactly `count` dictionaries: empty ones
/// where it has none.
pub(crate) fn arg_attrs<'c>(
    context: &'c Context,
    function: OperationRef<'c, '_>,
    count: usize,
) -> Vec<Attribute<'c>> {
    let empty: Attribute = DictionaryAttribute::new(context, &[]).into();
    let mut dictionaries = array_elements(function, "arg_attrs");
    dictionaries.resize(count, empty);
    dictionaries
}

/// The elements of the array attribute `name` of `op`; none when it is
/// absent or not an array.
pub(crate) fn array_elements<'c>(op: OperationRef<'c, '_>, name: &str) -> Vec<Attribute<'c>> {
    op.attribute(name)
        .ok()
        .and_then(|attribute| ArrayAttribute::try_from(attribute).ok())
        .map(|array| {
            (0..array.len())
                .filter_map(|index| array.element(index).ok())
                .collect()
        })
        .unwrap_or_default()
}

/// `value` as an op result, if it is one.
///
/// Always this instead of `OperationResult::try_from`: melior's conversion
/// prints the value into its error when it fails, and printing a value numbers
/// every value of its enclosing op; asked once per copy, that made lowering
/// quadratic in the copies of a kernel (2.5 s for 125 dynamic-start cp.async
/// copies, 10 s for 250).
pub(crate) fn as_result<'c, 'a>(
    value: Value<'c, 'a>,
) -> Option<melior::ir::operation::OperationResult<'c, 'a>> {
    use melior::ir::ValueLike;
    if value.is_operation_result() {
        melior::ir::operation::OperationResult::try_from(value).ok()
    } else {
        None
    }
}

/// `value` as a block argument, if it is one (see [`as_result`] for why
/// never `BlockArgument::try_from` directly).
pub(crate) fn as_argument<'c, 'a>(
    value: Value<'c, 'a>,
) -> Option<melior::ir::block::BlockArgument<'c, 'a>> {
    use melior::ir::ValueLike;
    if value.is_block_argument() {
        melior::ir::block::BlockArgument::try_from(value).ok()
    } else {
        None
    }
}

/// The op that defines `value`, if it is an op result.
pub(crate) fn defining_op<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    as_result(value).map(|result| result.owner())
}

/// The block that owns `value`, and its position, if it is a block argument.
pub(crate) fn block_argument<'c, 'a>(value: Value<'c, 'a>) -> Option<(BlockRef<'c, 'a>, usize)> {
    let argument = as_argument(value)?;
    // SAFETY: the argument's block is alive while its value is.
    let block =
        unsafe { BlockRef::from_raw(mlir_sys::mlirBlockArgumentGetOwner(argument.to_raw())) };
    Some((block, argument.argument_number()))
}

/// The value of an integer or index `arith.constant`.
pub(crate) fn constant_int(value: Value) -> Option<i64> {
    let op = defining_op(value)?;
    if !is(&op, op_names::arith::CONSTANT) {
        return None;
    }
    let attribute = op.attribute("value").ok()?;
    IntegerAttribute::try_from(attribute)
        .ok()
        .map(|integer| integer.value())
}

/// The static shape of a memref; `None` for a dynamic dimension.
pub(crate) fn shape(memref: MemRefType) -> Vec<Option<i64>> {
    (0..memref.rank())
        .map(|dim| match memref.dim_size(dim) {
            Ok(melior::ir::r#type::DimSize::Static(size)) => i64::try_from(size).ok(),
            _ => None,
        })
        .collect()
}

/// The dense i64 array attribute `name` of `op` (`static_offsets`, ...).
pub(crate) fn dense_i64s(op: &OperationRef, name: &str) -> Option<Vec<i64>> {
    let attribute = op.attribute(name).ok()?;
    let array = DenseI64ArrayAttribute::try_from(attribute).ok()?;
    (0..array.len()).map(|i| array.element(i).ok()).collect()
}

/// The nvvm dialect's handle, for the passes that build NVVM ops (melior has
/// no wrapper for it).
pub(crate) fn nvvm_dialect() -> melior::dialect::DialectHandle {
    // SAFETY: a pure query of a dialect handle registered by MLIR itself.
    unsafe { melior::dialect::DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__nvvm__()) }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use melior::ir::{
        operation::{OperationLike, WalkOrder, WalkResult},
        Module, OperationRef,
    };

    /// The three function ops are functions; a module, a gpu.module and an
    /// op in a body are not.
    #[test]
    fn functions_are_told_apart() {
        let context = crate::context::create_context().expect("context");
        let module = Module::parse(
            &context,
            "module attributes {gpu.container_module} {\n\
             gpu.module @g {\n gpu.func @k() kernel {\n gpu.return\n }\n }\n\
             func.func @f() {\n %c = arith.constant 0 : index\n return\n }\n\
             llvm.func @l() {\n llvm.return\n }\n}",
        )
        .expect("parses");
        let mut seen = Vec::new();
        module
            .as_operation()
            .walk(WalkOrder::PreOrder, |op: OperationRef| {
                seen.push((super::op_name(&op), super::is_function(&op)));
                WalkResult::Advance
            });
        let functions: Vec<&str> = seen
            .iter()
            .filter(|(_, function)| *function)
            .map(|(name, _)| name.as_str())
            .collect();
        assert_eq!(functions, ["gpu.func", "func.func", "llvm.func"]);
        assert!(seen.iter().any(|(name, _)| name == "arith.constant"));
        assert!(seen.iter().any(|(name, _)| name == "gpu.module"));
    }

    fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("source directory reads") {
            let path = entry.expect("directory entry reads").path();
            if path.is_dir() {
                rust_files(&path, found);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                found.push(path);
            }
        }
    }

    /// The value conversions that print on failure stay behind `as_result` and
    /// `as_argument` (one slipping back made lowering quadratic again).
    #[test]
    fn value_conversions_go_through_the_guarded_helpers() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files = Vec::new();
        rust_files(&root.join("passes/src"), &mut files);
        rust_files(&root.join("dialect/src"), &mut files);
        assert!(files.len() > 20, "scanned only {} files", files.len());
        let mut found = Vec::new();
        for file in files
            .iter()
            .filter(|file| !file.ends_with("passes/src/ir/mod.rs"))
        {
            let text = std::fs::read_to_string(file).expect("source reads");
            for (number, line) in text.lines().enumerate() {
                if line.contains("OperationResult::try_from")
                    || line.contains("BlockArgument::try_from")
                {
                    found.push(format!("{}:{}", file.display(), number + 1));
                }
            }
        }
        assert!(found.is_empty(), "unguarded conversions: {found:?}");
    }
}
