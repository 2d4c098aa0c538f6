//! What a marked loop is, or why it cannot be pipelined.
//!
//! [`analyze`] reads a loop marked `acopy.pipeline` into a [`LoopPlan`], or
//! returns the first [`LoopProblem`] (rules P1–P18 of docs/verification.md). Both
//! `acopy-verify` and the pipeliner call it, so what verifies is what the
//! pipeliner accepts. The checks live by what they look at: the body's form
//! ([`body_form`](super::body_form)), each copy and its tile
//! ([`tiles`](super::tiles), [`operand_slice`](super::operand_slice)), the
//! native TMA form ([`native`](super::native)) and shared memory
//! ([`budget`](super::budget)).

use acopy_dialect::names;
use acopy_target::{Chip, CopyPath};
use melior::ir::{operation::OperationLike, BlockRef, OperationRef, RegionLike};

use super::{
    async_consumers, attr, body_form, budget,
    loop_plan::static_trip_count,
    loop_plan::Broken,
    loop_plan::{AsyncConsumers, Induction, LoopPlan, LoopProblem},
    native, tiles,
};
use crate::{ir, target, PassOptions};

/// P13's message: the one loop form whose induction values do not all fit
/// the rewrite's signed 64-bit arithmetic.
pub const P13: &str = "a loop marked acopy.pipeline cannot compare unsigned 64-bit induction values (scf.for unsigned with an index or i64 induction variable): the pass computes its schedule in signed 64-bit index arithmetic; use a signed loop, or an unsigned one narrower than 64 bits";

/// What the mark asks for and where the loop runs.
struct Request<'c, 'a> {
    requested: attr::Stages,
    producer: attr::Producer,
    /// What a producer warpgroup's threads keep (`producer_registers`, else
    /// the default).
    producer_keeps: u32,
    /// How the consumers release a slot (`release`).
    release: attr::Release,
    induction: Induction,
    chip: Chip,
    path: CopyPath,
    body: BlockRef<'c, 'a>,
}

impl Request<'_, '_> {
    /// The path and the mbarriers its schedule keeps (for the budget).
    fn schedule(&self) -> (CopyPath, super::slots::Rings) {
        let rings = match (self.producer, self.path) {
            (attr::Producer::Warp | attr::Producer::Warpgroup, _) => {
                super::slots::Rings::FullAndEmpty
            }
            (attr::Producer::Block, CopyPath::Tma) => super::slots::Rings::PerSlot,
            (attr::Producer::Block, CopyPath::CpAsync) => super::slots::Rings::None,
        };
        (self.path, rings)
    }
}

#[cfg(test)]
thread_local! {
    /// How often [`analyze`] ran on this thread: tests pin that a run
    /// analyses each marked loop once.
    pub(crate) static ANALYSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Reads the loop `loop_op` that carries `acopy.pipeline`.
pub fn analyze<'c, 'a>(
    loop_op: OperationRef<'c, 'a>,
    chips: &target::ModuleChips,
    options: &PassOptions,
) -> Result<LoopPlan<'c, 'a>, LoopProblem<'c, 'a>> {
    #[cfg(test)]
    ANALYSES.with(|count| count.set(count.get() + 1));
    let at = |broken| LoopProblem::rule(loop_op, broken);
    let request = read_request(loop_op, chips, options)?;
    let form = body_form::read(request.body).map_err(at)?;
    let native = read_native(loop_op, &request, &form).map_err(at)?;
    let function = target::enclosing(loop_op, crate::ir::op_names::gpu::FUNC)
        .filter(|function| function.has_attribute(crate::ir::op_names::attributes::GPU_KERNEL));
    let early = match request.requested {
        attr::Stages::Given(stages) => Some(stages.saturating_sub(1)),
        attr::Stages::Auto => None,
    };
    let (tiles, copies) = tiles::read_copies(
        loop_op,
        &form,
        function,
        request.path,
        early,
        native.is_some(),
    )?;
    let function =
        function.ok_or_else(|| at((Broken::TileHome, "internal error: no kernel".into())))?;
    body_form::check_stores(&form.stores, &tiles)?;
    let multicast = read_multicast(loop_op, chips, &request, &copies, &tiles)?;
    let (async_consumers, early_release) = match async_consumers::read(loop_op, &form, &tiles)? {
        Some((consumers, early)) => (Some(consumers), early),
        None => (None, None),
    };

    let static_trips = static_trip_count(loop_op, request.induction);
    let (requested, auto, stages) = choose_stages(
        &request,
        &tiles,
        function,
        options,
        async_consumers,
        static_trips,
    );
    if let Some(consumers) = async_consumers {
        async_consumers::check_stages(consumers, stages).map_err(at)?;
    }
    let dynamic = budget::check_budget(
        &tiles,
        function,
        request.chip,
        request.schedule(),
        stages,
        options.max_stages,
    )
    .map_err(at)?;
    let (warp, consumers_only) =
        warp_roles(&request, (loop_op, function), &copies, native.as_ref()).map_err(at)?;
    Ok(LoopPlan {
        loop_op,
        body: request.body,
        function,
        chip: request.chip,
        path: request.path,
        stages,
        requested,
        auto,
        async_consumers,
        early_release,
        induction: request.induction,
        static_trips,
        copies,
        tiles,
        wait: form.wait,
        dynamic,
        native,
        warp,
        consumers_only,
        multicast,
    })
}

/// The loop's warp plan and the ops before it only its consumers run, for a
/// loop with a producer (P17–P19; `super::warp`).
fn warp_roles<'c, 'a>(
    request: &Request<'c, 'a>,
    kernel: (OperationRef<'c, 'a>, OperationRef<'c, 'a>),
    copies: &[super::loop_plan::PipeCopy<'c, 'a>],
    native: Option<&native::Native<'c, 'a>>,
) -> Result<(Option<super::warp::WarpPlan>, Vec<OperationRef<'c, 'a>>), (Broken, String)> {
    // The native form's barrier_init is the pass's to remove, wherever it stands.
    let removed = native.map(|native| native.init);
    super::warp::plan_for(
        (request.producer, request.producer_keeps, request.release),
        request.chip,
        kernel,
        copies,
        removed,
    )
}

/// The loop's multicast slots and the proof of their barriers' bytes (P9).
fn read_multicast<'c, 'a>(
    loop_op: OperationRef<'c, 'a>,
    chips: &target::ModuleChips,
    request: &Request<'c, 'a>,
    copies: &[super::loop_plan::PipeCopy<'c, 'a>],
    tiles: &[super::loop_plan::Tile<'c, 'a>],
) -> Result<Option<super::multicast::ClusterSlots>, LoopProblem<'c, 'a>> {
    let target = chips
        .target(loop_op)
        .map_err(|problem| LoopProblem::other(loop_op, problem))?;
    let mut views = Vec::with_capacity(copies.len());
    let mut copy_tiles = Vec::with_capacity(copies.len());
    for copy in copies {
        views.push(
            acopy_dialect::CopyGmemToSmem::from_op(copy.op)
                .map_err(|error| LoopProblem::other(copy.op, error))?,
        );
        copy_tiles.push(&tiles[copy.tile]);
    }
    super::multicast::read(
        &views,
        &copy_tiles,
        target.cluster,
        (request.chip, request.path, request.producer),
    )
    .map_err(|broken| LoopProblem::rule(loop_op, broken))
}

/// The native TMA form's barrier, when the loop waits with `barrier_wait`
/// (P12).
fn read_native<'c, 'a>(
    loop_op: OperationRef<'c, 'a>,
    request: &Request<'c, 'a>,
    form: &body_form::BodyForm<'c, 'a>,
) -> Result<Option<native::Native<'c, 'a>>, (Broken, String)> {
    if ir::op_name(&form.wait) != names::BARRIER_WAIT {
        return Ok(None);
    }
    native::check(
        loop_op,
        request.body,
        &form.copies,
        form.wait,
        request.path,
        request.chip,
    )
    .map(Some)
    .map_err(|message| (Broken::NativeForm, message))
}

/// The stages asked for (or chosen by `stages = "auto"`, with why) and the
/// stages used: a short constant loop clamps S, but never below the slots that
/// asynchronous consumers keep busy (they would leave none to refill).
fn choose_stages(
    request: &Request,
    tiles: &[super::loop_plan::Tile],
    function: OperationRef,
    options: &PassOptions,
    async_consumers: Option<AsyncConsumers>,
    static_trips: Option<i64>,
) -> (u32, Option<acopy_expect::AutoStages>, u32) {
    let (requested, auto) = match request.requested {
        attr::Stages::Given(stages) => (stages, None),
        attr::Stages::Auto => {
            let auto = budget::auto_stages(
                tiles,
                function,
                request.chip,
                request.schedule(),
                options.max_stages,
                async_consumers.map_or(0, |consumers| consumers.in_flight),
            );
            (auto.stages, Some(auto.why))
        }
    };
    let floor = async_consumers.map_or(1, |consumers| consumers.min_stages());
    let stages = match static_trips {
        Some(trips) if trips < i64::from(requested) => u32::try_from(trips.max(1))
            .unwrap_or(1)
            .max(floor)
            .min(requested),
        _ => requested,
    };
    // A clamped automatic count keeps fewer bytes in flight than it chose: the
    // remark quotes what the loop gets.
    let auto = auto.map(|mut why| {
        let busy = async_consumers.map_or(0, |consumers| consumers.in_flight);
        why.in_flight_bytes = budget::in_flight_bytes(tiles, stages, busy);
        why
    });
    (requested, auto, stages)
}

/// The stage count the mark asks for, the loop's chip and its body, or why
/// the mark cannot be read (P1, P2, P3, a chip error).
fn read_request<'c, 'a>(
    loop_op: OperationRef<'c, 'a>,
    chips: &target::ModuleChips,
    options: &PassOptions,
) -> Result<Request<'c, 'a>, LoopProblem<'c, 'a>> {
    let at = |broken| LoopProblem::rule(loop_op, broken);
    let attribute = attr::request(loop_op).ok_or_else(|| {
        at((
            Broken::Request,
            format!("internal error: {} is not on this op", attr::PIPELINE),
        ))
    })?;
    if !ir::is(&loop_op, ir::op_names::scf::FOR) {
        return Err(at((Broken::NotALoop, attr::not_a_loop(&loop_op))));
    }
    let requested =
        attr::stages(attribute, options.max_stages).map_err(|m| at((Broken::Request, m)))?;
    let producer =
        attr::producer(attribute, options.max_stages).map_err(|m| at((Broken::Request, m)))?;
    let producer_keeps = attr::producer_registers(attribute, producer, options.max_stages)
        .map_err(|m| at((Broken::Request, m)))?
        .unwrap_or(super::registers::PRODUCER_REGISTERS);
    let release = attr::release(attribute, producer, options.max_stages)
        .map_err(|m| at((Broken::Request, m)))?;
    let induction = Induction::of(loop_op);
    if !induction.fits_index() {
        return Err(at((Broken::Induction, P13.to_string())));
    }
    let chip = chips
        .chip(loop_op)
        .map_err(|problem| LoopProblem::other(loop_op, problem))?;
    let body = loop_op
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .ok_or_else(|| {
            at((
                Broken::BodyForm,
                "internal error: scf.for without a body".into(),
            ))
        })?;
    Ok(Request {
        requested,
        producer,
        producer_keeps,
        release,
        induction,
        chip,
        path: chip.copy_path(),
        body,
    })
}
