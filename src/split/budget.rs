//! What a search of a game on a graph or board may spend: the bytes of the table it
//! fills and of its stack (`max_memory`: MemoryError past it, with a message that
//! names the bound, or room made by eviction: `evict`), and the time it runs before
//! it hands control back so that its caller can save what it learned (`until`: the
//! search unwinds as on Ctrl-C, and its entry point answers `Step::Paused`).
//!
//! The table is counted as hashbrown lays it out (a power of two of buckets, each an
//! entry and a control byte, kept at most 7/8 full) plus what its keys hold on the
//! heap; the check comes before the table grows, so that the bound is never passed.
use std::hash::Hash;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;

use super::table::{capacity_with, layout};
use crate::base::alloc;
use crate::base::error::{Error, Result};
use crate::base::interrupt::Poll;

/// Evictions in a row that keep no more than before, after which a search with
/// `Budget::evict` gives up with the bound's error.
pub const STALLS: u32 = 5;

/// The limits of one search.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// The most bytes the table a search fills and its stack may hold.
    pub max_memory: u64,
    /// When to pause, if ever (set by the entry points that answer a `Step`).
    pub until: Option<Instant>,
    /// Whether a search of a graph or board that reaches `max_memory` drops what it
    /// learned of its smallest components (normal play) or positions (misère play)
    /// and goes on (`Deletion::value`, `Deletion::misere_wins`), rather than stop
    /// with the bound's error.
    pub evict: bool,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_memory: u64::MAX,
            until: None,
            evict: false,
        }
    }
}

/// How a search given a time to pause at ends: with its answer, or paused, what it
/// learned kept for the next step (`made_room`: it had made room in place by
/// eviction, so the steps after it are made longer: `Evictions::stretch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<T> {
    Done(T),
    Paused { made_room: bool },
}

/// The most bytes of stack a search holds when no bound is given: a search deeper
/// than this is too deep for the machine (MemoryError, not an abort).
const HELD_BYTES: u64 = 1 << 32;

/// A search's account: its stack's bytes, its table's, and the clock.
pub struct Spend {
    budget: Budget,
    held: u64,
    /// What keys entered by this search hold on the heap past the table's estimate
    /// of a key (`count`'s `key_heap`): the canonical keys of large components.
    kept: u64,
    /// The bytes of the table and its entries when last counted.
    table: u64,
    entries: usize,
    /// Whether the search has entered a value in its table.
    learned: bool,
    /// Whether it has made room in place (`making_room`).
    made_room: bool,
    poll: Poll,
}

impl Spend {
    pub fn new(budget: Budget) -> Self {
        Spend {
            budget,
            held: 0,
            kept: 0,
            table: 0,
            entries: 0,
            learned: false,
            made_room: false,
            poll: Poll::until(budget.until),
        }
    }

    /// This account, its search stopping once `stop` is raised (one of several
    /// searches on different threads); `asks`: whether it asks about Ctrl-C too.
    pub fn watching(self, stop: Arc<AtomicBool>, asks: bool) -> Self {
        Spend {
            poll: self.poll.watching(stop, asks),
            ..self
        }
    }

    /// Whether the search makes room past its bound (`Budget::evict`).
    pub fn evicts(&self) -> bool {
        self.budget.evict
    }

    /// The bound on its bytes.
    pub fn bound(&self) -> u64 {
        self.budget.max_memory
    }

    /// The poll its steps tick (for work in the middle of a search).
    pub fn poll(&mut self) -> &mut Poll {
        &mut self.poll
    }

    /// Room is made in place: the search's pause says so (`Error::Paused`), for a
    /// pause drops its stack, which a table too small to hold what the stack stood on
    /// cannot give back, and a run asked again in steps no longer than this one might
    /// never end (`Deletion::value` gives the next step twice as long).
    pub fn making_room(&mut self) {
        self.made_room = true;
        self.poll.making_room();
    }

    /// The bytes on the stack.
    pub fn held(&self) -> u64 {
        self.held
    }

    /// Set the bytes on the stack back to `held`, as a search abandoned leaves it.
    pub fn set_held(&mut self, held: u64) {
        self.held = held;
    }

    /// One step of work: `Interrupted` on Ctrl-C, `Paused` past the time given once
    /// the search has learned a value (so that a search asked again and again, however
    /// briefly, always gets on).
    #[inline]
    pub fn tick(&mut self) -> Result<()> {
        match self.poll.tick() {
            Err(Error::Paused { .. }) if !self.learned => Ok(()),
            done => done,
        }
    }

    /// `bytes` more held by a key just entered in the table, for good.
    pub fn keep(&mut self, bytes: usize) -> Result<()> {
        self.kept = self.kept.saturating_add(bytes as u64);
        self.within()
    }

    /// `bytes` more on the stack.
    pub fn charge(&mut self, bytes: usize) -> Result<()> {
        self.held = self.held.saturating_add(bytes as u64);
        self.within()?;
        if self.held > HELD_BYTES {
            return Err(alloc::too_large::<u8>(self.held as usize));
        }
        Ok(())
    }

    /// Whether `bytes` more on the stack would stay within the bound.
    pub fn fits(&self, bytes: usize) -> bool {
        let needed = self.held.saturating_add(bytes as u64);
        needed.saturating_add(self.table).saturating_add(self.kept) <= self.budget.max_memory
    }

    pub fn release(&mut self, bytes: usize) {
        self.held -= bytes as u64;
    }

    /// Count the bytes of `table` (whose keys hold `key_heap` bytes each on the heap)
    /// as they are.
    pub fn count<K, V>(&mut self, table: &FxHashMap<K, V>, key_heap: usize) {
        self.counted(layout::<K, V>(table.capacity()), table.len(), 0, key_heap);
    }

    /// Room for one more entry in `table`, within the bound.
    pub fn room<K: Eq + Hash, V>(
        &mut self,
        table: &mut FxHashMap<K, V>,
        key_heap: usize,
    ) -> Result<()> {
        self.counted(
            layout::<K, V>(capacity_with(table)),
            table.len(),
            1,
            key_heap,
        );
        self.within()?;
        self.learned = true;
        if table.len() == table.capacity() {
            table
                .try_reserve(1)
                .map_err(|_| alloc::too_large::<(K, V)>(table.len() + 1))?;
        }
        Ok(())
    }

    /// Whether a table of `entries` may take one more, its buckets then taking
    /// `bytes` (`Values::bytes_with`).
    pub fn room_for(&mut self, bytes: u64, entries: usize, key_heap: usize) -> Result<()> {
        self.counted(bytes, entries, 1, key_heap);
        self.within()?;
        self.learned = true;
        Ok(())
    }

    /// A table of `bytes` of buckets and `entries` (`more` about to come), whose keys
    /// hold `key_heap` bytes each on the heap.
    pub fn counted(&mut self, bytes: u64, entries: usize, more: usize, key_heap: usize) {
        let heap = ((entries + more) as u64).saturating_mul(key_heap as u64);
        self.table = bytes.saturating_add(heap);
        self.entries = entries;
    }

    fn within(&self) -> Result<()> {
        let needed = self
            .held
            .saturating_add(self.table)
            .saturating_add(self.kept);
        if needed > self.budget.max_memory {
            return Err(Error::MemoryBound {
                needed,
                bound: self.budget.max_memory,
                entries: self.entries,
                made_room: self.made_room,
            });
        }
        Ok(())
    }
}

/// The most the evictions of a search have kept (the sizes of the values kept,
/// summed), and how many since kept no more; and how many of its steps paused after
/// making room in place, each of which doubles the steps after it.
#[derive(Debug, Default, Clone, Copy)]
pub struct Evictions {
    pub most: u64,
    pub stalls: u32,
    pub doublings: u32,
}

impl Evictions {
    /// `budget` with its step (`Budget::until`, counted from now) doubled once for
    /// each step that paused after making room in place: a pause drops the search's
    /// stack, which a table that had to make room cannot give back, so steps no
    /// longer than the last might never see the search end, and steps that grow do
    /// (a run with a checkpoint still saves between them). A step of no time (a
    /// checkpoint's `every=0`) grows from a millisecond.
    pub fn stretch(&self, budget: Budget) -> Budget {
        let Some(until) = budget.until.filter(|_| self.doublings > 0) else {
            return budget;
        };
        let now = Instant::now();
        let step = until
            .saturating_duration_since(now)
            .max(Duration::from_millis(1));
        let longer = 2u32
            .checked_pow(self.doublings)
            .and_then(|times| step.checked_mul(times))
            .and_then(|step| now.checked_add(step));
        Budget {
            until: longer,
            ..budget
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each step that paused after making room in place doubles the steps after it;
    /// past what an instant can hold, the step has no end.
    #[test]
    fn steps_grow_after_making_room() {
        let step = Duration::from_secs(10);
        let budget = Budget {
            until: Some(Instant::now() + step),
            ..Budget::default()
        };
        for (doublings, times) in [(0, 1), (1, 2), (3, 8)] {
            let went = Evictions {
                doublings,
                ..Evictions::default()
            };
            let until = went.stretch(budget).until.unwrap();
            let left = until.saturating_duration_since(Instant::now());
            // Within a second of the step asked for: the clock moved between the calls.
            assert!(left <= step * times && left + Duration::from_secs(1) > step * times);
        }
        let went = Evictions {
            doublings: 40,
            ..Evictions::default()
        };
        assert_eq!(went.stretch(budget).until, None);
        assert_eq!(went.stretch(Budget::default()).until, None);
        // A step of no time grows from a millisecond.
        let now = Budget {
            until: Some(Instant::now()),
            ..Budget::default()
        };
        let went = Evictions {
            doublings: 10,
            ..Evictions::default()
        };
        let left = went.stretch(now).until.unwrap() - Instant::now();
        assert!(left > Duration::from_millis(512) && left <= Duration::from_millis(1024));
    }
}
