//! The host model of the wgmma cases (`wgmma_*`, built in `cases.rs`): D = A Bᵀ of
//! src's two blocks (A's 64 rows, then B's N rows; tests/gpu/wgmma/gen.py writes the
//! kernels), and the small-integer encodings that keep every product and sum exact.

/// D = A Bᵀ from src's bytes (`shape` = [64 + N, K], `eb` bytes per element), each
/// element read by `decode`, each result written by `encode` as the kernel stores it.
pub fn matmul(
    src: &[u8],
    shape: &[u64],
    eb: usize,
    decode: fn(&[u8]) -> f64,
    encode: fn(f64) -> Vec<u8>,
) -> Vec<u8> {
    let k = shape[1] as usize;
    let n = shape[0] as usize - 64;
    let at = |row: usize, col: usize| decode(&src[(row * k + col) * eb..][..eb]);
    let mut out = Vec::new();
    for m in 0..64 {
        for j in 0..n {
            let sum: f64 = (0..k).map(|kk| at(m, kk) * at(64 + j, kk)).sum();
            out.extend(encode(sum));
        }
    }
    out
}

/// Where A and B lie in src in the MN-major cases (`wgmma_*_bmn`, tests/gpu/wgmma/gen.py's
/// `mn_kernel`); src's rows are `W` elements, of which each operand uses the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MnOperands {
    /// A's 64 rows (64 x K, K-major), then B stored K x N: src is [64 + K, W].
    B,
    /// A stored K x 64 (rows 0..K, M-major), then B stored K x N: src is [2 K, W].
    AAndB,
}

/// D = A B (64 x `n`) from src's bytes laid out as `operands` says, each element read
/// by `decode`, each result written by `encode` as the kernel stores it.
pub fn matmul_mn(
    src: &[u8],
    shape: &[u64],
    (n, eb): (usize, usize),
    (decode, encode): (fn(&[u8]) -> f64, fn(f64) -> Vec<u8>),
    operands: MnOperands,
) -> Vec<u8> {
    let w = shape[1] as usize;
    let (k, b_row) = match operands {
        MnOperands::B => (shape[0] as usize - 64, 64),
        MnOperands::AAndB => (shape[0] as usize / 2, shape[0] as usize / 2),
    };
    let at = |row: usize, col: usize| decode(&src[(row * w + col) * eb..][..eb]);
    let a = |m: usize, kk: usize| match operands {
        MnOperands::B => at(m, kk),
        MnOperands::AAndB => at(kk, m),
    };
    let mut out = Vec::new();
    for m in 0..64 {
        for j in 0..n {
            let sum: f64 = (0..k).map(|kk| a(m, kk) * at(b_row + kk, j)).sum();
            out.extend(encode(sum));
        }
    }
    out
}

pub fn decode_f16(b: &[u8]) -> f64 {
    f16_to_f64(u16::from_le_bytes([b[0], b[1]]))
}

pub fn encode_f16(v: f64) -> Vec<u8> {
    f16_bits(v as i32).to_le_bytes().to_vec()
}

pub fn decode_bf16(b: &[u8]) -> f64 {
    f64::from(f32::from_bits(
        u32::from(u16::from_le_bytes([b[0], b[1]])) << 16,
    ))
}

pub fn encode_bf16(v: f64) -> Vec<u8> {
    (((v as f32).to_bits() >> 16) as u16).to_le_bytes().to_vec()
}

pub fn decode_f32(b: &[u8]) -> f64 {
    f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

pub fn encode_f32(v: f64) -> Vec<u8> {
    (v as f32).to_le_bytes().to_vec()
}

pub fn decode_i8(b: &[u8]) -> f64 {
    f64::from(b[0] as i8)
}

pub fn encode_i32(v: f64) -> Vec<u8> {
    (v as i32).to_le_bytes().to_vec()
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

    /// A 1 x 1 product through the model: A row 0 . B row 0.
    #[test]
    fn matmul_multiplies_the_two_blocks() {
        let k = 2;
        let n = 1;
        let mut src = Vec::new();
        for row in 0..64 + n {
            for col in 0..k {
                let v = if row == 0 {
                    3
                } else if row == 64 {
                    col + 1
                } else {
                    0
                };
                src.extend(f16_bits(v).to_le_bytes());
            }
        }
        let shape = [64 + n as u64, k as u64];
        let out = matmul(&src, &shape, 2, decode_f16, encode_f16);
        // D[0][0] = 3*1 + 3*2 = 9; every other row is 0.
        assert_eq!(&out[0..2], &f16_bits(9).to_le_bytes());
        assert_eq!(&out[2..4], &[0, 0]);
    }

    /// B stored K x N: D[0][1] = A row 0 . B column 1; with A stored K x M too,
    /// A[0][kk] is src[kk][0].
    #[test]
    fn matmul_mn_reads_b_by_columns() {
        let (k, w) = (2usize, 2usize);
        let value = |row: usize, col: usize| -> i32 {
            match row {
                0 => [3, 5][col],
                1 => [7, 1][col],
                r if r >= 64 => [1, 2, 3, 4][(r - 64) * 2 + col],
                _ => 0,
            }
        };
        let mut src = Vec::new();
        for row in 0..64 + k {
            for col in 0..w {
                src.extend(f16_bits(value(row, col)).to_le_bytes());
            }
        }
        let shape = [64 + k as u64, w as u64];
        let codec = (
            decode_f16 as fn(&[u8]) -> f64,
            encode_f16 as fn(f64) -> Vec<u8>,
        );
        let out = matmul_mn(&src, &shape, (2, 2), codec, MnOperands::B);
        // B = [[1, 2], [3, 4]]: D[0][1] = 3*2 + 5*4 = 26, D[1][0] = 7*1 + 1*3 = 10.
        assert_eq!(&out[2..4], &f16_bits(26).to_le_bytes());
        assert_eq!(&out[4..6], &f16_bits(10).to_le_bytes());
        // A stored K x M (rows 0..2, 64 wide), B = [[1, 2], [3, 4]] at rows 2..4:
        // A[0] = [3, 7], A[1] = [5, 1], so D[0][1] = 3*2 + 7*4 = 34, D[1][0] = 5 + 3 = 8.
        let rows = [[3, 5], [7, 1], [1, 2], [3, 4]];
        let mut src = Vec::new();
        for row in rows {
            for col in 0..64 {
                src.extend(f16_bits(if col < 2 { row[col] } else { 0 }).to_le_bytes());
            }
        }
        let out = matmul_mn(&src, &[4, 64], (2, 2), codec, MnOperands::AAndB);
        assert_eq!(&out[2..4], &f16_bits(34).to_le_bytes());
        assert_eq!(&out[4..6], &f16_bits(8).to_le_bytes());
    }
}
