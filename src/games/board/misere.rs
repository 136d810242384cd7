//! Misère play on the vertex-deletion engine: outcomes searched over whole
//! positions, the multisets of their components' keys.
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use smallvec::SmallVec;

use super::canon;
use super::graph::Deletion;
use super::graph::Misere;
use super::kinds::{Canon, Moves};
use super::sets::{heap_of, is_empty, members, vertices_of, Bits, Key};
use crate::base::alloc;
use crate::base::error::{Error, Result};
use crate::base::interrupt::{self};
use crate::split::budget::{Budget, Spend};
use crate::split::parallel;
use crate::split::table::remember;
use crate::split::table::{self};

impl Deletion {
    /// Whether the player to move wins `set` in misère play, within `budget` (with
    /// `budget.evict`, room made past it: `misere_room`); `report` hears now and then
    /// how many positions are settled. A large position is searched on
    /// `parallel::threads()` threads.
    pub fn misere_wins(
        &self,
        set: &[u64],
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<bool> {
        if !self.has_move(set) {
            return Ok(true); // no move at all wins misère play, without a table
        }
        let size: u32 = set.iter().map(|w| w.count_ones()).sum();
        let mut recent = Recent::new(size)?;
        let start = self.position(set, &mut recent);
        let threads = parallel::threads();
        if threads > 1 && size >= parallel::FROM_SIZE {
            return self.misere_wins_on(threads, start, size, &mut recent, budget, report);
        }
        self.misere_search(start, &mut recent, Spend::new(budget), report)
    }

    /// What the table knows of `position`, by its key or its canonical key (`alias`,
    /// made here).
    pub(super) fn misere_known(&self, position: &Whole) -> (Option<bool>, Option<Box<[Key]>>) {
        let table = || self.misere.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(&won) = table().get(&position.key[..]) {
            return (Some(won), None);
        }
        let alias = self.misere_alias(position);
        let won = alias.as_ref().and_then(|a| table().get(a).copied());
        (won, alias)
    }

    /// `misere_wins` on `threads` threads: they take the options of `start` one at
    /// a time, each searching its own, all sharing the table; an option that is lost
    /// ends the search for all. The table's bound holds to within the stacks of the
    /// threads but one (each thread counts the table and its own stack).
    pub(super) fn misere_wins_on(
        &self,
        threads: usize,
        start: Whole,
        size: u32,
        recent: &mut Recent,
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<bool> {
        if let (Some(won), _) = self.misere_known(&start) {
            return Ok(won);
        }
        let root = MisereFrame::new(self, start, recent);
        if root.options.is_empty() {
            return Ok(true); // no move at all wins misère play
        }
        // Each position once (a board's symmetric moves lead to one), the known ones
        // not at all: one known loss settles it.
        let mut options: Vec<&Whole> = Vec::new();
        {
            let known = self.misere.lock().unwrap_or_else(PoisonError::into_inner);
            let mut seen = std::collections::HashSet::new();
            for option in &root.options {
                match known.get(&option.key[..]) {
                    Some(false) => return Ok(true),
                    Some(true) => {}
                    None if seen.insert(&option.key) => options.push(option),
                    None => {}
                }
            }
        }
        let stop = Arc::new(AtomicBool::new(false));
        let (next, lost) = (AtomicUsize::new(0), AtomicBool::new(false));
        let failure = Mutex::new(None);
        let work = |asks: bool| -> Result<()> {
            let mut recent = Recent::new(size)?;
            let report: &(dyn Fn(usize) + Sync) = if asks { report } else { &|_| {} };
            loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= options.len() || stop.load(Ordering::SeqCst) {
                    return Ok(());
                }
                let spend = Spend::new(budget).watching(stop.clone(), asks);
                if !self.misere_search(options[i].clone(), &mut recent, spend, report)? {
                    lost.store(true, Ordering::SeqCst);
                    stop.store(true, Ordering::SeqCst);
                }
            }
        };
        let fail = |error| {
            // An error after the search ended is that thread's abandoning it; the
            // user's Ctrl-C is never lost to another thread's error.
            if !stop.swap(true, Ordering::SeqCst) || error == Error::Interrupted {
                *failure.lock().unwrap_or_else(PoisonError::into_inner) = Some(error);
            }
        };
        std::thread::scope(|scope| {
            let caller = std::thread::current();
            let handles: Vec<_> = (1..threads)
                .map(|_| {
                    let (work, fail, caller) = (&work, &fail, caller.clone());
                    scope.spawn(move || {
                        if let Err(error) = work(false) {
                            fail(error);
                        }
                        caller.unpark();
                    })
                })
                .collect();
            if let Err(error) = work(true) {
                fail(error);
            }
            // Ctrl-C while the others finish the options in their hands.
            if interrupt::wait_until(|| handles.iter().all(|h| h.is_finished())) {
                fail(Error::Interrupted);
            }
            for handle in handles {
                if let Err(panic) = handle.join() {
                    std::panic::resume_unwind(panic);
                }
            }
        });
        if let Some(error) = failure.into_inner().unwrap_or_else(PoisonError::into_inner) {
            return Err(error);
        }
        let won = lost.load(Ordering::SeqCst);
        let mut spend = Spend::new(budget);
        let mut known = self.misere.lock().unwrap_or_else(PoisonError::into_inner);
        self.misere_room(&mut spend, &mut known, root.key.len())?;
        remember(&mut known, root.key, won, report);
        Ok(won)
    }

    /// `misere_wins` of `start` on this thread, its account `spend`.
    pub(super) fn misere_search(
        &self,
        start: Whole,
        recent: &mut Recent,
        mut spend: Spend,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<bool> {
        let (known, alias) = self.misere_known(&start);
        if let Some(won) = known {
            return Ok(won);
        }
        let table = || self.misere.lock().unwrap_or_else(PoisonError::into_inner);
        let mut first = MisereFrame::new(self, start, recent);
        first.alias = alias;
        spend.count(&table(), self.misere_key_heap(first.key.len()));
        self.misere_charge(&mut spend, first.size(), first.key.len())?;
        let mut stack = vec![first];
        // What the search of the option `next` of the frame on top found: the frame
        // learns it from the search, not from the table (which may have dropped it).
        let mut answer = None;
        while let Some(frame) = stack.last_mut() {
            spend.tick()?;
            // Every option looked up before any is searched: one known loss settles it.
            let mut settled = frame.options.is_empty() || answer == Some(false);
            if answer.take() == Some(true) {
                frame.next += 1;
            }
            let mut unknown = None;
            if !settled {
                let known = table();
                for (i, option) in frame.options.iter().enumerate().skip(frame.next) {
                    match known.get(&option.key[..]) {
                        Some(false) => {
                            settled = true;
                            break;
                        }
                        Some(true) if unknown.is_none() => frame.next = i + 1,
                        Some(true) => {}
                        None => unknown = unknown.or(Some(i)),
                    }
                }
            }
            let won = if settled {
                // No move at all wins misère play; a move to a loss wins.
                Some(true)
            } else if let Some(i) = unknown {
                // Looked up again by its canonical key before it is searched.
                let option = &frame.options[i];
                let alias = self.misere_alias(option);
                let aliased = alias.as_ref().and_then(|a| table().get(a).copied());
                if let Some(won) = aliased {
                    let mut known = table();
                    self.misere_room(&mut spend, &mut known, option.key.len())?;
                    remember(&mut known, Box::from(&option.key[..]), won, report);
                    answer = Some(won);
                    continue;
                }
                let mut child = MisereFrame::new(self, option.clone(), recent);
                child.alias = alias;
                self.misere_charge(&mut spend, child.size(), child.key.len())?;
                alloc::grow(&mut stack)?;
                stack.push(child);
                None
            } else {
                Some(false)
            };
            if let Some(won) = won {
                let frame = stack.pop().expect("the loop holds a frame");
                spend.release(self.bytes(frame.size()));
                let mut known = table();
                self.misere_room(&mut spend, &mut known, frame.key.len())?;
                remember(&mut known, frame.key, won, report);
                if let Some(alias) = frame.alias {
                    let typical = self.misere_key_heap(alias.len());
                    self.misere_room(&mut spend, &mut known, alias.len())?;
                    let heap = alias
                        .iter()
                        .map(|k| std::mem::size_of::<Key>() + heap_of(k));
                    spend.keep(heap.sum::<usize>().saturating_sub(typical))?;
                    remember(&mut known, alias, won, report);
                }
                if stack.is_empty() {
                    return Ok(won);
                }
                answer = Some(won);
            }
        }
        unreachable!("the last frame returns")
    }

    /// Room in the misère table (`known`) for one more position, of `parts`
    /// components, within `spend`'s bound (made past it with `spend.evicts()`:
    /// `misere_evict`).
    pub(super) fn misere_room(
        &self,
        spend: &mut Spend,
        known: &mut Misere,
        parts: usize,
    ) -> Result<()> {
        let key_heap = self.misere_key_heap(parts);
        match spend.room(known, key_heap) {
            Err(Error::MemoryBound { .. }) if spend.evicts() => {
                self.misere_evict(spend, known, parts)?;
                spend.room(known, key_heap)
            }
            done => done,
        }
    }

    /// `spend` charged with a frame of `sets` sets of vertices, the position's key of
    /// `parts` components (room made past the bound with `spend.evicts()`).
    pub(super) fn misere_charge(&self, spend: &mut Spend, sets: usize, parts: usize) -> Result<()> {
        let bytes = self.bytes(sets);
        match spend.charge(bytes) {
            Err(Error::MemoryBound { .. }) if spend.evicts() => {
                spend.release(bytes);
                let mut known = self.misere.lock().unwrap_or_else(PoisonError::into_inner);
                self.misere_evict(spend, &mut known, parts)?;
                spend.charge(bytes)
            }
            done => done,
        }
    }

    /// Drop from the misère table (`known`) the positions of the fewest vertices
    /// (`table::evict`, each key counted as holding the heap of the most components
    /// a key there or the next, of `parts`, has: as a search counts it), and count it
    /// anew in `spend`. In the middle of a search: no frame relies on the table for
    /// what it learned (`answer`), so any entry may go.
    pub(super) fn misere_evict(
        &self,
        spend: &mut Spend,
        known: &mut Misere,
        parts: usize,
    ) -> Result<()> {
        let most = known.keys().map(|k| k.len()).max().unwrap_or(0).max(parts);
        let key_heap = self.misere_key_heap(most);
        let bound = spend.bound();
        spend.making_room();
        table::evict(known, bound, key_heap, |key| vertices_of(key), spend.poll())?;
        spend.count(known, key_heap);
        Ok(())
    }

    /// A whole position's key by its components' canonical keys (general graphs;
    /// boards' keys are canonical already).
    pub(super) fn misere_alias(&self, position: &Whole) -> Option<Box<[Key]>> {
        if self.canon != Canon::Labels {
            return None;
        }
        let mut keys: Vec<Key> = position
            .parts
            .iter()
            .map(|p| canon::canonical(p, &self.adjacency))
            .collect();
        keys.sort_unstable();
        Some(keys.into_boxed_slice())
    }

    /// The bytes a component's key holds on the heap (none while it fits in place).
    pub(super) fn key_heap(&self) -> usize {
        let words = match self.canon {
            // Keys by vertex set, and canonical keys of components of up to 64
            // vertices; larger ones are counted as they are entered (`heap_of`).
            Canon::Labels => {
                (1 + self.vertices.div_ceil(64)).max(canon::key_words(self.vertices.min(64)))
            }
            Canon::Grid { rows, cols } => 1 + (rows * cols).div_ceil(64),
        };
        if words > 3 {
            words * 8
        } else {
            0
        }
    }

    /// The bytes a whole position's key of `parts` components holds on the heap.
    pub(super) fn misere_key_heap(&self, parts: usize) -> usize {
        parts * (std::mem::size_of::<Key>() + self.key_heap())
    }

    /// The bytes of `sets` sets of vertices.
    pub(super) fn bytes(&self, sets: usize) -> usize {
        sets.saturating_mul(self.vertices.div_ceil(64) * 8)
    }

    /// A whole position for misère search: the components of `set` and their keys.
    pub(super) fn position(&self, set: &[u64], recent: &mut Recent) -> Whole {
        let mut keyed = Keyed::new();
        self.keyed(set, recent, &mut keyed);
        Whole::of(keyed)
    }

    /// The components of `set`, each with its key in misère play: a component that is
    /// * (every move ends it) keyed as * whatever its shape.
    pub(super) fn keyed(&self, set: &[u64], recent: &mut Recent, out: &mut Keyed) {
        for part in self.components(set) {
            let key = recent.key(&part, || {
                if self.is_star(&part) {
                    SmallVec::from_elem(STAR, 1)
                } else {
                    self.key(&part)
                }
            });
            out.push((part, key));
        }
    }

    /// Whether `part` (a component with a move) is *: each of its moves leaves no
    /// move in it. Asked of small components only, where a check is cheap.
    pub(super) fn is_star(&self, part: &[u64]) -> bool {
        members(part).nth(STAR_MOST).is_none()
            && self.options(part).iter().all(|o| !self.has_move(o))
    }

    /// Whether `set` has a move left.
    pub(super) fn has_move(&self, set: &[u64]) -> bool {
        match self.moves {
            Moves::Neighbourhood => !is_empty(set),
            Moves::Edge => {
                members(set).any(|v| self.adjacency[v].iter().zip(set).any(|(a, s)| a & s != 0))
            }
        }
    }
}

/// The components of at most this many vertices are checked for being *.
pub(super) const STAR_MOST: usize = 8;

/// The misère key of a component that is * (keys of components hold two words or
/// more).
pub(super) const STAR: u64 = u64::MAX - 1;

/// A whole position: its components (as vertex sets) and its key, the components'
/// keys sorted, `parts[i]` the component keyed `key[i]`.
#[derive(Clone)]
pub(super) struct Whole {
    pub(super) parts: SmallVec<[Bits; 2]>,
    pub(super) key: SmallVec<[Key; 2]>,
}

/// The misère keys of components met lately, by vertex set: the options of a
/// position's options overlap, so a component recurs far more often than it is new.
pub(super) struct Recent(pub(super) Vec<(Bits, Key)>);

impl Recent {
    /// Room for the components of a search from a position of `vertices`: a power of
    /// two, from 2**4 for the smallest (searched by the thousand by `winning_moves`
    /// and the tests) to 2**14 from 28 vertices.
    pub(super) fn new(vertices: u32) -> Result<Self> {
        let slots = 1 << (vertices / 2).clamp(4, 14);
        Ok(Recent(alloc::filled(slots, (Bits::new(), Key::new()))?))
    }

    /// The key of `part`, made by `make` unless remembered.
    pub(super) fn key(&mut self, part: &Bits, make: impl FnOnce() -> Key) -> Key {
        let hash = part
            .iter()
            .fold(0u64, |h, &w| (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let slots = self.0.len();
        let slot = &mut self.0[(hash >> 50) as usize % slots];
        if slot.0 != *part {
            *slot = (part.clone(), make());
        }
        slot.1.clone()
    }
}

/// Components with their keys (on the stack while they are few).
pub(super) type Keyed = SmallVec<[(Bits, Key); 4]>;

impl Whole {
    /// The position of the keyed components `keyed`, with the components that are *
    /// cancelled in pairs. In misère play too, G + * + * has the outcome of G:
    /// whoever wins G answers a move in one * by a move in the other, and if G ends
    /// first with both left, the loser of G must take one and the winner the other.
    pub(super) fn of(mut keyed: Keyed) -> Self {
        let is_star = |key: &Key| key[..] == [STAR];
        let stars = keyed.iter().filter(|(_, key)| is_star(key)).count();
        let mut dropped = stars - stars % 2;
        keyed.retain(|(_, key)| {
            let drop = dropped > 0 && is_star(key);
            dropped -= usize::from(drop);
            !drop
        });
        keyed.sort_unstable_by(|a, b| a.1.cmp(&b.1));
        let (parts, key) = keyed.into_iter().unzip();
        Whole { parts, key }
    }
}

/// A whole position whose options are being looked at in misère play.
pub(super) struct MisereFrame {
    pub(super) key: Box<[Key]>,
    /// The key by canonical labels, when the position has one.
    pub(super) alias: Option<Box<[Key]>>,
    pub(super) options: Vec<Whole>,
    pub(super) next: usize,
}

impl MisereFrame {
    /// How many sets of vertices its options hold.
    pub(super) fn size(&self) -> usize {
        self.options.iter().map(|o| o.parts.len()).sum()
    }

    pub(super) fn new(engine: &Deletion, position: Whole, recent: &mut Recent) -> Self {
        let mut options = Vec::new();
        let keyed = position.parts.iter().zip(position.key.iter());
        for (i, (part, key)) in keyed.enumerate() {
            // A copy of the part before it has the same options.
            if i > 0 && position.key[i - 1] == *key {
                continue;
            }
            for option in engine.options(part) {
                // Only the part moved in is split and keyed anew.
                let mut parts = Keyed::new();
                engine.keyed(&option, recent, &mut parts);
                let others = position.parts.iter().zip(position.key.iter());
                for (j, (other, key)) in others.enumerate() {
                    if j != i {
                        parts.push((other.clone(), key.clone()));
                    }
                }
                options.push(Whole::of(parts));
            }
        }
        MisereFrame {
            key: Box::from(&position.key[..]),
            alias: None,
            options,
            next: 0,
        }
    }
}
