//! The options of a heap under a code: counted, listed in order, by index, by
//! classes of equal values, and checked; and how far a search over them goes.
use super::{TakeAndBreak, MAX_SCANNED_OPTIONS, NONE, ONE, THREE, TWO};
use crate::heap::code::Scan;
use crate::heap::{HeapMove, Parts};

impl TakeAndBreak {
    /// How many options taking `t` from a heap of `n` gives (saturating).
    fn count_take(&self, n: u64, t: usize) -> u128 {
        let d = self.digits[t];
        let Some(m) = n.checked_sub(t as u64) else {
            return 0;
        };
        let m = u128::from(m);
        let mut count = u128::from((d & NONE != 0 && m == 0) || (d & ONE != 0 && m >= 1));
        if d & TWO != 0 && m >= 2 {
            count += if self.distinct { (m - 1) / 2 } else { m / 2 };
        }
        if d & THREE != 0 && m >= 3 {
            // Partitions of m into three positive parts: round(m^2 / 12); into three
            // different parts: the same for m - 3.
            let m = if self.distinct { m - 3 } else { m };
            count += (m * m + 6) / 12;
        }
        count
    }

    /// How many options a heap of `n` has (saturating at `u64::MAX`).
    pub fn count(&self, n: u64) -> u64 {
        let total: u128 = (0..self.digits.len()).map(|t| self.count_take(n, t)).sum();
        u64::try_from(total).unwrap_or(u64::MAX)
    }

    /// Option number `i` (from 0) of a heap of `n`: by take, then one heap (or none)
    /// before two before three, then parts in lexicographic order, smallest first.
    pub fn nth(&self, n: u64, mut i: u64) -> HeapMove {
        for t in 0..self.digits.len() {
            let here = self.count_take(n, t);
            if u128::from(i) >= here {
                i -= u64::try_from(here).unwrap_or(u64::MAX);
                continue;
            }
            let (d, m, take) = (self.digits[t], n - t as u64, t as u64);
            let single = (d & NONE != 0 && m == 0) || (d & ONE != 0 && m >= 1);
            if single {
                if i == 0 {
                    return HeapMove::take(take);
                }
                i -= 1;
            }
            let pairs = if d & TWO != 0 && m >= 2 {
                if self.distinct {
                    (m - 1) / 2
                } else {
                    m / 2
                }
            } else {
                0
            };
            if i < pairs {
                return HeapMove::split(take, Parts::two(i + 1, m - i - 1));
            }
            i -= pairs;
            let (a, b, c) = self
                .triples(m, u64::MAX)
                .nth(usize::try_from(i).unwrap_or(usize::MAX))
                .expect("the index is below the count");
            return HeapMove::split(take, Parts::three(a, b, c));
        }
        unreachable!("the index is below the count")
    }

    /// Every `(a, b, c)` with `a <= b <= c` (or `<` with `!`) summing to `m`, and
    /// `a` and `b` at most `small`.
    fn triples(&self, m: u64, small: u64) -> impl Iterator<Item = (u64, u64, u64)> + '_ {
        let step = u64::from(self.distinct);
        (1..=(m / 3).min(small)).flat_map(move |a| {
            let b0 = a + step;
            (b0..=(m.saturating_sub(a) / 2).min(small)).filter_map(move |b| {
                let c = m - a - b;
                (c >= b + step).then_some((a, b, c))
            })
        })
    }

    /// Every option of a heap of `n`, in the order of `nth` (made in turn, not by
    /// `nth`: searches spend their time here).
    pub fn options(&self, n: u64) -> impl Iterator<Item = HeapMove> + '_ {
        self.options_below(n, u64::MAX)
    }

    /// The options a search for moves looks through (`Scan`), where a map of heap
    /// sizes repeats with some period `p` from `reach - p` on (`reach`: see the
    /// function `reach`). A part of at least `reach` moved down by `p`, and the
    /// largest part moved up by `p`, keep their values and make an option earlier in
    /// `options` order; so the options whose parts other than the largest are below
    /// `reach` hold one of every class, and the first option of a class is among them.
    pub fn scanned_options(
        &self,
        n: u64,
        reach: Option<u64>,
        scan: Scan,
    ) -> impl Iterator<Item = HeapMove> + '_ {
        let reach = match scan {
            Scan::Every => reach.filter(|_| self.count(n) > MAX_SCANNED_OPTIONS),
            Scan::First => reach,
        };
        self.options_by_class(n, reach)
    }

    /// The options of a heap of `n` that `scanned_options` keeps past the scan limit,
    /// whatever their number: all of them without `reach`, or for codes without
    /// classes.
    pub fn options_by_class(
        &self,
        n: u64,
        reach: Option<u64>,
    ) -> impl Iterator<Item = HeapMove> + '_ {
        let bound = reach.filter(|_| self.has_classes()).unwrap_or(u64::MAX);
        self.options_below(n, bound)
    }

    /// Whether options fall into classes as `scanned_options` says: not for codes
    /// that leave three different heaps (moving a middle part down may meet the
    /// smallest).
    pub(super) fn has_classes(&self) -> bool {
        !(self.distinct && self.leaves_three())
    }

    /// The options of a heap of `n` whose parts other than the largest are below
    /// `bound`, in `options` order.
    fn options_below(&self, n: u64, bound: u64) -> impl Iterator<Item = HeapMove> + '_ {
        let small = bound.saturating_sub(1);
        let takes = (0..self.digits.len()).take_while(move |&t| t as u64 <= n);
        takes.flat_map(move |t| {
            let (d, m, take) = (self.digits[t], n - t as u64, t as u64);
            let single = (d & NONE != 0 && m == 0) || (d & ONE != 0 && m >= 1);
            let pairs = match (d & TWO != 0 && m >= 2, self.distinct) {
                (false, _) => 0,
                (true, true) => (m - 1) / 2,
                (true, false) => m / 2,
            }
            .min(small);
            let triples = (d & THREE != 0 && m >= 3).then(|| self.triples(m, small));
            let single = single.then(|| HeapMove::take(take));
            let pairs =
                (0..pairs).map(move |i| HeapMove::split(take, Parts::two(i + 1, m - i - 1)));
            let triples = triples
                .into_iter()
                .flatten()
                .map(move |(a, b, c)| HeapMove::split(take, Parts::three(a, b, c)));
            single.into_iter().chain(pairs).chain(triples)
        })
    }

    /// Lower bounds on the positions a search from a heap of `n` labels and the moves
    /// it weighs (saturating), from positions that splits reach. With `t` the
    /// smallest take that may leave two heaps, splitting off one part after another
    /// turns a heap of `n` into any multiset of parts `p_i` (each with a move, so that
    /// each is a part of the position) with `sum(p_i + t) = n + t`: a partition of
    /// `n + t` into parts `p + t`. With `!` the parts are kept pairwise different,
    /// which splitting off the smallest part each time keeps legal. A take `s` that
    /// may leave one heap first makes the heap `n - s`, `n - 2s`, ...: partitions of
    /// those totals too. A position weighs the options of each of its different
    /// parts. Codes that never split into two get the start alone.
    pub fn search_floor(&self, n: u64) -> (u64, u64) {
        let single = (1, self.count(n));
        let Some(t) = self.digits.iter().position(|&d| d & TWO != 0) else {
            return single;
        };
        let splits = t as u64 + 2 + u64::from(self.distinct);
        if n < splits {
            return single;
        }
        // Past this total the counts pass any limit anyway; a partition of a smaller
        // total plus one part larger than all of its parts is one of `n + t`.
        const MOST: u64 = 1500;
        let total = n.saturating_add(t as u64);
        let (total, steps) = if total <= MOST {
            let step = self.digits[1..].iter().position(|&d| d & ONE != 0);
            (total as usize, step.map(|s| s + 1))
        } else {
            (MOST.min((total - 1) / 2) as usize, None)
        };
        // `ways[m]`: partitions of m into parts `p + t` with p a heap with a move
        // (different parts with `!`); `weighed[m]`: their parts' options, summed.
        let mut ways = vec![0u64; total + 1];
        ways[0] = 1;
        let parts: Vec<(usize, u64)> = (t + 1..=total)
            .filter(|&q| self.has_move((q - t) as u64))
            .map(|q| (q, self.count((q - t) as u64)))
            .collect();
        for &(q, _) in &parts {
            if self.distinct {
                for m in (q..=total).rev() {
                    ways[m] = ways[m].saturating_add(ways[m - q]);
                }
            } else {
                for m in q..=total {
                    ways[m] = ways[m].saturating_add(ways[m - q]);
                }
            }
        }
        let weighed = |m: usize| {
            if self.distinct {
                // Each position weighs at least the options of its smallest part.
                let least = parts.iter().map(|&(_, o)| o).min().unwrap_or(0);
                ways[m].saturating_mul(least)
            } else {
                // The partitions holding a part q are those of m - q with q added.
                parts
                    .iter()
                    .take_while(|&&(q, _)| q <= m)
                    .fold(0u64, |sum, &(q, o)| {
                        sum.saturating_add(o.saturating_mul(ways[m - q]))
                    })
            }
        };
        // The totals the start reaches before splitting, each splitting as above.
        let lowest = (splits + t as u64) as usize;
        let totals: Vec<usize> = match steps {
            Some(s) => (lowest..=total).rev().step_by(s).collect(),
            None => vec![total],
        };
        let positions = totals
            .iter()
            .fold(0u64, |sum, &m| sum.saturating_add(ways[m]));
        let moves = totals
            .iter()
            .fold(0u64, |sum, &m| sum.saturating_add(weighed(m)));
        (positions.max(1), moves.max(single.1))
    }

    /// Whether a heap of `n` has any option (as `count(n) > 0`, sooner).
    pub fn has_move(&self, n: u64) -> bool {
        (0..self.digits.len()).any(|t| self.count_take(n, t) > 0)
    }

    /// Whether a heap of `n` may lose `take` and leave `into` (`Parts::NONE`: one heap
    /// of `n - take`, or none). Parts may come in any order.
    pub fn allows(&self, n: u64, take: u64, into: &Parts) -> bool {
        let Some(&d) = usize::try_from(take).ok().and_then(|t| self.digits.get(t)) else {
            return false;
        };
        let Some(m) = n.checked_sub(take) else {
            return false;
        };
        let parts = into.sizes();
        let sum = parts.iter().try_fold(0u64, |s, &p| s.checked_add(p));
        match parts.len() {
            0 if m == 0 => d & NONE != 0,
            0 => d & ONE != 0,
            len => {
                let bit = if len == 2 { TWO } else { THREE };
                let mut sorted = parts.to_vec();
                sorted.sort_unstable();
                d & bit != 0
                    && sum == Some(m)
                    && sorted[0] >= 1
                    && (!self.distinct || sorted.windows(2).all(|w| w[0] != w[1]))
            }
        }
    }
}
