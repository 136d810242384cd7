//! Heap rules: what one move may do to one heap. One file per family; `HeapRule` is
//! the one place that knows the families, and the rest of the crate asks it.
//!
//! - `nim`: take any number (a heap of n is worth n).
//! - `limit`: take 1 to k (worth n mod (k + 1)).
//! - `subtraction`: take exactly one element of a finite set.
//! - `code`: take-and-break codes (octal and hexadecimal), where a move may split a
//!   heap; `sparse` computes their Grundy values by the sparse-space method and
//!   `periodic` finds and proves the periods of value sequences; `store` holds
//!   them, in memory or in a memory-mapped file.
pub mod code;
pub mod limit;
pub mod nim;
pub mod periodic;
pub mod position;
pub mod rules;
pub mod sparse;
pub mod store;
pub mod subtraction;
pub mod width;

use std::sync::Arc;

use crate::base::error::{Error, Result};
use code::{Scan, TakeAndBreak};
use subtraction::GrundySequence;

/// The heaps a splitting move leaves in place of the heap it is played on: two or
/// three nonempty sizes, in the order they take in the position. Empty
/// (`Parts::NONE`) for a move that leaves one heap or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Parts {
    len: u8,
    sizes: [u64; 3],
}

impl Parts {
    /// No split: the heap loses `take` and stays (possibly empty).
    pub const NONE: Parts = Parts {
        len: 0,
        sizes: [0; 3],
    };

    pub fn two(a: u64, b: u64) -> Self {
        Parts {
            len: 2,
            sizes: [a, b, 0],
        }
    }

    pub fn three(a: u64, b: u64, c: u64) -> Self {
        Parts {
            len: 3,
            sizes: [a, b, c],
        }
    }

    /// Two or three sizes; `None` for any other count.
    pub fn new(sizes: &[u64]) -> Option<Self> {
        match *sizes {
            [a, b] => Some(Parts::two(a, b)),
            [a, b, c] => Some(Parts::three(a, b, c)),
            _ => None,
        }
    }

    pub fn sizes(&self) -> &[u64] {
        &self.sizes[..self.len as usize]
    }

    pub fn is_split(&self) -> bool {
        self.len > 0
    }
}

/// What one move does to one heap: take `take` objects and leave `into` (see `Parts`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HeapMove {
    pub take: u64,
    pub into: Parts,
}

impl HeapMove {
    pub fn take(take: u64) -> Self {
        HeapMove {
            take,
            into: Parts::NONE,
        }
    }

    pub fn split(take: u64, into: Parts) -> Self {
        HeapMove { take, into }
    }
}

/// What one move may do to one heap.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum HeapRule {
    /// Take any number, up to the whole heap.
    Nim,
    /// Take from 1 to this many.
    Limit(u64),
    /// Take exactly one element of a finite set (with its Grundy sequence).
    Set(Arc<GrundySequence>),
    /// A take-and-break code (a move may split the heap).
    Code(Arc<TakeAndBreak>),
}

impl From<Option<u64>> for HeapRule {
    fn from(limit: Option<u64>) -> Self {
        limit.map_or(HeapRule::Nim, HeapRule::Limit)
    }
}

impl HeapRule {
    /// A take limit of at least 1 (`heap` names the heap in the error).
    pub fn check(&self, heap: Option<usize>) -> Result<()> {
        match self {
            HeapRule::Limit(0) => Err(Error::ZeroTakeLimit { heap }),
            _ => Ok(()),
        }
    }

    /// The Grundy value of a heap of `n`.
    #[inline]
    pub fn grundy(&self, n: u64) -> u64 {
        match self {
            HeapRule::Nim => n,
            HeapRule::Limit(k) => limit::grundy(n, *k),
            HeapRule::Set(set) => u64::from(set.grundy(n)),
            HeapRule::Code(code) => u64::from(code.grundy(n)),
        }
    }

    /// `k + 1` where a take limit binds: Grundy values are remainders by it.
    #[inline]
    pub fn modulus(&self) -> Option<u64> {
        match self {
            HeapRule::Limit(k) => k.checked_add(1),
            _ => None,
        }
    }

    /// `Some(k)` when a move may take exactly 1, 2, ..., k objects and nothing else
    /// (Nim: `u64::MAX`; a set {1..k} too): then a P-position within `k` below on a
    /// line of positions is one move away.
    pub fn interval(&self) -> Option<u64> {
        match self {
            HeapRule::Nim => Some(u64::MAX),
            HeapRule::Limit(k) => Some(*k),
            HeapRule::Set(set) if set.set().is_interval() => Some(set.set().max()),
            _ => None,
        }
    }

    /// Whether the rule is a subtraction set that is not {1..k}: misère play then has
    /// no closed form.
    pub fn is_general_set(&self) -> bool {
        matches!(self, HeapRule::Set(set) if !set.set().is_interval())
    }

    /// The take-and-break code, for a code.
    pub fn as_code(&self) -> Option<&Arc<TakeAndBreak>> {
        match self {
            HeapRule::Code(code) => Some(code),
            _ => None,
        }
    }

    /// The code whose misère quotient answers for this rule: a code itself, or a
    /// subtraction set as the code with a 3 at each element (`None` past
    /// `code::MAX_DIGITS`, and for Nim and take limits, whose misère play has a
    /// closed form).
    pub fn misere_code(&self) -> Result<Option<Arc<TakeAndBreak>>> {
        Ok(match self {
            HeapRule::Code(code) => Some(Arc::clone(code)),
            HeapRule::Set(set) => match TakeAndBreak::subtraction_code(set.set().elements()) {
                Some(code) => Some(TakeAndBreak::shared(&code)?),
                None => None,
            },
            _ => None,
        })
    }

    /// Whether some move leaves more than one heap.
    pub fn splits(&self) -> bool {
        self.as_code().is_some_and(|code| code.splits())
    }

    /// How many moves a heap of `n` allows.
    #[inline]
    pub fn count(&self, n: u64) -> u64 {
        match self {
            HeapRule::Nim => n,
            HeapRule::Limit(k) => n.min(*k),
            HeapRule::Set(set) => set.set().count_up_to(n) as u64,
            HeapRule::Code(code) => code.count(n),
        }
    }

    /// The most moves a heap of any size allows, where that is bounded.
    pub fn most_moves(&self) -> Option<u64> {
        match self {
            HeapRule::Nim => None,
            HeapRule::Limit(k) => Some(*k),
            HeapRule::Set(set) => Some(set.set().elements().len() as u64),
            HeapRule::Code(code) => Some(code.max_take()),
        }
    }

    /// How many (heap size, take) pairs the heaps `0..=b` allow, saturating: the moves a
    /// walk over every size up to `b` weighs.
    pub fn moves_up_to(&self, b: u64) -> u128 {
        let b128 = u128::from(b);
        // Takes 1..=m: m (b + 1) - m (m + 1) / 2 pairs.
        let up_to = |m: u128| m.saturating_mul(b128 + 1) - m.saturating_mul(m + 1) / 2;
        let pairs = |t: u64| u128::from(b.saturating_sub(t) + 1) * u128::from(t <= b);
        match self {
            HeapRule::Nim => up_to(b128),
            HeapRule::Limit(k) => up_to(u128::from((*k).min(b))),
            HeapRule::Set(set) => set.set().elements().iter().map(|&t| pairs(t)).sum(),
            HeapRule::Code(code) => (1..=code.max_take()).map(pairs).sum(),
        }
    }

    /// Option number `i` (from 0) of a heap of `n`, for `i < count(n)`: without a
    /// code, the `i`-th smallest legal take.
    #[inline]
    pub fn nth(&self, n: u64, i: u64) -> HeapMove {
        match self {
            HeapRule::Set(set) => HeapMove::take(set.set().elements()[i as usize]),
            HeapRule::Code(code) => code.nth(n, i),
            _ => HeapMove::take(i + 1),
        }
    }

    /// What the `i`-th option of a heap of `n` takes, for rules that never split.
    #[inline]
    pub fn nth_take(&self, n: u64, i: u64) -> u64 {
        match self {
            HeapRule::Set(set) => set.set().elements()[i as usize],
            HeapRule::Code(code) => code.nth(n, i).take,
            _ => i + 1,
        }
    }

    /// Every option of a heap of `n`, smallest take first.
    #[inline]
    pub fn options(&self, n: u64) -> Box<dyn Iterator<Item = HeapMove> + '_> {
        match self {
            HeapRule::Code(code) => Box::new(code.options(n)),
            _ => Box::new((0..self.count(n)).map(move |i| self.nth(n, i))),
        }
    }

    /// Whether a heap of `n` has any move.
    #[inline]
    pub fn has_move(&self, n: u64) -> bool {
        match self {
            HeapRule::Code(code) => code.has_move(n),
            _ => self.count(n) > 0,
        }
    }

    /// Every legal take from a heap of `n`, smallest first, for rules that never
    /// split (the box searches, whose inner loops run here: no `HeapMove` is built).
    #[inline]
    pub fn takes(&self, n: u64) -> impl Iterator<Item = u64> + '_ {
        (0..self.count(n)).map(move |i| self.nth_take(n, i))
    }

    /// Lower bounds on the positions and moves of a search over the multisets of
    /// heaps a heap of `n` reaches (`TakeAndBreak::search_floor`).
    pub fn search_floor(&self, n: u64) -> (u64, u64) {
        match self {
            HeapRule::Code(code) => code.search_floor(n),
            _ => (1, self.count(n)),
        }
    }

    /// Make the Grundy value of every heap up to `top` available (a code computes
    /// them, or refuses heaps past what it computes on demand).
    pub fn ensure(&self, top: u64) -> Result<()> {
        self.as_code().map_or(Ok(()), |code| code.ensure(top))
    }

    /// Refuse to look through the options of a heap of `top` for every winning move
    /// when it has too many (`TakeAndBreak::check_scan`); `by_class`: a search for
    /// the first winning move, which may go by classes once a period is proven.
    pub fn check_scan(&self, top: u64, by_class: bool) -> Result<()> {
        match self.as_code() {
            Some(code) => code.check_scan(top, by_class.then(|| code.grundy_reach()).flatten()),
            None => Ok(()),
        }
    }

    /// Why a heap of `size` may not make `option`, if it may not (after `check_take`).
    pub fn check_option(&self, heap: usize, size: u64, option: &HeapMove) -> Result<()> {
        let allowed = match self {
            HeapRule::Code(code) => code.allows(size, option.take, &option.into),
            _ => !option.into.is_split(),
        };
        if allowed {
            Ok(())
        } else {
            Err(Error::NotAnOption {
                heap,
                size,
                take: option.take,
                into: option.into.sizes().to_vec(),
            })
        }
    }

    /// Why taking `take` is not allowed whatever the heap's size, if it is not.
    pub fn check_take(&self, heap: usize, take: u64) -> Result<()> {
        match self {
            HeapRule::Nim => Ok(()),
            HeapRule::Limit(limit) if take > *limit => Err(Error::OverLimit {
                heap,
                take,
                limit: *limit,
            }),
            HeapRule::Limit(_) => Ok(()),
            HeapRule::Set(set) if set.set().elements().binary_search(&take).is_err() => {
                Err(Error::NotInSet {
                    heap,
                    take,
                    set: set.set().elements().to_vec(),
                })
            }
            HeapRule::Set(_) => Ok(()),
            HeapRule::Code(code) if take > code.max_take() => Err(Error::OverLimit {
                heap,
                take,
                limit: code.max_take(),
            }),
            HeapRule::Code(_) => Ok(()),
        }
    }

    /// Every option of a heap of `n` that leaves Grundy value `target`, in the order of
    /// `options`, of those `scan` looks through (a code's heap may go by classes of
    /// options with equal values: `TakeAndBreak::scanned_options`). Nim and take
    /// limits have at most one, found in O(1).
    pub fn to_grundy(
        &self,
        n: u64,
        target: u64,
        scan: Scan,
    ) -> Box<dyn Iterator<Item = HeapMove> + '_> {
        match self {
            HeapRule::Nim | HeapRule::Limit(_) => Box::new(
                limit::take_from(n, self.grundy(n), self.modulus(), target)
                    .map(HeapMove::take)
                    .into_iter(),
            ),
            HeapRule::Set(_) => Box::new(
                self.options(n)
                    .filter(move |option| self.option_value(n, option) == target),
            ),
            HeapRule::Code(code) => Box::new(
                code.scanned_options(n, code.grundy_reach(), scan)
                    .filter(move |option| u64::from(code.option_value(n, option)) == target),
            ),
        }
    }

    /// The Grundy value an option of a heap of `n` leaves (XOR of the parts' values).
    #[inline]
    pub fn option_value(&self, n: u64, option: &HeapMove) -> u64 {
        match self {
            HeapRule::Code(code) => u64::from(code.option_value(n, option)),
            _ => self.grundy(n - option.take),
        }
    }

    /// The rule in a few words, as a search's limits describe it (`up to 20 takes`).
    pub fn takes_text(&self) -> String {
        match self.most_moves() {
            None => "as many takes as the heap holds".into(),
            Some(most) => format!("up to {most} takes"),
        }
    }
}
