//! Tensor maps: from a manifest entry and a memref's runtime layout to the exact
//! arguments of `cuTensorMapEncodeTiled`, and then to the 128-byte `CUtensorMap`.
//!
//! [`encode_params`] is pure: it needs no driver, and checks every limit the CUDA
//! documentation gives for tiled tensor maps, each with its own error. [`encode`] then
//! calls the driver.

use crate::error::{check, RuntimeError};
pub use crate::error::{TensorMapError, MAX_BOX_DIM, MAX_GLOBAL_DIM, MAX_RANK, STRIDE_LIMIT};
use acopy_manifest::{
    ElementType, Interleave, L2Promotion, OobFill, Swizzle, TensorMap, TensorMapEntry,
};
use cudarc::driver::sys;

pub use sys::{
    CUtensorMapDataType as DataType, CUtensorMapFloatOOBfill as OobFillKind,
    CUtensorMapInterleave as InterleaveKind, CUtensorMapL2promotion as L2PromotionKind,
    CUtensorMapSwizzle as SwizzleKind,
};

/// An encoded tensor map: 128 opaque bytes. `cuTensorMapEncodeTiled` needs 64-byte
/// alignment; CUDA 13's `CUtensorMap` is declared 128-byte aligned, so this is too.
/// Passed to a kernel by value as a `__grid_constant__` parameter.
#[repr(C, align(128))]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CuTensorMap(pub [u64; 16]);

impl std::fmt::Debug for CuTensorMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CuTensorMap(")?;
        for (i, w) in self.0.iter().enumerate() {
            if i > 0 {
                write!(f, " ")?;
            }
            write!(f, "{w:016x}")?;
        }
        write!(f, ")")
    }
}

impl CuTensorMap {
    /// The 128 bytes, as the kernel parameter holds them.
    pub fn as_bytes(&self) -> &[u8; 128] {
        // SAFETY: [u64; 16] is 128 bytes with no padding, and u8 has no alignment needs.
        unsafe { &*(self as *const CuTensorMap as *const [u8; 128]) }
    }
}

/// The exact arguments of `cuTensorMapEncodeTiled`. Every array is **innermost first**,
/// as the driver wants it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TiledParams {
    pub data_type: DataType,
    pub rank: u32,
    /// `globalAddress`: the address of element 0 of the described memref view.
    pub global_address: u64,
    /// `globalDim`, in elements, `rank` entries.
    pub global_dim: Vec<u64>,
    /// `globalStrides`, in bytes, `rank - 1` entries: the strides of dimensions 1.. (the
    /// innermost dimension is contiguous).
    pub global_strides: Vec<u64>,
    /// `boxDim`, in elements, `rank` entries.
    pub box_dim: Vec<u32>,
    /// `elementStrides`, `rank` entries, all 1.
    pub element_strides: Vec<u32>,
    pub interleave: InterleaveKind,
    pub swizzle: SwizzleKind,
    pub l2_promotion: L2PromotionKind,
    pub oob_fill: OobFillKind,
}

/// The driver's data type for an acopy element type. Integers are signless in MLIR;
/// i8/i16 map to the unsigned TMA types, i32/i64 to the signed ones (a copy moves bits,
/// and an add reduction is the same in two's complement). 8-bit floats move as UINT8.
pub fn data_type(t: ElementType) -> DataType {
    match t {
        ElementType::F16 => DataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
        ElementType::BF16 => DataType::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
        ElementType::F32 => DataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
        ElementType::F64 => DataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT64,
        ElementType::I8 | ElementType::F8E4M3FN | ElementType::F8E5M2 => {
            DataType::CU_TENSOR_MAP_DATA_TYPE_UINT8
        }
        ElementType::I16 => DataType::CU_TENSOR_MAP_DATA_TYPE_UINT16,
        ElementType::I32 => DataType::CU_TENSOR_MAP_DATA_TYPE_INT32,
        ElementType::I64 => DataType::CU_TENSOR_MAP_DATA_TYPE_INT64,
    }
}

fn swizzle_kind(s: Swizzle) -> SwizzleKind {
    match s {
        Swizzle::None => SwizzleKind::CU_TENSOR_MAP_SWIZZLE_NONE,
        Swizzle::B32 => SwizzleKind::CU_TENSOR_MAP_SWIZZLE_32B,
        Swizzle::B64 => SwizzleKind::CU_TENSOR_MAP_SWIZZLE_64B,
        Swizzle::B128 => SwizzleKind::CU_TENSOR_MAP_SWIZZLE_128B,
    }
}

fn l2_kind(l: L2Promotion) -> L2PromotionKind {
    match l {
        L2Promotion::None => L2PromotionKind::CU_TENSOR_MAP_L2_PROMOTION_NONE,
        L2Promotion::L2_64B => L2PromotionKind::CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
        L2Promotion::L2_128B => L2PromotionKind::CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
        L2Promotion::L2_256B => L2PromotionKind::CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
    }
}

/// Compute the `cuTensorMapEncodeTiled` arguments for one manifest entry.
///
/// * `base`: device address of element 0 of the memref view (aligned pointer + offset).
/// * `shape`: the memref's sizes in elements, **outermost first**.
/// * `strides`: the memref's strides in elements, **outermost first**; the last is 1.
///
/// The box comes from the entry as it is (outermost first) and must have the memref's
/// rank. Checks, in this order: rank 1..=5 and equal ranks; box dims 1..=256; global
/// dims 1..=2^32; innermost stride 1; byte strides multiple of 16 and below 2^40; base
/// 16-byte aligned; inner box bytes multiple of 16; with swizzle S, inner box bytes
/// <= S (hardware) and == S (acopy lowering); NaN OOB fill only for float types.
pub fn encode_params(
    entry: &TensorMapEntry,
    base: u64,
    shape: &[u64],
    strides: &[u64],
) -> Result<TiledParams, TensorMapError> {
    let map = &entry.map;
    let rank = check_ranks(map, shape, strides)?;
    check_dims(map, shape)?;
    let elem = map.element_type.bytes() as u64;
    let byte_strides = outer_byte_strides(strides, elem)?;
    if !base.is_multiple_of(16) {
        return Err(TensorMapError::BaseAlignment { address: base });
    }
    check_inner_box(map, elem)?;
    let oob_fill = oob_fill_kind(map)?;
    let interleave = match map.interleave {
        Interleave::None => InterleaveKind::CU_TENSOR_MAP_INTERLEAVE_NONE,
    };
    Ok(TiledParams {
        data_type: data_type(map.element_type),
        rank: rank as u32,
        global_address: base,
        global_dim: shape.iter().rev().copied().collect(),
        global_strides: byte_strides.into_iter().rev().collect(),
        box_dim: map.box_shape.iter().rev().copied().collect(),
        element_strides: vec![1; rank],
        interleave,
        swizzle: swizzle_kind(map.swizzle),
        l2_promotion: l2_kind(map.l2_promotion),
        oob_fill,
    })
}

/// The rank: the box's, 1..=5, and the memref's too.
fn check_ranks(map: &TensorMap, shape: &[u64], strides: &[u64]) -> Result<usize, TensorMapError> {
    let rank = map.box_shape.len();
    if rank == 0 || rank > MAX_RANK {
        return Err(TensorMapError::Rank { rank });
    }
    if shape.len() != rank || strides.len() != rank {
        return Err(TensorMapError::RankMismatch {
            box_rank: rank,
            shape_rank: shape.len(),
            strides_rank: strides.len(),
        });
    }
    Ok(rank)
}

/// Box dims 1..=256, then global dims 1..=2^32.
fn check_dims(map: &TensorMap, shape: &[u64]) -> Result<(), TensorMapError> {
    for (dim, &value) in map.box_shape.iter().enumerate() {
        if value == 0 || value > MAX_BOX_DIM {
            return Err(TensorMapError::BoxDim { dim, value });
        }
    }
    for (dim, &value) in shape.iter().enumerate() {
        if value == 0 || value > MAX_GLOBAL_DIM {
            return Err(TensorMapError::GlobalDim { dim, value });
        }
    }
    Ok(())
}

/// The byte strides of the outer dimensions, outermost first, from strides in
/// elements whose innermost is 1 (`strides` has the rank checked, at least 1).
fn outer_byte_strides(strides: &[u64], elem: u64) -> Result<Vec<u64>, TensorMapError> {
    let rank = strides.len();
    let inner_stride = strides[rank - 1];
    if inner_stride != 1 {
        return Err(TensorMapError::InnerStride {
            stride: inner_stride,
        });
    }
    let mut byte_strides = Vec::with_capacity(rank - 1);
    for (dim, &s) in strides[..rank - 1].iter().enumerate() {
        let bytes = match s.checked_mul(elem) {
            Some(b) if b < STRIDE_LIMIT => b,
            _ => {
                return Err(TensorMapError::StrideTooLarge {
                    dim,
                    bytes: s.saturating_mul(elem),
                })
            }
        };
        if !bytes.is_multiple_of(16) {
            return Err(TensorMapError::StrideAlignment { dim, bytes });
        }
        byte_strides.push(bytes);
    }
    Ok(byte_strides)
}

/// The innermost box row: a multiple of 16 bytes, and with a swizzle exactly
/// its span (over it: a hardware limit; under it: acopy's lowering).
fn check_inner_box(map: &TensorMap, elem: u64) -> Result<(), TensorMapError> {
    let inner_box_bytes = map.box_shape[map.box_shape.len() - 1] as u64 * elem;
    if !inner_box_bytes.is_multiple_of(16) {
        return Err(TensorMapError::InnerBoxBytes {
            bytes: inner_box_bytes,
        });
    }
    let swizzle = map.swizzle.bytes();
    if swizzle != 0 {
        if inner_box_bytes > swizzle as u64 {
            return Err(TensorMapError::SwizzleSpanExceeded {
                bytes: inner_box_bytes,
                swizzle,
            });
        }
        if inner_box_bytes != swizzle as u64 {
            return Err(TensorMapError::SwizzleSpanMismatch {
                bytes: inner_box_bytes,
                swizzle,
            });
        }
    }
    Ok(())
}

/// The driver's out-of-bounds fill; NaN only for float elements.
fn oob_fill_kind(map: &TensorMap) -> Result<OobFillKind, TensorMapError> {
    match map.oob_fill {
        OobFill::None => Ok(OobFillKind::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
        OobFill::NanRequestZeroFma => {
            if !map.element_type.is_float() {
                return Err(TensorMapError::OobFillNeedsFloat {
                    element_type: map.element_type,
                });
            }
            Ok(OobFillKind::CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA)
        }
    }
}

/// Encode a tensor map with `cuTensorMapEncodeTiled`. Needs the driver library; returns
/// [`RuntimeError::LibraryMissing`] instead of panicking when it is absent.
pub fn encode(p: &TiledParams) -> Result<CuTensorMap, RuntimeError> {
    crate::cuda::init_driver()?;
    let rank = p.rank as usize;
    let lens_ok = p.global_dim.len() == rank
        && p.global_strides.len() + 1 == rank
        && p.box_dim.len() == rank
        && p.element_strides.len() == rank;
    if !lens_ok {
        return Err(RuntimeError::Bind(format!(
            "TiledParams arrays do not match rank {rank}: {p:?}"
        )));
    }
    let mut map = CuTensorMap::default();
    // An empty strides array still needs a valid pointer.
    let strides: &[u64] = if p.global_strides.is_empty() {
        &[0]
    } else {
        &p.global_strides
    };
    // SAFETY: `map` is a 128-byte, 128-aligned CUtensorMap; the arrays hold `rank`
    // (strides: rank-1) entries and outlive the call.
    let r = unsafe {
        sys::cuTensorMapEncodeTiled(
            &mut map as *mut CuTensorMap as *mut sys::CUtensorMap,
            p.data_type,
            p.rank,
            p.global_address as *mut std::ffi::c_void,
            p.global_dim.as_ptr(),
            strides.as_ptr(),
            p.box_dim.as_ptr(),
            p.element_strides.as_ptr(),
            p.interleave,
            p.swizzle,
            p.l2_promotion,
            p.oob_fill,
        )
    };
    check("cuTensorMapEncodeTiled", r)?;
    Ok(map)
}

/// Where byte `offset` of a box lands in shared memory under a TMA swizzle of
/// `swizzle_bytes` (0, 32, 64 or 128), measured from a base aligned to the swizzle
/// pattern (1024 bytes for 128B). The 16-byte chunk index within each `swizzle_bytes`
/// row is XORed with the row number modulo `swizzle_bytes / 16`; for SWIZZLE_128B that
/// is "chunk XOR (row % 8)" within each 1024-byte span. The map is its own inverse.
pub fn swizzled_offset(offset: usize, swizzle_bytes: u32) -> usize {
    if swizzle_bytes == 0 {
        return offset;
    }
    let mask = (swizzle_bytes as usize / 16) - 1;
    // Bits [4, 4+log2(S/16)) (chunk in row) ^= bits [7, 7+log2(S/16)) (row in pattern).
    offset ^ (((offset >> 7) & mask) << 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(t: ElementType, b: &[u32]) -> TensorMapEntry {
        TensorMapEntry::new(2, 0, t, b.to_vec())
    }

    const BASE: u64 = 0x7f00_0000_0000;

    #[test]
    fn two_d_f32_tile() {
        let p = encode_params(
            &entry(ElementType::F32, &[64, 128]),
            BASE,
            &[256, 512],
            &[512, 1],
        )
        .unwrap();
        assert_eq!(p.data_type, DataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
        assert_eq!(p.rank, 2);
        assert_eq!(p.global_address, BASE);
        assert_eq!(p.global_dim, vec![512, 256]);
        assert_eq!(p.global_strides, vec![2048]);
        assert_eq!(p.box_dim, vec![128, 64]);
        assert_eq!(p.element_strides, vec![1, 1]);
        assert_eq!(p.interleave, InterleaveKind::CU_TENSOR_MAP_INTERLEAVE_NONE);
        assert_eq!(p.swizzle, SwizzleKind::CU_TENSOR_MAP_SWIZZLE_NONE);
        assert_eq!(
            p.l2_promotion,
            L2PromotionKind::CU_TENSOR_MAP_L2_PROMOTION_NONE
        );
        assert_eq!(p.oob_fill, OobFillKind::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    }

    #[test]
    fn five_d_orders_innermost_first_and_uses_real_strides() {
        // A 2x2x3x8x32 box from a 3x4x5x16x64 f32 array whose rows are padded to 80.
        let shape = [3, 4, 5, 16, 64];
        let strides = [4 * 5 * 16 * 80, 5 * 16 * 80, 16 * 80, 80, 1];
        let p = encode_params(
            &entry(ElementType::F32, &[2, 2, 3, 8, 32]),
            BASE,
            &shape,
            &strides,
        )
        .unwrap();
        assert_eq!(p.global_dim, vec![64, 16, 5, 4, 3]);
        assert_eq!(p.global_strides, vec![320, 320 * 16, 320 * 80, 320 * 320]);
        assert_eq!(p.box_dim, vec![32, 8, 3, 2, 2]);
        assert_eq!(p.element_strides, vec![1; 5]);
    }

    #[test]
    fn one_d_has_no_strides() {
        let p = encode_params(&entry(ElementType::I8, &[256]), BASE, &[1000], &[1]).unwrap();
        assert!(p.global_strides.is_empty());
        assert_eq!(p.data_type, DataType::CU_TENSOR_MAP_DATA_TYPE_UINT8);
    }

    #[test]
    fn enums_follow_the_entry() {
        let mut e = entry(ElementType::BF16, &[8, 64]);
        e.map.swizzle = Swizzle::B128;
        e.map.oob_fill = OobFill::NanRequestZeroFma;
        e.map.l2_promotion = L2Promotion::L2_256B;
        let p = encode_params(&e, BASE, &[64, 64], &[64, 1]).unwrap();
        assert_eq!(p.data_type, DataType::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
        assert_eq!(p.swizzle, SwizzleKind::CU_TENSOR_MAP_SWIZZLE_128B);
        assert_eq!(
            p.oob_fill,
            OobFillKind::CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
        );
        assert_eq!(
            p.l2_promotion,
            L2PromotionKind::CU_TENSOR_MAP_L2_PROMOTION_L2_256B
        );
        for (t, d) in [
            (ElementType::F16, DataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT16),
            (ElementType::F64, DataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT64),
            (ElementType::I16, DataType::CU_TENSOR_MAP_DATA_TYPE_UINT16),
            (ElementType::I32, DataType::CU_TENSOR_MAP_DATA_TYPE_INT32),
            (ElementType::I64, DataType::CU_TENSOR_MAP_DATA_TYPE_INT64),
            (
                ElementType::F8E4M3FN,
                DataType::CU_TENSOR_MAP_DATA_TYPE_UINT8,
            ),
        ] {
            assert_eq!(data_type(t), d);
        }
    }

    #[test]
    fn limit_rank() {
        let e = entry(ElementType::F32, &[1, 1, 1, 1, 1, 4]);
        let r = encode_params(&e, BASE, &[1, 1, 1, 1, 1, 4], &[4, 4, 4, 4, 4, 1]);
        assert_eq!(r, Err(TensorMapError::Rank { rank: 6 }));
        let e = entry(ElementType::F32, &[]);
        assert_eq!(
            encode_params(&e, BASE, &[], &[]),
            Err(TensorMapError::Rank { rank: 0 })
        );
    }

    #[test]
    fn limit_rank_mismatch() {
        let e = entry(ElementType::F32, &[64, 128]);
        assert_eq!(
            encode_params(&e, BASE, &[4, 256, 512], &[131072, 512, 1]),
            Err(TensorMapError::RankMismatch {
                box_rank: 2,
                shape_rank: 3,
                strides_rank: 3
            })
        );
    }

    #[test]
    fn limit_box_dims() {
        let ok = entry(ElementType::F32, &[256, 4]);
        assert!(encode_params(&ok, BASE, &[1024, 4], &[4, 1]).is_ok());
        let e = entry(ElementType::F32, &[257, 4]);
        assert_eq!(
            encode_params(&e, BASE, &[1024, 4], &[4, 1]),
            Err(TensorMapError::BoxDim { dim: 0, value: 257 })
        );
        let e = entry(ElementType::F32, &[4, 0]);
        assert_eq!(
            encode_params(&e, BASE, &[1024, 4], &[4, 1]),
            Err(TensorMapError::BoxDim { dim: 1, value: 0 })
        );
    }

    #[test]
    fn limit_global_dims() {
        let e = entry(ElementType::I8, &[16, 16]);
        assert!(encode_params(&e, BASE, &[1 << 32, 16], &[16, 1]).is_ok());
        assert_eq!(
            encode_params(&e, BASE, &[(1 << 32) + 1, 16], &[16, 1]),
            Err(TensorMapError::GlobalDim {
                dim: 0,
                value: (1 << 32) + 1
            })
        );
        assert_eq!(
            encode_params(&e, BASE, &[16, 0], &[16, 1]),
            Err(TensorMapError::GlobalDim { dim: 1, value: 0 })
        );
    }

    #[test]
    fn limit_inner_stride() {
        let e = entry(ElementType::F32, &[8, 8]);
        assert_eq!(
            encode_params(&e, BASE, &[64, 64], &[128, 2]),
            Err(TensorMapError::InnerStride { stride: 2 })
        );
    }

    #[test]
    fn limit_stride_multiple_of_16() {
        // A 300-column f32 row is 1200 bytes: fine. A 301-column one is 1204: not.
        let e = entry(ElementType::F32, &[8, 8]);
        assert!(encode_params(&e, BASE, &[64, 300], &[300, 1]).is_ok());
        assert_eq!(
            encode_params(&e, BASE, &[64, 301], &[301, 1]),
            Err(TensorMapError::StrideAlignment {
                dim: 0,
                bytes: 1204
            })
        );
    }

    #[test]
    fn limit_stride_below_2_40() {
        let e = entry(ElementType::F32, &[8, 8, 8]);
        let s = (1u64 << 40) / 4; // exactly 2^40 bytes
        assert_eq!(
            encode_params(&e, BASE, &[2, 64, 64], &[s, 64, 1]),
            Err(TensorMapError::StrideTooLarge {
                dim: 0,
                bytes: 1 << 40
            })
        );
        let just_below = s - 4; // 2^40 - 16 bytes
        assert!(encode_params(&e, BASE, &[2, 64, 64], &[just_below, 64, 1]).is_ok());
        // Overflow of stride * element size is also "too large".
        assert!(matches!(
            encode_params(&e, BASE, &[2, 64, 64], &[u64::MAX, 64, 1]),
            Err(TensorMapError::StrideTooLarge { dim: 0, .. })
        ));
    }

    #[test]
    fn limit_base_alignment() {
        let e = entry(ElementType::F32, &[8, 8]);
        assert_eq!(
            encode_params(&e, BASE + 8, &[64, 64], &[64, 1]),
            Err(TensorMapError::BaseAlignment { address: BASE + 8 })
        );
        assert!(encode_params(&e, BASE + 16, &[64, 64], &[64, 1]).is_ok());
    }

    #[test]
    fn limit_inner_box_bytes() {
        // 6 f16 = 12 bytes.
        let e = entry(ElementType::F16, &[8, 6]);
        assert_eq!(
            encode_params(&e, BASE, &[64, 64], &[64, 1]),
            Err(TensorMapError::InnerBoxBytes { bytes: 12 })
        );
    }

    #[test]
    fn limit_swizzle_span() {
        let mut e = entry(ElementType::F32, &[8, 64]); // 256 bytes
        e.map.swizzle = Swizzle::B128;
        assert_eq!(
            encode_params(&e, BASE, &[64, 64], &[64, 1]),
            Err(TensorMapError::SwizzleSpanExceeded {
                bytes: 256,
                swizzle: 128
            })
        );
        e.map.box_shape = vec![8, 16]; // 64 bytes: hardware fine, acopy wants exactly 128
        assert_eq!(
            encode_params(&e, BASE, &[64, 64], &[64, 1]),
            Err(TensorMapError::SwizzleSpanMismatch {
                bytes: 64,
                swizzle: 128
            })
        );
        e.map.box_shape = vec![8, 32];
        assert!(encode_params(&e, BASE, &[64, 64], &[64, 1]).is_ok());
        for (s, n) in [(Swizzle::B32, 8), (Swizzle::B64, 16)] {
            e.map.swizzle = s;
            e.map.box_shape = vec![8, n];
            assert!(encode_params(&e, BASE, &[64, 64], &[64, 1]).is_ok());
        }
    }

    #[test]
    fn limit_nan_fill_needs_float() {
        let mut e = entry(ElementType::I32, &[8, 8]);
        e.map.oob_fill = OobFill::NanRequestZeroFma;
        assert_eq!(
            encode_params(&e, BASE, &[64, 64], &[64, 1]),
            Err(TensorMapError::OobFillNeedsFloat {
                element_type: ElementType::I32
            })
        );
    }

    #[test]
    fn tensor_map_layout() {
        assert_eq!(std::mem::size_of::<CuTensorMap>(), 128);
        assert_eq!(std::mem::align_of::<CuTensorMap>() % 64, 0);
        assert_eq!(
            std::mem::size_of::<CuTensorMap>(),
            std::mem::size_of::<sys::CUtensorMap>()
        );
        let mut m = CuTensorMap::default();
        m.0[1] = 0x0102;
        assert_eq!(m.as_bytes()[8], 0x02);
        assert_eq!(m.as_bytes()[9], 0x01);
    }

    #[test]
    fn swizzle_128b_is_chunk_xor_row_mod_8() {
        for off in 0..4096usize {
            let row = off / 128;
            let chunk = (off % 128) / 16;
            let expect =
                (off / 1024) * 1024 + (row % 8) * 128 + ((chunk ^ (row % 8)) * 16) + off % 16;
            assert_eq!(swizzled_offset(off, 128), expect, "offset {off}");
            assert_eq!(swizzled_offset(swizzled_offset(off, 128), 128), off);
        }
        // Row 0 is unchanged; row 1 swaps chunk pairs; row 7 reverses.
        assert_eq!(swizzled_offset(0, 128), 0);
        assert_eq!(swizzled_offset(128, 128), 128 + 16);
        assert_eq!(swizzled_offset(7 * 128, 128), 7 * 128 + 7 * 16);
    }

    #[test]
    fn swizzle_32_64_and_none() {
        assert_eq!(swizzled_offset(1000, 0), 1000);
        // 64B: chunk (2 bits) ^= (offset/128) % 4
        assert_eq!(swizzled_offset(128, 64), 128 + 16);
        assert_eq!(swizzled_offset(3 * 128 + 16, 64), 3 * 128 + (1 ^ 3) * 16);
        // 32B: chunk (1 bit) ^= (offset/128) % 2
        assert_eq!(swizzled_offset(128, 32), 128 + 16);
        assert_eq!(swizzled_offset(256, 32), 256);
    }

    #[test]
    fn encode_without_driver_is_an_error_not_a_panic() {
        // On a machine with a driver this encodes; without one it must be a clean error.
        let p = encode_params(
            &entry(ElementType::F32, &[64, 128]),
            BASE,
            &[256, 512],
            &[512, 1],
        )
        .unwrap();
        match encode(&p) {
            Ok(_) => {}
            Err(e) => assert!(
                e.is_no_gpu() || matches!(e, RuntimeError::Driver { .. }),
                "{e}"
            ),
        }
    }
}
