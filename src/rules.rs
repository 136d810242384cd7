//! The rules of a take-away game: how it ends and how much one turn may take.
use std::sync::Arc;

use crate::error::{Error, Result};
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
            TakeLimit::None | TakeLimit::Set(_) => {}
            TakeLimit::All(k) => check_limit(*k, None)?,
            TakeLimit::PerHeap(takes) => {
                for (heap, take) in takes.iter().enumerate() {
                    if let HeapTake::UpTo(k) = take {
                        check_limit(*k, Some(heap))?;
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
            TakeLimit::PerHeap(takes) => match &takes[heap] {
                HeapTake::Any => Take::Any,
                HeapTake::UpTo(k) => Take::UpTo(*k),
                HeapTake::Set(set) => Take::Set(set),
            },
        }
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
    pub fn has_closed_form(&self) -> bool {
        !self.misere || !self.has_general_sets()
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
}

impl<'a> Take<'a> {
    /// The Grundy value of a heap of `n`.
    #[inline]
    pub fn grundy(self, n: u64) -> u64 {
        match self {
            Take::Any => n,
            Take::UpTo(k) => theory::grundy(n, Some(k)),
            Take::Set(set) => u64::from(set.grundy(n)),
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
        }
    }

    /// The `i`-th smallest legal take (from 0), for `i < count(n)`.
    #[inline]
    pub fn nth(self, i: u64) -> u64 {
        match self {
            Take::Set(set) => set.set().elements()[i as usize],
            _ => i + 1,
        }
    }

    /// Every legal take from a heap of `n`, smallest first.
    #[inline]
    pub fn takes(self, n: u64) -> impl Iterator<Item = u64> + 'a {
        (0..self.count(n)).map(move |i| self.nth(i))
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
        }
    }

    /// Every take from a heap of `n` that leaves Grundy value `target`, smallest first.
    /// With no set there is at most one, found in O(1).
    pub fn to_grundy(self, n: u64, target: u64) -> impl Iterator<Item = u64> + 'a {
        let (single, set) = match self {
            Take::Set(set) => (None, Some(set)),
            _ => (
                theory::take_from(n, self.grundy(n), self.modulus(), target),
                None,
            ),
        };
        let from_set = set.into_iter().flat_map(move |set| {
            set.set()
                .elements()
                .iter()
                .take_while(move |&&s| s <= n)
                .filter(move |&&s| u64::from(set.grundy(n - s)) == target)
                .copied()
        });
        single.into_iter().chain(from_set)
    }
}
