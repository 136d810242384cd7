//! The options of a block of upcoming heaps through splits with a rare part far
//! back, computed before the heaps' own values.
//!
//! For heaps `start..start + len`, a split of `m - t` into a rare heap `r` and
//! `m - t - r` uses only the values known, those of heaps `0..known`, when
//! `start + len - known <= r < known` (and `r < start - t`, so that the other part
//! is a heap): the other part is below `known`. Taken heap by heap, those splits read
//! values scattered over every rare heap's distance (about one cache line each);
//! taken rare heap by rare heap, the other parts of the block's heaps are
//! consecutive: one line serves sixteen heaps. The splits with a rare part outside
//! that range (the near ones, which may need values of the block itself) are left to
//! each heap in turn. With `known < start` a second thread fills the next block while
//! the heaps before it are computed (`SparseSpace::extend`).

use crate::heap::width::Value;

/// Heaps in a block (fewer when the values are wide: see `Block::fill`).
pub const LEN: usize = 32;

/// `flags[(m - start) * stride + v]` is 1 when heap `m` has an option of value `v`.
#[derive(Debug, Clone, Default)]
pub struct Block {
    pub start: usize,
    pub len: usize,
    pub stride: usize,
    pub flags: Vec<u8>,
    /// The rare heaps whose splits are in `flags`: `far.0 <= r < far.1`.
    pub far: (usize, usize),
}

impl Block {
    /// Whether heap `n` has its row here.
    pub fn holds(&self, n: usize) -> bool {
        self.start <= n && n < self.start + self.len
    }

    /// Forget the block (the rare heaps or the width of values changed).
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// How many heaps a block holds with `stride` values a row: about 32 KiB of rows,
    /// whatever the width of values.
    pub fn len_for(stride: usize) -> usize {
        (LEN * 1024 / stride).clamp(1, LEN)
    }

    /// The rows of heaps `start..` for the splits `splits` (takes) with a far rare
    /// part, given the values of heaps `0..values.len()` (at most `start`) and the
    /// rare heaps among them, increasing; `stride` values a row (a power of two above
    /// every value).
    pub fn fill<V: Value>(
        &mut self,
        values: &[V],
        start: usize,
        rare: &[usize],
        splits: &[usize],
        distinct: bool,
        stride: usize,
    ) {
        let known = values.len();
        let len = Self::len_for(stride);
        (self.start, self.len, self.stride) = (start, len, stride);
        self.flags.clear();
        self.flags.resize(len * stride, 0);
        let most_take = splits.iter().copied().max().unwrap_or(0);
        let low = start + len - known;
        self.far = (low, known.min(start.saturating_sub(most_take)).max(low));
        let (low, high) = self.far;
        let far = &rare[rare.partition_point(|&r| r < low)..rare.partition_point(|&r| r < high)];
        let mask = stride - 1;
        let flags = &mut self.flags[..len * stride];
        for &t in splits {
            for &r in far {
                let g = values[r].index();
                // The other parts of heaps start.., consecutive.
                let first = start - t - r;
                let others = &values[first..first + len];
                for (j, &other) in others.iter().enumerate() {
                    // When the parts must differ, not r + r.
                    if !(distinct && first + j == r) {
                        let at = j * stride + ((g ^ other.index()) & mask);
                        // SAFETY: j < len, and the masked value is below stride, so
                        // `at < len * stride`: the innermost loop of a dense game
                        // goes without a bounds check.
                        unsafe { *flags.get_unchecked_mut(at) = 1 };
                    }
                }
            }
        }
    }
}
