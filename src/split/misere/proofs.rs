//! Misère outcomes by depth-first proof-number search over whole positions (Nagai
//! 2002; the search `dfpn` makes of couples in normal play). The sum rule fails in
//! misère play, so a node is a whole position, keyed as the plain search keys it
//! (its components' keys, sorted, pairs of * cancelled); it wins if an option loses.
//!
//! A plain search settles the options of a position in the order they come, and
//! must search every option that wins in full before it knows the position lost;
//! proof numbers go first where a proof looks cheapest, and leave an option whose
//! outcome looks costly until the others are known. Sprouts' six spots went from
//! 22 s to 0.32 s. Boards keep the plain search: their options cost little to make,
//! and nodes made again as the thresholds move made Cram 5 x 7 to 3 x 12 slower.
//!
//! What is proved goes to the table the plain search keeps (`Search::enter`); the
//! numbers of positions not yet proved to a table of the search's own, its bytes
//! counted in the search's account and dropped whole when the bound is near.
//! Iterative, polls for Ctrl-C.
use rustc_hash::FxHashMap;

use super::{Frame, MisereSplit, Search, Whole};
use crate::base::alloc;
use crate::base::error::Result;
use crate::split::budget::Spend;
use crate::split::proof::{
    best_two, of_options, option_within, Numbers, Within, LOSS, UNBOUNDED, WIN,
};

/// An option of a position being searched, and its numbers.
struct Child<P, K> {
    whole: Whole<P, K>,
    numbers: Numbers,
}

/// A position being searched, within thresholds.
struct Node<P, K> {
    key: Box<[K]>,
    alias: Option<Box<[K]>>,
    children: Vec<Child<P, K>>,
    within: Within,
    /// The child being searched, while its node is above this one.
    on: usize,
    /// The bytes its children hold, charged to the search's account.
    bytes: usize,
}

/// A position to search, or decided by its options at once.
enum Opened<P, K> {
    Node(Node<P, K>),
    Decided(bool),
}

/// The most bytes of the table of unproved positions (within the budget's bound).
const UNPROVED_BYTES: u64 = 1 << 30;

/// What an entry of the table of unproved positions costs beside its key's heap.
const ENTRY_BYTES: usize = 64;

/// The numbers of positions not yet proved, and the bytes they hold.
struct Unproved<K> {
    numbers: FxHashMap<Box<[K]>, Numbers>,
    bytes: usize,
}

impl<K: std::hash::Hash + Eq> Unproved<K> {
    /// What an entry costs, its key holding `key_heap` bytes on the heap.
    fn entry_bytes(key_heap: usize) -> usize {
        ENTRY_BYTES + key_heap
    }

    /// Forget the position `key` (proved), its bytes given back to `spend`.
    fn forget(&mut self, key: &[K], key_heap: usize, spend: &mut Spend) {
        if self.numbers.remove(key).is_some() {
            let bytes = Self::entry_bytes(key_heap);
            self.bytes -= bytes;
            spend.release(bytes);
        }
    }

    /// Forget every position: what is not proved is only a guide.
    fn clear(&mut self, spend: &mut Spend) {
        spend.release(self.bytes);
        self.numbers = FxHashMap::default();
        self.bytes = 0;
    }
}

impl<G: MisereSplit> Search<'_, G> {
    /// Whether the player to move wins `start` (`run`), by proof numbers: a position
    /// the table does not know, `alias` its second key where it has one.
    pub(super) fn prove(
        &self,
        start: Whole<G::Part, G::Key>,
        alias: Option<Box<[G::Key]>>,
        scratch: &mut G::Scratch,
        mut spend: Spend,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<bool> {
        let mut unproved = Unproved {
            numbers: FxHashMap::default(),
            bytes: 0,
        };
        let result = self.prove_from(start, alias, scratch, &mut spend, &mut unproved, report);
        spend.release(unproved.bytes);
        result
    }

    fn prove_from(
        &self,
        start: Whole<G::Part, G::Key>,
        alias: Option<Box<[G::Key]>>,
        scratch: &mut G::Scratch,
        spend: &mut Spend,
        unproved: &mut Unproved<G::Key>,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<bool> {
        let held = spend.held();
        let first = self.open(start, alias, UNBOUNDED, scratch, spend, unproved, report);
        let mut stack = match first? {
            Opened::Node(node) => vec![node],
            Opened::Decided(won) => return Ok(won),
        };
        let result = self.descend(&mut stack, scratch, spend, unproved, report);
        // Left by an error: the stack's bytes are given back.
        spend.set_held(held + unproved.bytes as u64);
        result
    }

    fn descend(
        &self,
        stack: &mut Vec<Node<G::Part, G::Key>>,
        scratch: &mut G::Scratch,
        spend: &mut Spend,
        unproved: &mut Unproved<G::Key>,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<bool> {
        loop {
            spend.tick()?;
            let node = stack.last_mut().expect("the loop holds a node");
            let numbers = of_options(node.children.iter().map(|c| c.numbers));
            if numbers.reached(node.within) {
                let node = stack.pop().expect("the loop holds a node");
                spend.release(node.bytes);
                self.keep(spend, unproved, node.key, node.alias, numbers, report)?;
                match stack.last_mut() {
                    Some(parent) => parent.children[parent.on].numbers = numbers,
                    None => return Ok(numbers == WIN),
                }
                continue;
            }
            let (best, second) = best_two(node.children.iter().map(|c| c.numbers));
            let child = &node.children[best];
            let within = option_within(node.within, numbers, child.numbers, second);
            node.on = best;
            let whole = child.whole.clone();
            // Looked up by its alias when first met (a position searched before was).
            let alias = if unproved.numbers.contains_key(&whole.key[..]) {
                None
            } else {
                self.game.alias(&whole.parts)
            };
            let aliased = alias.as_ref().and_then(|a| self.table().get(a).copied());
            let opened = match aliased {
                Some(won) => {
                    self.enter(spend, Box::from(&whole.key[..]), None, won, report)?;
                    Opened::Decided(won)
                }
                None => self.open(whole, alias, within, scratch, spend, unproved, report)?,
            };
            match opened {
                Opened::Node(next) => {
                    alloc::grow(stack)?;
                    stack.push(next);
                }
                Opened::Decided(won) => {
                    let node = stack.last_mut().expect("the loop holds a node");
                    node.children[best].numbers = if won { WIN } else { LOSS };
                }
            }
        }
    }

    /// A node for `position`, or its outcome where its options decide it at once.
    #[allow(clippy::too_many_arguments)]
    fn open(
        &self,
        position: Whole<G::Part, G::Key>,
        alias: Option<Box<[G::Key]>>,
        within: Within,
        scratch: &mut G::Scratch,
        spend: &mut Spend,
        unproved: &mut Unproved<G::Key>,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<Opened<G::Part, G::Key>> {
        let game = self.game;
        let frame = Frame::new(game, position, scratch, &mut || spend.tick())?;
        let mut options = frame.options;
        if options.is_empty() {
            // No move at all wins misère play (a position whose * cancelled in pairs).
            self.enter(spend, frame.key, alias, true, report)?;
            return Ok(Opened::Decided(true));
        }
        options.sort_unstable_by(|a, b| a.key.cmp(&b.key));
        options.dedup_by(|a, b| a.key == b.key);
        let mut children = Vec::new();
        let mut decided = None;
        {
            let known = self.table();
            for whole in options {
                if whole.key.is_empty() {
                    continue; // no move at all wins misère play
                }
                let numbers = match known.get(&whole.key[..]) {
                    Some(false) => {
                        decided = Some(true);
                        break;
                    }
                    Some(true) => continue,
                    None => unproved.numbers.get(&whole.key[..]).copied(),
                };
                let fresh = Numbers {
                    pn: 1,
                    dn: game.breadth(&whole.key).max(1),
                };
                children.push(Child {
                    whole,
                    numbers: numbers.unwrap_or(fresh),
                });
            }
        }
        let won = decided.or(children.is_empty().then_some(false));
        if let Some(won) = won {
            unproved.forget(&frame.key, game.key_heap(frame.key.len()), spend);
            self.enter(spend, frame.key, alias, won, report)?;
            return Ok(Opened::Decided(won));
        }
        // Small positions first: their proofs look cheapest.
        children.sort_by_cached_key(|c| game.key_size(&c.whole.key));
        let sets = children.iter().map(|c| c.whole.parts.len()).sum();
        let bytes = game.bytes(sets);
        if !spend.fits(bytes) {
            unproved.clear(spend); // room for the stack before the unproved
        }
        self.charge(spend, sets, frame.key.len())?;
        Ok(Opened::Node(Node {
            key: frame.key,
            alias,
            children,
            within,
            on: 0,
            bytes,
        }))
    }

    /// Keep what the search found of the position `key`: in the shared table once
    /// proved, in its own while not.
    fn keep(
        &self,
        spend: &mut Spend,
        unproved: &mut Unproved<G::Key>,
        key: Box<[G::Key]>,
        alias: Option<Box<[G::Key]>>,
        numbers: Numbers,
        report: &(dyn Fn(usize) + Sync),
    ) -> Result<()> {
        let game = self.game;
        if numbers.proved() {
            unproved.forget(&key, game.key_heap(key.len()), spend);
            return self.enter(spend, key, alias, numbers == WIN, report);
        }
        if let Some(entry) = unproved.numbers.get_mut(&key) {
            *entry = numbers;
            return Ok(());
        }
        let bytes = Unproved::<G::Key>::entry_bytes(game.key_heap(key.len()));
        let full = unproved.bytes + bytes > UNPROVED_BYTES.min(spend.bound() / 2) as usize;
        if full || !spend.fits(bytes) {
            unproved.clear(spend);
            return Ok(());
        }
        if unproved.numbers.try_reserve(1).is_err() {
            return Err(alloc::too_large::<Numbers>(unproved.numbers.len() + 1));
        }
        spend.charge(bytes)?;
        unproved.bytes += bytes;
        unproved.numbers.insert(key, numbers);
        Ok(())
    }
}
