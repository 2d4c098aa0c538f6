//! Builders for the kernel skeleton around acopy ops: a `gpu.module` for a
//! chip, a kernel `gpu.func` with workgroup (shared-memory) attributions, a
//! cluster shape and a known block size, and block / thread ids. With these
//! and [`crate::builders`], a frontend writes no MLIR text.
//!
//! ```text
//! builtin.module attributes {gpu.container_module}      container_module
//!   gpu.module @m [#nvvm.target<chip = …, features = …>]  gpu_module
//!     gpu.func @k(args…) workgroup(buffers…) kernel         kernel
//!         attributes {known_block_size, nvvm.cluster_dim}
//!       gpu.block_id x / gpu.thread_id x                   block_id / thread_id
//!       gpu.return                                         (added by kernel)
//! ```
//!
//! The upstream ops have no C API builders for their attributes
//! (`#nvvm.target`, `#gpu<dim x>`), so those are parsed here from text these
//! functions generate from typed values.

use acopy_target::Chip;
use melior::{
    ir::{
        attribute::{ArrayAttribute, DenseI32ArrayAttribute, StringAttribute, TypeAttribute},
        block::BlockLike,
        operation::{OperationBuilder, OperationLike, OperationMutLike},
        r#type::{FunctionType, MemRefType},
        Attribute, Block, BlockRef, Identifier, Location, Module, Operation, Region, RegionLike,
        Type,
    },
    Context,
};

use crate::{names::gpu, MemorySpace};

/// A grid, block or thread dimension (`#gpu<dim x>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dimension {
    X,
    Y,
    Z,
}

impl Dimension {
    fn as_str(self) -> &'static str {
        match self {
            Dimension::X => "x",
            Dimension::Y => "y",
            Dimension::Z => "z",
        }
    }
}

/// A kernel skeleton that cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KernelError {
    /// A workgroup attribution that is not a memref in shared memory
    /// (`convert-gpu-to-nvvm` places every workgroup buffer there).
    #[error("workgroup attribution {index} must be a memref in shared memory (address space 3 or #gpu.address_space<workgroup>), got {found}")]
    WorkgroupNotShared { index: usize, found: String },
    /// A cluster shape or block size with a zero dimension.
    #[error("{attribute} must be at least 1 in every dimension, got {dims:?}")]
    ZeroSize {
        attribute: &'static str,
        dims: [u32; 3],
    },
    /// A dimension above `i32::MAX`, which the `array<i32>` attribute cannot hold.
    #[error("{attribute} {dims:?} does not fit in i32")]
    TooLarge {
        attribute: &'static str,
        dims: [u32; 3],
    },
    /// The context cannot parse the dialect's attributes: it was made without
    /// the upstream dialects registered.
    #[error("the context has no '{0}' dialect: create it with acopy_passes::context::create_context (or register melior::utility::register_all_dialects first)")]
    MissingDialect(&'static str),
    /// MLIR refused the op (a bug in this module, not in the caller's values).
    #[error("internal error: MLIR could not build {0}")]
    Build(String),
}

/// `#gpu<dim x>`, the attribute `gpu.block_id` and friends take.
pub fn dimension_attribute(
    context: &Context,
    dimension: Dimension,
) -> Result<Attribute<'_>, KernelError> {
    parse(context, "gpu", &format!("#gpu<dim {}>", dimension.as_str()))
}

/// `#nvvm.target<O = 2, chip = "sm_XX", features = "+ptxNN">` for `chip`,
/// with the PTX ISA the chip needs.
pub fn nvvm_target(context: &Context, chip: Chip) -> Result<Attribute<'_>, KernelError> {
    let text = format!(
        "#nvvm.target<O = 2, chip = \"{}\", features = \"{}\">",
        chip.llvm_cpu(),
        chip.ptx_version().feature()
    );
    parse(context, "nvvm", &text)
}

/// Parses an attribute of `dialect`, loading the dialect first (a context
/// that only registered it could not parse the attribute otherwise).
fn parse<'c>(
    context: &'c Context,
    dialect: &'static str,
    text: &str,
) -> Result<Attribute<'c>, KernelError> {
    let name = melior::StringRef::new(dialect);
    // SAFETY: the context is live and the name outlives the call.
    let loaded = unsafe { mlir_sys::mlirContextGetOrLoadDialect(context.to_raw(), name.to_raw()) };
    if loaded.ptr.is_null() {
        return Err(KernelError::MissingDialect(dialect));
    }
    Attribute::parse(context, text).ok_or_else(|| KernelError::Build(text.to_string()))
}

/// An empty `builtin.module` marked `gpu.container_module`, as kernels
/// with launches need.
pub fn container_module(location: Location<'_>) -> Module<'_> {
    let mut module = Module::new(location);
    let marker = crate::with_context(location.context(), |context| {
        melior::ir::AttributeLike::to_raw(&Attribute::unit(context))
    });
    // SAFETY: a unit attribute of the module's context, which outlives the
    // module (attributes are uniqued and live as long as their context).
    let marker = unsafe { Attribute::from_raw(marker) };
    module
        .as_operation_mut()
        .set_attribute("gpu.container_module", marker);
    module
}

/// `gpu.module @name [#nvvm.target<…chip…>] {}` with an empty body: append
/// kernels to [`body`] of it.
pub fn gpu_module<'c>(
    context: &'c Context,
    location: Location<'c>,
    name: &str,
    chip: Chip,
) -> Result<Operation<'c>, KernelError> {
    let region = Region::new();
    region.append_block(Block::new(&[]));
    OperationBuilder::new(gpu::MODULE, location)
        .add_attributes(&[
            (
                Identifier::new(context, "sym_name"),
                StringAttribute::new(context, name).into(),
            ),
            (
                Identifier::new(context, "targets"),
                ArrayAttribute::new(context, &[nvvm_target(context, chip)?]).into(),
            ),
        ])
        .add_regions([region])
        .build()
        .map_err(|error| KernelError::Build(format!("{} @{name}: {error}", gpu::MODULE)))
}

/// The one block of a `gpu.module`, `gpu.func` or `builtin.module`
/// operation built here.
pub fn body<'c, 'a>(operation: &'a Operation<'c>) -> Option<BlockRef<'c, 'a>> {
    operation.region(0).ok()?.first_block()
}

/// What a kernel declares besides its arguments.
#[derive(Debug, Clone, Default)]
pub struct KernelOptions {
    /// `nvvm.cluster_dim`: the thread-block cluster shape (sm_90 and newer).
    pub cluster_dim: Option<[u32; 3]>,
    /// `known_block_size`: the block size every launch uses.
    pub known_block_size: Option<[u32; 3]>,
}

/// A kernel `gpu.func @name(arguments…) workgroup(workgroup…) kernel`, its
/// entry block holding the arguments then the workgroup buffers, and ending
/// in `gpu.return`: insert the kernel's ops before that terminator.
pub fn kernel<'c>(
    context: &'c Context,
    location: Location<'c>,
    name: &str,
    arguments: &[Type<'c>],
    workgroup: &[Type<'c>],
    options: &KernelOptions,
) -> Result<Operation<'c>, KernelError> {
    for (index, buffer) in workgroup.iter().enumerate() {
        let shared = MemRefType::try_from(*buffer)
            .is_ok_and(|memref| MemorySpace::of(memref) == MemorySpace::Shared);
        if !shared {
            return Err(KernelError::WorkgroupNotShared {
                index,
                found: buffer.to_string(),
            });
        }
    }
    let block_types: Vec<(Type, Location)> = arguments
        .iter()
        .chain(workgroup)
        .map(|r#type| (*r#type, location))
        .collect();
    let block = Block::new(&block_types);
    block.append_operation(
        OperationBuilder::new(gpu::RETURN, location)
            .build()
            .map_err(|error| KernelError::Build(format!("{}: {error}", gpu::RETURN)))?,
    );
    let region = Region::new();
    region.append_block(block);
    let i64_type = melior::ir::r#type::IntegerType::new(context, 64).into();
    let mut attributes = vec![
        (
            Identifier::new(context, "sym_name"),
            StringAttribute::new(context, name).into(),
        ),
        (
            Identifier::new(context, "function_type"),
            TypeAttribute::new(FunctionType::new(context, arguments, &[]).into()).into(),
        ),
        (
            Identifier::new(context, "gpu.kernel"),
            Attribute::unit(context),
        ),
        (
            Identifier::new(context, "workgroup_attributions"),
            melior::ir::attribute::IntegerAttribute::new(i64_type, workgroup.len() as i64).into(),
        ),
    ];
    for (attribute, dims) in [
        ("nvvm.cluster_dim", options.cluster_dim),
        ("known_block_size", options.known_block_size),
    ] {
        let Some(dims) = dims else { continue };
        if dims.contains(&0) {
            return Err(KernelError::ZeroSize { attribute, dims });
        }
        let values = dims
            .iter()
            .map(|&dim| i32::try_from(dim))
            .collect::<Result<Vec<i32>, _>>()
            .map_err(|_| KernelError::TooLarge { attribute, dims })?;
        attributes.push((
            Identifier::new(context, attribute),
            DenseI32ArrayAttribute::new(context, &values).into(),
        ));
    }
    OperationBuilder::new(gpu::FUNC, location)
        .add_attributes(&attributes)
        .add_regions([region])
        .build()
        .map_err(|error| KernelError::Build(format!("{} @{name}: {error}", gpu::FUNC)))
}

fn id_op<'c>(
    context: &'c Context,
    location: Location<'c>,
    op: &str,
    dimension: Dimension,
) -> Result<Operation<'c>, KernelError> {
    OperationBuilder::new(op, location)
        .add_attributes(&[(
            Identifier::new(context, "dimension"),
            dimension_attribute(context, dimension)?,
        )])
        .add_results(&[Type::index(context)])
        .build()
        .map_err(|error| KernelError::Build(format!("{op}: {error}")))
}

/// `gpu.block_id <dimension>`: the block's index in the grid.
pub fn block_id<'c>(
    context: &'c Context,
    location: Location<'c>,
    dimension: Dimension,
) -> Result<Operation<'c>, KernelError> {
    id_op(context, location, gpu::BLOCK_ID, dimension)
}

/// `gpu.thread_id <dimension>`: the thread's index in its block.
pub fn thread_id<'c>(
    context: &'c Context,
    location: Location<'c>,
    dimension: Dimension,
) -> Result<Operation<'c>, KernelError> {
    id_op(context, location, gpu::THREAD_ID, dimension)
}

/// `gpu.block_dim <dimension>`: the block size.
pub fn block_dim<'c>(
    context: &'c Context,
    location: Location<'c>,
    dimension: Dimension,
) -> Result<Operation<'c>, KernelError> {
    id_op(context, location, gpu::BLOCK_DIM, dimension)
}
