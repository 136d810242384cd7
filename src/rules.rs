//! The rules of a take-away game: how it ends and how much one turn may take.
use crate::error::{Error, Result};

/// How many objects one turn may take from a heap.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum TakeLimit {
    /// Any number, up to the whole heap (plain Nim).
    #[default]
    None,
    /// At most this many from any heap.
    All(u64),
    /// One limit per heap; `None` means no limit on that heap.
    PerHeap(Vec<Option<u64>>),
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
            TakeLimit::None => {}
            TakeLimit::All(k) => check_limit(*k, None)?,
            TakeLimit::PerHeap(ks) => {
                for (heap, k) in ks.iter().enumerate() {
                    if let Some(k) = k {
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

    /// The take limit of one heap (`None`: no limit). Call `check_heaps` first.
    #[inline]
    pub fn limit_for(&self, heap: usize) -> Option<u64> {
        match &self.limit {
            TakeLimit::None => None,
            TakeLimit::All(k) => Some(*k),
            TakeLimit::PerHeap(ks) => ks[heap],
        }
    }

    /// Per-heap limits must come one per heap.
    pub fn check_heaps(&self, heaps: usize) -> Result<()> {
        match &self.limit {
            TakeLimit::PerHeap(ks) if ks.len() != heaps => Err(Error::LimitCount {
                limits: ks.len(),
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
