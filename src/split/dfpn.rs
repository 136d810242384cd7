//! Normal-play outcomes of a game that splits, by depth-first proof-number search
//! (Nagai 2002; the 1 + ε threshold of Pawlewicz and Lew 2007), as SPOTS (Čížek,
//! Balko and Schmid 2025) searches Sprouts. A node is a couple (Lemoine and
//! Viennot): one component and a heap standing for the rest of the position, and the
//! question is whether the player to move wins, that is whether the component's
//! value is not the heap's.
//!
//! The couple (C, h) has the options (C, j) for j < h and, for each option of C, its
//! parts with the heap: parts whose values are known are joined to the heap. An
//! option left with several parts is a node of its own, a sum (SPOTS's node of
//! several lands): its smallest part is asked whether its value is 0, 1, ... as
//! couples of the same search, each value found joined to the heap, until one part
//! is left, whose couple decides the sum. So a part is valued only as far as the
//! search's thresholds let it go, where a value search would settle it whole.
//!
//! Proof-number search goes first where a proof looks cheapest, so that it meets far
//! fewer components than a value search, which must settle every option it cannot
//! rule out. A couple that loses gives its component's value, entered in the table
//! of values the game's searches share, within the budget's bound (`MemoryError`
//! past it); the proof and disproof numbers of the rest go to a transposition table
//! of the search's own, held to half the bound (the unproven dropped when full).
//! Iterative, polls for Ctrl-C.
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use super::budget::{Budget, Spend};
use super::proof::{
    best_two, land_within, of_options, option_within, Numbers, Within, FRESH, INF, LOSS, UNBOUNDED,
    WIN,
};
use super::pruned::Split;
use super::table::{enter_in, Private, Values};
use crate::base::error::Result;

/// A land of an option that left several, and the least heap it may still equal:
/// the couple (land, heap) is the one searched next.
struct Land<P, K> {
    part: P,
    key: K,
    heap: u32,
    numbers: Numbers,
}

/// What is left of an option: one component (the couple's), or several lands valued
/// one at a time.
enum Rest<P, K> {
    One(P, K),
    Lands(Vec<Land<P, K>>),
}

struct Child<P, K> {
    rest: Rest<P, K>,
    heap: u32,
    numbers: Numbers,
}

/// A couple being searched, within thresholds.
struct Couple<P, K> {
    key: K,
    heap: u32,
    children: Vec<Child<P, K>>,
    within: Within,
    /// The child being searched, while its frame is above this one.
    on: usize,
}

/// A sum of several lands and a heap, being searched within thresholds (SPOTS's
/// node of several lands): the smallest land is asked whether its value is its
/// heap, then the next heap, until one is its value and it joins the heap; the
/// sum's numbers are both the sum of the lands' least numbers.
struct Sum<P, K> {
    lands: Vec<Land<P, K>>,
    heap: u32,
    within: Within,
}

enum Frame<P, K> {
    Couple(Couple<P, K>),
    Sum(Sum<P, K>),
}

/// How a couple stands once its options are listed.
enum Expanded<P, K> {
    Decided(Numbers),
    Open(Vec<Child<P, K>>),
}

/// The lands of a sum whose values are not known, and the heap the rest comes to.
type Lands<P, K> = (Vec<Land<P, K>>, u32);

/// A couple to search, or decided by its options at once.
enum Opened<P, K> {
    Frame(Couple<P, K>),
    Decided(Numbers),
}

/// How a sum of lands stands once the values known are joined to its heap.
enum Settled<P, K> {
    /// Every land's value known: the sum's outcome.
    Decided(Numbers),
    /// One land left: the couple (land, heap) decides the sum.
    One(P, K, Numbers),
    /// Several lands left: the sum's numbers.
    Many(Numbers),
}

/// The most bytes of the transposition table when the budget sets none lower.
const TABLE_BYTES: u64 = 1 << 30;

/// What an entry of the transposition table costs beside its key's heap.
const ENTRY_BYTES: u64 = 96;

/// The proof and disproof numbers of couples, by component, then heap: the
/// transposition table of the searches, kept by their caller so that a search paused
/// (`Budget::until`) or stopped goes on from them, and a checkpoint saves them.
#[derive(Debug)]
pub struct Proofs<K> {
    numbers: FxHashMap<K, SmallVec<[(u32, Numbers); 2]>>,
    bytes: u64,
}

impl<K> Default for Proofs<K> {
    fn default() -> Self {
        Proofs {
            numbers: FxHashMap::default(),
            bytes: 0,
        }
    }
}

impl<K: std::hash::Hash + Eq> Proofs<K> {
    /// Each couple's component, heap and numbers.
    pub fn entries(&self) -> impl Iterator<Item = (&K, u32, Numbers)> + '_ {
        self.numbers
            .iter()
            .flat_map(|(k, entries)| entries.iter().map(move |&(heap, n)| (k, heap, n)))
    }

    pub fn len(&self) -> usize {
        self.numbers.values().map(SmallVec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.numbers.is_empty()
    }

    /// Forget them all (a search done: what it proved is in the values).
    pub fn clear(&mut self) {
        *self = Proofs::default();
    }

    /// Enter the numbers of a couple, as a checkpoint saved them (`heap_bytes`: what
    /// its key holds on the heap); a proved loss belongs to the values, not here.
    pub fn restore(
        &mut self,
        key: K,
        heap: u32,
        numbers: Numbers,
        heap_bytes: usize,
    ) -> Result<()> {
        let Proofs {
            numbers: all,
            bytes,
        } = self;
        all.try_reserve(1)
            .map_err(|_| crate::base::alloc::too_large::<(K, Numbers)>(all.len() + 1))?;
        let entries = all.entry(key).or_insert_with(|| {
            *bytes += ENTRY_BYTES + heap_bytes as u64;
            SmallVec::new()
        });
        match entries.iter_mut().find(|e| e.0 == heap) {
            Some(e) => e.1 = numbers,
            None => entries.push((heap, numbers)),
        }
        Ok(())
    }
}

/// One search over `game`: the values it learns go to `values`, the numbers of the
/// couples it meets to `proofs`.
pub struct Outcomes<'a, S: Split> {
    game: &'a mut S,
    table: Private<'a, S::Key>,
    budget: Budget,
    report: &'a (dyn Fn(usize) + Sync),
    spend: Spend,
    proofs: &'a mut Proofs<S::Key>,
    options: Vec<S::Part>,
}

impl<'a, S: Split> Outcomes<'a, S> {
    pub fn new(
        game: &'a mut S,
        values: &'a mut FxHashMap<S::Key, u32>,
        proofs: &'a mut Proofs<S::Key>,
        budget: Budget,
        report: &'a (dyn Fn(usize) + Sync),
    ) -> Result<Self> {
        Ok(Outcomes {
            game,
            table: Private::new(values)?,
            budget,
            report,
            spend: Spend::new(budget),
            proofs,
            options: Vec::new(),
        })
    }

    /// Whether the values of `parts` add up to `target` (the parts and a heap of
    /// `target` lose for the player to move).
    pub fn sum_is(&mut self, parts: &[S::Part], target: u32) -> Result<bool> {
        Ok(!self.sum_wins(parts, target)?)
    }

    /// The value of the sum of `parts`: the least heap beside which it loses.
    pub fn value(&mut self, parts: &[S::Part]) -> Result<u32> {
        for v in 0.. {
            if !self.sum_wins(parts, v)? {
                return Ok(v);
            }
        }
        unreachable!("a sum has a value")
    }

    /// Whether `parts` and a heap of `heap` win for the player to move.
    fn sum_wins(&mut self, parts: &[S::Part], heap: u32) -> Result<bool> {
        let (lands, heap) = self.lands_of(parts.to_vec(), heap)?;
        self.search(Frame::Sum(Sum {
            lands,
            heap,
            within: UNBOUNDED,
        }))
    }

    /// The lands of `parts` whose values are not known, smallest first, and the heap
    /// with the values known joined to it (two copies of one land cancel).
    fn lands_of(&mut self, parts: Vec<S::Part>, mut heap: u32) -> Result<Lands<S::Part, S::Key>> {
        let mut lands: Vec<Land<S::Part, S::Key>> = Vec::new();
        for part in parts {
            if let Some(v) = self.game.known(&part) {
                heap ^= v;
                continue;
            }
            let key = self.game.key(&part);
            if let Some(v) = self.table.get(&key) {
                heap ^= v;
            } else if let Some(twin) = lands.iter().position(|l| l.key == key) {
                lands.swap_remove(twin);
            } else {
                let numbers = self.look_up(&key, 0);
                lands.try_reserve(1).map_err(|_| {
                    crate::base::alloc::too_large::<Land<S::Part, S::Key>>(lands.len() + 1)
                })?;
                lands.push(Land {
                    part,
                    key,
                    heap: 0,
                    numbers,
                });
            }
        }
        let game = &*self.game;
        lands.sort_by_cached_key(|l| game.size(&l.part));
        Ok((lands, heap))
    }

    /// Join to `heap` the lands of `lands` whose values are known, past each the
    /// heaps it was shown not to equal, and say how the sum stands.
    fn settle(
        &mut self,
        lands: &mut Vec<Land<S::Part, S::Key>>,
        heap: &mut u32,
    ) -> Settled<S::Part, S::Key> {
        let mut i = 0;
        while i < lands.len() {
            let land = &mut lands[i];
            if let Some(v) = self.table.get(&land.key) {
                *heap ^= v;
                lands.remove(i);
                continue;
            }
            match land.numbers {
                LOSS => {
                    *heap ^= land.heap;
                    lands.remove(i);
                }
                WIN => {
                    land.heap += 1;
                    land.numbers = self.look_up(&land.key, land.heap);
                }
                _ => i += 1,
            }
        }
        match lands.len() {
            0 => Settled::Decided(if *heap == 0 { LOSS } else { WIN }),
            1 => {
                let land = lands.pop().expect("one land");
                // Below the land's least heap left, the land is not the heap.
                let numbers = if *heap < land.heap {
                    WIN
                } else {
                    self.look_up(&land.key, *heap)
                };
                Settled::One(land.part, land.key, numbers)
            }
            _ => {
                let n = lands
                    .iter()
                    .fold(0u32, |n, l| {
                        n.saturating_add(l.numbers.pn.min(l.numbers.dn))
                    })
                    .min(INF - 1);
                Settled::Many(Numbers { pn: n, dn: n })
            }
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
        self.proofs
            .numbers
            .get(key)
            .and_then(|entries| entries.iter().find(|e| e.0 == heap))
            .map_or(FRESH, |e| e.1)
    }

    /// Keep what the search found of a couple.
    fn store(&mut self, key: &S::Key, heap: u32, numbers: Numbers) -> Result<()> {
        if numbers == LOSS {
            let report = self.report;
            if let Some(entries) = self.proofs.numbers.get_mut(key) {
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
        if let Some(entries) = self.proofs.numbers.get_mut(key) {
            match entries.iter_mut().find(|e| e.0 == heap) {
                Some(e) => e.1 = numbers,
                None => entries.push((heap, numbers)),
            }
            return Ok(());
        }
        let bound = self.budget.max_memory.div_ceil(2).min(TABLE_BYTES);
        let bytes = ENTRY_BYTES + self.game.heap_of(key) as u64;
        if self.proofs.bytes + bytes > bound {
            self.make_room();
        }
        let proofs = &mut *self.proofs;
        proofs.numbers.try_reserve(1).map_err(|_| {
            crate::base::alloc::too_large::<(S::Key, Numbers)>(proofs.numbers.len() + 1)
        })?;
        proofs.bytes += bytes;
        let mut entries = SmallVec::new();
        entries.push((heap, numbers));
        proofs.numbers.insert(key.clone(), entries);
        Ok(())
    }

    /// Drop the couples not proved (and all, if those proved fill half the table).
    fn make_room(&mut self) {
        let proofs = &mut *self.proofs;
        proofs.numbers.retain(|_, entries| {
            entries.retain(|e| e.1.proved());
            !entries.is_empty()
        });
        let game = &*self.game;
        proofs.bytes = proofs
            .numbers
            .keys()
            .map(|k| ENTRY_BYTES + game.heap_of(k) as u64)
            .sum();
        let bound = self.budget.max_memory.div_ceil(2).min(TABLE_BYTES);
        if proofs.bytes > bound / 2 {
            proofs.clear();
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
            let mut parts = Vec::new();
            let left = heap ^ self.game.split(option, &mut parts);
            let (mut lands, mut left) = self.lands_of(parts, left)?;
            let child = match self.settle(&mut lands, &mut left) {
                Settled::Decided(LOSS) | Settled::One(_, _, LOSS) => {
                    decided = Some(WIN);
                    break;
                }
                Settled::Decided(_) | Settled::One(_, _, WIN) => continue,
                Settled::One(part, key, numbers) => Child {
                    rest: Rest::One(part, key),
                    heap: left,
                    numbers,
                },
                Settled::Many(numbers) => Child {
                    rest: Rest::Lands(lands),
                    heap: left,
                    numbers,
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
                Rest::Lands(lands) => (lands.iter().map(|l| game.size(&l.part)).sum(), lands.len()),
            };
            (
                size.saturating_add(c.heap.saturating_mul(4)),
                std::cmp::Reverse(parts),
            )
        });
        Ok(Expanded::Open(children))
    }

    /// Search from `root` until it is proved: whether it wins for the player to move.
    fn search(&mut self, root: Frame<S::Part, S::Key>) -> Result<bool> {
        let mut stack = vec![root];
        loop {
            self.spend.tick()?;
            let root = stack.len() == 1;
            let top = stack.last_mut().expect("the loop holds a frame");
            // The numbers of the frame done, and what is left of the parent's child.
            let (numbers, rest) = match top {
                Frame::Couple(frame) => {
                    let numbers = of_options(frame.children.iter().map(|c| c.numbers));
                    if !numbers.reached(frame.within) {
                        if let Some(next) = self.descend(frame, numbers)? {
                            stack.push(next);
                        }
                        continue;
                    }
                    self.store(&frame.key, frame.heap, numbers)?;
                    (numbers, None)
                }
                Frame::Sum(sum) => match self.settle(&mut sum.lands, &mut sum.heap) {
                    Settled::Decided(numbers) => (numbers, Some(Rest::Lands(Vec::new()))),
                    Settled::One(part, key, numbers) if root && !numbers.proved() => {
                        // The sum asked is one couple: searched in its place.
                        let heap = sum.heap;
                        match self.open(&part, key, heap, UNBOUNDED)? {
                            Opened::Frame(frame) => stack[0] = Frame::Couple(frame),
                            Opened::Decided(numbers) => return Ok(numbers == WIN),
                        }
                        continue;
                    }
                    Settled::One(part, key, numbers) => (numbers, Some(Rest::One(part, key))),
                    Settled::Many(numbers) if !numbers.reached(sum.within) => {
                        let land = &sum.lands[0];
                        let within = land_within(sum.within, numbers, land.numbers);
                        let (part, key, heap) = (land.part.clone(), land.key.clone(), land.heap);
                        match self.open(&part, key, heap, within)? {
                            Opened::Frame(frame) => stack.push(Frame::Couple(frame)),
                            Opened::Decided(numbers) => sum.lands[0].numbers = numbers,
                        }
                        continue;
                    }
                    Settled::Many(numbers) => {
                        (numbers, Some(Rest::Lands(std::mem::take(&mut sum.lands))))
                    }
                },
            };
            let heap = match stack.pop() {
                Some(Frame::Sum(sum)) => sum.heap,
                _ => 0,
            };
            match stack.last_mut() {
                None => return Ok(numbers == WIN),
                Some(Frame::Couple(parent)) => {
                    let child = &mut parent.children[parent.on];
                    child.numbers = numbers;
                    if let Some(rest) = rest {
                        (child.rest, child.heap) = (rest, heap);
                    }
                }
                Some(Frame::Sum(parent)) => parent.lands[0].numbers = numbers,
            }
        }
    }

    /// The frame to search next below `frame`, whose numbers are `numbers`, if any:
    /// its most promising child.
    fn descend(
        &mut self,
        frame: &mut Couple<S::Part, S::Key>,
        numbers: Numbers,
    ) -> Result<Option<Frame<S::Part, S::Key>>> {
        let (best, second) = best_two(frame.children.iter().map(|c| c.numbers));
        let child = &mut frame.children[best];
        let within = option_within(frame.within, numbers, child.numbers, second);
        frame.on = best;
        match &mut child.rest {
            Rest::One(part, key) => {
                let (part, key) = (part.clone(), key.clone());
                match self.open(&part, key, child.heap, within)? {
                    Opened::Frame(next) => Ok(Some(Frame::Couple(next))),
                    Opened::Decided(numbers) => {
                        child.numbers = numbers;
                        Ok(None)
                    }
                }
            }
            Rest::Lands(lands) => Ok(Some(Frame::Sum(Sum {
                lands: std::mem::take(lands),
                heap: child.heap,
                within,
            }))),
        }
    }

    /// A frame for the couple, or its outcome where listing its options decides it.
    fn open(
        &mut self,
        part: &S::Part,
        key: S::Key,
        heap: u32,
        within: Within,
    ) -> Result<Opened<S::Part, S::Key>> {
        match self.expand(part, &key, heap)? {
            Expanded::Decided(numbers) => {
                self.store(&key, heap, numbers)?;
                Ok(Opened::Decided(numbers))
            }
            Expanded::Open(children) => Ok(Opened::Frame(Couple {
                key,
                heap,
                children,
                within,
                on: 0,
            })),
        }
    }
}
