//! What a search of a game on a graph or board may spend: the bytes of the table it
//! fills and of its stack (`max_memory`: MemoryError past it, with a message that
//! names the bound), and the time it runs before it hands control back with
//! `Error::Paused` so that its caller can save what it learned (`until`).
//!
//! The table is counted as hashbrown lays it out (a power of two of buckets, each an
//! entry and a control byte, kept at most 7/8 full) plus what its keys hold on the
//! heap; the check comes before the table grows, so that the bound is never passed.
use std::hash::Hash;
use std::time::Instant;

use rustc_hash::FxHashMap;

use crate::base::alloc;
use crate::base::error::{Error, Result};
use crate::base::interrupt::Poll;

/// The limits of one search.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// The most bytes the table a search fills and its stack may hold.
    pub max_memory: u64,
    /// When to stop with `Error::Paused`, if ever.
    pub until: Option<Instant>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_memory: u64::MAX,
            until: None,
        }
    }
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
            poll: Poll::until(budget.until),
        }
    }

    /// One step of work: `Interrupted` on Ctrl-C, `Paused` past the time given once
    /// the search has learned a value (so that a search asked again and again, however
    /// briefly, always gets on).
    #[inline]
    pub fn tick(&mut self) -> Result<()> {
        match self.poll.tick() {
            Err(Error::Paused) if !self.learned => Ok(()),
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

    pub fn release(&mut self, bytes: usize) {
        self.held -= bytes as u64;
    }

    /// Count the bytes of `table` (whose keys hold `key_heap` bytes each on the heap)
    /// as they will be once it holds `more` entries more.
    pub fn count<K, V>(&mut self, table: &FxHashMap<K, V>, key_heap: usize, more: usize) {
        let entry = std::mem::size_of::<(K, V)>() as u64 + 1;
        let len = table.len() + more;
        let wanted = len.max(table.capacity()) as u64;
        let buckets = (wanted.saturating_mul(8) / 7).next_power_of_two().max(4);
        let heap = (len as u64).saturating_mul(key_heap as u64);
        self.table = buckets.saturating_mul(entry).saturating_add(heap);
        self.entries = table.len();
    }

    /// Room for one more entry in `table`, within the bound.
    pub fn room<K: Eq + Hash, V>(
        &mut self,
        table: &mut FxHashMap<K, V>,
        key_heap: usize,
    ) -> Result<()> {
        self.count(table, key_heap, 1);
        self.within()?;
        self.learned = true;
        if table.len() == table.capacity() {
            table
                .try_reserve(1)
                .map_err(|_| alloc::too_large::<(K, V)>(table.len() + 1))?;
        }
        Ok(())
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
            });
        }
        Ok(())
    }
}
