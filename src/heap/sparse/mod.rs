//! The sparse-space method for Grundy values of codes whose moves leave at most two
//! heaps (Gangolli and Plambeck; Flammenkamp).
//!
//! A mask `m` (and, where every split takes an even or every split an odd number, the
//! parity of the heap) splits values into two classes: *rare* when `v & m` has even
//! parity, *common* when odd. For most octal games a mask makes nearly every heap
//! common. The XOR of two common values is rare, so a split into two common heaps
//! never leaves a common value: the common values among a heap's options all come
//! from moves that leave no heap or one, and from splits with a rare part, which are
//! few. That gives the smallest common value missing from the options exactly, at the
//! cost of one pass over the rare heaps. The value is that candidate unless a smaller
//! rare value is missing too, which only a scan of every split can tell; the scan
//! stops as soon as every rare value below the candidate is found, which for a sparse
//! sequence is after a handful of splits. Any mask gives the same values (the mask 0
//! makes every heap rare: the definition); the mask is re-chosen (a Walsh–Hadamard
//! transform of the value counts finds the one with the fewest rare heaps) as the
//! rare heaps grow.
mod block;
mod helper;
pub(crate) mod simd;

use block::Block;
use helper::Pace;

use super::store::Store;
use super::width::{Value, Width};
use crate::base::error::Result;
use crate::base::interrupt::Poll;
pub use helper::{with_helper, Helper};

/// What a code's moves do, by take: the takes that leave nothing, one heap, two heaps.
#[derive(Debug, Clone)]
pub struct Moves {
    pub whole: Vec<usize>,
    pub reduce: Vec<usize>,
    pub split: Vec<usize>,
    /// The two heaps a split leaves must differ (`!`).
    pub distinct: bool,
}

/// The rare/common split of a growing Grundy sequence, and scratch space for the mex.
#[derive(Debug, Clone)]
pub struct SparseSpace {
    moves: Moves,
    /// Every split takes this many mod 2, so the heap's parity may join the class.
    split_parity: Option<usize>,
    mask: u32,
    use_parity: bool,
    /// Heaps (indices into the values) from 1 on whose class is rare, increasing.
    rare: Vec<usize>,
    rare_at_choice: usize,
    /// `counts[(v << 1) | parity]`: how many heaps have value `v` and that parity.
    counts: Vec<u64>,
    /// How many values are counted (heaps `0..counted`).
    counted: usize,
    /// Every value so far is below `1 << bits`.
    bits: u32,
    /// `odd[v]`: whether `v & mask` has odd parity, for `v` in `0..=1 << bits`.
    odd: Vec<bool>,
    /// The options of the heaps of a block through splits with a far rare part.
    block: Block,
    /// There was no memory for a job of the second thread.
    refused: bool,
    /// One thread or two.
    pace: Pace,
    /// Changes whenever the rare heaps or the width of values change: a block filled
    /// before is stale.
    generation: u64,
    /// The values below the candidate not among the options before the scan of
    /// splits, increasing; `want[v]` is 1 for those not found yet, else 0.
    wanted: Vec<usize>,
    want: Vec<u32>,
}

impl SparseSpace {
    pub fn new(moves: Moves) -> Self {
        let split_parity = split_parity(&moves);
        let mut space = SparseSpace {
            moves,
            split_parity,
            mask: 0,
            use_parity: false,
            rare: Vec::new(),
            rare_at_choice: 0,
            counts: vec![0; 4],
            counted: 0,
            bits: 1,
            odd: Vec::new(),
            block: Block::default(),
            refused: false,
            pace: Pace::default(),
            generation: 0,
            wanted: Vec::new(),
            want: Vec::new(),
        };
        space.fill_classes();
        space
    }

    /// How many heaps are rare now, and the mask (with the parity of heaps if used).
    pub fn rare_heaps(&self) -> &[usize] {
        &self.rare
    }

    pub fn mask(&self) -> (u32, bool) {
        (self.mask, self.use_parity)
    }

    /// The parity bit of heap `n` in its class (0 when parity is not used).
    fn parity(&self, n: usize) -> usize {
        match self.split_parity {
            Some(p) if self.use_parity => (n ^ p) & 1,
            _ => 0,
        }
    }

    fn is_rare(&self, value: u32, n: usize) -> bool {
        ((value & self.mask).count_ones() as usize + self.parity(n)).is_multiple_of(2)
    }

    /// Append the values of the heaps from `values.len()` to `stop` or to the end of
    /// the block, whichever comes first (at least one; the room is reserved; the
    /// store's width is `V`). With a `helper` and enough splits with a far rare part
    /// to share, the second thread fills the next block meanwhile. Stops before a
    /// value that `V` does not hold, with the width it needs: nothing of that heap is
    /// recorded, so that it is computed again once the store is wider.
    pub fn extend<V: Value>(
        &mut self,
        values: &mut Store,
        stop: usize,
        helper: Option<&Helper>,
    ) -> Option<Width> {
        let n = values.len();
        if !self.block.holds(n) && !self.take_ahead(n, helper) {
            self.fill_block(values.slice::<V>());
        }
        let next = self.block.start + self.block.len;
        let end = stop.min(next).max(n + 1);
        if helper.is_some() {
            self.pace.at(n);
        }
        match helper {
            Some(helper) if end == next && self.second_thread_pays() && !helper.busy() => {
                let posted = helper.post(|job| {
                    job.rare.clear();
                    let room = job.rare.try_reserve(self.rare.len()).is_ok();
                    if room {
                        (job.start, job.known) = (next, n);
                        job.rare.extend_from_slice(&self.rare);
                        job.splits.clone_from(&self.moves.split);
                        (job.distinct, job.stride) = (self.moves.distinct, self.odd.len());
                        job.generation = self.generation;
                    }
                    room
                });
                if !posted {
                    // No memory for the second thread's share: one thread from now on.
                    self.refused = true;
                }
            }
            _ => {}
        }
        for n in n..end {
            let known = values.slice::<V>();
            if !self.block.holds(n) {
                // A new mask (or wider values) cleared the block.
                self.fill_block(known);
            }
            let value = self.value_in_block(known);
            if value > V::WIDTH.largest() {
                return Some(Width::of(value));
            }
            self.record(known, value);
            values.push(V::narrow(value));
        }
        None
    }

    /// Fill the block of heap `values.len()` here.
    fn fill_block<V: Value>(&mut self, values: &[V]) {
        let (splits, distinct) = (&self.moves.split, self.moves.distinct);
        let n = values.len();
        self.block
            .fill(values, n, &self.rare, splits, distinct, self.odd.len());
    }

    /// Take the block of heap `n` from the second thread, if it filled it and it is
    /// not stale.
    fn take_ahead(&mut self, n: usize, helper: Option<&Helper>) -> bool {
        let Some(helper) = helper.filter(|h| h.busy()) else {
            return false;
        };
        let generation = self.generation;
        helper.finish(|job| {
            let good = job.generation == generation && job.block.start == n;
            if good {
                std::mem::swap(&mut self.block, &mut job.block);
            }
            good
        })
    }

    /// Whether the splits with a far rare part are enough work to share.
    fn second_thread_pays(&self) -> bool {
        const PAIRS_A_HEAP: usize = 256;
        !self.refused && self.pace.two() && self.rare.len() * self.moves.split.len() >= PAIRS_A_HEAP
    }

    /// The value of heap `values.len()`, whose row the block holds.
    fn value_in_block<V: Value>(&mut self, values: &[V]) -> u32 {
        let n = values.len();
        // Values of heap n's common class have odd parity under the mask, unless the
        // heap's parity flips the classes.
        let flip = self.parity(n) == 1;
        let block = &mut self.block;
        let stride = block.stride;
        // `row[v] == 1`: value `v` is an option of heap `n`.
        let row = &mut block.flags[(n - block.start) * stride..][..stride];
        for &t in &self.moves.whole {
            if t == n {
                row[0] = 1;
            }
        }
        for &t in &self.moves.reduce {
            if t < n {
                row[values[n - t].index()] = 1;
            }
        }
        // Every split with a rare part: all the common values among the options. The
        // block holds the splits with a far rare part; the near ones are marked here.
        let (low, high) = block.far;
        let near = [
            &self.rare[..self.rare.partition_point(|&r| r < low)],
            &self.rare[self.rare.partition_point(|&r| r < high.max(low))..],
        ];
        for &t in &self.moves.split {
            if let Some(base) = n.checked_sub(t) {
                for rare in near {
                    mark_rare_splits(values, rare, base, self.moves.distinct, row);
                }
            }
        }
        let odd = &self.odd;
        let candidate = (0..stride)
            .find(|&v| odd[v] != flip && row[v] == 0)
            .unwrap_or(stride);
        // The rare values below the candidate still missing (`want[v] == 1`): splits
        // of two common heaps give rare values, found by a scan of every split.
        let (want, wanted) = (&mut self.want, &mut self.wanted);
        wanted.clear();
        for v in (0..candidate).filter(|&v| row[v] == 0) {
            want[v] = 1;
            wanted.push(v);
        }
        let mut left = wanted.len();
        for &t in &self.moves.split {
            if let Some(m) = n.checked_sub(t).filter(|_| left > 0) {
                left = find_splits(values, m, self.moves.distinct, wanted, want, left);
            }
        }
        let value = wanted.iter().find(|&&v| want[v] == 1).unwrap_or(&candidate);
        let value = *value as u32;
        for &v in wanted.iter() {
            want[v] = 0;
        }
        value
    }

    /// Catch up with the values of `store` past those counted, as if each had come
    /// from `extend` (a computation that resumes from stored values): the space
    /// depends on the values alone. Polls for Ctrl-C as it goes (billions of values
    /// take seconds); stopped, it catches up from there next time.
    pub fn replay(&mut self, store: &Store, poll: &mut Poll) -> Result<()> {
        crate::by_width!(store, |values| {
            // Heap 0 is never counted (nor a rare part of a split).
            let mut n = self.counted.max(1);
            while n < values.len() {
                poll.tick()?;
                let stop = values.len().min(n + (1 << 16));
                for (n, &v) in values[..stop].iter().enumerate().skip(n) {
                    self.record(&values[..n], v.to_u32());
                }
                n = stop;
            }
        });
        Ok(())
    }

    /// Count the new value; re-choose the mask when the rare heaps have grown.
    fn record<V: Value>(&mut self, values: &[V], value: u32) {
        let n = values.len();
        self.counted = n + 1;
        let mut regrow = false;
        while value >= 1 << self.bits {
            self.bits += 1;
            self.counts.resize(2 << self.bits, 0);
            regrow = true;
        }
        let parity = match self.split_parity {
            Some(p) => (n ^ p) & 1,
            None => 0,
        };
        self.counts[(value as usize) << 1 | parity] += 1;
        if self.is_rare(value, n) {
            self.rare.push(n);
        }
        if regrow || self.rare.len() > 2 * self.rare_at_choice + 32 {
            self.choose_mask(values, value);
        }
    }

    /// The mask (and use of parity) with the fewest rare heaps (`best_mask`).
    fn choose_mask<V: Value>(&mut self, values: &[V], last: u32) {
        let best = best_mask(&self.counts, self.split_parity.is_some());
        let (mask, use_parity) = ((best >> 1) as u32, best & 1 == 1);
        if (mask, use_parity) != (self.mask, self.use_parity) {
            (self.mask, self.use_parity) = (mask, use_parity);
            self.rare.clear();
            // Heap 0 is never part of a split: it is left out.
            let all = values
                .iter()
                .map(|&v| v.into())
                .chain(std::iter::once(last));
            for (heap, v) in all.enumerate().skip(1) {
                if self.is_rare(v, heap) {
                    self.rare.push(heap);
                }
            }
        }
        self.rare_at_choice = self.rare.len();
        self.fill_classes();
    }

    /// The parity of `0..2 << bits` under the mask; room for every option value and
    /// the candidate, a power of two (`Block`, `find_splits`).
    fn fill_classes(&mut self) {
        let len = 2usize << self.bits;
        self.odd = (0..len as u32)
            .map(|v| (v & self.mask).count_ones() % 2 == 1)
            .collect();
        self.want.resize(len, 0);
        // The rare heaps or the width of values may have changed.
        self.block.clear();
        self.generation += 1;
    }
}

/// The mask and use of heap parity (`i = mask << 1 | parity`) with the fewest rare
/// heaps, given `counts[(v << 1) | parity]`, the least such `i` on a tie (as
/// Czajka's analyzer chooses), by a Walsh–Hadamard transform of the counts: the
/// heaps whose `(v << 1 | parity) & i` has even parity number `(total + H[i]) / 2`.
fn best_mask(counts: &[u64], parity_allowed: bool) -> usize {
    let mut h: Vec<i64> = counts.iter().map(|&c| c as i64).collect();
    let mut step = 1;
    while step < h.len() {
        for block in h.chunks_mut(2 * step) {
            let (low, high) = block.split_at_mut(step);
            for (x, y) in low.iter_mut().zip(high) {
                (*x, *y) = (*x + *y, *x - *y);
            }
        }
        step *= 2;
    }
    let total = h[0];
    (0..h.len())
        .filter(|i| i & 1 == 0 || parity_allowed)
        .min_by_key(|&i| ((total + h[i]) / 2, i))
        .unwrap_or(0)
}

/// The sparse space of `values` as published (Czajka's UnsolvedGames.md): the mask
/// and use of heap parity with the fewest rare heaps among all of them (heap 0
/// included), how many heaps are rare and the last one.
pub fn published_space<V: Value>(values: &[V], moves: &Moves) -> (u32, bool, usize, Option<usize>) {
    let split_parity = split_parity(moves);
    let heap_parity = |n: usize| split_parity.map_or(0, |p| (n ^ p) & 1);
    let top: u32 = values.iter().max().map_or(0, |&v| v.into());
    let mut counts = vec![0u64; 2 << (32 - top.leading_zeros())];
    for (n, &v) in values.iter().enumerate() {
        counts[v.index() << 1 | heap_parity(n)] += 1;
    }
    let best = best_mask(&counts, split_parity.is_some());
    let (mask, use_parity) = ((best >> 1) as u32, best & 1 == 1);
    let rare = |(n, &v): (usize, &V)| {
        let parity = if use_parity { heap_parity(n) } else { 0 };
        ((v.into() & mask).count_ones() as usize + parity).is_multiple_of(2)
    };
    let mut count = 0;
    let mut last = None;
    for (n, v) in values.iter().enumerate() {
        if rare((n, v)) {
            count += 1;
            last = Some(n);
        }
    }
    (mask, use_parity, count, last)
}

/// Every split takes `p` mod 2: the heap's parity may join the classes.
fn split_parity(moves: &Moves) -> Option<usize> {
    let first = moves.split.first()? % 2;
    moves.split.iter().all(|m| m % 2 == first).then_some(first)
}

/// Mark the value of every split of a heap of `base` with a rare part `r` (the
/// other part is `base - r`) in `row`, the rare heaps increasing and all nonzero.
fn mark_rare_splits<V: Value>(
    values: &[V],
    rare: &[usize],
    base: usize,
    distinct: bool,
    row: &mut [u8],
) {
    let below = &rare[..rare.partition_point(|&r| r < base)];
    for &r in below {
        let other = base - r;
        if !(distinct && r == other) {
            row[values[r].index() ^ values[other].index()] = 1;
        }
    }
}

/// Find the values still wanted among the splits of a heap of `m` into `a + b`,
/// `a <= b`, smallest `a` first, until none of the `left` is left; clears each one
/// found in `want` and returns how many are left. Sixteen splits at a time where the
/// CPU can.
fn find_splits<V: Value>(
    values: &[V],
    m: usize,
    distinct: bool,
    wanted: &[usize],
    want: &mut [u32],
    left: usize,
) -> usize {
    // The largest `a`: `a == b` is no split when the parts must differ.
    let half = if distinct {
        m.saturating_sub(1) / 2
    } else {
        m / 2
    };
    if simd::available() && wanted.last().is_some_and(|&v| v < simd::MAX_WANTED) {
        simd::find_splits(values, m, half, wanted, want, left)
    } else {
        find_splits_scalar(values, m, 1, half, want, left)
    }
}

/// `find_splits` from `a = from`, one split at a time. The length of `want` is a
/// power of two above every value: the mask only spares the bounds check.
fn find_splits_scalar<V: Value>(
    values: &[V],
    m: usize,
    from: usize,
    half: usize,
    want: &mut [u32],
    mut left: usize,
) -> usize {
    if from > half {
        return left;
    }
    let mask = want.len() - 1;
    let small = &values[from..=half];
    let large = &values[m - half..=m - from];
    for (&ga, &gb) in small.iter().zip(large.iter().rev()) {
        if left == 0 {
            break;
        }
        let wanted = &mut want[(ga.index() ^ gb.index()) & mask];
        left -= *wanted as usize;
        *wanted = 0;
    }
    left
}
