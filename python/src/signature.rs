//! What a launch needs to know about each kernel that the PTX and the manifest do
//! not say: the `gpu.func` argument types (a memref's rank, static sizes and strides,
//! element type and memory space; a scalar's type), the cluster shape
//! (`nvvm.cluster_dim`), the block size the kernel was specialised for
//! (`known_block_size`, `gpu.known_block_size` or `nvvm.reqntid`) and the dynamic shared memory it uses.
//!
//! Read from the source text after a successful compile (so it parses), in a context
//! of its own, and handed to Python as JSON text.

use acopy::melior::{
    ir::{
        attribute::{StringAttribute, TypeAttribute},
        operation::{OperationLike, OperationRef},
        r#type::{DimSize, FunctionType, MemRefType},
        ShapedTypeLike, Type, TypeLike, Value, ValueLike,
    },
    Context,
};
use serde_json::{json, Value as Json};

/// MLIR's marker for a dynamic size, stride or offset.
const DYNAMIC: i64 = i64::MIN;

/// Every kernel `gpu.func` of `source`: a JSON list of objects with `module`,
/// `kernel`, `args`, `cluster`, `block` (null when any block size works) and
/// `dynamic_smem` (bytes; null when the kernel uses `gpu.dynamic_shared_memory` in a
/// way whose extent cannot be bounded here).
pub fn kernels(source: &str) -> Result<String, String> {
    let context: Context = acopy::create_context().map_err(|e| e.to_string())?;
    let module = acopy::dialect::source::parse_module(&context, source.as_bytes())
        .ok_or_else(|| "the source did not parse a second time".to_string())?;
    let mut found = Vec::new();
    let mut raw = Vec::new();
    module
        .as_operation()
        .walk(acopy::melior::ir::operation::WalkOrder::PreOrder, |op| {
            if op.name().as_string_ref().as_str() == Ok("gpu.func")
                && op.attribute("gpu.kernel").is_ok()
            {
                raw.push(op.to_raw());
            }
            acopy::melior::ir::operation::WalkResult::Advance
        });
    for raw in raw {
        // SAFETY: the walk found the op in `module`, which is alive.
        let function = unsafe { OperationRef::from_raw(raw) };
        found.push(kernel(function)?);
    }
    Ok(Json::Array(found).to_string())
}

fn symbol(op: &OperationRef) -> String {
    op.attribute("sym_name")
        .ok()
        .and_then(|name| StringAttribute::try_from(name).ok())
        .map(|name| acopy::dialect::string_value(name).to_string())
        .unwrap_or_default()
}

fn kernel(function: OperationRef) -> Result<Json, String> {
    let module = function
        .parent_operation()
        .map(|parent| symbol(&parent))
        .unwrap_or_default();
    let function_type = function
        .attribute("function_type")
        .ok()
        .and_then(|a| TypeAttribute::try_from(a).ok())
        .and_then(|a| FunctionType::try_from(a.value()).ok())
        .ok_or("a gpu.func without a function type")?;
    let mut args = Vec::new();
    for index in 0..function_type.input_count() {
        let ty = function_type.input(index).map_err(|e| e.to_string())?;
        args.push(argument(ty));
    }
    let cluster = i32_array(&function, "nvvm.cluster_dim").unwrap_or_else(|| vec![1, 1, 1]);
    // MLIR 22's inherent spelling, the older discardable one (which the lowering
    // still reads), then NVVM's.
    let block = ["known_block_size", "gpu.known_block_size", "nvvm.reqntid"]
        .into_iter()
        .find_map(|name| i32_array(&function, name));
    Ok(json!({
        "module": module,
        "kernel": symbol(&function),
        "args": args,
        "cluster": cluster,
        "block": block,
        "dynamic_smem": dynamic_smem(function),
    }))
}

fn argument(ty: Type) -> Json {
    let Ok(memref) = MemRefType::try_from(ty) else {
        return json!({"kind": "scalar", "type": ty.to_string()});
    };
    let shape: Vec<Json> = (0..memref.rank())
        .map(|d| match memref.dim_size(d) {
            Ok(DimSize::Static(size)) => json!(size),
            _ => Json::Null,
        })
        .collect();
    let (strides, offset) = memref.strides_and_offset();
    let stat = |v: i64| if v == DYNAMIC { Json::Null } else { json!(v) };
    // SAFETY: `memref` is a live type; only queries are made.
    let identity = unsafe { mlir_sys::mlirAffineMapIsIdentity(memref.affine_map().to_raw()) };
    let space = memref.memory_space().map(|s| s.to_string());
    let global = matches!(
        space.as_deref(),
        None | Some("1 : i64") | Some("1 : i32") | Some("#gpu.address_space<global>")
    );
    let element = memref.element();
    json!({
        "kind": "memref",
        "type": ty.to_string(),
        "element": element.to_string(),
        "element_bits": bit_width(element),
        "shape": shape,
        "strides": strides.into_iter().map(stat).collect::<Vec<_>>(),
        "offset": stat(offset),
        "contiguous": identity,
        "global": global,
    })
}

/// Bits of an integer or float element type; null for anything else.
fn bit_width(element: Type) -> Option<u32> {
    // SAFETY: `element` is a live type; only queries are made.
    unsafe {
        let raw = element.to_raw();
        if mlir_sys::mlirTypeIsAInteger(raw) {
            Some(mlir_sys::mlirIntegerTypeGetWidth(raw))
        } else if mlir_sys::mlirTypeIsAFloat(raw) {
            Some(mlir_sys::mlirFloatTypeGetWidth(raw))
        } else if mlir_sys::mlirTypeIsAIndex(raw) {
            Some(64)
        } else {
            None
        }
    }
}

/// `name = array<i32: a, b, c>` as numbers.
fn i32_array(op: &OperationRef, name: &str) -> Option<Vec<i64>> {
    let text = op.attribute(name).ok()?.to_string();
    let list = text.strip_prefix("array<i32:")?.strip_suffix('>')?;
    list.split(',').map(|n| n.trim().parse().ok()).collect()
}

/// Bytes of dynamic shared memory the kernel reads: 0 without
/// `gpu.dynamic_shared_memory`; otherwise the furthest end of any `memref.view` of it
/// (the byte shift's upper bound plus the view's static size), or `None` when a use
/// is neither such a view nor a read of its address, or a shift has no bound that
/// [`bound`] finds.
fn dynamic_smem(function: OperationRef) -> Option<u64> {
    let mut bases = Vec::new();
    let mut views = Vec::new();
    let mut queries = Vec::new();
    function.walk(acopy::melior::ir::operation::WalkOrder::PreOrder, |op| {
        match op.name().as_string_ref().as_str() {
            Ok("gpu.dynamic_shared_memory") => bases.push(op.to_raw()),
            Ok("memref.view") => views.push(op.to_raw()),
            // Reads the base address only (alignment code); not an access.
            Ok("memref.extract_aligned_pointer_as_index") => queries.push(op.to_raw()),
            _ => {}
        }
        acopy::melior::ir::operation::WalkResult::Advance
    });
    if bases.is_empty() {
        return Some(0);
    }
    let mut end = 0u64;
    let mut uses = 0usize;
    for raw in views {
        // SAFETY: found by the walk in the live function.
        let view = unsafe { OperationRef::from_raw(raw) };
        let source = view.operand(0).ok()?;
        let from_base = source
            .defining_op_raw()
            .is_some_and(|def| bases.iter().any(|b| b.ptr == def.ptr));
        if !from_base {
            continue;
        }
        uses += 1;
        let (_, high) = bound(view.operand(1).ok()?, 0)?;
        let result = MemRefType::try_from(view.result(0).ok()?.r#type()).ok()?;
        let mut bytes = bit_width(result.element())? as u64 / 8;
        for d in 0..result.rank() {
            let DimSize::Static(size) = result.dim_size(d).ok()? else {
                return None;
            };
            bytes *= size;
        }
        end = end.max(u64::try_from(high).ok()? + bytes);
    }
    for raw in queries {
        // SAFETY: found by the walk in the live function.
        let query = unsafe { OperationRef::from_raw(raw) };
        let from_base = query
            .operand(0)
            .ok()
            .and_then(|v| v.defining_op_raw())
            .is_some_and(|def| bases.iter().any(|b| b.ptr == def.ptr));
        uses += usize::from(from_base);
    }
    // Every use of the base must be one of the views or queries counted.
    let total_uses: usize = bases
        .iter()
        .map(|b| {
            // SAFETY: found by the walk in the live function.
            let op = unsafe { OperationRef::from_raw(*b) };
            op.result(0)
                .map(|r| use_count(r.into()))
                .unwrap_or(usize::MAX)
        })
        .sum();
    (total_uses == uses).then_some(end)
}

fn use_count(value: Value) -> usize {
    let mut count = 0;
    // SAFETY: walks the live value's use list.
    unsafe {
        let mut u = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !mlir_sys::mlirOpOperandIsNull(u) {
            count += 1;
            u = mlir_sys::mlirOpOperandGetNextUse(u);
        }
    }
    count
}

/// Lower and upper bounds of an index value, from constants and the arithmetic that
/// alignment code uses (`addi`, `subi`, `muli` of non-negative values, `remui` by a
/// constant, `andi` with a non-negative constant, `index_cast`); `None` for anything
/// else, e.g. a kernel argument.
fn bound(value: Value, depth: u32) -> Option<(i128, i128)> {
    if depth > 32 {
        return None;
    }
    let def = value.defining_op()?;
    let name = def.name().as_string_ref().as_str().ok()?.to_string();
    let operand = |i| def.operand(i).ok().and_then(|v| bound(v, depth + 1));
    match name.as_str() {
        "arith.constant" => {
            let text = def.attribute("value").ok()?.to_string();
            let n: i128 = text.split(':').next()?.trim().parse().ok()?;
            Some((n, n))
        }
        "arith.index_cast" | "arith.index_castui" => operand(0),
        "arith.addi" => {
            let (a, b) = (operand(0)?, operand(1)?);
            Some((a.0 + b.0, a.1 + b.1))
        }
        "arith.subi" => {
            let (a, b) = (operand(0)?, operand(1)?);
            Some((a.0 - b.1, a.1 - b.0))
        }
        "arith.muli" => {
            let (a, b) = (operand(0)?, operand(1)?);
            (a.0 >= 0 && b.0 >= 0).then_some((a.0 * b.0, a.1 * b.1))
        }
        "arith.remui" => {
            let (_, m) = operand(1)?;
            let rhs = operand(1)?;
            (rhs.0 == rhs.1 && m > 0).then_some((0, m - 1))
        }
        "arith.andi" => {
            let rhs = operand(1)?;
            (rhs.0 == rhs.1 && rhs.0 >= 0).then_some((0, rhs.0))
        }
        _ => None,
    }
}

trait DefiningOp<'c, 'a> {
    fn defining_op(&self) -> Option<OperationRef<'c, 'a>>;
    fn defining_op_raw(&self) -> Option<mlir_sys::MlirOperation>;
}

impl<'c, 'a> DefiningOp<'c, 'a> for Value<'c, 'a> {
    fn defining_op(&self) -> Option<OperationRef<'c, 'a>> {
        // SAFETY: the owner of a live op result is a live op.
        self.defining_op_raw()
            .map(|raw| unsafe { OperationRef::from_raw(raw) })
    }

    fn defining_op_raw(&self) -> Option<mlir_sys::MlirOperation> {
        // SAFETY: queries on a live value.
        unsafe {
            let raw = self.to_raw();
            mlir_sys::mlirValueIsAOpResult(raw).then(|| mlir_sys::mlirOpResultGetOwner(raw))
        }
    }
}
