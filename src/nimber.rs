//! Nimber arithmetic: the field of the nimbers below 2**64, where addition is XOR and
//! multiplication is Conway's nim product (Winning Ways ch. 14; Conway, On Numbers
//! and Games, ch. 6). The product of coin-turning games (Tartan theorem) and of the
//! values of Turning Corners is this multiplication.
//!
//! The product is table-driven: down the tower of subfields, each level splits a
//! nimber into halves over the Fermat 2-power `F` (`a = a1 F + a0`) and needs three
//! products of halves, Karatsuba's way (`a1 b1`, `a0 b0`, `(a0 + a1)(b0 + b1)`), and
//! one product by the constant `F/2` (`F ⊗ F = F ⊕ F/2`), which is linear in its
//! argument and so a few byte lookups. At the bottom, bytes multiply by one lookup in
//! a 64 KiB table: 46 lookups a 64-bit product.
use std::sync::OnceLock;

use rayon::prelude::*;

use crate::base::error::{Error, Result};
use crate::base::interrupt::{self, Cancel};

/// The nim product by Conway's recursion on halves (a Fermat 2-power `F = 2**h`
/// satisfies `F ⊗ F = F ⊕ F/2`): the reference the tables are built from and checked
/// against.
pub fn multiply_naive(a: u64, b: u64) -> u64 {
    multiply_in(a, b, 64)
}

/// The product of `a` and `b` below `2**bits` (`bits` a power of two).
fn multiply_in(a: u64, b: u64, bits: u32) -> u64 {
    if a < 2 || b < 2 {
        return a * b;
    }
    let half = bits / 2;
    let mask = (1u64 << half) - 1;
    let (a1, a0, b1, b0) = (a >> half, a & mask, b >> half, b & mask);
    let high = multiply_in(a1, b1, half);
    let low = multiply_in(a0, b0, half);
    let cross = multiply_in(a0 ^ a1, b0 ^ b1, half) ^ low;
    // (a1 F + a0)(b1 F + b0) = (a1b1 + a1b0 + a0b1) F + a0b0 + a1b1 (F/2).
    (cross << half) | (low ^ multiply_in(high, 1 << (half - 1), half))
}

struct Tables {
    /// `bytes[x * 256 + y] = x ⊗ y` for bytes.
    bytes: Vec<u8>,
    /// `half16[k][x] = (x << 8k) ⊗ 2**15` for bytes `x`, `k` in 0..2: `F/2` at the
    /// 32-bit level, byte by byte.
    half16: [[u16; 256]; 2],
    /// `half32[k][x] = (x << 8k) ⊗ 2**31`, `k` in 0..4: `F/2` at the 64-bit level.
    half32: [[u32; 256]; 4],
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut bytes = vec![0u8; 256 * 256];
        for x in 0..256u64 {
            for y in x..256u64 {
                let p = multiply_in(x, y, 8) as u8;
                bytes[(x * 256 + y) as usize] = p;
                bytes[(y * 256 + x) as usize] = p;
            }
        }
        let mut half16 = [[0u16; 256]; 2];
        let mut half32 = [[0u32; 256]; 4];
        for x in 0..256u64 {
            for (k, row) in half16.iter_mut().enumerate() {
                row[x as usize] = multiply_in(x << (8 * k), 1 << 15, 32) as u16;
            }
            for (k, row) in half32.iter_mut().enumerate() {
                row[x as usize] = multiply_naive(x << (8 * k), 1 << 31) as u32;
            }
        }
        Tables {
            bytes,
            half16,
            half32,
        }
    })
}

impl Tables {
    #[inline(always)]
    fn mul8(&self, a: u32, b: u32) -> u32 {
        u32::from(self.bytes[(a << 8 | b) as usize])
    }

    /// Products of 16-bit nimbers (`F = 2**8`, `F/2 ⊗ x` a lookup of `x ⊗ 128`).
    #[inline(always)]
    fn mul16(&self, a: u32, b: u32) -> u32 {
        let (a1, a0, b1, b0) = (a >> 8, a & 0xff, b >> 8, b & 0xff);
        let high = self.mul8(a1, b1);
        let low = self.mul8(a0, b0);
        let cross = self.mul8(a0 ^ a1, b0 ^ b1) ^ low;
        cross << 8 | (low ^ self.mul8(high, 128))
    }

    #[inline(always)]
    fn mul32(&self, a: u32, b: u32) -> u32 {
        let (a1, a0, b1, b0) = (a >> 16, a & 0xffff, b >> 16, b & 0xffff);
        let high = self.mul16(a1, b1);
        let low = self.mul16(a0, b0);
        let cross = self.mul16(a0 ^ a1, b0 ^ b1) ^ low;
        let half = self.half16[0][(high & 0xff) as usize] ^ self.half16[1][(high >> 8) as usize];
        cross << 16 | (low ^ u32::from(half))
    }

    #[inline(always)]
    fn mul64(&self, a: u64, b: u64) -> u64 {
        let (a1, a0, b1, b0) = ((a >> 32) as u32, a as u32, (b >> 32) as u32, b as u32);
        let high = self.mul32(a1, b1);
        let low = self.mul32(a0, b0);
        let cross = self.mul32(a0 ^ a1, b0 ^ b1) ^ low;
        let half = (0..4).fold(0, |h, k| {
            h ^ self.half32[k][(high >> (8 * k) & 0xff) as usize]
        });
        u64::from(cross) << 32 | u64::from(low ^ half)
    }
}

/// The nim product of `a` and `b`.
pub fn multiply(a: u64, b: u64) -> u64 {
    tables().mul64(a, b)
}

/// The inverse of `a` in the field (None for 0), down the tower of subfields: with
/// `a = a1 F + a0` over the subfield below `F`, its conjugate `a1 F + (a0 + a1)` (F's
/// conjugate is F + 1) times `a` is the norm `a0² + a0 a1 + a1² (F/2)` in the subfield,
/// so `1/a` is the conjugate over the norm, inverted one level down.
pub fn inverse(a: u64) -> Option<u64> {
    (a != 0).then(|| inverse_in(a, 64))
}

fn inverse_in(a: u64, bits: u32) -> u64 {
    if a < 2 {
        return a;
    }
    let half = bits / 2;
    if a >> half == 0 {
        return inverse_in(a, half);
    }
    let mask = (1u64 << half) - 1;
    let (a1, a0) = (a >> half, a & mask);
    let norm = multiply(a0, a0 ^ a1) ^ multiply(multiply(a1, a1), 1 << (half - 1));
    multiply((a1 << half) | (a0 ^ a1), inverse_in(norm, half))
}

/// The reference inverse: `a ** (2**64 - 2)` by repeated squaring (Lagrange).
pub fn inverse_naive(a: u64) -> Option<u64> {
    if a == 0 {
        return None;
    }
    // 2**64 - 2 is 63 ones and a zero: the product of a^(2^k) for k in 1..64.
    let mut square = multiply_naive(a, a);
    let mut result = square;
    for _ in 2..64 {
        square = multiply_naive(square, square);
        result = multiply_naive(result, square);
    }
    Some(result)
}

/// Elements per piece of work: a piece checks the Ctrl-C flag before it starts.
const PIECE: usize = 1 << 14;

/// `out[i] = a[i] ⊗ b[i]` (`b` of length 1: `a[i] ⊗ b[0]`) on every core; Ctrl-C
/// stops it (`Error::Interrupted`).
pub fn multiply_all(a: &[u64], b: &[u64], out: &mut [u64]) -> Result<()> {
    assert!(a.len() == out.len() && (b.len() == out.len() || b.len() == 1));
    let t = tables();
    pieces(out, |start, piece| {
        let a = &a[start..][..piece.len()];
        if let [b] = b {
            for (slot, &x) in piece.iter_mut().zip(a) {
                *slot = t.mul64(x, *b);
            }
        } else {
            let b = &b[start..][..piece.len()];
            for ((slot, &x), &y) in piece.iter_mut().zip(a).zip(b) {
                *slot = t.mul64(x, y);
            }
        }
    })
}

/// `out[i] = 1 / a[i]`; `Error::NoInverse` naming the first zero.
pub fn inverse_all(a: &[u64], out: &mut [u64]) -> Result<()> {
    assert_eq!(a.len(), out.len(), "equal lengths");
    if let Some(index) = a.iter().position(|&x| x == 0) {
        return Err(Error::NoInverse { index: Some(index) });
    }
    pieces(out, |start, piece| {
        for (k, slot) in piece.iter_mut().enumerate() {
            *slot = inverse(a[start + k]).expect("no zero");
        }
    })
}

/// Fill `out` piece by piece on every core (`fill(start, piece)`).
fn pieces(out: &mut [u64], fill: impl Fn(usize, &mut [u64]) + Sync) -> Result<()> {
    interrupt::run_cancellable(|cancel: &Cancel| {
        out.par_chunks_mut(PIECE)
            .enumerate()
            .for_each(|(i, piece)| {
                if !cancel.stopped() {
                    fill(i * PIECE, piece);
                }
            });
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_products_are_the_published_table() {
        // Conway, On Numbers and Games, ch. 6: the nim multiplication table below 8.
        let table = [
            [0, 0, 0, 0, 0, 0, 0, 0],
            [0, 1, 2, 3, 4, 5, 6, 7],
            [0, 2, 3, 1, 8, 10, 11, 9],
            [0, 3, 1, 2, 12, 15, 13, 14],
            [0, 4, 8, 12, 6, 2, 14, 10],
            [0, 5, 10, 15, 2, 7, 8, 13],
            [0, 6, 11, 13, 14, 8, 5, 3],
            [0, 7, 9, 14, 10, 13, 3, 4],
        ];
        for (a, row) in table.iter().enumerate() {
            for (b, &p) in row.iter().enumerate() {
                assert_eq!(multiply_naive(a as u64, b as u64), p);
                assert_eq!(multiply(a as u64, b as u64), p);
            }
        }
    }

    #[test]
    fn fermat_powers_square_to_three_halves() {
        for k in 0..6 {
            let f = 1u64 << (1 << k);
            assert_eq!(multiply(f, f), f | (f >> 1), "F = 2^{}", 1 << k);
        }
        // The example: 2**32 ⊗ 2**32 = 3 * 2**31.
        assert_eq!(multiply(1 << 32, 1 << 32), 3 << 31);
    }
}
