//! Who issues a TMA instruction and where it points: the block's first
//! thread, an optional predicate around the issue, the window's start in the
//! kernel argument and its TMA coordinates. Shared by loads and stores.

use melior::ir::Value;

use crate::ir::build::{Builder, Ix};
use crate::{
    ir,
    plan::{
        source::Offset,
        wide_tile::{BoxGrid, PlacedBox},
    },
};

/// Runs `body` under `scf.if %predicate` when there is a predicate.
pub(super) fn guarded<'c, 'a>(
    b: &Builder<'c, 'a>,
    predicate: Option<Value<'c, 'a>>,
    body: impl FnOnce(&Builder<'c, 'a>) -> Result<(), String>,
) -> Result<(), String> {
    match predicate {
        Some(predicate) => b.if_then(predicate, body),
        None => body(b),
    }
}

/// An `index` value as an [`Ix`], a constant when it is one.
pub(super) fn index_ix<'c, 'a>(value: Value<'c, 'a>) -> Ix<'c, 'a> {
    match ir::constant_int(value) {
        Some(constant) => Ix::Const(constant),
        None => Ix::Val(value),
    }
}

/// The window's start in the kernel argument, outermost first: the copy's
/// `indices` plus the view's offsets.
pub(super) fn window_start<'c, 'a>(
    b: &Builder<'c, 'a>,
    offsets: &[Offset<'c, 'a>],
    indices: &[Value<'c, 'a>],
) -> Result<Vec<Ix<'c, 'a>>, String> {
    let mut start = Vec::with_capacity(offsets.len());
    for (dim, offset) in offsets.iter().enumerate() {
        let index = indices
            .get(dim)
            .copied()
            .ok_or_else(|| "internal error: fewer indices than dimensions".to_string())?;
        let offset = match offset {
            Offset::Static(offset) => Ix::Const(*offset),
            Offset::Dynamic(value) => Ix::Val(*value),
        };
        start.push(b.add(index_ix(index), offset)?);
    }
    Ok(start)
}

/// TMA coordinates: `i32`, innermost first, from window starts outermost first.
pub(super) fn window_coordinates<'c, 'a>(
    b: &Builder<'c, 'a>,
    starts: &[Ix<'c, 'a>],
) -> Result<Vec<Value<'c, 'a>>, String> {
    starts
        .iter()
        .rev()
        .map(|start| {
            let start = b.ix(*start)?;
            b.index_cast(start, b.int_type(32))
        })
        .collect()
}

/// One box's TMA coordinates (`i32`, innermost first): the window's `starts`
/// (outermost first) moved by the box's offsets.
pub(super) fn box_coordinates<'c, 'a>(
    b: &Builder<'c, 'a>,
    starts: &[Ix<'c, 'a>],
    placed: &PlacedBox,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let moved = starts
        .iter()
        .zip(&placed.offsets)
        .map(|(start, &offset)| b.add(*start, Ix::Const(offset)))
        .collect::<Result<Vec<_>, _>>()?;
    window_coordinates(b, &moved)
}

/// The boxes of a copy of `rank` dimensions: each box of a wide copy
/// (`crate::plan::wide_tile`), or the window as one box.
pub(super) fn placed_boxes(grid: Option<&BoxGrid>, rank: usize) -> Vec<PlacedBox> {
    match grid {
        Some(grid) => grid.boxes(),
        None => vec![PlacedBox {
            offsets: vec![0; rank],
            tile_bytes: 0,
        }],
    }
}
