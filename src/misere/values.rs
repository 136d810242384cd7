//! Misère Grundy values of single heaps (CGSuite's `MisereNimValue`) by one search
//! over every multiset of heaps below them, numbered by rank (`ranks`). A heap's
//! misère value is the mex of its options' (1 for no move), and an option, a sum of
//! heaps, is valued as a game of its own, so every multiset below is labelled. A
//! move replaces a part by smaller ones, so every option comes before its position
//! in rank order, and a pass in that order labels them all: consecutive positions
//! have options near one another, which keeps the pass in cache (an order by levels
//! of the heaps' total, whose positions do not depend on one another, cost 2.5 times
//! the work). The cores share the pass as a pipeline (`label`).
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::Arc;

use super::genus;
use super::ranks::{too_large, Space, Summary, Walk};
use crate::base::alloc;
use crate::base::error::Result;
use crate::base::interrupt::Poll;
use crate::base::mex;
use crate::heap::code::TakeAndBreak;

/// Positions searched by default: a GiB of values at most (a byte each while every
/// value is below 256). Kayles to heap 99 needs p(100), about 1.9 * 10**8.
pub const DEFAULT_MAX_POSITIONS: u64 = 1 << 30;

/// Misère values of heaps `0 .. count`, refused past `max_positions` positions;
/// `done(k)` once the first `k` heaps' values are known.
pub fn of_heaps(
    rule: &Arc<TakeAndBreak>,
    count: u64,
    max_positions: u64,
    done: &mut dyn FnMut(usize),
) -> Result<Vec<u32>> {
    let Some(top) = count.checked_sub(1) else {
        return Ok(Vec::new());
    };
    if count > max_positions {
        // Each heap is a position of the search: refused before any work.
        return Err(too_large(top, max_positions));
    }
    let Some(space) = Space::new(rule, top, max_positions)? else {
        // Few positions but many heaps: the hashed search's genus has the values.
        let mut heaps = alloc::with_capacity(count as usize)?;
        heaps.extend(0..count);
        let genera = genus::of_heaps(rule, &heaps, max_positions, done)?;
        return Ok(genera.iter().map(|g| g.misere_value()).collect());
    };
    let out = match label::<Byte>(&space, done)? {
        Some(values) => heap_values::<Byte>(&space, &values, count)?,
        // A value past 255: again with room for any.
        None => {
            let values = label::<Word>(&space, done)?.expect("a word holds any mex");
            heap_values::<Word>(&space, &values, count)?
        }
    };
    done(count as usize);
    Ok(out)
}

/// The values of heaps `0 .. count` among every position's.
fn heap_values<V: Value>(space: &Space, values: &[V::Cell], count: u64) -> Result<Vec<u32>> {
    let mut out = alloc::with_capacity(count as usize)?;
    out.extend((0..count).map(|n| match space.part_of(n) {
        Some(part) => V::load(&values[space.single(part)]),
        None => 1,
    }));
    Ok(out)
}

/// Every position's misère value, by rank; `None` if one does not fit in `V`.
///
/// The positions whose largest part is the same form a block of consecutive ranks;
/// the cores take blocks in turn, each walking its block in rank order, and a core
/// that needs a value of an earlier block still being walked waits for it (a move
/// leaves smaller parts, so no block needs a later one). This thread is one of the
/// cores; it also polls Ctrl-C and reports the heaps done.
fn label<V: Value>(space: &Space, done: &mut dyn FnMut(usize)) -> Result<Option<Vec<V::Cell>>> {
    let size = space.len() as usize;
    let mut values: Vec<V::Cell> = alloc::with_capacity(size)?;
    values.extend((0..size).map(|_| V::cell()));
    // The empty position, rank 0, has no move.
    V::store(&values[0], 1);
    let blocks = space.weights.len();
    let mut starts = alloc::with_capacity(blocks + 1)?;
    starts.extend((0..=blocks).map(|part| space.single(part as u32) as u64));
    let mut labelled = alloc::with_capacity(blocks)?;
    labelled.extend(starts[..blocks].iter().map(|&start| AtomicU64::new(start)));
    let board = Board::<V> {
        space,
        values: &values,
        starts,
        labelled,
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let helpers = cores.min(blocks).saturating_sub(1);
    let mut poll = Poll::default();
    let mut checks = 0u32;
    // Ctrl-C at every position; progress now and then, or at once (`now`).
    let mut check = |now: bool| {
        poll.tick()?;
        checks = checks.wrapping_add(1);
        if now || checks.is_multiple_of(1 << 16) {
            done(board.heaps_done());
        }
        Ok(())
    };
    let (mine, theirs) = std::thread::scope(|scope| {
        // A helper the system will not start is one core fewer, not an error.
        let handles: Vec<_> = (0..helpers)
            .filter_map(|_| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, || board.work(&mut || Ok(())))
                    .ok()
            })
            .collect();
        let mut mine = board.work(&mut || check(false));
        // Keep polling while the others finish their blocks.
        while mine.is_ok() && !handles.iter().all(|h| h.is_finished()) {
            if let Err(err) = check(true) {
                board.stop.store(true, Ordering::Relaxed);
                mine = Err(err);
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let theirs: Vec<_> = handles.into_iter().map(|h| h.join()).collect();
        (mine, theirs)
    });
    let mut fits = mine?;
    for result in theirs {
        match result {
            Ok(result) => fits &= result?,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }
    Ok(fits.then_some(values))
}

/// What the cores share: the values, and how far each block is labelled.
struct Board<'a, V: Value> {
    space: &'a Space,
    values: &'a [V::Cell],
    /// `starts[f]`: the first rank of block `f` (largest part `f`); then the end.
    starts: Vec<u64>,
    /// Every rank of a block below its entry is labelled.
    labelled: Vec<AtomicU64>,
    /// The next block to take.
    next: AtomicUsize,
    /// Set when a core stops early (a value too large, an error, Ctrl-C).
    stop: AtomicBool,
}

/// How often a core publishes how far its block is labelled, in positions.
const PUBLISH: u64 = 64;

impl<V: Value> Board<'_, V> {
    /// Label blocks until none is left; false if stopped early by another core or
    /// by a value too large for `V`. `check` runs at every position.
    fn work(&self, check: &mut dyn FnMut() -> Result<()>) -> Result<bool> {
        let result = self.work_blocks(check);
        if !matches!(result, Ok(true)) {
            self.stop.store(true, Ordering::Relaxed);
        }
        result
    }

    fn work_blocks(&self, check: &mut dyn FnMut() -> Result<()>) -> Result<bool> {
        let space = self.space;
        let mut walk = Walk::new(space);
        let mut summary = Summary::default();
        let mut seen = Seen::default();
        // Every rank below this is labelled: the empty position, blocks found complete.
        let mut safe = self.starts[0];
        loop {
            let block = self.next.fetch_add(1, Ordering::Relaxed);
            if block >= self.labelled.len() {
                return Ok(true);
            }
            let (start, end) = (self.starts[block], self.starts[block + 1]);
            walk.start_at(space, block as u32)?;
            loop {
                check()?;
                let rank = walk.rank();
                if rank.is_multiple_of(4096) && self.stop.load(Ordering::Relaxed) {
                    return Ok(false);
                }
                space.summarise(&walk, &mut summary)?;
                seen.clear();
                let parts = &walk.parts;
                for k in 0..parts.len() {
                    // Equal parts have the same options: the last of a run stands for all.
                    if k + 1 < parts.len() && parts[k + 1] == parts[k] {
                        continue;
                    }
                    for leaves in space.options(parts[k]) {
                        let child = space.rank_after(&walk, &summary, k, leaves);
                        if child < safe || child >= start {
                            // Labelled: in a complete block, or earlier in this one.
                        } else if !self.wait_for(child, &mut safe, check)? {
                            return Ok(false);
                        }
                        seen.mark(V::load(&self.values[child as usize]));
                    }
                }
                if !V::store(&self.values[rank as usize], seen.mex()) {
                    return Ok(false);
                }
                let next = rank + 1;
                if next == end {
                    self.labelled[block].store(end, Ordering::Release);
                    break;
                }
                if next.is_multiple_of(PUBLISH) {
                    self.labelled[block].store(next, Ordering::Release);
                }
                walk.advance(space)?;
            }
        }
    }

    /// Wait until `rank`, in an earlier block that another core walks, is labelled;
    /// false if the work stopped meanwhile. Moves `safe` past the blocks complete.
    #[cold]
    fn wait_for(
        &self,
        rank: u64,
        safe: &mut u64,
        check: &mut dyn FnMut() -> Result<()>,
    ) -> Result<bool> {
        let block = self.starts.partition_point(|&s| s <= rank) - 1;
        while self.labelled[block].load(Ordering::Acquire) <= rank {
            if self.stop.load(Ordering::Relaxed) {
                return Ok(false);
            }
            check()?;
            std::hint::spin_loop();
        }
        let mut first = self.starts.partition_point(|&s| s <= *safe) - 1;
        while first < self.labelled.len()
            && self.labelled[first].load(Ordering::Acquire) == self.starts[first + 1]
        {
            first += 1;
        }
        *safe = self.starts[first];
        Ok(true)
    }

    /// How many heaps' values are known: those of the blocks complete from the first.
    fn heaps_done(&self) -> usize {
        let complete = (0..self.labelled.len())
            .take_while(|&b| self.labelled[b].load(Ordering::Relaxed) == self.starts[b + 1])
            .count();
        match complete.checked_sub(1) {
            Some(last) => self.space.heap(last as u32) as usize + 1,
            None => 0,
        }
    }
}

/// Which values the options of one position reach (values past 255 in a list).
#[derive(Default)]
struct Seen {
    small: [u64; 4],
    large: Vec<u32>,
}

impl Seen {
    fn clear(&mut self) {
        self.small = [0; 4];
        self.large.clear();
    }

    #[inline]
    fn mark(&mut self, v: u32) {
        if v < 256 {
            self.small[(v / 64) as usize] |= 1 << (v % 64);
        } else {
            self.large.push(v);
        }
    }

    fn mex(&mut self) -> u32 {
        match mex::of_bits(self.small) {
            256 => mex::of_list(&mut self.large, 256),
            below => below,
        }
    }
}

/// How values are kept: shared by the cores (each position written once, by one
/// core, and read by others only once published), a byte each while they are small.
trait Value {
    type Cell: Send + Sync;
    fn cell() -> Self::Cell;
    /// False if `v` does not fit.
    fn store(cell: &Self::Cell, v: u32) -> bool;
    fn load(cell: &Self::Cell) -> u32;
}

struct Byte;
struct Word;

impl Value for Byte {
    type Cell = AtomicU8;
    fn cell() -> AtomicU8 {
        AtomicU8::new(0)
    }
    fn store(cell: &AtomicU8, v: u32) -> bool {
        let Ok(v) = u8::try_from(v) else {
            return false;
        };
        cell.store(v, Ordering::Relaxed);
        true
    }
    #[inline]
    fn load(cell: &AtomicU8) -> u32 {
        u32::from(cell.load(Ordering::Relaxed))
    }
}

impl Value for Word {
    type Cell = AtomicU32;
    fn cell() -> AtomicU32 {
        AtomicU32::new(0)
    }
    fn store(cell: &AtomicU32, v: u32) -> bool {
        cell.store(v, Ordering::Relaxed);
        true
    }
    #[inline]
    fn load(cell: &AtomicU32) -> u32 {
        cell.load(Ordering::Relaxed)
    }
}
