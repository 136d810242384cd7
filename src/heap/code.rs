//! Take-and-break games given by a code (Winning Ways; CGSuite's `TakeAndBreak`).
//!
//! The code `d0.d1d2d3...` says, for each take `t`, what may be left of the heap:
//! bit 1 of `d_t` allows leaving nothing (taking the whole heap), bit 2 one nonempty
//! heap, bit 4 two nonempty heaps, bit 8 three (hexadecimal codes). `d0` is taking
//! nothing and splitting, so it may only have bits 4 and 8. A `!` asks the heaps left
//! to be pairwise different (Grundy's game is `4!.0`).
//!
//! Grundy values come from the definition (the mex over every option, an option's
//! value the XOR of the parts' values), on demand, cached in the rule. The sequence is
//! checked for a period as it grows; once proven, a heap of any size is O(1).
//!
//! What is proven (see `proven_period`): for codes without `!` whose moves leave at
//! most two heaps, the octal periodicity theorem (Guy and Smith): if
//! `G(n + p) = G(n)` for every `pre <= n < 2 pre + p + t` (`t` the largest take),
//! then for every `n >= pre`. The same argument with the largest of three parts
//! gives the bound `3 pre + 2 p + t` for codes that leave three heaps. With `!` the
//! argument fails (moving a part by `p` can make two parts equal), so no period is
//! claimed: values stop at `MAX_NAIVE_HEAP`.
use std::fmt;
use std::sync::{OnceLock, PoisonError, RwLock};

use crate::alloc;
use crate::error::{Error, Result};
use crate::interrupt::Poll;
use crate::position::{HeapMove, Parts};

/// The most digits after the point (the largest take is one less).
pub const MAX_DIGITS: usize = 256;
/// Without a proven period, Grundy values are computed by the definition up to this
/// heap (O(n) work per value for two parts).
pub const MAX_NAIVE_HEAP: u64 = 1 << 16;
/// The same for codes that leave three heaps (O(n^2) work per value).
pub const MAX_NAIVE_HEAP_THREE: u64 = 1 << 11;
/// The most options of one heap that a search for winning moves looks through.
pub const MAX_SCANNED_OPTIONS: u64 = 1 << 24;

const NONE: u8 = 1;
const ONE: u8 = 2;
const TWO: u8 = 4;
const THREE: u8 = 8;

/// A take-and-break rule and its Grundy sequence, computed on demand.
pub struct TakeAndBreak {
    /// `digits[t]`: what taking `t` may leave.
    digits: Vec<u8>,
    /// The heaps left must be pairwise different.
    distinct: bool,
    /// Grundy values of heaps `0..len`, by the definition.
    values: RwLock<Vec<u32>>,
    /// Set once a period is proven.
    periodic: OnceLock<Periodic>,
}

/// A proven eventually periodic sequence.
#[derive(Debug)]
struct Periodic {
    preperiod: usize,
    period: usize,
    /// Values `0..preperiod + period`.
    values: Vec<u32>,
}

impl Periodic {
    fn value(&self, n: u64) -> u32 {
        let index = match usize::try_from(n) {
            Ok(n) if n < self.preperiod + self.period => n,
            _ => self.preperiod + ((n - self.preperiod as u64) % self.period as u64) as usize,
        };
        self.values[index]
    }
}

impl TakeAndBreak {
    /// Parse a code such as `0.77`, `0.07`, `4!.0`, `0.8` or `0.f3`.
    pub fn parse(code: &str) -> Result<Self> {
        let bad = |reason: String| Error::BadCode {
            code: code.to_string(),
            reason,
        };
        let text = code.trim();
        if text.is_empty() {
            return Err(bad("the code is empty; write it like 0.77 (Kayles)".into()));
        }
        let distinct = text.contains('!');
        if text.matches('!').count() > 1 {
            return Err(bad("`!` may appear once".into()));
        }
        let text = text.replace('!', "");
        let Some((before, after)) = text.split_once('.') else {
            return Err(bad(
                "a code has a point: the digit before it is for taking nothing, the \
                 digits after it for taking 1, 2, ... (e.g. 0.77)"
                    .into(),
            ));
        };
        let digit = |c: char| {
            c.to_digit(16)
                .map(|d| d as u8)
                .ok_or_else(|| bad(format!("{c:?} is not a hexadecimal digit")))
        };
        let d0 = match before {
            "" => 0,
            _ if before.chars().count() == 1 => digit(before.chars().next().unwrap_or('0'))?,
            _ => return Err(bad("one digit may stand before the point".into())),
        };
        if d0 & (NONE | ONE) != 0 {
            return Err(bad(format!(
                "the digit before the point (taking nothing) may only split a heap: \
                 0, 4, 8 or c, not {d0:x}"
            )));
        }
        let mut digits = vec![d0];
        for c in after.chars() {
            digits.push(digit(c)?);
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.len() > MAX_DIGITS + 1 {
            return Err(bad(format!("at most {MAX_DIGITS} digits after the point")));
        }
        if digits.iter().all(|&d| d == 0) {
            return Err(bad("it allows no move at all".into()));
        }
        Ok(TakeAndBreak {
            digits,
            distinct,
            values: RwLock::new(vec![0]),
            periodic: OnceLock::new(),
        })
    }

    /// The code in canonical form (`4!.0`, `0.77`): parsing it gives equal rules.
    pub fn code(&self) -> String {
        let mut text = format!("{:x}", self.digits[0]);
        if self.distinct {
            text.push('!');
        }
        text.push('.');
        let after: String = self.digits[1..].iter().map(|d| format!("{d:x}")).collect();
        text.push_str(if after.is_empty() { "0" } else { &after });
        text
    }

    /// The largest take (0 when the only moves split without taking).
    pub fn max_take(&self) -> u64 {
        self.digits.len() as u64 - 1
    }

    /// Whether some move leaves more than one heap.
    pub fn splits(&self) -> bool {
        self.digits.iter().any(|&d| d & (TWO | THREE) != 0)
    }

    fn leaves_three(&self) -> bool {
        self.digits.iter().any(|&d| d & THREE != 0)
    }

    /// The heaps left must be pairwise different (`!`).
    pub fn distinct(&self) -> bool {
        self.distinct
    }

    /// The largest heap whose value may be computed without a proven period.
    pub fn naive_limit(&self) -> u64 {
        if self.leaves_three() {
            MAX_NAIVE_HEAP_THREE
        } else {
            MAX_NAIVE_HEAP
        }
    }

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
                .triples(m)
                .nth(usize::try_from(i).unwrap_or(usize::MAX))
                .expect("the index is below the count");
            return HeapMove::split(take, Parts::three(a, b, c));
        }
        unreachable!("the index is below the count")
    }

    /// Every `(a, b, c)` with `a <= b <= c` (or `<` with `!`) summing to `m`.
    fn triples(&self, m: u64) -> impl Iterator<Item = (u64, u64, u64)> + '_ {
        let step = u64::from(self.distinct);
        (1..=m / 3).flat_map(move |a| {
            let b0 = a + step;
            (b0..=m.saturating_sub(a) / 2).filter_map(move |b| {
                let c = m - a - b;
                (c >= b + step).then_some((a, b, c))
            })
        })
    }

    /// Every option of a heap of `n`, in the order of `nth`.
    pub fn options(&self, n: u64) -> impl Iterator<Item = HeapMove> + '_ {
        (0..self.count(n)).map(move |i| self.nth(n, i))
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

    /// The Grundy value of a heap of `n`. Computes by the definition up to `n` when no
    /// period is proven: call `ensure(n)` first to bound that work.
    pub fn grundy(&self, n: u64) -> u32 {
        if let Some(periodic) = self.periodic.get() {
            return periodic.value(n);
        }
        if let Some(&v) = self.read_values().get(n as usize) {
            return v;
        }
        // Callers bound this work with `ensure` first, which polls for Ctrl-C.
        let _ = self.grow(n as usize + 1);
        match self.periodic.get() {
            Some(periodic) => periodic.value(n),
            None => self.read_values()[n as usize],
        }
    }

    /// The value of an option: the XOR of the parts' values.
    pub fn option_value(&self, n: u64, option: &HeapMove) -> u32 {
        match option.into.sizes() {
            [] => self.grundy(n - option.take),
            parts => parts.iter().fold(0, |x, &p| x ^ self.grundy(p)),
        }
    }

    /// Make the value of a heap of `n` available: computed (up to `naive_limit`) or
    /// given by a proven period; else `Error::CodeHeapTooLarge`.
    pub fn ensure(&self, n: u64) -> Result<()> {
        if self.periodic.get().is_some() || (n as usize) < self.read_values().len() {
            return Ok(());
        }
        let limit = self.naive_limit();
        self.grow(n.min(limit) as usize + 1)?;
        if n <= limit || self.periodic.get().is_some() {
            Ok(())
        } else {
            Err(Error::CodeHeapTooLarge {
                code: self.code(),
                heap: n,
                limit,
            })
        }
    }

    /// Refuse to look through the options of a heap of `n` for winning moves when
    /// they are more than `MAX_SCANNED_OPTIONS` (a split of a heap of `n` has about
    /// `n / 2` options, so the scan is bounded, not the heap).
    pub fn check_scan(&self, n: u64) -> Result<()> {
        let options = self.count(n);
        if options > MAX_SCANNED_OPTIONS {
            return Err(Error::TooManyOptions {
                heap: n,
                options,
                limit: MAX_SCANNED_OPTIONS,
            });
        }
        Ok(())
    }

    /// The first `count` values (`ensure(count - 1)` first).
    pub fn first(&self, count: usize) -> Result<Vec<u32>> {
        let mut out = alloc::with_capacity(count)?;
        match self.periodic.get() {
            Some(periodic) => out.extend((0..count as u64).map(|n| periodic.value(n))),
            None => {
                self.grow(count)?;
                out.extend_from_slice(&self.read_values()[..count]);
            }
        }
        Ok(out)
    }

    /// `(preperiod, period)` once proven (`ensure` grows the values and tries).
    pub fn period(&self) -> Option<(usize, usize)> {
        self.periodic.get().map(|p| (p.preperiod, p.period))
    }

    /// Whether the periodicity theorem applies to this code at all.
    pub fn period_provable(&self) -> bool {
        !self.distinct
    }

    fn read_values(&self) -> std::sync::RwLockReadGuard<'_, Vec<u32>> {
        self.values.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// Compute values until `len` are known or a period is proven, trying to prove
    /// one each time the count doubles. Stops at Ctrl-C, keeping what it computed.
    fn grow(&self, len: usize) -> Result<()> {
        let mut values = self.values.write().unwrap_or_else(PoisonError::into_inner);
        let mut seen = Vec::new();
        let mut poll = Poll::default();
        while values.len() < len && self.periodic.get().is_none() {
            let next = len.min((values.len() * 2).max(256));
            while values.len() < next {
                poll.tick()?;
                let v = self.mex(&values, &mut seen);
                values.push(v);
            }
            if self.period_provable() {
                let bound = if self.leaves_three() { 3 } else { 2 };
                if let Some((preperiod, period)) =
                    proven_period(&values, self.max_take() as usize, bound)
                {
                    let periodic = Periodic {
                        preperiod,
                        period,
                        values: values[..preperiod + period].to_vec(),
                    };
                    // Another thread cannot have set it: we hold the write lock.
                    let _ = self.periodic.set(periodic);
                }
            }
        }
        Ok(())
    }

    /// The value of heap `values.len()` by the definition.
    fn mex(&self, values: &[u32], seen: &mut Vec<u64>) -> u32 {
        let n = values.len();
        // Every XOR of earlier values is below the next power of two above them all.
        let top = values.iter().copied().max().unwrap_or(0);
        let bits = (top as usize + 1).next_power_of_two() + 1;
        seen.clear();
        seen.resize(bits.div_ceil(64), 0);
        let mut mark = |v: u32| seen[v as usize / 64] |= 1 << (v % 64);
        let step = usize::from(self.distinct);
        for (t, &d) in self.digits.iter().enumerate().take(n + 1) {
            let m = n - t;
            if d & NONE != 0 && m == 0 {
                mark(0);
            }
            if d & ONE != 0 && m >= 1 {
                mark(values[m]);
            }
            if d & TWO != 0 {
                for a in 1..=m / 2 {
                    if !(self.distinct && 2 * a == m) {
                        mark(values[a] ^ values[m - a]);
                    }
                }
            }
            if d & THREE != 0 {
                for a in 1..=m / 3 {
                    for b in a + step..=(m - a) / 2 {
                        let c = m - a - b;
                        if c >= b + step {
                            mark(values[a] ^ values[b] ^ values[c]);
                        }
                    }
                }
            }
        }
        let word = seen
            .iter()
            .position(|&w| w != u64::MAX)
            .unwrap_or(seen.len());
        (word * 64) as u32 + seen.get(word).map_or(0, |w| w.trailing_ones())
    }
}

/// The smallest period `p` (and its least preperiod) that the values prove by the
/// periodicity theorem: `G(n + p) = G(n)` for every `n` from `pre` up to (not
/// including) `bound * pre + (bound - 1) * p + t`, which needs `bound * (pre + p) + t`
/// values. `bound` is 2 for codes leaving at
/// most two heaps, 3 for three. The proof moves the largest part of a split by `p`
/// and needs it to stay nonempty, so it runs from `max(pre, 1)`; `G(p) = G(0)` for a
/// preperiod of 0 is read off the values.
pub fn proven_period(values: &[u32], t: usize, bound: usize) -> Option<(usize, usize)> {
    let len = values.len();
    (1..len).find_map(|p| {
        if bound * (1 + p) + t > len {
            return None;
        }
        let mut pre = len - p;
        while pre > 0 && values[pre - 1] == values[pre - 1 + p] {
            pre -= 1;
        }
        (bound * (pre.max(1) + p) + t <= len).then_some((pre, p))
    })
}

impl PartialEq for TakeAndBreak {
    fn eq(&self, other: &Self) -> bool {
        (&self.digits, self.distinct) == (&other.digits, other.distinct)
    }
}

impl Eq for TakeAndBreak {}

impl std::hash::Hash for TakeAndBreak {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (&self.digits, self.distinct).hash(state);
    }
}

impl fmt::Debug for TakeAndBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TakeAndBreak({:?})", self.code())
    }
}
