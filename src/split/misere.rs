//! Misère play of a game that splits: the sum rule fails, so outcomes are searched
//! over whole positions, each keyed by the multiset (sorted list) of its
//! components' keys, components with no move dropped (a game with no option adds
//! nothing in either ending) and components that are * cancelled in pairs. Each
//! option is looked up before any is searched (a known P-option settles a position
//! at once). The table is bounded as the normal-play one is (`budget`), with room
//! made past the bound by dropping the smallest positions; a large position is
//! searched on several threads sharing the table. Iterative (the depth follows the
//! input) and polling for Ctrl-C.
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use super::budget::{Budget, Spend};
use super::parallel;
use super::table::{self, remember};
use crate::base::alloc;
use crate::base::error::{Error, Result};
use crate::base::interrupt;

mod proofs;

/// The misère table: whether the player to move wins, by whole position.
pub type Table<K> = FxHashMap<Box<[K]>, bool>;

/// What the misère search asks of a game whose positions split into components.
pub trait MisereSplit: Sync {
    /// A position, or a component of one, as the game holds it.
    type Part: Clone + Send + Sync;
    /// What tells copies of a component apart: equal keys, equal games.
    type Key: Clone + Ord + Hash + Send + Sync;
    /// What one thread's search keeps for itself (a cache of keys met lately, say).
    type Scratch;

    /// The scratch of a search from a position of `size`.
    fn scratch(&self, size: u32) -> Result<Self::Scratch>;

    /// The table the searches share.
    fn table(&self) -> &Mutex<Table<Self::Key>>;

    /// How large `position` is (its cells, say): large ones go to several threads.
    fn size(&self, position: &Self::Part) -> u32;

    /// Whether `position` has a move.
    fn has_move(&self, position: &Self::Part) -> bool;

    /// The components of `position` that have a move, each with its key (a
    /// component that is * keyed as `is_star` knows), appended to `out`.
    fn keyed(
        &self,
        position: &Self::Part,
        scratch: &mut Self::Scratch,
        out: &mut Keyed<Self::Part, Self::Key>,
    );

    /// Whether `key` is the key of *.
    fn is_star(&self, key: &Self::Key) -> bool;

    /// The options of the component `part` (each a position, split again);
    /// `poll` is called as often as the work allows, and what it returns stops it
    /// (options that are slow to make are not left without Ctrl-C).
    fn options(
        &self,
        part: &Self::Part,
        scratch: &mut Self::Scratch,
        poll: &mut dyn FnMut() -> Result<()>,
    ) -> Result<Vec<Self::Part>>;

    /// A second key of the whole position of `parts`, shared by copies the first
    /// tells apart (by canonical labels, too costly for every look-up).
    fn alias(&self, _parts: &[Self::Part]) -> Option<Box<[Self::Key]>> {
        None
    }

    /// Whether positions are searched by proof numbers (`proofs`) rather than in the
    /// order their options come.
    fn proof_numbers(&self) -> bool {
        false
    }

    /// A guess at how many options of the position `key` must be searched to show
    /// that it is lost: the disproof number it starts with in the proof-number search.
    fn breadth(&self, _key: &[Self::Key]) -> u32 {
        1
    }

    /// The bytes a whole position's key of `parts` components holds on the heap, as
    /// the table's size is estimated.
    fn key_heap(&self, parts: usize) -> usize;

    /// The bytes `key` holds on the heap past what `key_heap` counts for one.
    fn heap_of(&self, _key: &Self::Key) -> usize {
        0
    }

    /// The bytes of `parts` components held by a search's stack.
    fn bytes(&self, parts: usize) -> usize;

    /// How large the position `key` stands for is: an eviction keeps the largest.
    fn key_size(&self, key: &[Self::Key]) -> u32;
}

/// Components with their keys (on the stack while they are few).
pub type Keyed<P, K> = SmallVec<[(P, K); 4]>;

/// Whether the player to move wins `position` in misère play, within `budget` (with
/// `budget.evict`, room made past it); `report` hears now and then how many
/// positions are settled. A large position is searched on `parallel::threads()`
/// threads.
pub fn wins<G: MisereSplit>(
    game: &G,
    position: &G::Part,
    budget: Budget,
    report: &(dyn Fn(usize) + Sync),
) -> Result<bool> {
    if !game.has_move(position) {
        return Ok(true); // no move at all wins misère play, without a table
    }
    let size = game.size(position);
    let mut scratch = game.scratch(size)?;
    let start = whole(game, position, &mut scratch);
    let threads = parallel::threads();
    let search = Search { game };
    if threads > 1 && size >= parallel::FROM_SIZE {
        return search.wins_on(threads, start, size, &mut scratch, budget, report);
    }
    search.run(start, &mut scratch, Spend::new(budget), report)
}

/// A whole position: its components and its key, the components' keys sorted,
/// `parts[i]` the component keyed `key[i]`.
pub struct Whole<P, K> {
    parts: SmallVec<[P; 2]>,
    key: SmallVec<[K; 2]>,
}

impl<P: Clone, K: Clone> Clone for Whole<P, K> {
    fn clone(&self) -> Self {
        Whole {
            parts: self.parts.clone(),
            key: self.key.clone(),
        }
    }
}

/// The whole position of `position`'s components.
fn whole<G: MisereSplit>(
    game: &G,
    position: &G::Part,
    scratch: &mut G::Scratch,
) -> Whole<G::Part, G::Key> {
    let mut keyed = Keyed::new();
    game.keyed(position, scratch, &mut keyed);
    of(game, keyed)
}

/// The position of the keyed components `keyed`, with the components that are *
/// cancelled in pairs. In misère play too, G + * + * has the outcome of G: whoever
/// wins G answers a move in one * by a move in the other, and if G ends first with
/// both left, the loser of G must take one and the winner the other.
fn of<G: MisereSplit>(game: &G, mut keyed: Keyed<G::Part, G::Key>) -> Whole<G::Part, G::Key> {
    let stars = keyed.iter().filter(|(_, key)| game.is_star(key)).count();
    let mut dropped = stars - stars % 2;
    keyed.retain(|(_, key)| {
        let drop = dropped > 0 && game.is_star(key);
        dropped -= usize::from(drop);
        !drop
    });
    keyed.sort_unstable_by(|a, b| a.1.cmp(&b.1));
    let (parts, key) = keyed.into_iter().unzip();
    Whole { parts, key }
}

/// A whole position whose options are being looked at.
struct Frame<P, K> {
    key: Box<[K]>,
    /// The key by canonical labels, when the position has one.
    alias: Option<Box<[K]>>,
    options: Vec<Whole<P, K>>,
    next: usize,
}

impl<P: Clone, K: Clone + Eq> Frame<P, K> {
    /// How many components its options hold.
    fn size(&self) -> usize {
        self.options.iter().map(|o| o.parts.len()).sum()
    }

    fn new<G: MisereSplit<Part = P, Key = K>>(
        game: &G,
        position: Whole<P, K>,
        scratch: &mut G::Scratch,
        poll: &mut dyn FnMut() -> Result<()>,
    ) -> Result<Self> {
        let mut options = Vec::new();
        let keyed = position.parts.iter().zip(position.key.iter());
        for (i, (part, key)) in keyed.enumerate() {
            // A copy of the part before it has the same options.
            if i > 0 && position.key[i - 1] == *key {
                continue;
            }
            for option in game.options(part, scratch, poll)? {
                // Only the part moved in is split and keyed anew.
                let mut parts = Keyed::new();
                game.keyed(&option, scratch, &mut parts);
                let others = position.parts.iter().zip(position.key.iter());
                for (j, (other, key)) in others.enumerate() {
                    if j != i {
                        parts.push((other.clone(), key.clone()));
                    }
                }
                options.push(of(game, parts));
            }
        }
        Ok(Frame {
            key: Box::from(&position.key[..]),
            alias: None,
            options,
            next: 0,
        })
    }
}

/// Ctrl-C, for work outside a search's own polls.
fn poll_interrupt() -> Result<()> {
    if interrupt::requested() {
        Err(Error::Interrupted)
    } else {
        Ok(())
    }
}

/// Whether a position is won, if the table knows, and its alias, if one was made.
type Known<K> = (Option<bool>, Option<Box<[K]>>);

/// The misère search of one game.
struct Search<'g, G> {
    game: &'g G,
}

impl<G: MisereSplit> Search<'_, G> {
    fn table(&self) -> MutexGuard<'_, Table<G::Key>> {
        self.game
            .table()
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// What the table knows of `position`, by its key or its alias (made here).
    fn known(&self, position: &Whole<G::Part, G::Key>) -> Known<G::Key> {
        if let Some(&won) = self.table().get(&position.key[..]) {
            return (Some(won), None);
        }
        let alias = self.game.alias(&position.parts);
        let won = alias.as_ref().and_then(|a| self.table().get(a).copied());
        (won, alias)
    }

    /// `wins` on `threads` threads: they take the options of `start` one at a time,
    /// each searching its own, all sharing the table; an option that is lost ends the
    /// search for all. The table's bound holds to within the stacks of the threads
    /// but one (each thread counts the table and its own stack).
    fn wins_on(
        &self,
        threads: usize,
        start: Whole<G::Part, G::Key>,
        size: u32,
        scratch: &mut G::Scratch,
        budget: Budget,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<bool> {
        if let (Some(won), _) = self.known(&start) {
            return Ok(won);
        }
        // The root's options are made before the threads start, as the threads'
        // own polls would not see Ctrl-C here.
        let root = Frame::new(self.game, start, scratch, &mut poll_interrupt)?;
        if root.options.is_empty() {
            return Ok(true); // no move at all wins misère play
        }
        // Each position once (symmetric moves lead to one), the known ones not at
        // all: one known loss settles it.
        let mut options: Vec<&Whole<G::Part, G::Key>> = Vec::new();
        {
            let known = self.table();
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
            let mut scratch = self.game.scratch(size)?;
            let report: &(dyn Fn(usize) + Sync) = if asks { report } else { &|_| {} };
            loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= options.len() || stop.load(Ordering::SeqCst) {
                    return Ok(());
                }
                let spend = Spend::new(budget).watching(stop.clone(), asks);
                if !self.run(options[i].clone(), &mut scratch, spend, report)? {
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
        let mut known = self.table();
        self.room(&mut spend, &mut known, root.key.len())?;
        remember(&mut known, root.key, won, report);
        Ok(won)
    }

    /// `wins` of `start` on this thread, its account `spend`.
    fn run(
        &self,
        start: Whole<G::Part, G::Key>,
        scratch: &mut G::Scratch,
        mut spend: Spend,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<bool> {
        let (known, alias) = self.known(&start);
        if let Some(won) = known {
            return Ok(won);
        }
        if self.game.proof_numbers() {
            return self.prove(start, alias, scratch, spend, report);
        }
        let game = self.game;
        let mut first = Frame::new(game, start, scratch, &mut || spend.tick())?;
        first.alias = alias;
        spend.count(&self.table(), game.key_heap(first.key.len()));
        self.charge(&mut spend, first.size(), first.key.len())?;
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
                let known = self.table();
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
                // Looked up again by its alias before it is searched.
                let option = &frame.options[i];
                let alias = game.alias(&option.parts);
                let aliased = alias.as_ref().and_then(|a| self.table().get(a).copied());
                if let Some(won) = aliased {
                    let mut known = self.table();
                    self.room(&mut spend, &mut known, option.key.len())?;
                    remember(&mut known, Box::from(&option.key[..]), won, report);
                    answer = Some(won);
                    continue;
                }
                let mut child = Frame::new(game, option.clone(), scratch, &mut || spend.tick())?;
                child.alias = alias;
                self.charge(&mut spend, child.size(), child.key.len())?;
                alloc::grow(&mut stack)?;
                stack.push(child);
                None
            } else {
                Some(false)
            };
            if let Some(won) = won {
                let frame = stack.pop().expect("the loop holds a frame");
                spend.release(game.bytes(frame.size()));
                self.enter(&mut spend, frame.key, frame.alias, won, report)?;
                if stack.is_empty() {
                    return Ok(won);
                }
                answer = Some(won);
            }
        }
        unreachable!("the last frame returns")
    }

    /// Enter in the table that the position `key` (also keyed `alias`) is `won`.
    fn enter(
        &self,
        spend: &mut Spend,
        key: Box<[G::Key]>,
        alias: Option<Box<[G::Key]>>,
        won: bool,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<()> {
        let game = self.game;
        let mut known = self.table();
        self.room(spend, &mut known, key.len())?;
        remember(&mut known, key, won, report);
        if let Some(alias) = alias {
            let typical = game.key_heap(alias.len());
            self.room(spend, &mut known, alias.len())?;
            let heap = alias
                .iter()
                .map(|k| std::mem::size_of::<G::Key>() + game.heap_of(k));
            spend.keep(heap.sum::<usize>().saturating_sub(typical))?;
            remember(&mut known, alias, won, report);
        }
        Ok(())
    }

    /// Room in the table (`known`) for one more position, of `parts` components,
    /// within `spend`'s bound (made past it with `spend.evicts()`: `evict`).
    fn room(&self, spend: &mut Spend, known: &mut Table<G::Key>, parts: usize) -> Result<()> {
        let key_heap = self.game.key_heap(parts);
        match spend.room(known, key_heap) {
            Err(Error::MemoryBound { .. }) if spend.evicts() => {
                self.evict(spend, known, parts)?;
                spend.room(known, key_heap)
            }
            done => done,
        }
    }

    /// `spend` charged with a frame of `sets` components, the position's key of
    /// `parts` components (room made past the bound with `spend.evicts()`).
    fn charge(&self, spend: &mut Spend, sets: usize, parts: usize) -> Result<()> {
        let bytes = self.game.bytes(sets);
        match spend.charge(bytes) {
            Err(Error::MemoryBound { .. }) if spend.evicts() => {
                spend.release(bytes);
                let mut known = self.table();
                self.evict(spend, &mut known, parts)?;
                spend.charge(bytes)
            }
            done => done,
        }
    }

    /// Drop from the table (`known`) the smallest positions (`table::evict`, each
    /// key counted as holding the heap of the most components a key there or the
    /// next, of `parts`, has: as a search counts it), and count it anew in `spend`.
    /// In the middle of a search: no frame relies on the table for what it learned
    /// (`answer`), so any entry may go.
    fn evict(&self, spend: &mut Spend, known: &mut Table<G::Key>, parts: usize) -> Result<()> {
        let most = known.keys().map(|k| k.len()).max().unwrap_or(0).max(parts);
        let key_heap = self.game.key_heap(most);
        let bound = spend.bound();
        spend.making_room();
        let game = self.game;
        table::evict(
            known,
            bound,
            key_heap,
            |key| game.key_size(key),
            spend.poll(),
        )?;
        spend.count(known, key_heap);
        Ok(())
    }
}
