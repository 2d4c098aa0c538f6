//! A copy's collective group: the cluster arithmetic behind multicast masks
//! and CTA pairs (the lowering's `lower/tma/cluster.rs` builds a CTA's
//! position in it).
//!
//! `%cluster_ctarank` numbers the CTAs of a cluster x fastest:
//! `rank = x + X * (y + Y * z)` for a cluster of X×Y×Z. The collective group
//! of a copy is the set of CTAs that differ only along its `collective_axes`.

use acopy_dialect::Axis;
use melior::ir::Value;

use crate::ir::build::Builder;
use crate::ir::op_names::{arith, nvvm};

/// The collective group of a copy within its cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Collective {
    /// The cluster shape.
    pub cluster: [u32; 3],
    /// The collective axes, each once, x before y before z, leaving out axes
    /// of extent 1.
    pub axes: Vec<usize>,
}

impl Collective {
    pub fn new(cluster: [u32; 3], axes: &[Axis]) -> Self {
        let mut indices: Vec<usize> = axes
            .iter()
            .map(|axis| axis.index())
            .filter(|&axis| cluster[axis] > 1)
            .collect();
        indices.sort_unstable();
        indices.dedup();
        Self {
            cluster,
            axes: indices,
        }
    }

    /// The number of CTAs in the group (saturating: a cluster size is up to
    /// 2^31 along each axis, and a plan may be asked for unverified IR).
    pub fn size(&self) -> u64 {
        saturating_product(self.axes.iter().map(|&axis| self.cluster[axis]))
    }

    /// The rank distance between neighbours along `axis` (saturating).
    pub fn stride(&self, axis: usize) -> u64 {
        saturating_product(self.cluster[..axis].iter().copied())
    }

    /// The multicast mask of the group whose first CTA has rank 0: bit `r` is
    /// set for every rank `r` in it. Shift it by the rank of the group's
    /// first CTA to get a CTA's mask.
    pub fn pattern(&self) -> u32 {
        // Ranks only grow along the axes, so one of 32 or more stays out of
        // the mask: it is dropped as soon as it is reached.
        let mut ranks = vec![0u64];
        for &axis in &self.axes {
            let stride = self.stride(axis);
            ranks = ranks
                .iter()
                .flat_map(|&rank| {
                    (0..u64::from(self.cluster[axis]))
                        .map(move |i| rank.saturating_add(i.saturating_mul(stride)))
                        .take_while(|&rank| rank < 32)
                })
                .collect();
        }
        ranks.into_iter().fold(0, |mask, rank| mask | (1 << rank))
    }

    /// The rank of the group's member `member` (its index, x fastest along
    /// the group's axes) less the rank of the group's first CTA.
    pub fn member_offset(&self, member: u64) -> u64 {
        let mut rest = member;
        let mut offset = 0u64;
        for &axis in &self.axes {
            let extent = u64::from(self.cluster[axis]);
            offset = offset.saturating_add((rest % extent).saturating_mul(self.stride(axis)));
            rest /= extent;
        }
        offset
    }

    /// This CTA's index in its group (`0..size`) and the rank of the group's
    /// first CTA, as i32 values built in the kernel (the lowering's multicast
    /// slices, the pipeliner's releases to the group).
    pub fn position<'c, 'a>(
        &self,
        b: &Builder<'c, 'a>,
    ) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
        let i32_type = b.int_type(32);
        let rank = b.value(nvvm::CLUSTER_CTARANK, &[], i32_type, &[])?;
        let mut index = b.int(32, 0)?;
        let mut first = rank;
        let mut scale = 1i64;
        for &axis in &self.axes {
            let id = b.value(nvvm::CLUSTER_CTAID[axis], &[], i32_type, &[])?;
            let scaled = b.binary(arith::MULI, id, b.int(32, scale)?)?;
            index = b.binary(arith::ADDI, index, scaled)?;
            let stride = i64::try_from(self.stride(axis))
                .map_err(|_| "internal error: a cluster beyond 2^63 CTAs".to_string())?;
            let along = b.binary(arith::MULI, id, b.int(32, stride)?)?;
            first = b.binary(arith::SUBI, first, along)?;
            scale *= i64::from(self.cluster[axis]);
        }
        Ok((index, first))
    }

    /// Whether the group is a hardware CTA pair: two CTAs whose ranks differ
    /// only in bit 0 (what `cta_group::2` needs).
    pub fn is_pair(&self) -> bool {
        self.size() == 2 && self.axes.len() == 1 && self.stride(self.axes[0]) == 1
    }
}

/// The product of cluster sizes, saturating.
fn saturating_product(sizes: impl Iterator<Item = u32>) -> u64 {
    sizes.fold(1u64, |product, size| {
        product.saturating_mul(u64::from(size))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_sizes() {
        let x = Collective::new([2, 1, 1], &[Axis::X]);
        assert_eq!((x.size(), x.pattern()), (2, 0b11));
        assert!(x.is_pair());
        let y = Collective::new([2, 2, 1], &[Axis::Y]);
        assert_eq!((y.size(), y.pattern()), (2, 0b101));
        assert!(!y.is_pair());
        let xy = Collective::new([2, 2, 1], &[Axis::Y, Axis::X, Axis::Y]);
        assert_eq!((xy.size(), xy.pattern()), (4, 0b1111));
        let unit = Collective::new([4, 1, 1], &[Axis::Y]);
        assert_eq!((unit.size(), unit.pattern()), (1, 0b1));
        let z = Collective::new([2, 2, 4], &[Axis::Z]);
        assert_eq!(z.pattern(), 0x1111);
        // Cluster sizes up to 2^31 per axis neither overflow nor take long.
        let huge = Collective::new([1 << 31, 1 << 31, 1 << 31], &[Axis::X, Axis::Y, Axis::Z]);
        assert_eq!(huge.size(), u64::MAX);
        assert!(!huge.is_pair());
        assert_eq!(huge.pattern(), u32::MAX);
    }

    #[test]
    fn member_offsets_are_the_ranks_the_mask_sets() {
        // Each member's offset from the group's first rank, x fastest along the
        // group's axes: the bits `pattern` sets, in order.
        let offsets = |group: &Collective| -> Vec<u64> {
            (0..group.size()).map(|m| group.member_offset(m)).collect()
        };
        let x = Collective::new([2, 2, 1], &[Axis::X]);
        assert_eq!(offsets(&x), [0, 1]);
        let y = Collective::new([2, 2, 1], &[Axis::Y]);
        assert_eq!(offsets(&y), [0, 2]);
        let xy = Collective::new([2, 2, 1], &[Axis::X, Axis::Y]);
        assert_eq!(offsets(&xy), [0, 1, 2, 3]);
        let wide = Collective::new([4, 2, 2], &[Axis::X, Axis::Z]);
        assert_eq!(offsets(&wide), [0, 1, 2, 3, 8, 9, 10, 11]);
        for group in [x, y, xy, wide] {
            let mask = offsets(&group)
                .iter()
                .fold(0u32, |mask, &o| mask | (1 << o));
            assert_eq!(mask, group.pattern());
        }
    }
}
