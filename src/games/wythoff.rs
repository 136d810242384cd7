//! Wythoff's game (Ferguson, Part I, 3.6; Winning Ways ch. 3): two heaps; a move takes
//! any number from one heap, or the same number from both.
//!
//! The P-positions are the Beatty pairs `(⌊kφ⌋, ⌊kφ²⌋)`, `φ` the golden ratio, with
//! `⌊kφ²⌋ = ⌊kφ⌋ + k`. Both are found in exact integer arithmetic: `⌊kφ⌋ = (k +
//! isqrt(5k²)) / 2` (√(5k²) is irrational for k > 0, so the floor of the half-sum
//! is the half-sum of the floor), so positions of any size below 2**64 are answered
//! at once, winning moves included (at most one per line through the position).
//! Misère play has the same P-positions except the smallest: (0, 1) and (2, 2)
//! instead of (0, 0) and (1, 2) (checked against search in the tests). The Grundy
//! values have no closed form: a table, row by row, with the values seen in each
//! row, column and diagonal kept as bit sets.
use num_bigint::BigUint;

use super::heaps::MAX_OPTIONS;
use super::{Game, Limits, Memo, Value};
use crate::base::alloc;
use crate::base::error::{Error, Result};
use crate::base::interrupt::Poll;
use crate::base::outcome::Outcome;

/// Wythoff's game; a position is the two heaps.
#[derive(Debug, Default)]
pub struct Wythoff {
    memo: Memo<(u64, u64)>,
}

/// `⌊k·φ⌋`, exactly (k below 2**64, so the result is below 2**65).
pub fn lower(k: u64) -> u128 {
    let k = BigUint::from(k);
    let root = (&k * &k * 5u32).sqrt();
    let floor: BigUint = (k + root) >> 1;
    u128::try_from(floor).expect("below 2**65")
}

/// `⌊n/φ⌋ = ⌊n·(φ - 1)⌋`, exactly.
fn below_ratio(n: u64) -> u64 {
    let n = BigUint::from(n);
    let root = (&n * &n * 5u32).sqrt();
    u64::try_from((root - n) >> 1).expect("below n")
}

/// The P-position on the same Beatty pair as heap size `n`: its partner and whether
/// `n` is the smaller of the two. Every n > 0 is in exactly one pair (Beatty).
pub fn partner(n: u64) -> (u128, bool) {
    if n == 0 {
        return (0, true);
    }
    // n = ⌊kφ⌋ for k = ⌈n/φ⌉ when n is a lower number; otherwise n = ⌊kφ⌋ + k for
    // the k with ⌊kφ²⌋ = n, k = ⌈n/φ²⌉ = n - ⌊n/φ⌋ rounded as checked below.
    let k = below_ratio(n) + 1;
    if lower(k) == u128::from(n) {
        return (u128::from(n) + u128::from(k), true);
    }
    let k = n - below_ratio(n);
    let small = u128::from(n) - u128::from(k);
    debug_assert_eq!(lower(k), small, "n = {n} is an upper Wythoff number");
    (small, false)
}

/// Whether `(a, b)` is a P-position in normal play.
pub fn is_p(a: u64, b: u64) -> bool {
    let (a, b) = (a.min(b), a.max(b));
    lower(b - a) == u128::from(a)
}

/// The exceptions of misère play: (0, 1) and (2, 2) are P, (0, 0) and (1, 2) are N.
fn misere_p(a: u64, b: u64) -> bool {
    match (a.min(b), a.max(b)) {
        (0, 1) | (2, 2) => true,
        (0, 0) | (1, 2) => false,
        _ => is_p(a, b),
    }
}

/// The P-positions one move from `(a, b)`: on its row, its column and its diagonal.
pub fn p_options(a: u64, b: u64, misere: bool) -> Vec<(u64, u64)> {
    let is_p = |x: u64, y: u64| if misere { misere_p(x, y) } else { is_p(x, y) };
    let mut found = Vec::new();
    let mut push = |x: u64, y: u64| {
        if (x, y) != (a, b) && is_p(x, y) && !found.contains(&(x, y)) {
            found.push((x, y));
        }
    };
    // Lower heap `b` to the partner of `a`, or `a` to the partner of `b`.
    for (keep, cut, flip) in [(a, b, false), (b, a, true)] {
        let (other, _) = partner(keep);
        if other < u128::from(cut) {
            let other = other as u64;
            if flip {
                push(other, keep);
            } else {
                push(keep, other);
            }
        }
    }
    // The diagonal keeps b - a: its P-position is (⌊dφ⌋, ⌊dφ⌋ + d).
    let (small, d) = (a.min(b), a.abs_diff(b));
    let x = lower(d);
    if x < u128::from(small) {
        let take = small - x as u64;
        push(a - take, b - take);
    }
    if misere {
        // The small exceptions are reached along the same lines: look at them all.
        for (x, y) in [(0, 1), (1, 0), (2, 2)] {
            let row = x == a && y < b || y == b && x < a;
            let diagonal = x < a && a - x == b.wrapping_sub(y) && y < b;
            if row || diagonal {
                push(x, y);
            }
        }
    }
    found
}

impl Game for Wythoff {
    type Position = (u64, u64);
    const FAMILY: &'static str = "wythoff";

    fn options(&self, &(a, b): &(u64, u64), out: &mut Vec<(u64, u64)>) -> Result<()> {
        let count = u128::from(a) + u128::from(b) + u128::from(a.min(b));
        if count > MAX_OPTIONS {
            return Err(Error::TooManyGameOptions {
                options: count,
                limit: MAX_OPTIONS,
            });
        }
        out.extend((0..a).map(|x| (x, b)));
        out.extend((0..b).map(|y| (a, y)));
        out.extend((1..=a.min(b)).map(|t| (a - t, b - t)));
        Ok(())
    }

    fn value(&self, &(a, b): &(u64, u64), limits: &Limits) -> Result<Option<Value>> {
        // The value of (a, b) is in the table of rows 0..=min and columns 0..=max.
        let (rows, cols) = (a.min(b), a.max(b));
        let cells = (u128::from(rows) + 1) * (u128::from(cols) + 1);
        if cells > u128::from(limits.max_positions) {
            return Err(Error::TableTooLarge {
                cells,
                limit: limits.max_positions,
            });
        }
        let table = grundy_table(rows as usize + 1, cols as usize + 1, &mut |_| {})?;
        Ok(Some(Value::Finite(u64::from(table[table.len() - 1]))))
    }

    fn normal(&self, &(a, b): &(u64, u64), _limits: &Limits) -> Result<Option<Outcome>> {
        Ok(Some(if is_p(a, b) { Outcome::P } else { Outcome::N }))
    }

    fn misere(&self, &(a, b): &(u64, u64), _limits: &Limits) -> Result<Option<Outcome>> {
        Ok(Some(if misere_p(a, b) {
            Outcome::P
        } else {
            Outcome::N
        }))
    }

    fn options_with(
        &self,
        &(a, b): &(u64, u64),
        outcome: Outcome,
        misere: bool,
        _limits: &Limits,
    ) -> Result<Option<Vec<(u64, u64)>>> {
        Ok((outcome == Outcome::P).then(|| p_options(a, b, misere)))
    }

    fn loopy(&self, _p: &(u64, u64), _limits: &Limits) -> Result<Option<bool>> {
        Ok(Some(false))
    }

    fn numbers(&self, &(a, b): &(u64, u64)) -> Option<Vec<u64>> {
        Some(vec![a, b])
    }

    fn memo(&self) -> &Memo<(u64, u64)> {
        &self.memo
    }

    fn same_game(&self, _other: &Self) -> bool {
        true
    }

    fn hash_game(&self, _state: &mut dyn std::hash::Hasher) {}
}

/// The Grundy values of the positions `(a, b)` with `a < rows` and `b < cols`, row by
/// row (`table[a * cols + b]`). A value is the mex of the values to its left, above
/// it and up its diagonal; each row, column and diagonal keeps the values it holds as
/// a bit set, and the smallest value a line lacks only grows, so the search for the
/// mex of the three starts at the largest of the three lines' own mexes. `report`
/// hears each row done; Ctrl-C stops it.
pub fn grundy_table(rows: usize, cols: usize, report: &mut dyn FnMut(usize)) -> Result<Vec<u32>> {
    let cells = rows.checked_mul(cols).ok_or(Error::OutOfMemory {
        bytes: rows as u128 * cols as u128 * 4,
    })?;
    let mut table = alloc::filled(cells, 0u32)?;
    // A value is at most the number of options, a + b + min(a, b).
    let words = (rows + cols + rows.min(cols)).div_ceil(64);
    let mut row_bits = alloc::filled(words, 0u64)?;
    let mut col_bits = alloc::filled(cols * words, 0u64)?;
    let mut diag_bits = alloc::filled((rows + cols) * words, 0u64)?;
    let mut col_mex = alloc::filled(cols, 0usize)?;
    let mut diag_mex = alloc::filled(rows + cols, 0usize)?;
    let mut poll = Poll::default();
    for a in 0..rows {
        row_bits.fill(0);
        let mut row_mex = 0usize;
        for b in 0..cols {
            poll.tick()?;
            // Diagonal of (a, b): b - a + rows - 1 is in 0..rows + cols - 1.
            let d = b + rows - 1 - a;
            let col = &mut col_bits[b * words..][..words];
            let diag = &mut diag_bits[d * words..][..words];
            let start = row_mex.max(col_mex[b]).max(diag_mex[d]);
            let mut w = start / 64;
            let mut seen = row_bits[w] | col[w] | diag[w] | ((1u64 << (start % 64)) - 1);
            while seen == u64::MAX {
                w += 1;
                seen = row_bits[w] | col[w] | diag[w];
            }
            let g = w * 64 + seen.trailing_ones() as usize;
            table[a * cols + b] = g as u32;
            let (word, bit) = (g / 64, 1u64 << (g % 64));
            row_bits[word] |= bit;
            col[word] |= bit;
            diag[word] |= bit;
            row_mex = advance(&row_bits, row_mex);
            col_mex[b] = advance(col, col_mex[b]);
            diag_mex[d] = advance(diag, diag_mex[d]);
        }
        report(a + 1);
    }
    Ok(table)
}

/// The smallest value at or past `from` that `bits` lacks.
fn advance(bits: &[u64], from: usize) -> usize {
    let mut g = from;
    while bits[g / 64] >> (g % 64) & 1 == 1 {
        g += 1;
    }
    g
}
