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
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock, PoisonError, RwLock, Weak};

use super::sparse::{Moves, SparseSpace};
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

/// Where the options of a heap fall into classes (`TakeAndBreak::scanned_options`),
/// for a map of heap sizes periodic from `preperiod` on: a part moved down by the
/// period must stay in the periodic range and nonempty, so from `max(preperiod, 1)`.
pub fn reach(preperiod: usize, period: usize) -> u64 {
    (preperiod.max(1) + period) as u64
}

/// How a search for moves looks through the options of a heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scan {
    /// Every option; past `MAX_SCANNED_OPTIONS` of them, one of each class where a
    /// period gives classes (callers that promise every move refuse such heaps).
    Every,
    /// One option of each class wherever a period gives classes: enough for the
    /// first winning move, from heaps of any size at once.
    First,
}

/// A take-and-break rule and its Grundy sequence, computed on demand.
pub struct TakeAndBreak {
    /// `digits[t]`: what taking `t` may leave.
    digits: Vec<u8>,
    /// The heaps left must be pairwise different.
    distinct: bool,
    /// Grundy values of heaps `0..len`, and how the next ones are found.
    sequence: RwLock<Sequence>,
    /// Set once a period is proven.
    periodic: OnceLock<Periodic>,
}

/// How Grundy values are found. Both give the same values; the naive method is the
/// reference, and a second computation to check the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The definition: the mex over every option.
    Naive,
    /// The sparse-space method where it applies (codes that split into at most two
    /// heaps), else the definition.
    Auto,
}

/// The values computed so far and the state of their computation.
#[derive(Debug)]
struct Sequence {
    values: Vec<u32>,
    /// The sparse-space method, for codes that leave at most two heaps and split.
    sparse: Option<SparseSpace>,
    /// When to look for a period next (a count of values).
    next_check: usize,
    /// False for a second computation, which must not take values from a period.
    seeks_period: bool,
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
            code: shortened(code),
            reason,
        };
        let text = code.trim();
        if text.is_empty() {
            return Err(bad("the code is empty; write it like 0.77 (Kayles)".into()));
        }
        let distinct = text.contains('!');
        let placed = text.contains("!.") || text.ends_with('!');
        if text.matches('!').count() > 1 || (distinct && !placed) {
            return Err(bad(
                "`!` stands once, just before the point or at the end (Grundy's game is \
                 4!.0)"
                    .into(),
            ));
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
        let mut rule = TakeAndBreak {
            digits,
            distinct,
            sequence: RwLock::new(Sequence {
                values: vec![0],
                sparse: None,
                next_check: 256,
                seeks_period: true,
            }),
            periodic: OnceLock::new(),
        };
        rule.set_method(Method::Auto);
        Ok(rule)
    }

    /// The same rule with no value computed, finding values by `method` and never
    /// looking for a period: a second, independent computation of the sequence (to
    /// check a first one, or a certificate).
    pub fn fresh(&self, method: Method) -> Self {
        let mut rule = TakeAndBreak {
            digits: self.digits.clone(),
            distinct: self.distinct,
            sequence: RwLock::new(Sequence {
                values: vec![0],
                sparse: None,
                next_check: usize::MAX,
                seeks_period: false,
            }),
            periodic: OnceLock::new(),
        };
        rule.set_method(method);
        rule
    }

    fn set_method(&mut self, method: Method) {
        let sparse = match method {
            Method::Naive => false,
            Method::Auto => self.splits() && !self.leaves_three(),
        };
        let space = sparse.then(|| SparseSpace::new(self.moves()));
        let sequence = self
            .sequence
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        sequence.sparse = space;
    }

    /// The takes that leave nothing, one heap and two heaps.
    pub fn moves(&self) -> Moves {
        let takes = |bit: u8| -> Vec<usize> {
            let digits = self.digits.iter().enumerate();
            digits
                .filter(|&(_, &d)| d & bit != 0)
                .map(|(t, _)| t)
                .collect()
        };
        Moves {
            whole: takes(NONE),
            reduce: takes(ONE),
            split: takes(TWO),
            distinct: self.distinct,
        }
    }

    /// Whether values come from the sparse-space method (`sparse_space`) rather than
    /// from the definition alone.
    pub fn uses_sparse_space(&self) -> bool {
        self.read().sparse.is_some()
    }

    /// The sparse space found so far: the mask, whether heap parity joins it, and
    /// the heaps whose values are rare. `None` for codes computed by the definition.
    pub fn sparse_space(&self) -> Option<(u32, bool, Vec<usize>)> {
        let sequence = self.read();
        let sparse = sequence.sparse.as_ref()?;
        let (mask, parity) = sparse.mask();
        Some((mask, parity, sparse.rare_heaps().to_vec()))
    }

    /// The rule of `code`, shared with every other user of the same code (in any
    /// spelling) while one holds it, so that the values one computes serve all.
    pub fn shared(code: &str) -> Result<Arc<Self>> {
        static RULES: Mutex<Option<HashMap<String, Weak<TakeAndBreak>>>> = Mutex::new(None);
        let rule = TakeAndBreak::parse(code)?;
        let mut rules = RULES.lock().unwrap_or_else(PoisonError::into_inner);
        let rules = rules.get_or_insert_with(HashMap::new);
        if let Some(existing) = rules.get(&rule.code()).and_then(Weak::upgrade) {
            return Ok(existing);
        }
        rules.retain(|_, rule| rule.strong_count() > 0);
        let rule = Arc::new(rule);
        rules.insert(rule.code(), Arc::downgrade(&rule));
        Ok(rule)
    }

    /// The code of a subtraction game: take any element of `set` from a heap
    /// (digit 3 at each element: leave nothing or one heap). `None` when an element
    /// is past `MAX_DIGITS`.
    pub fn subtraction_code(set: &[u64]) -> Option<String> {
        let top = usize::try_from(*set.iter().max()?).ok()?;
        if top > MAX_DIGITS {
            return None;
        }
        let mut digits = vec![b'0'; top];
        for &t in set {
            digits[t as usize - 1] = b'3';
        }
        Some(format!("0.{}", String::from_utf8(digits).ok()?))
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
    fn has_classes(&self) -> bool {
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

    /// The Grundy value of a heap of `n`. Computes by the definition up to `n` when no
    /// period is proven: call `ensure(n)` first to bound that work.
    pub fn grundy(&self, n: u64) -> u32 {
        if let Some(periodic) = self.periodic.get() {
            return periodic.value(n);
        }
        if let Some(&v) = self.read().values.get(n as usize) {
            return v;
        }
        // Callers bound this work with `ensure` first, which polls for Ctrl-C.
        let _ = self.grow(n as usize + 1, &mut |_| {});
        match self.periodic.get() {
            Some(periodic) => periodic.value(n),
            None => self.read().values[n as usize],
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
        if self.periodic.get().is_some() || (n as usize) < self.read().values.len() {
            return Ok(());
        }
        let limit = self.naive_limit();
        self.grow(n.min(limit) as usize + 1, &mut |_| {})?;
        if n <= limit || self.periodic.get().is_some() {
            Ok(())
        } else {
            Err(Error::CodeHeapTooLarge {
                code: self.code(),
                heap: n,
                limit,
                provable: self.period_provable(),
            })
        }
    }

    /// Refuse to look through the options of a heap of `n` for winning moves when
    /// they are more than `MAX_SCANNED_OPTIONS` (a split of a heap of `n` has about
    /// `n / 2` options, so the scan is bounded, not the heap), unless `reach` is given
    /// and the scan may go by classes (`scanned_options`).
    pub fn check_scan(&self, n: u64, reach: Option<u64>) -> Result<()> {
        let options = self.count(n);
        if options > MAX_SCANNED_OPTIONS && !(reach.is_some() && self.has_classes()) {
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
        self.grow(count, &mut |_| {})?;
        self.values_as(count)
    }

    /// Whether `values` (this code's first values) prove `(preperiod, period)` by the
    /// periodicity theorem, checked directly from its statement: enough values, and
    /// `G(n + period) = G(n)` for every `n` from `preperiod` up to what the theorem
    /// asks, and no smaller preperiod for this period.
    pub fn proves(&self, values: &[u32], preperiod: usize, period: usize) -> bool {
        // Past what can be counted, no list of values is long enough.
        let Ok(Some(needed)) = self.values_to_prove(preperiod, period) else {
            return false;
        };
        period > 0
            && values.len() >= needed
            && (preperiod..needed - period).all(|n| values[n] == values[n + period])
            && (preperiod == 0 || values[preperiod - 1] != values[preperiod - 1 + period])
    }

    /// Preperiod plus period of the Grundy values, once proven: where the scan of
    /// a heap's options may go by classes of equal values (`scanned_options`).
    pub fn grundy_reach(&self) -> Option<u64> {
        self.periodic.get().map(|p| reach(p.preperiod, p.period))
    }

    /// `(preperiod, period)` once proven (`ensure` grows the values and tries).
    pub fn period(&self) -> Option<(usize, usize)> {
        self.periodic.get().map(|p| (p.preperiod, p.period))
    }

    /// Whether the periodicity theorem applies to this code at all.
    pub fn period_provable(&self) -> bool {
        !self.distinct
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Sequence> {
        self.sequence.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// Compute the values of heaps `0..len`, whatever the size (the caller asked for
    /// them: no `naive_limit`), stopping early once a period is proven. `report`
    /// hears how many values are known, about every 0.1 s. Stops at Ctrl-C, keeping
    /// what it computed; memory for the values is reserved fallibly.
    pub fn compute(&self, len: usize, report: &mut dyn FnMut(usize)) -> Result<()> {
        self.grow(len, report)?;
        // The values asked for may prove a period before the next checkpoint.
        let mut sequence = self
            .sequence
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        let reached = sequence.values.len() >= len && len > 1;
        if sequence.seeks_period && self.periodic.get().is_none() && reached {
            sequence.next_check = self.check_period(&sequence.values);
        }
        Ok(())
    }

    /// How many values are computed (a periodic rule knows every other one too).
    pub fn known(&self) -> usize {
        self.read().values.len()
    }

    /// The first `count` values in the integer type `T` (the caller has made sure
    /// the largest fits, see `max_value`); `compute(count)` first.
    pub fn values_as<T: TryFrom<u32> + Copy>(&self, count: usize) -> Result<Vec<T>> {
        let mut out = alloc::with_capacity(count)?;
        let narrow = |v: &u32| {
            T::try_from(*v)
                .ok()
                .expect("the caller checked the largest value")
        };
        // Billions of values take seconds: copied in pieces, polling between them.
        const PIECE: usize = 1 << 16;
        let mut poll = Poll::default();
        match self.periodic.get() {
            Some(periodic) => {
                let known = count.min(periodic.values.len());
                out.extend(periodic.values[..known].iter().map(narrow));
                // Past the first period, each value repeats the one a period before.
                while out.len() < count {
                    poll.tick()?;
                    let from = out.len() - periodic.period;
                    let piece = (count - out.len()).min(periodic.period).min(PIECE);
                    out.extend_from_within(from..from + piece);
                }
            }
            None => {
                let sequence = self.read();
                for piece in sequence.values[..count].chunks(PIECE) {
                    poll.tick()?;
                    out.extend(piece.iter().map(narrow));
                }
            }
        }
        Ok(out)
    }

    /// The largest of the first `count` values; `compute(count)` first.
    pub fn max_value(&self, count: usize) -> u32 {
        match self.periodic.get() {
            Some(periodic) => {
                let seen = count.min(periodic.values.len());
                periodic.values[..seen].iter().copied().max().unwrap_or(0)
            }
            None => self.read().values[..count]
                .iter()
                .copied()
                .max()
                .unwrap_or(0),
        }
    }

    /// How many values the periodicity theorem needs to prove `(preperiod, period)`
    /// for this code, or `None` when it proves nothing for it (`!`);
    /// `Error::ProofTooLong` past `usize`.
    pub fn values_to_prove(&self, preperiod: usize, period: usize) -> Result<Option<usize>> {
        let Some(bound) = self.theorem_bound() else {
            return Ok(None);
        };
        preperiod
            .max(1)
            .checked_add(period)
            .and_then(|span| span.checked_mul(bound))
            .and_then(|values| values.checked_add(self.max_take() as usize))
            .map(Some)
            .ok_or(Error::ProofTooLong { preperiod, period })
    }

    /// The periodicity theorem's `bound` (see `proven_period`), or `None` when it
    /// proves nothing for this code (`!`).
    pub fn theorem_bound(&self) -> Option<usize> {
        let bound = if self.leaves_three() { 3 } else { 2 };
        self.period_provable().then_some(bound)
    }

    /// Compute values until `len` are known or a period is proven, looking for one
    /// at checkpoints (doubling counts, or the count a candidate period needs).
    fn grow(&self, len: usize, report: &mut dyn FnMut(usize)) -> Result<()> {
        let mut guard = self
            .sequence
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        let sequence = &mut *guard;
        let mut seen = Vec::new();
        let mut poll = Poll::default();
        let mut reported = std::time::Instant::now();
        while sequence.values.len() < len && self.periodic.get().is_none() {
            let stop = len.min(sequence.next_check);
            let more = stop.saturating_sub(sequence.values.len());
            sequence
                .values
                .try_reserve(more)
                .map_err(|_| Error::OutOfMemory {
                    bytes: more.saturating_mul(4) as u128,
                })?;
            while sequence.values.len() < stop {
                poll.tick()?;
                let v = match &mut sequence.sparse {
                    Some(sparse) => sparse.next(&sequence.values),
                    None => self.mex(&sequence.values, &mut seen, &mut poll)?,
                };
                sequence.values.push(v);
                if sequence.values.len().is_multiple_of(4096)
                    && reported.elapsed().as_millis() >= 100
                {
                    report(sequence.values.len());
                    reported = std::time::Instant::now();
                }
            }
            if sequence.values.len() >= sequence.next_check {
                sequence.next_check = self.check_period(&sequence.values);
            }
        }
        report(sequence.values.len());
        Ok(())
    }

    /// Look for a proven period in `values`; set it and return 0 when found, else the
    /// count of values at which to look again.
    fn check_period(&self, values: &[u32]) -> usize {
        let len = values.len();
        let doubled = len.saturating_mul(2);
        if !self.period_provable() {
            return doubled;
        }
        let bound = if self.leaves_three() { 3 } else { 2 };
        match period_search(values, self.max_take() as usize, bound) {
            PeriodSearch::Proven(preperiod, period) => {
                // Without memory for the copy, values simply go on being computed.
                let Ok(mut kept) = alloc::with_capacity(preperiod + period) else {
                    return doubled;
                };
                kept.extend_from_slice(&values[..preperiod + period]);
                let periodic = Periodic {
                    preperiod,
                    period,
                    values: kept,
                };
                // Another thread cannot have set it: the caller holds the write lock.
                let _ = self.periodic.set(periodic);
                usize::MAX
            }
            // Not before an eighth more values: a check costs a pass over them all.
            PeriodSearch::Needs(count) => count.clamp(len + len / 8 + 1, doubled),
            PeriodSearch::Nothing => doubled,
        }
    }

    /// The value of heap `values.len()` by the definition (polling as it goes: a heap
    /// of n that leaves three heaps has about n**2 / 12 options).
    fn mex(&self, values: &[u32], seen: &mut Vec<u64>, poll: &mut Poll) -> Result<u32> {
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
                poll.tick()?;
                for a in 1..=m / 2 {
                    if !(self.distinct && 2 * a == m) {
                        mark(values[a] ^ values[m - a]);
                    }
                }
            }
            if d & THREE != 0 {
                for a in 1..=m / 3 {
                    poll.tick()?;
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
        Ok((word * 64) as u32 + seen.get(word).map_or(0, |w| w.trailing_ones()))
    }
}

/// A code as an error quotes it: a long one cut to its first characters.
fn shortened(code: &str) -> String {
    const SHOWN: usize = 40;
    match code.char_indices().nth(SHOWN) {
        Some((end, _)) => format!("{}...", &code[..end]),
        None => code.to_string(),
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
pub fn period_search(values: &[u32], t: usize, bound: usize) -> PeriodSearch {
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
