//! P-positions of a box: listed in lexicographic order in time proportional to their
//! number, and counted exactly without listing them.
//!
//! Both rest on one fact: the Grundy values of a heap `n <= b` with take limit `k`
//! fill the interval `0..=min(b, k)`, and the XOR of two such intervals `0..=a` and
//! `0..=c` is again an interval, `0..=max_xor(a, c)`.
use std::collections::HashMap;

use num_bigint::BigUint;

use crate::base::alloc;
use crate::base::error::{Error, Result};
use crate::base::interrupt::Poll;
use crate::heap::rules::Rules;
use crate::solve::theory;

/// One heap of the box: its bound and `k + 1` where a take limit binds.
#[derive(Clone, Copy)]
struct Heap {
    bound: u64,
    modulus: Option<u64>,
}

impl Heap {
    /// The largest Grundy value of a heap in `0..=bound`.
    fn top(self) -> u64 {
        self.modulus.map_or(self.bound, |m| self.bound.min(m - 1))
    }

    /// How many heaps in `0..=bound` have Grundy value `g`, as `sum c * [g <= l]` over
    /// the returned `(c, l)` terms.
    fn count_terms(self) -> Vec<(u64, u64)> {
        match self.modulus {
            Some(m) if self.bound >= m => vec![(self.bound / m, m - 1), (1, self.bound % m)],
            _ => vec![(1, self.bound)],
        }
    }
}

/// The most partial sums `count_p_positions` tracks (seconds of work with big
/// integers at most; the count is exponential in the heaps when take limits meet
/// bounds that differ).
pub const MAX_COUNT_STATES: usize = 1 << 17;

/// The most heaps a table walks: its recursion goes one level per heap.
pub const MAX_TABLE_HEAPS: usize = 1024;

fn heaps(bounds: &[u64], rules: &Rules) -> Result<Vec<Heap>> {
    rules.check_heaps(bounds.len())?;
    if bounds.len() > MAX_TABLE_HEAPS {
        return Err(Error::TooManyHeaps {
            heaps: bounds.len(),
            limit: MAX_TABLE_HEAPS,
        });
    }
    bounds
        .iter()
        .enumerate()
        .map(|(i, &bound)| {
            let rule = rules.take_for(i);
            match rule.interval() {
                Some(k) => Ok(Heap {
                    bound,
                    modulus: k.checked_add(1),
                }),
                None if rule.as_code().is_some() => {
                    Err(Error::NotForCodes("enumerating and counting P-positions"))
                }
                None => Err(Error::NotForSets("enumerating and counting P-positions")),
            }
        })
        .collect()
}

/// The largest `x ^ y` with `x <= a` and `y <= c`. Every smaller value is reached too.
pub fn max_xor(a: u64, c: u64) -> u64 {
    let (a, c) = (a.max(c), a.min(c));
    if c == 0 {
        return a;
    }
    let top = 63 - a.leading_zeros();
    if c >> top & 1 == 1 {
        // Both reach bit `top`: x = 2^top, y = 2^top - 1 fills every lower bit too.
        u64::MAX >> (63 - top)
    } else {
        (1 << top) | max_xor(a - (1 << top), c)
    }
}

/// The Grundy values `g <= top` with `g ^ x <= reach`, as sorted disjoint intervals.
fn targets(x: u64, reach: u64, top: u64) -> Vec<(u64, u64)> {
    let mut blocks = Vec::new();
    match reach.checked_add(1) {
        None => blocks.push((0, u64::MAX)),
        Some(end) => {
            // 0..end is a union of aligned blocks, one per set bit of `end`; XOR with
            // `x` maps each aligned block onto another.
            for bit in (0..64).rev().filter(|b| end >> b & 1 == 1) {
                let size_mask = (1u64 << bit) - 1;
                let start = (end & !((size_mask << 1) | 1)) ^ (x & !size_mask);
                blocks.push((start, start | size_mask));
            }
        }
    }
    let mut kept: Vec<(u64, u64)> = blocks
        .into_iter()
        .filter(|&(lo, _)| lo <= top)
        .map(|(lo, hi)| (lo, hi.min(top)))
        .collect();
    kept.sort_unstable();
    kept
}

/// Merge sorted intervals that touch or overlap.
fn merge(mut intervals: Vec<(u64, u64)>) -> Vec<(u64, u64)> {
    intervals.sort_unstable();
    let mut merged: Vec<(u64, u64)> = Vec::with_capacity(intervals.len());
    for (lo, hi) in intervals {
        match merged.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => merged.push((lo, hi)),
        }
    }
    merged
}

/// Every P-position with heap `i` in `0..=bounds[i]`, in lexicographic order, as rows
/// of a flat vector (`bounds.len()` values per position).
pub fn p_positions(bounds: &[u64], rules: &Rules) -> Result<Vec<u64>> {
    let heaps = heaps(bounds, rules)?;
    // The whole table is reserved before the walk, fallibly: grown as it goes, a
    // table larger than memory would be touched page by page until the system
    // kills the process.
    let cells = u64::try_from(count_p_positions(bounds, rules)?)
        .ok()
        .and_then(|rows| rows.checked_mul(heaps.len() as u64))
        .and_then(|cells| usize::try_from(cells).ok())
        .ok_or(Error::OutOfMemory { bytes: u128::MAX })?;
    let out = alloc::with_capacity(cells)?;
    // reach[i]: the largest XOR the Grundy values of heaps i.. can make.
    let mut reach = vec![0u64; heaps.len() + 1];
    for i in (0..heaps.len()).rev() {
        reach[i] = max_xor(reach[i + 1], heaps[i].top());
    }
    let mut walk = Walk {
        heaps: &heaps,
        reach: &reach,
        misere: rules.is_misere(),
        prefix: Vec::with_capacity(heaps.len()),
        out,
        poll: Poll::default(),
    };
    walk.descend(0, 0, false)?;
    debug_assert_eq!(walk.out.len(), cells, "the walk lists what was counted");
    Ok(walk.out)
}

struct Walk<'a> {
    heaps: &'a [Heap],
    reach: &'a [u64],
    misere: bool,
    prefix: Vec<u64>,
    out: Vec<u64>,
    poll: Poll,
}

impl Walk<'_> {
    /// Extend the prefix (Grundy XOR `x`, `big`: some Grundy value over 1) by every
    /// value of heap `i` from which a P-position can still be completed. The depth
    /// is the heap count, at most `MAX_TABLE_HEAPS`.
    fn descend(&mut self, i: usize, x: u64, big: bool) -> Result<()> {
        self.poll.tick()?;
        let Some(&heap) = self.heaps.get(i) else {
            if theory::is_p(x, big, self.misere) {
                self.out.extend_from_slice(&self.prefix);
            }
            return Ok(());
        };
        // Normal play, and misère once a Grundy value exceeds 1: the XOR must reach 0.
        let mut wanted = targets(x, self.reach[i + 1], heap.top());
        if self.misere && !big {
            // Misère with every Grundy value 0 or 1 so far: the all-small endings.
            wanted.push((0, heap.top().min(1)));
        }
        let wanted = merge(wanted);
        // With a limit the Grundy values repeat every k + 1 heaps; without, once.
        let mut base = 0u64;
        loop {
            for &(lo, hi) in &wanted {
                for g in lo..=hi {
                    let Some(n) = base.checked_add(g).filter(|&n| n <= heap.bound) else {
                        break;
                    };
                    self.prefix.push(n);
                    self.descend(i + 1, x ^ g, big || g > 1)?;
                    self.prefix.pop();
                }
            }
            match heap.modulus.and_then(|m| base.checked_add(m)) {
                Some(next) if next <= heap.bound => base = next,
                _ => break,
            }
        }
        Ok(())
    }
}

/// The exact number of P-positions with heap `i` in `0..=bounds[i]`.
pub fn count_p_positions(bounds: &[u64], rules: &Rules) -> Result<BigUint> {
    let heaps = heaps(bounds, rules)?;
    let terms: Vec<Vec<(u64, u64)>> = heaps.iter().map(|h| h.count_terms()).collect();
    let xor_zero = count_xor(&terms, 0)?;
    if !rules.is_misere() {
        return Ok(xor_zero);
    }
    // Misère: the all-small positions flip: those with XOR 1 win for the previous
    // player, those with XOR 0 do not.
    let [even, odd] = count_small(&terms);
    Ok(xor_zero - even + odd)
}

/// Weighted count of Grundy tuples with XOR `t`, where heap `i` weighs
/// `sum c * [g <= l]` over its terms. Classified by the highest bit `p` at which some
/// heap first drops below its `l`: above `p` every heap equals its `l`; a dropped heap
/// is free below `p` and absorbs the XOR there, so the rest count freely.
fn count_xor(terms: &[Vec<(u64, u64)>], t: u64) -> Result<BigUint> {
    let mut poll = Poll::default();
    let bounded = |states: usize| {
        (states <= MAX_COUNT_STATES)
            .then_some(())
            .ok_or(Error::CountTooHard {
                limit: MAX_COUNT_STATES,
            })
    };
    // No heap ever drops: every heap equals its `l`.
    let mut exact: HashMap<u64, BigUint> = HashMap::from([(0, BigUint::from(1u8))]);
    for heap in terms {
        let mut next = HashMap::new();
        for (x, w) in &exact {
            poll.tick()?;
            for &(c, l) in heap {
                *next.entry(x ^ l).or_insert_with(BigUint::default) += w * c;
            }
        }
        bounded(next.len())?;
        exact = next;
    }
    let mut total = exact.remove(&t).unwrap_or_default();

    for p in 0..64u32 {
        let high = |l: u64| l.checked_shr(p + 1).unwrap_or(0);
        let low_choices = |l: u64| (l & ((1u64 << p) - 1)) + 1;
        // State: XOR of the high parts, parity at bit p, whether some heap dropped.
        let mut states: HashMap<(u64, u64, bool), BigUint> =
            HashMap::from([((0, 0, false), BigUint::from(1u8))]);
        for heap in terms {
            let mut next: HashMap<(u64, u64, bool), BigUint> = HashMap::new();
            for (&(hx, parity, dropped), w) in &states {
                poll.tick()?;
                for &(c, l) in heap {
                    let bit = l >> p & 1;
                    let stay = w * c * low_choices(l);
                    *next
                        .entry((hx ^ high(l), parity ^ bit, dropped))
                        .or_default() += stay;
                    if bit == 1 {
                        let drop = (w * c) << p;
                        *next.entry((hx ^ high(l), parity, true)).or_default() += drop;
                    }
                }
            }
            bounded(next.len())?;
            states = next;
        }
        if let Some(w) = states.remove(&(high(t), t >> p & 1, true)) {
            total += w >> p;
        }
    }
    Ok(total)
}

/// Weighted counts of the tuples whose Grundy values are all 0 or 1: [even XOR, odd XOR].
fn count_small(terms: &[Vec<(u64, u64)>]) -> [BigUint; 2] {
    let weight = |heap: &[(u64, u64)], g: u64| -> BigUint {
        heap.iter()
            .filter(|&&(_, l)| g <= l)
            .map(|&(c, _)| BigUint::from(c))
            .sum()
    };
    let mut by_parity = [BigUint::from(1u8), BigUint::default()];
    for heap in terms {
        let (zero, one) = (weight(heap, 0), weight(heap, 1));
        let [even, odd] = by_parity;
        by_parity = [&even * &zero + &odd * &one, &even * &one + &odd * &zero];
    }
    by_parity
}
