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
    /// Every value so far is below `1 << bits`.
    bits: u32,
    /// `odd[v]`: whether `v & mask` has odd parity, for `v` in `0..=1 << bits`.
    odd: Vec<bool>,
    /// `seen[v]`: the last heap (plus one) that has an option of value `v`.
    seen: Vec<u64>,
}

impl SparseSpace {
    pub fn new(moves: Moves) -> Self {
        let parity = |m: &usize| m % 2;
        let split_parity = match moves.split.first() {
            Some(first) if moves.split.iter().all(|m| parity(m) == parity(first)) => {
                Some(parity(first))
            }
            _ => None,
        };
        let mut space = SparseSpace {
            moves,
            split_parity,
            mask: 0,
            use_parity: false,
            rare: Vec::new(),
            rare_at_choice: 0,
            counts: vec![0; 4],
            bits: 1,
            odd: Vec::new(),
            seen: Vec::new(),
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

    /// The Grundy value of heap `values.len()`, given the values of the heaps below.
    pub fn next(&mut self, values: &[u32]) -> u32 {
        let n = values.len();
        // `seen[v] == stamp`: value `v` is an option of heap `n` (plain stores, no
        // clearing between heaps).
        let stamp = n as u64 + 1;
        // Values of heap n's common class have odd parity under the mask, unless the
        // heap's parity flips the classes.
        let flip = self.parity(n) == 1;
        let seen = &mut self.seen;
        for &t in &self.moves.whole {
            if t == n {
                seen[0] = stamp;
            }
        }
        for &t in &self.moves.reduce {
            if t < n {
                seen[values[n - t] as usize] = stamp;
            }
        }
        // Every split with a rare part: all the common values among the options.
        for &t in &self.moves.split {
            if let Some(base) = n.checked_sub(t) {
                mark_rare_splits(values, &self.rare, base, self.moves.distinct, seen, stamp);
            }
        }
        let odd = &self.odd;
        let common = |v: usize| odd[v] != flip;
        let candidate = (0..seen.len())
            .find(|&v| common(v) && seen[v] != stamp)
            .unwrap_or(seen.len());
        let mut missing = (0..candidate).filter(|&v| seen[v] != stamp).count();
        // Splits of two common heaps give rare values: find those below the candidate.
        for &t in &self.moves.split {
            if missing == 0 {
                break;
            }
            if let Some(m) = n.checked_sub(t) {
                let mut found = |v: usize| {
                    if v < candidate && seen[v] != stamp {
                        seen[v] = stamp;
                        missing -= 1;
                    }
                    missing == 0
                };
                scan_splits(values, m, self.moves.distinct, &mut found);
            }
        }
        let value = match missing {
            0 => candidate,
            _ => (0..candidate)
                .find(|&v| seen[v] != stamp)
                .expect("a rare value below the candidate is missing"),
        } as u32;
        self.record(values, value);
        value
    }

    /// Count the new value; re-choose the mask when the rare heaps have grown.
    fn record(&mut self, values: &[u32], value: u32) {
        let n = values.len();
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

    /// The mask (and use of parity) with the fewest rare heaps, by a Walsh–Hadamard
    /// transform of the counts: the heaps whose `(v << 1 | parity) & i` has even
    /// parity number `(total + H[i]) / 2`.
    fn choose_mask(&mut self, values: &[u32], last: u32) {
        let mut h: Vec<i64> = self.counts.iter().map(|&c| c as i64).collect();
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
        let best = (0..h.len())
            .filter(|i| i & 1 == 0 || self.split_parity.is_some())
            .min_by_key(|&i| ((total + h[i]) / 2, i))
            .unwrap_or(0);
        let (mask, use_parity) = ((best >> 1) as u32, best & 1 == 1);
        if (mask, use_parity) != (self.mask, self.use_parity) {
            (self.mask, self.use_parity) = (mask, use_parity);
            self.rare.clear();
            // Heap 0 is never part of a split: it is left out.
            let all = values.iter().copied().chain(std::iter::once(last));
            for (heap, v) in all.enumerate().skip(1) {
                if self.is_rare(v, heap) {
                    self.rare.push(heap);
                }
            }
        }
        self.rare_at_choice = self.rare.len();
        self.fill_classes();
    }

    /// The parity of `0..=1 << bits` under the mask; room for every option value.
    fn fill_classes(&mut self) {
        let len = (1usize << self.bits) + 1;
        self.odd = (0..len as u32)
            .map(|v| (v & self.mask).count_ones() % 2 == 1)
            .collect();
        self.seen.resize(len, 0);
    }
}

/// Mark the value of every split of a heap of `base` with a rare part `r` (the
/// other part is `base - r`), the rare heaps increasing and all nonzero.
fn mark_rare_splits(
    values: &[u32],
    rare: &[usize],
    base: usize,
    distinct: bool,
    seen: &mut [u64],
    stamp: u64,
) {
    for &r in rare {
        if r >= base {
            break;
        }
        let other = base - r;
        if !(distinct && r == other) {
            seen[(values[r] ^ values[other]) as usize] = stamp;
        }
    }
}

/// Hand `found` the value of every split of a heap of `m` into `a + b`, `a <= b`,
/// smallest `a` first, until it returns true.
fn scan_splits(values: &[u32], m: usize, distinct: bool, found: &mut impl FnMut(usize) -> bool) {
    let half = m / 2;
    let small = &values[1..=half];
    let large = values[m - half..m].iter().rev();
    for (a, (&ga, &gb)) in (1..).zip(small.iter().zip(large)) {
        if distinct && 2 * a == m {
            continue;
        }
        if found((ga ^ gb) as usize) {
            return;
        }
    }
}
