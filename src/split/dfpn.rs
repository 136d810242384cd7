//! Normal-play outcomes of a game that splits, by depth-first proof-number search
//! (Nagai 2002; the 1 + ε threshold of Pawlewicz and Lew 2007), as SPOTS (Čížek,
//! Balko and Schmid 2025) searches Sprouts. A node is a couple (Lemoine and
//! Viennot): one component and a heap standing for the rest of the position, and the
//! question is whether the player to move wins, that is whether the component's
//! value is not the heap's.
//!
//! The couple (C, h) has the options (C, j) for j < h and, for each option of C, its
//! parts with the heap: parts whose values are known are folded into the heap, and
//! of several left all but the largest are valued in full by the pruned search
//! (`pruned`), only once the search chooses that option; the largest stays.
//!
//! Proof-number search goes first where a proof looks cheapest, so that it meets far
//! fewer components than a value search, which must settle every option it cannot
//! rule out. A couple that loses gives its component's value, entered in the table
//! of values the pruned search shares, within the budget's bound (`MemoryError`
//! past it); the proof and disproof numbers of the rest go to a transposition table
//! of the search's own, held to half the bound (the unproven dropped when full).
//! Iterative, polls for Ctrl-C.
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use super::budget::{Budget, Spend};
use super::plain;
use super::proof::{best_two, of_options, option_within, Numbers, FRESH, LOSS, UNBOUNDED, WIN};
use super::pruned::{Search, Split, Wide};
use super::table::{enter_in, Private, Values};
use crate::base::error::Result;

/// What is left of an option: one component (the couple's), or several not yet
/// valued.
enum Rest<P, K> {
    One(P, K),
    Many(Vec<P>),
}

struct Child<P, K> {
    rest: Rest<P, K>,
    heap: u32,
    numbers: Numbers,
}

/// A couple being searched, within thresholds.
struct Frame<P, K> {
    key: K,
    heap: u32,
    children: Vec<Child<P, K>>,
    within: Numbers,
    /// The child being searched, while its frame is above this one.
    on: usize,
}

/// How a couple stands once its options are listed.
enum Expanded<P, K> {
    Decided(Numbers),
    Open(Vec<Child<P, K>>),
}

/// A couple to search, or decided by its options at once.
enum Opened<P, K> {
    Frame(Frame<P, K>),
    Decided(Numbers),
}

/// What is left of a sum once all its parts but one are folded into the heap: that
/// part with its key (none where every part's value is known), and the heap.
type Left<P, K> = (Option<(P, K)>, u32);

/// The most bytes of the transposition table when the budget sets none lower.
const TABLE_BYTES: u64 = 1 << 30;

/// What an entry of the transposition table costs beside its key's heap.
const ENTRY_BYTES: u64 = 96;

/// One search over `game`: the values it learns go to `values`.
pub struct Outcomes<'a, S: Split> {
    game: &'a mut S,
    table: Private<'a, S::Key>,
    budget: Budget,
    report: &'a (dyn Fn(usize) + Sync),
    spend: Spend,
    /// Numbers of couples by component, then heap.
    numbers: FxHashMap<S::Key, SmallVec<[(u32, Numbers); 2]>>,
    numbers_bytes: u64,
    options: Vec<S::Part>,
    parts: Vec<S::Part>,
}

impl<'a, S: Split> Outcomes<'a, S> {
    pub fn new(
        game: &'a mut S,
        values: &'a mut FxHashMap<S::Key, u32>,
        budget: Budget,
        report: &'a (dyn Fn(usize) + Sync),
    ) -> Result<Self> {
        Ok(Outcomes {
            game,
            table: Private::new(values)?,
            budget,
            report,
            spend: Spend::new(budget),
            numbers: FxHashMap::default(),
            numbers_bytes: 0,
            options: Vec::new(),
            parts: Vec::new(),
        })
    }

    /// Whether the values of `parts` add up to `target` (the parts and a heap of
    /// `target` lose for the player to move).
    pub fn sum_is(&mut self, parts: &[S::Part], target: u32) -> Result<bool> {
        let (rest, heap) = self.reduce(parts.to_vec(), target)?;
        let Some((part, key)) = rest else {
            return Ok(heap == 0);
        };
        Ok(!self.wins(part, key, heap)?)
    }

    /// The value of the sum of `parts`: all but the largest valued in full, and the
    /// largest by the least heap beside which the rest loses.
    pub fn value(&mut self, parts: &[S::Part]) -> Result<u32> {
        let (rest, heap) = self.reduce(parts.to_vec(), 0)?;
        let Some((part, key)) = rest else {
            return Ok(heap);
        };
        for v in 0.. {
            if !self.wins(part.clone(), key.clone(), v)? {
                return Ok(heap ^ v);
            }
        }
        unreachable!("a component has a value")
    }

    /// The parts left of `parts` and a heap of `heap` once all but the largest are
    /// valued and folded into the heap (none left where every part's value is known).
    fn reduce(&mut self, parts: Vec<S::Part>, mut heap: u32) -> Result<Left<S::Part, S::Key>> {
        let mut left: Vec<(S::Part, S::Key)> = Vec::with_capacity(parts.len());
        for part in parts {
            match self.game.known(&part) {
                Some(v) => heap ^= v,
                None => {
                    let key = self.game.key(&part);
                    left.push((part, key));
                }
            }
        }
        loop {
            // A copy of a part just valued is valued too.
            left.retain(|(_, key)| match self.table.get(key) {
                Some(v) => {
                    heap ^= v;
                    false
                }
                None => true,
            });
            if left.len() <= 1 {
                return Ok((left.pop(), heap));
            }
            let smallest = (0..left.len())
                .min_by_key(|&i| self.game.size(&left[i].0))
                .expect("two parts or more");
            let (part, _) = left.swap_remove(smallest);
            heap ^= self.value_in_full(&part)?;
        }
    }

    /// The value of `part` by the pruned search (the plain one past its reach).
    fn value_in_full(&mut self, part: &S::Part) -> Result<u32> {
        let found =
            Search::new(self.game, &mut self.table, self.budget, self.report)?.value(part)?;
        match found {
            Ok(v) => Ok(v),
            Err(Wide) => plain::value(
                self.game,
                part.clone(),
                self.table.values(),
                self.budget,
                self.report,
            ),
        }
    }

    /// What is known of the couple (`key`'s component, `heap`).
    fn look_up(&mut self, key: &S::Key, heap: u32) -> Numbers {
        if let Some(v) = self.table.get(key) {
            return if v == heap { LOSS } else { WIN };
        }
        if heap < 64
            && self
                .table
                .refuted(key)
                .is_some_and(|not| not >> heap & 1 == 1)
        {
            return WIN;
        }
        self.numbers
            .get(key)
            .and_then(|entries| entries.iter().find(|e| e.0 == heap))
            .map_or(FRESH, |e| e.1)
    }

    /// Keep what the search found of a couple.
    fn store(&mut self, key: &S::Key, heap: u32, numbers: Numbers) -> Result<()> {
        if numbers == LOSS {
            let report = self.report;
            if let Some(entries) = self.numbers.get_mut(key) {
                entries.retain(|e| e.0 != heap);
            }
            let key_heap = self.game.key_heap();
            self.spend.room(self.table.values(), key_heap)?;
            self.spend.keep(self.game.heap_of(key))?;
            enter_in(self.table.values(), key.clone(), heap)?;
            report(self.table.count());
            return Ok(());
        }
        if numbers == WIN && heap < 64 {
            let not = self.table.refuted(key).unwrap_or(0) | 1 << heap;
            self.table.refute(key.clone(), not)?;
        }
        if let Some(entries) = self.numbers.get_mut(key) {
            match entries.iter_mut().find(|e| e.0 == heap) {
                Some(e) => e.1 = numbers,
                None => entries.push((heap, numbers)),
            }
            return Ok(());
        }
        let bound = self.budget.max_memory.div_ceil(2).min(TABLE_BYTES);
        let bytes = ENTRY_BYTES + self.game.heap_of(key) as u64;
        if self.numbers_bytes + bytes > bound {
            self.make_room();
        }
        self.numbers.try_reserve(1).map_err(|_| {
            crate::base::alloc::too_large::<(S::Key, Numbers)>(self.numbers.len() + 1)
        })?;
        self.numbers_bytes += bytes;
        let mut entries = SmallVec::new();
        entries.push((heap, numbers));
        self.numbers.insert(key.clone(), entries);
        Ok(())
    }

    /// Drop the couples not proved (and all, if those proved fill half the table).
    fn make_room(&mut self) {
        self.numbers.retain(|_, entries| {
            entries.retain(|e| e.1.proved());
            !entries.is_empty()
        });
        let game = &*self.game;
        self.numbers_bytes = self
            .numbers
            .keys()
            .map(|k| ENTRY_BYTES + game.heap_of(k) as u64)
            .sum();
        let bound = self.budget.max_memory.div_ceil(2).min(TABLE_BYTES);
        if self.numbers_bytes > bound / 2 {
            self.numbers = FxHashMap::default();
            self.numbers_bytes = 0;
        }
    }

    /// The options of the couple (`part`, `heap`), or its outcome where one of them
    /// decides it.
    fn expand(
        &mut self,
        part: &S::Part,
        key: &S::Key,
        heap: u32,
    ) -> Result<Expanded<S::Part, S::Key>> {
        let mut children = Vec::new();
        for j in 0..heap {
            match self.look_up(key, j) {
                LOSS => return Ok(Expanded::Decided(WIN)),
                WIN => {}
                numbers => children.push(Child {
                    rest: Rest::One(part.clone(), key.clone()),
                    heap: j,
                    numbers,
                }),
            }
        }
        let mut options = std::mem::take(&mut self.options);
        options.clear();
        self.game.options(part, &mut options);
        let mut decided = None;
        for option in &options {
            self.parts.clear();
            let mut left = heap ^ self.game.split(option, &mut self.parts);
            let mut parts = Vec::new();
            for p in self.parts.drain(..) {
                match self.game.known(&p) {
                    Some(v) => left ^= v,
                    None => parts.push(p),
                }
            }
            let child = match parts.len() {
                0 if left == 0 => {
                    decided = Some(WIN);
                    break;
                }
                0 => continue,
                1 => {
                    let p = parts.pop().expect("one part");
                    let k = self.game.key(&p);
                    match self.look_up(&k, left) {
                        LOSS => {
                            decided = Some(WIN);
                            break;
                        }
                        WIN => continue,
                        numbers => Child {
                            rest: Rest::One(p, k),
                            heap: left,
                            numbers,
                        },
                    }
                }
                _ => Child {
                    rest: Rest::Many(parts),
                    heap: left,
                    numbers: FRESH,
                },
            };
            children.push(child);
        }
        self.options = options;
        if let Some(numbers) = decided {
            return Ok(Expanded::Decided(numbers));
        }
        if children.is_empty() {
            return Ok(Expanded::Decided(LOSS));
        }
        // Small couples first, as SPOTS orders them: their lives, and four for each
        // unit of heap.
        let game = &*self.game;
        children.sort_by_cached_key(|c| {
            let (size, parts): (u32, usize) = match &c.rest {
                Rest::One(p, _) => (game.size(p), 1),
                Rest::Many(parts) => (parts.iter().map(|p| game.size(p)).sum(), parts.len()),
            };
            (
                size.saturating_add(c.heap.saturating_mul(4)),
                std::cmp::Reverse(parts),
            )
        });
        Ok(Expanded::Open(children))
    }

    /// Whether the couple (`part`, `heap`) wins for the player to move.
    fn wins(&mut self, part: S::Part, key: S::Key, heap: u32) -> Result<bool> {
        match self.look_up(&key, heap) {
            WIN => return Ok(true),
            LOSS => return Ok(false),
            _ => {}
        }
        let mut stack = match self.open(&part, key, heap, UNBOUNDED)? {
            Opened::Frame(frame) => vec![frame],
            Opened::Decided(numbers) => return Ok(numbers == WIN),
        };
        loop {
            self.spend.tick()?;
            let frame = stack.last_mut().expect("the loop holds a frame");
            let numbers = of_options(frame.children.iter().map(|c| c.numbers));
            if numbers.reached(frame.within) {
                let frame = stack.pop().expect("the loop holds a frame");
                self.store(&frame.key, frame.heap, numbers)?;
                match stack.last_mut() {
                    Some(parent) => parent.children[parent.on].numbers = numbers,
                    None => return Ok(numbers == WIN),
                }
                continue;
            }
            let (best, second) = best_two(frame.children.iter().map(|c| c.numbers));
            let child = &mut frame.children[best];
            if let Rest::Many(parts) = &mut child.rest {
                let parts = std::mem::take(parts);
                let (rest, heap) = self.reduce(parts, child.heap)?;
                let (rest, numbers) = match rest {
                    None => (Rest::Many(Vec::new()), if heap == 0 { LOSS } else { WIN }),
                    Some((p, k)) => {
                        let numbers = self.look_up(&k, heap);
                        (Rest::One(p, k), numbers)
                    }
                };
                let frame = stack.last_mut().expect("the loop holds a frame");
                frame.children[best] = Child {
                    rest,
                    heap,
                    numbers,
                };
                continue;
            }
            let child_within = option_within(frame.within, numbers, child.numbers, second);
            frame.on = best;
            let Rest::One(p, k) = &child.rest else {
                unreachable!("a child left whole was reduced above")
            };
            let (p, k, heap) = (p.clone(), k.clone(), child.heap);
            match self.open(&p, k, heap, child_within)? {
                Opened::Frame(next) => stack.push(next),
                Opened::Decided(numbers) => {
                    let frame = stack.last_mut().expect("the loop holds a frame");
                    frame.children[best].numbers = numbers;
                }
            }
        }
    }

    /// A frame for the couple, or its outcome where listing its options decides it.
    fn open(
        &mut self,
        part: &S::Part,
        key: S::Key,
        heap: u32,
        within: Numbers,
    ) -> Result<Opened<S::Part, S::Key>> {
        match self.expand(part, &key, heap)? {
            Expanded::Decided(numbers) => {
                self.store(&key, heap, numbers)?;
                Ok(Opened::Decided(numbers))
            }
            Expanded::Open(children) => Ok(Opened::Frame(Frame {
                key,
                heap,
                children,
                within,
                on: 0,
            })),
        }
    }
}
