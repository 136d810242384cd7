//! The rules of a take-away game: how it ends and how much one turn may take.
use std::sync::Arc;

use crate::code::{Scan, TakeAndBreak};
use crate::error::{Error, Result};
use crate::position::HeapMove;
use crate::subtraction::GrundySequence;
use crate::theory;

/// How many objects one turn may take from one heap.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum HeapTake {
    /// Any number, up to the whole heap.
    Any,
    /// From 1 to this many.
    UpTo(u64),
    /// Exactly one element of a finite subtraction set (with its Grundy sequence).
    Set(Arc<GrundySequence>),
    /// A take-and-break code that never splits (a code that splits must be the rule
    /// of every heap: the heaps it makes need a rule too).
    Code(Arc<TakeAndBreak>),
}

impl From<Option<u64>> for HeapTake {
    fn from(limit: Option<u64>) -> Self {
        limit.map_or(HeapTake::Any, HeapTake::UpTo)
    }
}

/// How many objects one turn may take, for every heap.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum TakeLimit {
    /// Any number, up to the whole heap (plain Nim).
    #[default]
    None,
    /// At most this many from any heap.
    All(u64),
    /// One subtraction set for every heap.
    Set(Arc<GrundySequence>),
    /// One take-and-break code for every heap.
    Code(Arc<TakeAndBreak>),
    /// One rule per heap.
    PerHeap(Vec<HeapTake>),
}

impl TakeLimit {
    /// One rule per heap, from anything that converts (e.g. `Option<u64>` limits).
    pub fn per_heap<T: Into<HeapTake>>(takes: impl IntoIterator<Item = T>) -> Self {
        TakeLimit::PerHeap(takes.into_iter().map(Into::into).collect())
    }
}

/// Normal play (taking the last object wins) or misère play (it loses), and a take limit.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Rules {
    misere: bool,
    limit: TakeLimit,
}

impl Rules {
    /// Validated rules: every take limit is at least 1.
    pub fn new(misere: bool, limit: TakeLimit) -> Result<Self> {
        match &limit {
            TakeLimit::None | TakeLimit::Set(_) | TakeLimit::Code(_) => {}
            TakeLimit::All(k) => check_limit(*k, None)?,
            TakeLimit::PerHeap(takes) => {
                for (heap, take) in takes.iter().enumerate() {
                    match take {
                        HeapTake::UpTo(k) => check_limit(*k, Some(heap))?,
                        HeapTake::Code(code) if code.splits() => {
                            return Err(Error::SplitPerHeap { code: code.code() })
                        }
                        _ => {}
                    }
                }
            }
        }
        Ok(Rules { misere, limit })
    }

    /// Plain Nim, normal play.
    pub fn normal() -> Self {
        Rules::default()
    }

    /// Plain Nim, misère play.
    pub fn misere() -> Self {
        Rules {
            misere: true,
            limit: TakeLimit::None,
        }
    }

    pub fn is_misere(&self) -> bool {
        self.misere
    }

    pub fn take_limit(&self) -> &TakeLimit {
        &self.limit
    }

    /// What one turn may take from heap `heap`. Call `check_heaps` first.
    #[inline]
    pub fn take_for(&self, heap: usize) -> Take<'_> {
        match &self.limit {
            TakeLimit::None => Take::Any,
            TakeLimit::All(k) => Take::UpTo(*k),
            TakeLimit::Set(set) => Take::Set(set),
            TakeLimit::Code(code) => Take::Code(code),
            TakeLimit::PerHeap(takes) => match &takes[heap] {
                HeapTake::Any => Take::Any,
                HeapTake::UpTo(k) => Take::UpTo(*k),
                HeapTake::Set(set) => Take::Set(set),
                HeapTake::Code(code) => Take::Code(code),
            },
        }
    }

    /// The take-and-break codes among the rules.
    fn codes(&self) -> impl Iterator<Item = &TakeAndBreak> {
        let (all, per_heap) = match &self.limit {
            TakeLimit::Code(code) => (Some(&**code), &[][..]),
            TakeLimit::PerHeap(takes) => (None, &takes[..]),
            _ => (None, &[][..]),
        };
        let each = per_heap.iter().filter_map(|t| match t {
            HeapTake::Code(code) => Some(&**code),
            _ => None,
        });
        all.into_iter().chain(each)
    }

    /// Whether some move may split a heap (positions then change their heap count,
    /// and searches run over multisets of heaps, not boxes).
    pub fn splits(&self) -> bool {
        self.codes().any(TakeAndBreak::splits)
    }

    /// Whether some heap follows a take-and-break code.
    pub fn has_code(&self) -> bool {
        self.codes().next().is_some()
    }

    /// Check a position against the rules: the heap count, and for codes, that the
    /// Grundy value of every heap is within reach (computed or given by a period).
    pub fn check_position(&self, heaps: &[u64]) -> Result<()> {
        self.check_heaps(heaps.len())?;
        self.check_heaps_up_to(heaps.iter().copied().max().unwrap_or(0))
    }

    /// For codes: refuse to search the options of heaps up to `top` for every winning
    /// move when a heap has more than `code::MAX_SCANNED_OPTIONS`.
    pub fn check_scan_up_to(&self, top: u64) -> Result<()> {
        self.codes().try_for_each(|code| code.check_scan(top, None))
    }

    /// As `check_scan_up_to`, for a search for the first winning move in normal play,
    /// which may go by classes of equal Grundy values once a period is proven.
    pub fn check_scan_by_class_up_to(&self, top: u64) -> Result<()> {
        self.codes()
            .try_for_each(|code| code.check_scan(top, code.grundy_reach()))
    }

    /// For codes: make the Grundy value of every heap up to `top` within reach.
    pub fn check_heaps_up_to(&self, top: u64) -> Result<()> {
        self.codes().try_for_each(|code| code.ensure(top))
    }

    /// Whether some heap has a subtraction set that is not {1..k}.
    pub fn has_general_sets(&self) -> bool {
        let general = |set: &GrundySequence| !set.set().is_interval();
        match &self.limit {
            TakeLimit::Set(set) => general(set),
            TakeLimit::PerHeap(takes) => takes
                .iter()
                .any(|t| matches!(t, HeapTake::Set(set) if general(set))),
            _ => false,
        }
    }

    /// Whether the closed forms decide outcomes: always in normal play (Grundy values
    /// and their XOR), in misère play only for Nim with take limits. Misère play of
    /// general subtraction sets is not governed by the XOR rule: it needs search.
    /// Take-and-break codes in misère play need search too.
    pub fn has_closed_form(&self) -> bool {
        !self.misere || !(self.has_general_sets() || self.has_code())
    }

    /// Per-heap rules must come one per heap.
    pub fn check_heaps(&self, heaps: usize) -> Result<()> {
        match &self.limit {
            TakeLimit::PerHeap(takes) if takes.len() != heaps => Err(Error::LimitCount {
                limits: takes.len(),
                heaps,
            }),
            _ => Ok(()),
        }
    }
}

fn check_limit(k: u64, heap: Option<usize>) -> Result<()> {
    if k == 0 {
        Err(Error::ZeroTakeLimit { heap })
    } else {
        Ok(())
    }
}

/// What one turn may take from one heap, borrowed from the rules: the one place that
/// knows what each kind of rule allows.
#[derive(Debug, Clone, Copy)]
pub enum Take<'a> {
    Any,
    UpTo(u64),
    Set(&'a GrundySequence),
    Code(&'a TakeAndBreak),
}

impl<'a> Take<'a> {
    /// The Grundy value of a heap of `n`.
    #[inline]
    pub fn grundy(self, n: u64) -> u64 {
        match self {
            Take::Any => n,
            Take::UpTo(k) => theory::grundy(n, Some(k)),
            Take::Set(set) => u64::from(set.grundy(n)),
            Take::Code(code) => u64::from(code.grundy(n)),
        }
    }

    /// `k + 1` where a take limit binds: Grundy values are remainders by it.
    #[inline]
    pub fn modulus(self) -> Option<u64> {
        match self {
            Take::UpTo(k) => k.checked_add(1),
            _ => None,
        }
    }

    /// How many moves a heap of `n` allows.
    #[inline]
    pub fn count(self, n: u64) -> u64 {
        match self {
            Take::Any => n,
            Take::UpTo(k) => n.min(k),
            Take::Set(set) => set.set().count_up_to(n) as u64,
            Take::Code(code) => code.count(n),
        }
    }

    /// Option number `i` (from 0) of a heap of `n`, for `i < count(n)`: without a
    /// code, the `i`-th smallest legal take.
    #[inline]
    pub fn nth(self, n: u64, i: u64) -> HeapMove {
        match self {
            Take::Set(set) => HeapMove::take(set.set().elements()[i as usize]),
            Take::Code(code) => code.nth(n, i),
            _ => HeapMove::take(i + 1),
        }
    }

    /// Every option of a heap of `n`, smallest take first.
    #[inline]
    pub fn options(self, n: u64) -> Box<dyn Iterator<Item = HeapMove> + 'a> {
        match self {
            Take::Code(code) => Box::new(code.options(n)),
            _ => Box::new((0..self.count(n)).map(move |i| self.nth(n, i))),
        }
    }

    /// Lower bounds on the positions and moves of a search over the multisets of
    /// heaps a heap of `n` reaches (`TakeAndBreak::search_floor`).
    pub fn search_floor(self, n: u64) -> (u64, u64) {
        match self {
            Take::Code(code) => code.search_floor(n),
            _ => (1, self.count(n)),
        }
    }

    /// Whether a heap of `n` has any move.
    #[inline]
    pub fn has_move(self, n: u64) -> bool {
        match self {
            Take::Code(code) => code.has_move(n),
            _ => self.count(n) > 0,
        }
    }

    /// Every legal take from a heap of `n`, smallest first, for rules that never
    /// split (the box searches, whose inner loops run here: no `HeapMove` is built).
    #[inline]
    pub fn takes(self, n: u64) -> impl Iterator<Item = u64> + 'a {
        (0..self.count(n)).map(move |i| match self {
            Take::Set(set) => set.set().elements()[i as usize],
            Take::Code(code) => code.nth(n, i).take,
            _ => i + 1,
        })
    }

    /// Why a heap of `size` may not make `option`, if it may not (after `check`).
    pub fn check_option(self, heap: usize, size: u64, option: &HeapMove) -> Result<()> {
        let allowed = match self {
            Take::Code(code) => code.allows(size, option.take, &option.into),
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
    pub fn check(self, heap: usize, take: u64) -> Result<()> {
        match self {
            Take::Any => Ok(()),
            Take::UpTo(limit) if take > limit => Err(Error::OverLimit { heap, take, limit }),
            Take::UpTo(_) => Ok(()),
            Take::Set(set) if set.set().elements().binary_search(&take).is_err() => {
                Err(Error::NotInSet {
                    heap,
                    take,
                    set: set.set().elements().to_vec(),
                })
            }
            Take::Set(_) => Ok(()),
            Take::Code(code) if take > code.max_take() => Err(Error::OverLimit {
                heap,
                take,
                limit: code.max_take(),
            }),
            Take::Code(_) => Ok(()),
        }
    }

    /// Every option of a heap of `n` that leaves Grundy value `target`, in the order of
    /// `options`, of those `scan` looks through (a code's heap may go by classes of
    /// options with equal values: `TakeAndBreak::scanned_options`). Without a set or
    /// a code there is at most one, found in O(1).
    pub fn to_grundy(self, n: u64, target: u64, scan: Scan) -> impl Iterator<Item = HeapMove> + 'a {
        let single = match self {
            Take::Any | Take::UpTo(_) => {
                theory::take_from(n, self.grundy(n), self.modulus(), target)
            }
            _ => None,
        };
        // A code's heaps past the scan limit go by classes of equal Grundy values.
        let scanned: Box<dyn Iterator<Item = HeapMove> + 'a> = match self {
            Take::Set(_) => self.options(n),
            Take::Code(code) => Box::new(code.scanned_options(n, code.grundy_reach(), scan)),
            _ => Box::new(std::iter::empty()),
        };
        let scan = scanned.filter(move |option| self.option_value(n, option) == target);
        single.map(HeapMove::take).into_iter().chain(scan)
    }

    /// The Grundy value an option of a heap of `n` leaves (XOR of the parts' values).
    #[inline]
    pub fn option_value(self, n: u64, option: &HeapMove) -> u64 {
        match self {
            Take::Code(code) => u64::from(code.option_value(n, option)),
            _ => self.grundy(n - option.take),
        }
    }
}
