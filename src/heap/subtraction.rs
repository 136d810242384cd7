//! Subtraction games: a move takes `s` objects from one heap, `s` in a finite set S.
//! A heap's Grundy value is the mex of the values `s` below it; the sequence is
//! eventually periodic, and it is found exactly by the classical rule: the value at
//! `n` depends only on the `max S` values before it, so once a window of `max S`
//! consecutive values repeats, everything after repeats too.
use std::collections::HashMap;

use crate::base::alloc;
use crate::base::error::{Error, Result};

/// The largest subtraction set accepted (its Grundy values stay below this too).
pub const MAX_SET_SIZE: usize = 4096;
/// The largest element accepted: the detection window is this long.
pub const MAX_ELEMENT: u64 = 1 << 20;

/// A finite set of positive integers: how many objects one move may take.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SubtractionSet(Vec<u64>);

impl SubtractionSet {
    /// Sorted and deduplicated; empty sets, zeros and oversized sets are refused.
    pub fn new(mut elements: Vec<u64>) -> Result<Self> {
        elements.sort_unstable();
        elements.dedup();
        match (elements.first(), elements.last()) {
            (None, _) => Err(Error::EmptySet),
            (Some(0), _) => Err(Error::ZeroInSet),
            (_, Some(&top)) if top > MAX_ELEMENT => Err(Error::SetElementTooLarge(top)),
            _ if elements.len() > MAX_SET_SIZE => Err(Error::SetTooLarge(elements.len())),
            _ => Ok(SubtractionSet(elements)),
        }
    }

    pub fn elements(&self) -> &[u64] {
        &self.0
    }

    pub fn max(&self) -> u64 {
        *self.0.last().expect("the set is not empty")
    }

    /// True for {1, 2, ..., k}: Nim with take limit k, whose misère play has a closed form.
    pub fn is_interval(&self) -> bool {
        self.0.len() as u64 == self.max()
    }

    /// How many elements are at most `n`: the number of moves from a heap of `n`.
    #[inline]
    pub fn count_up_to(&self, n: u64) -> usize {
        self.0.partition_point(|&s| s <= n)
    }
}

/// The Grundy sequence of a subtraction game, held as its preperiod and one period.
/// Equal sets give equal sequences, so equality and hashing look at the set alone.
#[derive(Debug, Clone)]
pub struct GrundySequence {
    set: SubtractionSet,
    preperiod: usize,
    period: usize,
    /// Values 0..preperiod + period.
    values: Vec<u16>,
}

/// Appends the Grundy value of the next heap size to `values`.
struct Mex<'a> {
    set: &'a [u64],
    seen: Vec<bool>,
}

impl Mex<'_> {
    #[inline]
    fn next(&mut self, values: &[u16]) -> u16 {
        let n = values.len() as u64;
        self.seen.fill(false);
        for &s in self.set.iter().take_while(|&&s| s <= n) {
            let v = values[(n - s) as usize] as usize;
            if v < self.seen.len() {
                self.seen[v] = true;
            }
        }
        self.seen
            .iter()
            .position(|&seen| !seen)
            .unwrap_or(self.seen.len()) as u16
    }
}

impl PartialEq for GrundySequence {
    fn eq(&self, other: &Self) -> bool {
        self.set == other.set
    }
}

impl Eq for GrundySequence {}

impl std::hash::Hash for GrundySequence {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.set.hash(state);
    }
}

impl GrundySequence {
    /// Compute values until a window of `max S` values repeats; refuse to go past
    /// `max_length` values.
    pub fn find(set: SubtractionSet, max_length: usize) -> Result<Self> {
        let window = set.max() as usize;
        let mut mex = Mex {
            set: set.elements(),
            seen: vec![false; set.elements().len() + 1],
        };
        let mut values: Vec<u16> = Vec::new();
        while values.len() < window {
            let v = mex.next(&values);
            values.push(v);
        }
        // Rolling hash of the window ending at each index; equal hashes are checked.
        const BASE: u64 = 0x100_0000_01B3;
        let top = BASE.wrapping_pow(window as u32);
        let mut hash = values.iter().fold(0u64, |h, &v| {
            h.wrapping_mul(BASE).wrapping_add(u64::from(v) + 1)
        });
        let mut seen: HashMap<u64, Vec<usize>> = HashMap::new();
        loop {
            let end = values.len();
            let candidates = seen.entry(hash).or_default();
            if let Some(&earlier) = candidates
                .iter()
                .find(|&&e| values[e - window..e] == values[end - window..end])
            {
                let period = end - earlier;
                let mut preperiod = earlier - window;
                while preperiod > 0 && values[preperiod - 1] == values[preperiod - 1 + period] {
                    preperiod -= 1;
                }
                values.truncate(preperiod + period);
                return Ok(GrundySequence {
                    set,
                    preperiod,
                    period,
                    values,
                });
            }
            candidates.push(end);
            if end >= max_length {
                return Err(Error::NoPeriod { searched: end });
            }
            let v = mex.next(&values);
            hash = hash
                .wrapping_mul(BASE)
                .wrapping_sub(top.wrapping_mul(u64::from(values[end - window]) + 1))
                .wrapping_add(u64::from(v) + 1);
            values.push(v);
        }
    }

    pub fn set(&self) -> &SubtractionSet {
        &self.set
    }

    /// (preperiod, period): `g(n + period) == g(n)` for every `n >= preperiod`.
    pub fn period(&self) -> (usize, usize) {
        (self.preperiod, self.period)
    }

    /// The Grundy value of a heap of `n`, in O(1).
    #[inline]
    pub fn grundy(&self, n: u64) -> u16 {
        let index = match usize::try_from(n) {
            Ok(n) if n < self.preperiod => n,
            _ => {
                let offset = (n - self.preperiod as u64) % self.period as u64;
                self.preperiod + offset as usize
            }
        };
        self.values[index]
    }

    /// The first `count` values, by tiling the period.
    pub fn first(&self, count: usize) -> Result<Vec<u16>> {
        let mut out = alloc::with_capacity(count)?;
        out.extend_from_slice(&self.values[..count.min(self.values.len())]);
        let cycle = &self.values[self.preperiod..];
        while out.len() < count {
            let take = cycle.len().min(count - out.len());
            out.extend_from_slice(&cycle[..take]);
        }
        Ok(out)
    }

    /// XOR of the Grundy values of the heaps.
    pub fn nim_sum(&self, heaps: &[u64]) -> u64 {
        heaps.iter().fold(0, |s, &n| s ^ u64::from(self.grundy(n)))
    }
}

/// The Grundy values of heaps 0..count by the definition alone, with no period: the
/// reference the periodic form is checked against.
pub fn grundy_by_definition(set: &SubtractionSet, count: usize) -> Vec<u16> {
    let mut mex = Mex {
        set: set.elements(),
        seen: vec![false; set.elements().len() + 1],
    };
    let mut values = Vec::with_capacity(count);
    while values.len() < count {
        let v = mex.next(&values);
        values.push(v);
    }
    values
}
