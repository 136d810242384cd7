//! A set of a board's cells as a bitboard of `W` words, row after row: a move, a
//! component and its canonical form are a few shifts and masks.
use std::ops::{BitAnd, BitOr, BitXor, Not};

use crate::split::table::Packed;

/// A set of cells: bit `r * cols + c` for the cell (r, c).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Cells<const W: usize>(pub(super) [u64; W]);

impl<const W: usize> Packed for Cells<W> {
    const WORDS: usize = W;

    fn word(&self, i: usize) -> u64 {
        self.0[i]
    }

    fn from_words(word: impl Fn(usize) -> u64) -> Self {
        Cells(std::array::from_fn(word))
    }
}

impl<const W: usize> BitAnd for Cells<W> {
    type Output = Self;
    fn bitand(self, o: Self) -> Self {
        Cells(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }
}

impl<const W: usize> BitOr for Cells<W> {
    type Output = Self;
    fn bitor(self, o: Self) -> Self {
        Cells(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
}

impl<const W: usize> BitXor for Cells<W> {
    type Output = Self;
    fn bitxor(self, o: Self) -> Self {
        Cells(std::array::from_fn(|i| self.0[i] ^ o.0[i]))
    }
}

impl<const W: usize> Not for Cells<W> {
    type Output = Self;
    fn not(self) -> Self {
        Cells(std::array::from_fn(|i| !self.0[i]))
    }
}

impl<const W: usize> Cells<W> {
    pub(super) const EMPTY: Self = Cells([0; W]);

    pub(super) fn shl(self, n: usize) -> Self {
        let (words, bits) = (n / 64, n % 64);
        Cells(std::array::from_fn(|i| {
            if i < words {
                return 0;
            }
            let from = i - words;
            let carry = if bits > 0 && from > 0 {
                self.0[from - 1] >> (64 - bits)
            } else {
                0
            };
            self.0[from] << bits | carry
        }))
    }

    pub(super) fn shr(self, n: usize) -> Self {
        let (words, bits) = (n / 64, n % 64);
        Cells(std::array::from_fn(|i| {
            let from = i + words;
            if from >= W {
                return 0;
            }
            let carry = if bits > 0 && from + 1 < W {
                self.0[from + 1] << (64 - bits)
            } else {
                0
            };
            self.0[from] >> bits | carry
        }))
    }

    pub(super) fn one(v: usize) -> Self {
        let mut out = Self::EMPTY;
        out.0[v / 64] = 1 << (v % 64);
        out
    }

    pub(super) fn has(&self, v: usize) -> bool {
        self.0[v / 64] >> (v % 64) & 1 == 1
    }

    pub(super) fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    pub(super) fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The lowest cell alone.
    pub(super) fn lowest(&self) -> Self {
        let mut out = [0u64; W];
        if let Some(i) = self.0.iter().position(|&w| w != 0) {
            out[i] = self.0[i] & self.0[i].wrapping_neg();
        }
        Cells(out)
    }

    pub(super) fn first(&self) -> usize {
        let i = self.0.iter().position(|&w| w != 0).unwrap_or(0);
        i * 64 + self.0[i].trailing_zeros() as usize
    }

    pub(super) fn last(&self) -> usize {
        let i = self.0.iter().rposition(|&w| w != 0).unwrap_or(0);
        i * 64 + 63 - self.0[i].leading_zeros() as usize
    }

    /// The `mask` bits from bit `start` on.
    pub(super) fn row(&self, start: usize, mask: u64) -> u64 {
        let (w, b) = (start / 64, start % 64);
        let mut v = self.0[w] >> b;
        if b > 0 && w + 1 < W {
            v |= self.0[w + 1] << (64 - b);
        }
        v & mask
    }

    pub(super) fn put_row(&mut self, start: usize, bits: u64) {
        let (w, b) = (start / 64, start % 64);
        self.0[w] |= bits << b;
        if b > 0 && w + 1 < W {
            self.0[w + 1] |= bits >> (64 - b);
        }
    }
}
