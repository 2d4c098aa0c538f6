//! The wgmma cases: `tests/gpu/kernels/wgmma_*.mlir` (written by tests/gpu/wgmma/gen.py)
//! copy A (64 x K) and B (N x K) with TMA into swizzled tiles and multiply them with
//! `nvvm.wgmma.mma_async` through `acopy.wgmma_descriptor`: src holds A's 64 rows and
//! then B's N rows, out is D = A Bᵀ (64 x N). Small-integer inputs make every product
//! and sum exact, so every output element is compared with the host's.

use acopy_manifest::ElementType::{self, BF16, F16, F32, I8};

use super::{Case, CopyPath, Data, Fill};

/// One case per (element, swizzle, N) that gen.py writes.
pub fn wgmma_cases() -> Vec<Case> {
    let mut v = Vec::new();
    for swizzle in [128u64, 64, 32] {
        for n in [64u64, 128, 256] {
            v.push(case(F16, "f16", swizzle, n));
        }
    }
    v.push(case(BF16, "bf16", 128, 128));
    v.push(case(F32, "tf32", 128, 128));
    v.push(case(I8, "i8", 128, 128));
    v
}

fn case(elem: ElementType, kind: &'static str, swizzle: u64, n: u64) -> Case {
    let k = swizzle / u64::from(elem.bytes());
    let name: &'static str = Box::leak(format!("wgmma_{kind}_s{swizzle}_n{n}").into_boxed_str());
    // i8 results are i32, stored as 4 bytes each.
    let out = if elem == I8 { [64, 4 * n] } else { [64, n] };
    // Products and sums stay exact: |D| <= K b^2 fits the output type.
    let bound = match elem {
        F16 | F32 => 4,
        BF16 => 2,
        _ => 127,
    };
    let mut c = Case::new(
        name,
        CopyPath::Tma,
        elem,
        &[64 + n, k],
        &out,
        format!(
            "A = src[0:64, 0:{k}] and B = src[64:{}, 0:{k}] by TMA into swizzle-{swizzle} tiles, \
             D = A Bᵀ by {} wgmma m64n{n} K steps through acopy.wgmma_descriptor",
            64 + n,
            k / (32 / u64::from(elem.bytes()))
        ),
        match elem {
            F16 => reference_f16,
            BF16 => reference_bf16,
            F32 => reference_tf32,
            _ => reference_i8,
        },
    )
    .expect("D = A Bᵀ of src's two blocks (exact small integers)");
    c.src_fill = Fill::SmallIntsOf(elem, bound);
    c.chip = Some("sm_90a");
    c
}

/// D = A Bᵀ from src's bytes, each element read by `decode`, each result written by
/// `encode` as the kernel stores it.
fn matmul(d: &Data, decode: fn(&[u8]) -> f64, encode: fn(f64) -> Vec<u8>) -> Vec<u8> {
    let k = d.src_shape[1] as usize;
    let n = d.src_shape[0] as usize - 64;
    let eb = d.elem_bytes;
    let at = |row: usize, col: usize| decode(&d.src[(row * k + col) * eb..][..eb]);
    let mut out = Vec::with_capacity(d.out_init.len());
    for m in 0..64 {
        for j in 0..n {
            let sum: f64 = (0..k).map(|kk| at(m, kk) * at(64 + j, kk)).sum();
            out.extend(encode(sum));
        }
    }
    out
}

fn reference_f16(d: &Data) -> Vec<u8> {
    matmul(
        d,
        |b| f16_to_f64(u16::from_le_bytes([b[0], b[1]])),
        |v| f16_bits(v as i32).to_le_bytes().to_vec(),
    )
}

fn reference_bf16(d: &Data) -> Vec<u8> {
    matmul(
        d,
        |b| {
            f64::from(f32::from_bits(
                u32::from(u16::from_le_bytes([b[0], b[1]])) << 16,
            ))
        },
        |v| (((v as f32).to_bits() >> 16) as u16).to_le_bytes().to_vec(),
    )
}

fn reference_tf32(d: &Data) -> Vec<u8> {
    matmul(
        d,
        |b| f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        |v| (v as f32).to_le_bytes().to_vec(),
    )
}

fn reference_i8(d: &Data) -> Vec<u8> {
    matmul(
        d,
        |b| f64::from(b[0] as i8),
        |v| (v as i32).to_le_bytes().to_vec(),
    )
}

/// The f16 bits of a small integer (exact for |v| <= 2048).
pub fn f16_bits(v: i32) -> u16 {
    if v == 0 {
        return 0;
    }
    let sign: u16 = if v < 0 { 0x8000 } else { 0 };
    let a = v.unsigned_abs();
    let e = 31 - a.leading_zeros();
    let mantissa = ((a << 10) >> e) & 0x3FF;
    sign | ((e as u16 + 15) << 10) | mantissa as u16
}

fn f16_to_f64(bits: u16) -> f64 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = i32::from((bits >> 10) & 0x1F);
    let mantissa = f64::from(bits & 0x3FF);
    match exponent {
        0 => sign * mantissa * 2f64.powi(-24),
        _ => sign * (1.0 + mantissa / 1024.0) * 2f64.powi(exponent - 15),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_round_trips_small_integers() {
        assert_eq!(f16_bits(1), 0x3C00);
        assert_eq!(f16_bits(-2), 0xC000);
        assert_eq!(f16_bits(1024), 0x6400);
        for v in -2048..=2048 {
            assert_eq!(f16_to_f64(f16_bits(v)), f64::from(v), "{v}");
        }
    }

    /// A 1 x 1 product through the reference: A row 0 . B row 0.
    #[test]
    fn reference_multiplies_the_two_blocks() {
        let k = 2;
        let n = 1;
        let mut src = Vec::new();
        for row in 0..64 + n {
            for col in 0..k {
                let v = if row == 0 {
                    3
                } else if row == 64 {
                    col as i32 + 1
                } else {
                    0
                };
                src.extend(f16_bits(v).to_le_bytes());
            }
        }
        let shape = [64 + n as u64, k as u64];
        let out_shape = [64u64, n as u64];
        let init = vec![0u8; 64 * 2];
        let d = Data {
            src: &src,
            src_shape: &shape,
            out_init: &init,
            out_shape: &out_shape,
            elem_bytes: 2,
            starts: &[],
        };
        let out = reference_f16(&d);
        // D[0][0] = 3*1 + 3*2 = 9; every other row is 0.
        assert_eq!(&out[0..2], &f16_bits(9).to_le_bytes());
        assert_eq!(&out[2..4], &[0, 0]);
    }
}
