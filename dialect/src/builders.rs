//! Builders for frontends that construct acopy ops through the Rust API.
//!
//! They fill in `operandSegmentSizes` and spell attributes the way the views
//! read them, so a built op always round-trips through [`crate::AcopyOp::from_op`].
//! [`mark_for_pipelining`] marks an `scf.for` for `acopy-pipeline`
//! (docs/pipelining.md), the attribute `acopy-lower` pipelines.

use melior::{
    ir::{
        attribute::{
            ArrayAttribute, BoolAttribute, DenseI32ArrayAttribute, DictionaryAttribute,
            IntegerAttribute, StringAttribute,
        },
        operation::OperationBuilder,
        r#type::IntegerType,
        Attribute, AttributeLike, Identifier, Location, Operation, OperationRef, Value,
    },
    Context, StringRef,
};

use crate::{names, Axis, LeaderTracked, OobMode, ReductionOp, Swizzle};

/// The optional attributes of `acopy.copy_gmem_to_smem`.
#[derive(Debug, Clone, Default)]
pub struct CopyOptions {
    pub oob_mode: Option<OobMode>,
    pub collective_axes: Vec<Axis>,
    pub leader_tracked: Option<LeaderTracked>,
    pub swizzle: Swizzle,
    /// Promise a 16-byte aligned innermost start (no run-time check on TMA).
    pub assume_aligned_start: bool,
}

fn named<'c>(
    context: &'c Context,
    name: &str,
    value: Attribute<'c>,
) -> (Identifier<'c>, Attribute<'c>) {
    (Identifier::new(context, name), value)
}

fn i64_attr(context: &Context, value: i64) -> Attribute<'_> {
    IntegerAttribute::new(IntegerType::new(context, 64).into(), value).into()
}

fn segments<'c>(context: &'c Context, sizes: &[usize]) -> (Identifier<'c>, Attribute<'c>) {
    let sizes: Vec<i32> = sizes.iter().map(|&size| size as i32).collect();
    named(
        context,
        "operandSegmentSizes",
        DenseI32ArrayAttribute::new(context, &sizes).into(),
    )
}

/// Builds `acopy.copy_gmem_to_smem`.
#[allow(clippy::too_many_arguments)]
pub fn copy_gmem_to_smem<'c>(
    context: &'c Context,
    location: Location<'c>,
    src: Value<'c, '_>,
    dst: Value<'c, '_>,
    indices: &[Value<'c, '_>],
    barrier: Option<Value<'c, '_>>,
    predicate: Option<Value<'c, '_>>,
    options: &CopyOptions,
) -> Result<Operation<'c>, melior::Error> {
    let mut operands = vec![src, dst];
    operands.extend_from_slice(indices);
    operands.extend(barrier);
    operands.extend(predicate);
    let mut attributes = vec![segments(
        context,
        &[
            1,
            1,
            indices.len(),
            usize::from(barrier.is_some()),
            usize::from(predicate.is_some()),
        ],
    )];
    if let Some(mode) = options.oob_mode {
        attributes.push(named(
            context,
            "oob_mode",
            StringAttribute::new(context, mode.as_str()).into(),
        ));
    }
    if !options.collective_axes.is_empty() {
        let axes: Vec<Attribute> = options
            .collective_axes
            .iter()
            .map(|axis| StringAttribute::new(context, axis.as_str()).into())
            .collect();
        attributes.push(named(
            context,
            "collective_axes",
            ArrayAttribute::new(context, &axes).into(),
        ));
    }
    match options.leader_tracked {
        Some(LeaderTracked::Partitioned { axis }) => {
            attributes.push(named(
                context,
                "leader_tracked",
                StringAttribute::new(context, "partitioned").into(),
            ));
            attributes.push(named(context, "partition_axis", i64_attr(context, axis)));
        }
        Some(LeaderTracked::Replicated) => {
            attributes.push(named(
                context,
                "leader_tracked",
                StringAttribute::new(context, "replicated").into(),
            ));
        }
        None => {}
    }
    if options.swizzle != Swizzle::None {
        attributes.push(named(
            context,
            "swizzle",
            i64_attr(context, options.swizzle.bytes().into()),
        ));
    }
    if options.assume_aligned_start {
        attributes.push(named(
            context,
            crate::attributes::ASSUME_ALIGNED_START,
            Attribute::unit(context),
        ));
    }
    OperationBuilder::new(names::COPY_GMEM_TO_SMEM, location)
        .add_operands(&operands)
        .add_attributes(&attributes)
        .build()
}

/// Builds `acopy.wait_gmem_to_smem {pending}`.
pub fn wait_gmem_to_smem<'c>(
    context: &'c Context,
    location: Location<'c>,
    pending: u32,
) -> Result<Operation<'c>, melior::Error> {
    OperationBuilder::new(names::WAIT_GMEM_TO_SMEM, location)
        .add_attributes(&[named(context, "pending", i64_attr(context, pending.into()))])
        .build()
}

/// Builds `acopy.barrier_init {arrival_count}`.
pub fn barrier_init<'c>(
    context: &'c Context,
    location: Location<'c>,
    barrier: Value<'c, '_>,
    arrival_count: u32,
) -> Result<Operation<'c>, melior::Error> {
    OperationBuilder::new(names::BARRIER_INIT, location)
        .add_operands(&[barrier])
        .add_attributes(&[named(
            context,
            "arrival_count",
            i64_attr(context, arrival_count.into()),
        )])
        .build()
}

/// Builds `acopy.barrier_wait`.
pub fn barrier_wait<'c>(
    location: Location<'c>,
    barrier: Value<'c, '_>,
    parity: Value<'c, '_>,
) -> Result<Operation<'c>, melior::Error> {
    OperationBuilder::new(names::BARRIER_WAIT, location)
        .add_operands(&[barrier, parity])
        .build()
}

/// Builds `acopy.copy_smem_to_gmem`.
#[allow(clippy::too_many_arguments)]
pub fn copy_smem_to_gmem<'c>(
    context: &'c Context,
    location: Location<'c>,
    src: Value<'c, '_>,
    dst: Value<'c, '_>,
    indices: &[Value<'c, '_>],
    predicate: Option<Value<'c, '_>>,
    commit_group: bool,
    reduction_op: Option<ReductionOp>,
) -> Result<Operation<'c>, melior::Error> {
    let mut operands = vec![src, dst];
    operands.extend_from_slice(indices);
    operands.extend(predicate);
    let mut attributes = vec![
        segments(
            context,
            &[1, 1, indices.len(), usize::from(predicate.is_some())],
        ),
        named(
            context,
            "commit_group",
            BoolAttribute::new(context, commit_group).into(),
        ),
    ];
    if let Some(op) = reduction_op {
        attributes.push(named(
            context,
            "reduction_op",
            StringAttribute::new(context, op.as_str()).into(),
        ));
    }
    OperationBuilder::new(names::COPY_SMEM_TO_GMEM, location)
        .add_operands(&operands)
        .add_attributes(&attributes)
        .build()
}

/// Builds `acopy.wait_smem_to_gmem {pending, read_only}`.
pub fn wait_smem_to_gmem<'c>(
    context: &'c Context,
    location: Location<'c>,
    pending: u32,
    read_only: bool,
) -> Result<Operation<'c>, melior::Error> {
    OperationBuilder::new(names::WAIT_SMEM_TO_GMEM, location)
        .add_attributes(&[
            named(context, "pending", i64_attr(context, pending.into())),
            named(
                context,
                "read_only",
                BoolAttribute::new(context, read_only).into(),
            ),
        ])
        .build()
}

/// The discardable attribute that marks a loop for pipelining.
pub const PIPELINE: &str = "acopy.pipeline";

/// `{stages = S : i64}`, the value of [`PIPELINE`].
pub fn pipeline_attribute(context: &Context, stages: u32) -> Attribute<'_> {
    DictionaryAttribute::new(
        context,
        &[named(context, "stages", i64_attr(context, stages.into()))],
    )
    .into()
}

/// Marks `loop_op` (an `scf.for`) for pipelining with `stages` slots per tile:
/// sets `{acopy.pipeline = {stages = S : i64}}`, which acopy-verify checks
/// (rules P1-P12, docs/verification.md) and acopy-lower pipelines. Marking an
/// op that is not an `scf.for`, or a stage count out of range, is not refused
/// here: acopy-verify reports it at the op (P1, P2), as for text input.
pub fn mark_for_pipelining(context: &Context, loop_op: OperationRef, stages: u32) {
    let name = StringRef::new(PIPELINE);
    // SAFETY: a live op and an attribute of the same context; MLIR copies the name.
    unsafe {
        mlir_sys::mlirOperationSetDiscardableAttributeByName(
            loop_op.to_raw(),
            name.to_raw(),
            pipeline_attribute(context, stages).to_raw(),
        )
    }
}
