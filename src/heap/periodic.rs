//! Eventually periodic sequences of heap values and their proofs: how a periodic
//! sequence answers for a heap of any size, where the options of a heap fall into
//! classes once a map of heap sizes repeats, and the search that finds a period and
//! its least preperiod. The theorem that proves a period for a code is the code's
//! (`TakeAndBreak::theorem_bound`); the misère quotient's heap-to-element map is
//! checked by the same search.

use super::store::Store;

/// Where the options of a heap fall into classes (`TakeAndBreak::scanned_options`),
/// for a map of heap sizes periodic from `preperiod` on: a part moved down by the
/// period must stay in the periodic range and nonempty, so from `max(preperiod, 1)`.
pub fn reach(preperiod: usize, period: usize) -> u64 {
    (preperiod.max(1) + period) as u64
}

/// A proven eventually periodic sequence.
#[derive(Debug)]
pub struct Periodic {
    pub preperiod: usize,
    pub period: usize,
    /// Values `0..preperiod + period`, in the narrowest width (`Store`).
    pub values: Store,
}

impl Periodic {
    pub fn value(&self, n: u64) -> u32 {
        let index = match usize::try_from(n) {
            Ok(n) if n < self.preperiod + self.period => n,
            _ => self.preperiod + ((n - self.preperiod as u64) % self.period as u64) as usize,
        };
        self.values.get(index).expect("within the first period")
    }
}

/// The smallest period `p` (and its least preperiod) that the values prove by the
/// periodicity theorem: `G(n + p) = G(n)` for every `n` from `pre` up to (not
/// including) `bound * pre + (bound - 1) * p + t`, which needs `bound * (pre + p) + t`
/// values. `bound` is 2 for codes leaving at most two heaps, 3 for three. The proof
/// moves the largest part of a split by `p` and needs it to stay nonempty, so it runs
/// from `max(pre, 1)`; `G(p) = G(0)` for a preperiod of 0 is read off the values.
pub fn proven_period(values: &[u32], t: usize, bound: usize) -> Option<(usize, usize)> {
    match period_search(values, t, bound) {
        PeriodSearch::Proven(pre, p) => Some((pre, p)),
        _ => None,
    }
}

/// What the values say about a period.
#[derive(Debug, PartialEq, Eq)]
pub enum PeriodSearch {
    /// `(preperiod, period)`, proven.
    Proven(usize, usize),
    /// A period repeats over a long stretch at the end but is not proven yet: this
    /// many values would prove it if it holds.
    Needs(usize),
    Nothing,
}

/// Try every period from 1 up: walk back from the end while `G(n) = G(n + p)` to
/// find its least preperiod. A wrong period fails within a step or two for most
/// sequences, so this is about linear in the count of values. It stops at the first
/// period that repeats over a long stretch without proof yet (its multiples repeat
/// too, and each would cost a walk over the stretch): a later search, with the
/// values that period needs, looks at every period again.
pub fn period_search<V: PartialEq>(values: &[V], t: usize, bound: usize) -> PeriodSearch {
    let len = values.len();
    for p in 1..len {
        if bound * (1 + p) + t > len {
            break;
        }
        let mut pre = len - p;
        while pre > 0 && values[pre - 1] == values[pre - 1 + p] {
            pre -= 1;
        }
        let wanted = bound * (pre.max(1) + p) + t;
        if wanted <= len {
            return PeriodSearch::Proven(pre, p);
        }
        // Repeated over at least half a period and 64 values: worth aiming for.
        if len - p - pre >= (p / 2).max(64) {
            return PeriodSearch::Needs(wanted);
        }
    }
    PeriodSearch::Nothing
}
