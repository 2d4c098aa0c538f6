//! Multicast copies in a marked loop (docs/pipelining.md, "Multicast
//! slots"): which copies fill their slots from several CTAs of the cluster,
//! and the proof, made before anything is rewritten, that each slot's
//! barrier expects exactly the bytes that land in this CTA (rule P9 refuses
//! what this cannot prove, and the forms the schedule does not order).
//!
//! A copy with `collective_axes` over a group of N > 1 CTAs (TMA,
//! docs/lowering-tma.md, "multicast") has each CTA of the group load slice i
//! of the window into the same place of every member's tile, on the barrier
//! at the same offset in every member. So a CTA's slot is written by all N
//! CTAs of its group, while its barrier is armed by its own thread 0 alone,
//! with `expect_tx` of the whole window. The proof: the window splits along
//! the dimension the lowering splits (`shape::multicast_split_dim`), the N
//! slices the lowering places (`shape::multicast_slice_bytes`, each at
//! `i × slice bytes` in the tile) are disjoint and together N × slice bytes,
//! and that is the tile's bytes, which is what the lowering's `expect_tx`
//! asks for (`plan::tma_load`, the window's bytes).

use acopy_dialect::CopyGmemToSmem;
use acopy_target::{Capability, Chip, CopyPath};
use melior::ir::ShapedTypeLike;

pub use super::loop_plan::{ClusterSlots, Landing};
use super::{
    attr,
    loop_plan::{Broken, Tile},
};
use crate::plan::{collective::Collective, cp_async_load::static_shape, shape};

/// The loop's [`ClusterSlots`], `None` when no copy multicasts, or P9 with
/// why. `views` and `tiles` are the loop's copies and their tiles, in order.
pub(crate) fn read(
    views: &[CopyGmemToSmem],
    tiles: &[&Tile],
    cluster: [u32; 3],
    (chip, path, producer): (Chip, CopyPath, attr::Producer),
) -> Result<Option<ClusterSlots>, (Broken, String)> {
    let groups: Vec<u64> = views
        .iter()
        .map(|view| Collective::new(cluster, view.collective_axes.as_deref().unwrap_or(&[])).size())
        .collect();
    if groups.iter().all(|&size| size <= 1) {
        return Ok(None);
    }
    let widest = groups.iter().copied().max().unwrap_or(1);
    let refuse = |why: String| {
        (
            Broken::CopyForm,
            format!(
                "pipelining a copy with collective_axes over {widest} CTAs is not supported: {why}"
            ),
        )
    };
    if path != CopyPath::Tma || !chip.has(Capability::Multicast) {
        return Err(refuse(format!("{} has no TMA multicast", chip.name())));
    }
    let group = shared_group(views, cluster);
    if producer != attr::Producer::Block && group.is_none() {
        return Err(refuse(format!("with producer = \"{}\" every multicast copy of the loop must have the same collective_axes: each slot is released to one group of CTAs", producer.word())));
    }
    let mut landings = Vec::with_capacity(tiles.len());
    for ((view, tile), &senders) in views.iter().zip(tiles).zip(&groups) {
        landings.push(landing(view, tile, senders).map_err(refuse)?);
    }
    Ok(Some(ClusterSlots {
        cluster,
        landings,
        group,
    }))
}

/// The one group of more than one CTA that every multicast copy of the loop
/// shares (copies of the CTA's own aside), or `None` when they differ.
fn shared_group(views: &[CopyGmemToSmem], cluster: [u32; 3]) -> Option<Collective> {
    let mut groups = views
        .iter()
        .map(|view| Collective::new(cluster, view.collective_axes.as_deref().unwrap_or(&[])))
        .filter(|group| group.size() > 1);
    let first = groups.next()?;
    groups.all(|group| group == first).then_some(first)
}

/// How `view`'s tile lands when `senders` CTAs share the copy ([`prove`]).
fn landing(view: &CopyGmemToSmem, tile: &Tile, senders: u64) -> Result<Landing, String> {
    let tile_shape =
        static_shape(view.dst_type).map_err(|_| "its tile has a dynamic shape".to_string())?;
    let window = shape::window_shape(view.src_type.rank(), &tile_shape);
    prove(&window, tile.bytes, senders)
}

/// The proof that the slices the lowering places for a copy of `window`
/// (`tile_bytes` in all) shared by `senders` CTAs are disjoint and fill the
/// tile, so that the slot's barrier, which expects the tile's bytes,
/// completes exactly when every slice has landed.
pub(crate) fn prove(window: &[i64], tile_bytes: u64, senders: u64) -> Result<Landing, String> {
    if senders <= 1 {
        return Ok(Landing {
            senders: 1,
            slice_bytes: tile_bytes,
            expect_tx: tile_bytes,
        });
    }
    let elements = window
        .iter()
        .try_fold(1u64, |product, &len| {
            product.checked_mul(u64::try_from(len).ok()?)
        })
        .filter(|&elements| elements > 0 && tile_bytes.is_multiple_of(elements))
        .ok_or_else(|| {
            format!("the window {window:?} does not describe the tile's {tile_bytes} bytes")
        })?;
    let element_bytes = tile_bytes / elements;
    // The lowering splits this dimension and places slice i at i × slice
    // bytes: consecutive, so disjoint.
    let dim = shape::multicast_split_dim(window, senders).ok_or_else(|| {
        format!(
            "the window {window:?} has no leading dimension that the collective size {senders} divides, so the CTAs' slices would not fill the slot"
        )
    })?;
    let box_shape = shape::tma_box(window, Some((dim, senders)));
    let slice = shape::multicast_slice_bytes(&box_shape, dim, element_bytes);
    let landed = slice.saturating_mul(i128::from(senders));
    if landed != i128::from(tile_bytes) {
        return Err(format!(
            "{senders} slices of {slice} bytes land in the slot, but its barrier expects the tile's {tile_bytes} bytes"
        ));
    }
    Ok(Landing {
        senders: u32::try_from(senders).map_err(|_| "too many CTAs".to_string())?,
        slice_bytes: u64::try_from(slice).map_err(|_| "a slice too large".to_string())?,
        expect_tx: tile_bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::{prove, Landing};

    /// The tiles of the GPU cases: 64 × 128 f32 split over 2 and 4 CTAs
    /// along its rows lands exactly its 32768 bytes, in slices of 16384 and
    /// 8192; the same tile from a 3-d source (a leading 1) too.
    #[test]
    fn slices_fill_the_tile() {
        for (senders, slice) in [(2u64, 16384u64), (4, 8192)] {
            let landing = prove(&[64, 128], 32768, senders).expect("a proof");
            assert_eq!(
                landing,
                Landing {
                    senders: senders as u32,
                    slice_bytes: slice,
                    expect_tx: 32768
                }
            );
            assert_eq!(prove(&[1, 64, 128], 32768, senders), Ok(landing));
        }
        // One CTA: its own copy, the whole tile.
        assert_eq!(
            prove(&[64, 128], 32768, 1).map(|l| l.slice_bytes),
            Ok(32768)
        );
    }

    /// Nothing to split, a dimension N does not divide, or a window that is
    /// not the tile: no proof.
    #[test]
    fn no_proof_without_a_split() {
        assert!(prove(&[1, 128], 512, 2).is_err());
        assert!(prove(&[3, 128], 1536, 2).is_err());
        assert!(prove(&[64, 128], 1000, 2).is_err());
        assert!(prove(&[0, 128], 0, 2).is_err());
    }
}
